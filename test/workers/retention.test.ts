import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { IMAGE_REBUILD_PROGRESS_ID } from '../../datasources/image-index';
import type { DocumentStore, SearchIndex } from '../../datasources/ports';
import { compileFilter, compileSort } from '../../datasources/embedded/document-store/filter-to-sql';
import { parseFilter, parseSort } from '../../datasources/embedded/document-store/query-subset';
import { COLLECTIONS, type IdempotencyReceiptDoc, type OwnerDoc, type RequestLogDoc, type WebhookDeliveryDoc } from '../../domain/records';
import { newDelivery } from '../../domain/webhook-deliveries';
import { SearchIndexer } from '../../workers/indexer';
import { seedStore } from '../../workers/ingest/seed';
import { STORE_INDEXES } from '../../resolvers/store-indexes';
import { DELETE_CHUNK, Retention, RETENTION_RULES } from '../../workers/retention';
import { requestLogAt } from '../support/request-log-row';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('workers/retention: what is kept only for a while goes (finding 11)', function () {
  this.timeout(60_000);
  let store: DocumentStore;
  let search: SearchIndex;
  let indexer: SearchIndexer;

  before(async () => {
    store = createEmbeddedDocumentStore({ path: ':memory:', feedCollections: [COLLECTIONS.owners, COLLECTIONS.trademarks] });
    search = createEmbeddedSearchIndex({ path: ':memory:' });
    indexer = new SearchIndexer(store, search);
    await indexer.ensureIndexes();
    await seedStore(store, { marks: 50, seed: 9 });
    await indexer.rebuild();
  });

  after(async () => {
    await store.close();
    await search.close();
  });

  const rename = async (owner: OwnerDoc, name: string) => store.collection<OwnerDoc>(COLLECTIONS.owners).updateOne({ _id: owner._id }, { $set: { name } });

  it('prunes feed entries the indexer has read once they are past the retention, and keeps the unread ones', async () => {
    const [owner] = await store.collection<OwnerDoc>(COLLECTIONS.owners).find({}, { limit: 1 });
    for (const name of ['A1', 'A2', 'A3']) await rename(owner as OwnerDoc, name);
    await indexer.catchUp();
    for (const name of ['B1', 'B2']) await rename(owner as OwnerDoc, name);

    const fed = (await store.readChanges(null, 10_000)).events.length;
    // Today nothing is old enough; eight days on, everything the indexer read goes (the seed's
    // writes and the three renames), the two it has not read stay.
    expect((await new Retention(store).run()).changes).to.equal(0);
    const report = await new Retention(store, () => new Date(Date.now() + 8 * DAY_MS)).run();
    expect(report.changes).to.equal(fed - 2);
    const left = await store.readChanges(null, 100, [COLLECTIONS.owners]);
    expect(left.events.map((event) => (event.document as OwnerDoc).name)).to.deep.equal(['B1', 'B2']);
    // The indexer carries on from its checkpoint and applies the two it had not read.
    expect(await indexer.catchUp()).to.equal(2);
  });

  it('keeps the entries an unfinished image-index rebuild goes on from once whole (its progress holds the feed)', async () => {
    const [owner] = await store.collection<OwnerDoc>(COLLECTIONS.owners).find({}, { limit: 1 });
    const progress = store.collection<{ _id: string; position: string | null }>(COLLECTIONS.meta);
    const position = await store.latestPosition();
    await progress.replaceOne({ _id: IMAGE_REBUILD_PROGRESS_ID, position });
    for (const name of ['C1', 'C2']) await rename(owner as OwnerDoc, name);
    await indexer.catchUp();
    await new Retention(store, () => new Date(Date.now() + 8 * DAY_MS)).run();
    const kept = await store.readChanges(position, 100, [COLLECTIONS.owners]);
    expect(kept.events.map((event) => (event.document as OwnerDoc).name)).to.deep.equal(['C1', 'C2']);
    // Once the rebuild is whole (its progress gone), what every reader has read goes (the newest entry always stays).
    await progress.deleteOne({ _id: IMAGE_REBUILD_PROGRESS_ID });
    await new Retention(store, () => new Date(Date.now() + 8 * DAY_MS)).run();
    const left = await store.readChanges(null, 100, [COLLECTIONS.owners]);
    expect(left.events.map((event) => (event.document as OwnerDoc).name)).to.deep.equal(['C2']);
  });

  it('deletes idempotency receipts past their 24 hours', async () => {
    const receipts = store.collection<IdempotencyReceiptDoc>(COLLECTIONS.idempotencyReceipts);
    const receipt = (id: string, expiresInMs: number): IdempotencyReceiptDoc => ({
      _id: id,
      fingerprint: 'f',
      response: 'sealed',
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    });
    await receipts.insertMany([receipt('idem:o:old', -1_000), receipt('idem:o:fresh', DAY_MS)]);
    expect((await new Retention(store).run()).idempotencyReceipts).to.equal(1);
    expect((await receipts.find({})).map((doc) => doc._id)).to.deep.equal(['idem:o:fresh']);
  });

  it('deletes webhook delivery rows older than 30 days, whatever their status', async () => {
    const deliveries = store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries);
    const row = (eventId: string, ageDays: number): WebhookDeliveryDoc =>
      newDelivery(
        { _id: 'whk_retention', organization_id: 'org_retention' },
        { eventId, eventType: 'alert.created', alertId: null, body: '{}' },
        { attempt: 1, maxAttempts: 8, now: new Date(Date.now() - ageDays * DAY_MS) },
      );
    await deliveries.insertMany([row('evt_31_days', 31), { ...row('evt_40_days', 40), status: 'delivered' }, row('evt_29_days', 29)]);
    expect((await new Retention(store).run()).webhookDeliveries).to.equal(2);
    expect((await deliveries.find({ endpoint_id: 'whk_retention' })).map((doc) => doc.event_id)).to.deep.equal(['evt_29_days']);
  });

  it('deletes request logs past their 122 days, over several chunks with turns of the event loop between them, and keeps the younger ones', async () => {
    const logs = store.collection<RequestLogDoc>(COLLECTIONS.requestLogs);
    const log = (id: string, ageDays: number) => requestLogAt(id, 'org_retention', new Date(Date.now() - ageDays * DAY_MS));
    // Two and a half chunks past the retention (123 to 125 days old), two inside it (121 days, 1 day).
    const old = Array.from({ length: DELETE_CHUNK * 2.5 }, (_, i) => log(`req_old_${String(i).padStart(5, '0')}`, 123 + (i % 3)));
    await logs.insertMany([...old, log('req_young_121', 121), log('req_young_1', 1)]);
    let passDone = false;
    let ranDuringPass = false;
    const pass = new Retention(store).run().then((report) => {
      passDone = true;
      return report;
    });
    // The process's requests get turns of the event loop between chunks.
    setImmediate(() => (ranDuringPass = !passDone));
    expect((await pass).requestLogs).to.equal(DELETE_CHUNK * 2.5);
    expect(ranDuringPass).to.equal(true);
    expect((await logs.find({ organization_id: 'org_retention' })).map((doc) => doc._id)).to.have.members(['req_young_121', 'req_young_1']);
  });
});

