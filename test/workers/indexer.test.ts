import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { DocumentStore, SearchIndex } from '../../datasources/ports';
import { COLLECTIONS, type OwnerDoc, type TrademarkDoc } from '../../domain/records';
import { SearchIndexer } from '../../workers/indexer';
import { seedStore } from '../../workers/ingest/seed';

describe('workers/indexer: the search index follows the store', function () {
  this.timeout(60_000);
  let store: DocumentStore;
  let search: SearchIndex;
  let indexer: SearchIndexer;

  const idsFor = async (filters: Parameters<SearchIndex['search']>[0]['filters'], text?: string) =>
    (await search.search({ index: 'trademarks', filters, sort: [], limit: 100, text })).hits.map((h) => h.id);

  before(async () => {
    store = createEmbeddedDocumentStore({ path: ':memory:' });
    search = createEmbeddedSearchIndex({ path: ':memory:' });
    indexer = new SearchIndexer(store, search, (error) => {
      throw error;
    });
    await indexer.ensureIndexes();
    await seedStore(store, { marks: 200, seed: 3 });
    await indexer.rebuild();
  });

  after(async () => {
    await store.close();
    await search.close();
  });

  it('indexes every mark on rebuild', async () => {
    const count = await store.collection(COLLECTIONS.trademarks).countDocuments({});
    const result = await search.search({ index: 'trademarks', filters: [], sort: [], limit: 1, countUpTo: 10_000 });
    expect(result.total?.value).to.equal(count);
  });

  it('applies a changed mark, a new mark and a deleted mark from the change feed', async () => {
    const marks = store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const [first, second] = await marks.find({}, { limit: 2 });
    await marks.updateOne({ _id: (first as TrademarkDoc)._id }, { $set: { office_code: 'ZZ' } });
    await marks.insertOne({ ...(second as TrademarkDoc), _id: 'tm_indexertest00000000000', office_code: 'ZZ' });
    await marks.deleteOne({ _id: (second as TrademarkDoc)._id });
    expect(await indexer.catchUp()).to.equal(3);
    expect((await idsFor([{ field: 'office_code', op: 'eq', value: 'ZZ' }])).sort()).to.deep.equal(
      [(first as TrademarkDoc)._id, 'tm_indexertest00000000000'].sort(),
    );
    expect(await idsFor([{ field: 'office_code', op: 'in', values: [(second as TrademarkDoc).office_code] }])).not.to.include((second as TrademarkDoc)._id);
  });

  it("re-indexes an owner's marks when the owner is renamed", async () => {
    const mark = (await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({ proceeding_count: { $gte: 0 } })) as TrademarkDoc;
    const ownerId = mark.owner_ids[0] as string;
    await store.collection<OwnerDoc>(COLLECTIONS.owners).updateOne({ _id: ownerId }, { $set: { name: 'Zyxwvut Holdings' } });
    await indexer.catchUp();
    const hits = await idsFor([{ field: 'owner_names', op: 'match', text: 'Zyxwvut' }]);
    expect(hits).to.include(mark._id);
    expect(hits.length).to.equal(await store.collection(COLLECTIONS.trademarks).countDocuments({ owner_ids: ownerId }));
  });

  it('moves past changes of collections no index watches, without re-reading them', async () => {
    await store.collection('unwatched_notes').insertOne({ _id: 'n1' });
    await store.collection('unwatched_notes').insertOne({ _id: 'n2' });
    const before = await store.latestPosition();
    expect(await indexer.catchUp()).to.equal(0);
    expect(await store.latestPosition(), 'reading other collections writes nothing').to.equal(before);
    expect(await indexer.catchUp(), 'and they are not read again').to.equal(0);
    const mark = (await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({})) as TrademarkDoc;
    await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).updateOne({ _id: mark._id }, { $set: { office_code: 'QQ' } });
    expect(await indexer.catchUp()).to.equal(1);
    expect(await idsFor([{ field: 'office_code', op: 'eq', value: 'QQ' }])).to.deep.equal([mark._id]);
  });
  it('reads a batch the index failed to take again: the change is indexed by the retry, not skipped past', async () => {
    let locked = false;
    // The search index as a locked search.sqlite leaves it: every write fails until released.
    const flaky = new Proxy(search, {
      get(target, prop, receiver) {
        if (prop === 'upsert' && locked) return async () => Promise.reject(new Error('database is locked'));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const flakyIndexer = new SearchIndexer(store, flaky, (error) => {
      throw error;
    });
    await flakyIndexer.catchUp();
    const marks = store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const [during, after] = (await marks.find({}, { limit: 2, sort: { _id: -1 } })) as [TrademarkDoc, TrademarkDoc];
    locked = true;
    await marks.updateOne({ _id: during._id }, { $set: { office_code: 'LK' } });
    let failure: unknown = null;
    await flakyIndexer.catchUp().catch((error: unknown) => (failure = error));
    expect(String(failure)).to.contain('database is locked');
    locked = false;
    await marks.updateOne({ _id: after._id }, { $set: { office_code: 'LM' } });
    expect(await flakyIndexer.catchUp()).to.equal(2);
    expect(await idsFor([{ field: 'office_code', op: 'eq', value: 'LK' }])).to.deep.equal([during._id]);
    expect(await idsFor([{ field: 'office_code', op: 'eq', value: 'LM' }])).to.deep.equal([after._id]);
  });

  it('refills at the next start an index whose refill a stopped process left unfinished', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marque-indexer-'));
    const path = join(dir, 'search.sqlite');
    try {
      // A start that recreated the index (an older definition was stored) and was killed before refilling it.
      const killed = createEmbeddedSearchIndex({ path });
      await killed.ensureIndex({ ...TRADEMARK_INDEX, revision: (TRADEMARK_INDEX.revision ?? 0) - 1 });
      await killed.markFilled(TRADEMARK_INDEX.name);
      expect((await killed.ensureIndex(TRADEMARK_INDEX)).needsRefill).to.equal(true);
      await killed.close();
      const next = createEmbeddedSearchIndex({ path });
      await new SearchIndexer(store, next, (error) => {
        throw error;
      }).ensureIndexes();
      const count = await store.collection(COLLECTIONS.trademarks).countDocuments({});
      const result = await next.search({ index: 'trademarks', filters: [], sort: [], limit: 1, countUpTo: 10_000 });
      expect(result.total?.value).to.equal(count);
      await next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refills an index that an upgraded definition made the search index recreate empty, keeping the feed checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marque-indexer-'));
    const upgraded = createEmbeddedSearchIndex({ path: join(dir, 'search.sqlite') });
    try {
      const oldTrademarks = { ...TRADEMARK_INDEX, fields: { ...TRADEMARK_INDEX.fields, retired_field: { kind: 'keyword' as const } } };
      await upgraded.ensureIndex(oldTrademarks);
      const restarted = new SearchIndexer(store, upgraded, (error) => {
        throw error;
      });
      await restarted.ensureIndexes();
      const count = await store.collection(COLLECTIONS.trademarks).countDocuments({});
      const result = await upgraded.search({ index: 'trademarks', filters: [], sort: [], limit: 1, countUpTo: 10_000 });
      expect(result.total?.value).to.equal(count);
      expect((await upgraded.ensureIndex(TRADEMARK_INDEX)).needsRefill).to.equal(false);
    } finally {
      await upgraded.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
