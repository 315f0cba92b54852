import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { describeDocumentStoreContract } from '../document-store.contract';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import type { EmbeddedDocumentStoreOptions } from '../../../datasources/embedded/document-store';
import { PRUNE_CHUNK } from '../../../datasources/embedded/document-store/change-feed';
import { compileFilter } from '../../../datasources/embedded/document-store/filter-to-sql';
import { parseFilter } from '../../../datasources/embedded/document-store/query-subset';
import { UnsupportedQueryError } from '../../../datasources/ports';
import type { DocumentStore, StoredDocument } from '../../../datasources/ports';
import { expectOpenedTogetherInWal } from '../../support/open-together';

interface Doc extends StoredDocument {
  [field: string]: unknown;
}

let directory: string | undefined;

describeDocumentStoreContract(
  'embedded (temporary file)',
  async () => {
    directory = mkdtempSync(join(tmpdir(), 'marque-docstore-'));
    return createEmbeddedDocumentStore({ path: join(directory, 'documents.sqlite') });
  },
  async () => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  },
);

describeDocumentStoreContract('embedded (:memory:)', async () => createEmbeddedDocumentStore({ path: ':memory:' }));

describe('embedded DocumentStore', function () {
  let workDirectory: string;
  let file: string;
  const opened: DocumentStore[] = [];
  const open = (options: Partial<EmbeddedDocumentStoreOptions> = {}): DocumentStore => {
    const store = createEmbeddedDocumentStore({ path: file, ...options });
    opened.push(store);
    return store;
  };

  beforeEach(function () {
    workDirectory = mkdtempSync(join(tmpdir(), 'marque-docstore-'));
    file = join(workDirectory, 'documents.sqlite');
  });

  afterEach(async function () {
    for (const store of opened.splice(0)) await store.close();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  it('opens a new file from several processes at the same moment, in WAL mode, none failing', async function () {
    this.timeout(60_000);
    // `serve` and `marque worker` started together on a new data directory.
    await expectOpenedTogetherInWal('document-store', workDirectory);
  });

  it('moves a change token when another store on the same file writes, and not for other collections of this one', async function () {
    const server = open();
    const cli = open();
    const before = await server.changeToken('api_keys');
    await server.collection<Doc>('request_logs').insertOne({ _id: 'req_1' });
    expect(await server.changeToken('api_keys')).to.equal(before);
    await cli.collection<Doc>('api_keys').insertOne({ _id: 'key_1' });
    expect(await server.changeToken('api_keys')).not.to.equal(before);
  });

  it('lets two stores on the same file see each other’s documents and changes', async function () {
    const server = open();
    const cli = open();
    await cli.collection<Doc>('marks').insertOne({ _id: 'tm_1', tags: 'solo' });
    expect(await server.collection<Doc>('marks').findOne({ _id: 'tm_1' })).to.deep.equal({ _id: 'tm_1', tags: 'solo' });
    const batch = await server.readChanges(null, 10);
    expect(batch.events.map((event) => [event.operation, event.documentId])).to.deep.equal([['insert', 'tm_1']]);
  });

  it('applies array semantics to a path another process first stored an array under', async function () {
    const server = open();
    const cli = open();
    await server.collection<Doc>('marks').insertOne({ _id: 'tm_1', tags: 'solo' });
    expect(await server.collection<Doc>('marks').countDocuments({ tags: 'pair' })).to.equal(0);
    await cli.collection<Doc>('marks').insertOne({ _id: 'tm_2', tags: ['pair', 'duo'] });
    expect((await server.collection<Doc>('marks').find({ tags: 'pair' })).map((doc) => doc._id)).to.deep.equal(['tm_2']);
  });

  it('wakes a waiter on a write made by another store on the same file (by polling)', async function () {
    const server = open();
    const cli = open();
    const start = await server.latestPosition();
    const waiting = server.waitForChanges(start, 10_000);
    const wrote = Date.now();
    await cli.collection<Doc>('marks').insertOne({ _id: 'tm_1' });
    await waiting;
    expect(Date.now() - wrote).to.be.below(1500);
  });

  it('writes change rows only for feedCollections when given', async function () {
    const store = open({ feedCollections: ['marks'] });
    await store.collection<Doc>('request_log').insertOne({ _id: 'req_1' });
    expect(await store.latestPosition()).to.equal(null);
    const began = Date.now();
    const waiting = store.waitForChanges(null, 80);
    await store.collection<Doc>('request_log').insertOne({ _id: 'req_2' });
    await waiting;
    expect(Date.now() - began).to.be.at.least(60);
    await store.collection<Doc>('marks').insertOne({ _id: 'tm_1' });
    expect((await store.readChanges(null, 10)).events.map((event) => event.documentId)).to.deep.equal(['tm_1']);
  });

  it('keeps each change row reading as the document right after its change when a store that feeds nothing overwrites it', async function () {
    const feeding = open({ feedCollections: ['marks'] });
    const silent = open({ feedCollections: [] });
    await feeding.collection<Doc>('marks').insertOne({ _id: 'tm_1', v: 1 });
    await feeding.collection<Doc>('marks').replaceOne({ _id: 'tm_1', v: 2 });
    await silent.collection<Doc>('marks').updateOne({ _id: 'tm_1' }, { $set: { v: 3 } });
    await feeding.collection<Doc>('marks').insertOne({ _id: 'tm_2', v: 1 });
    await silent.collection<Doc>('marks').deleteOne({ _id: 'tm_2' });
    const events = (await feeding.readChanges(null, 10)).events;
    expect(events.map((event) => [event.operation, event.documentId, event.document])).to.deep.equal([
      ['insert', 'tm_1', { _id: 'tm_1', v: 1 }],
      ['replace', 'tm_1', { _id: 'tm_1', v: 2 }],
      ['insert', 'tm_2', { _id: 'tm_2', v: 1 }],
    ]);
  });

  it('reads change rows written with their document copied (data directories from before change rows referred to documents)', async function () {
    const store = createEmbeddedDocumentStore({ path: file });
    await store.collection<Doc>('marks').insertOne({ _id: 'tm_1', v: 2 });
    await store.close();
    // The older format: every row carried its document, whatever the table holds now.
    const db = new Database(file);
    db.prepare(`UPDATE _changes SET document = '{"_id":"tm_1","v":1}'`).run();
    db.close();
    const reopened = open();
    expect((await reopened.readChanges(null, 10)).events.map((event) => event.document)).to.deep.equal([{ _id: 'tm_1', v: 1 }]);
    await reopened.collection<Doc>('marks').replaceOne({ _id: 'tm_1', v: 3 });
    expect((await reopened.readChanges(null, 10)).events.map((event) => event.document)).to.deep.equal([
      { _id: 'tm_1', v: 1 },
      { _id: 'tm_1', v: 3 },
    ]);
  });

  it('reads changes from the beginning of the file with a null position', async function () {
    const store = open();
    await store.collection<Doc>('marks').insertMany([{ _id: 'tm_1' }, { _id: 'tm_2' }]);
    const batch = await store.readChanges(null, 10);
    expect(batch.events.map((event) => event.position)).to.deep.equal(['1', '2']);
    expect(await store.latestPosition()).to.equal('2');
  });

  it('inserts a batch all or nothing', async function () {
    const store = open();
    const marks = store.collection<Doc>('marks');
    await marks.insertOne({ _id: 'tm_2' });
    let failed = false;
    await marks.insertMany([{ _id: 'tm_1' }, { _id: 'tm_2' }, { _id: 'tm_3' }]).catch(() => (failed = true));
    expect(failed).to.equal(true);
    expect(await marks.countDocuments({})).to.equal(1);
    expect((await store.readChanges(null, 10)).events).to.have.length(1);
  });

  it('joins a nested transaction to the outer one', async function () {
    const store = open();
    const marks = store.collection<Doc>('marks');
    await store
      .transaction(async () => {
        await marks.insertOne({ _id: 'tm_1' });
        await store.transaction(() => marks.insertOne({ _id: 'tm_2' }));
        throw new Error('abort');
      })
      .catch(() => undefined);
    expect(await marks.countDocuments({})).to.equal(0);
  });

  it('serves a scalar-path filter from the expression index ensureIndexes creates', async function () {
    const store = open();
    await store.ensureIndexes([{ collection: 'marks', paths: ['status.primary', 'filing_date'] }]);
    const { sql, params } = compileFilter(parseFilter({ 'status.primary': { $in: ['active', 'pending'] }, filing_date: { $gte: '2020-01-01' } }), () => false);
    const inspector = new Database(file, { readonly: true });
    try {
      const plan = inspector.prepare(`EXPLAIN QUERY PLAN SELECT doc FROM marks WHERE ${sql}`).all(...params) as Array<{ detail: string }>;
      expect(plan.map((step) => step.detail).join('\n')).to.contain('USING INDEX marks__status_primary__filing_date');
    } finally {
      inspector.close();
    }
  });

  // The gate tracks the transaction's async context only while one is open (transaction-gate.ts):
  // each later transaction must find its own work inside and everything else outside again.
  it('keeps every transaction, not only the first, apart from work outside it', async function () {
    const store = open();
    const marks = store.collection<Doc>('marks');
    for (const round of [1, 2, 3]) {
      let startOutsideRead: () => void = () => undefined;
      const outsideRead = new Promise<void>((resolve) => (startOutsideRead = resolve)).then(() => marks.findOne({ _id: `tm_${round}` }));
      await store
        .transaction(async () => {
          await marks.insertOne({ _id: `tm_${round}` });
          // A nested transaction joins this one: it sees the insert, and goes with it.
          await store.transaction(async () => expect(await marks.findOne({ _id: `tm_${round}` })).to.deep.equal({ _id: `tm_${round}` }));
          startOutsideRead();
          await new Promise((resolve) => setTimeout(resolve, 20));
          throw new Error('abort');
        })
        .catch(() => undefined);
      expect(await outsideRead).to.equal(null);
      await store.transaction(() => marks.insertOne({ _id: `kept_${round}` }));
    }
    expect((await marks.find({})).map((doc) => doc._id)).to.deep.equal(['kept_1', 'kept_2', 'kept_3']);
  });

  it('prunes a feed longer than a chunk whole, letting the event loop run between chunks', async function () {
    this.timeout(60_000);
    const store = open();
    const marks = store.collection<Doc>('marks');
    const total = PRUNE_CHUNK * 2 + 3;
    await store.transaction(() => marks.insertMany(Array.from({ length: total }, (_, i) => ({ _id: `tm_${i}` }))));
    const latest = (await store.latestPosition()) as string;
    let pruneDone = false;
    let ranDuringPrune = false;
    const pruning = store.pruneChanges([latest], new Date(Date.now() + 60_000).toISOString()).then((deleted) => {
      pruneDone = true;
      return deleted;
    });
    setImmediate(() => (ranDuringPrune = !pruneDone));
    // Every entry but the newest, which stays so that positions keep their meaning.
    expect(await pruning).to.equal(total - 1);
    expect(ranDuringPrune).to.equal(true);
    const left = await store.readChanges(null, 10);
    expect(left.events.map((event) => event.documentId)).to.deep.equal([`tm_${total - 1}`]);
  });

  it('releases waiters when the store closes', async function () {
    const store = createEmbeddedDocumentStore({ path: file });
    const waiting = store.waitForChanges(null, 10_000);
    await store.close();
    await waiting;
  });

  it('rejects collection names that are not plain identifiers, and malformed positions', async function () {
    const store = open();
    expect(() => store.collection('drop table')).to.throw(UnsupportedQueryError);
    expect(() => store.collection('_changes')).to.throw(UnsupportedQueryError);
    let failed = false;
    await store.readChanges('not-a-position', 10).catch(() => (failed = true));
    expect(failed).to.equal(true);
  });
});