describe('workers/retention: each rule reads only the rows it deletes', function () {
  let dir: string;

  before(() => (dir = mkdtempSync(join(tmpdir(), 'marque-retention-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  // A pass ran once at start and hourly; without an index of its date it read every row of the
  // collection (1.5 M request logs took 1.5 s, holding the write lock).
  for (const rule of RETENTION_RULES) {
    it(`finds ${rule.collection} past their age through an index of ${rule.path}`, async () => {
      const file = join(dir, `${rule.collection}.sqlite`);
      const store = createEmbeddedDocumentStore({ path: file });
      await store.ensureIndexes(STORE_INDEXES);
      await store.collection(rule.collection).insertOne({ _id: 'probe' });
      await store.close();
      const where = compileFilter(parseFilter({ [rule.path]: { $lt: rule.cutoff(new Date()) } }), () => false);
      const order = compileSort(parseSort({ [rule.path]: 1 }), () => false);
      const db = new Database(file, { readonly: true });
      try {
        const sql = `EXPLAIN QUERY PLAN SELECT doc FROM "${rule.collection}" WHERE ${where.sql} ORDER BY ${order} LIMIT ${DELETE_CHUNK}`;
        const plan = (db.prepare(sql).all(...where.params) as Array<{ detail: string }>).map((step) => step.detail).join('\n');
        expect(plan).to.match(/SEARCH .* USING INDEX/);
        expect(plan).not.to.match(new RegExp(`SCAN ${rule.collection}\\b`));
      } finally {
        db.close();
      }
    });
  }
});
