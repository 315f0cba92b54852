import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import { createEmbeddedSearchIndex } from '../../../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../../../datasources/index-definitions';

/** Names of the indexes SQLite holds for a table, read through an independent connection. */
function indexNames(path: string, table: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name").pluck().all(table) as string[];
  } finally {
    db.close();
  }
}

describe('embedded adapters in bulk-load mode', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'marque-bulk-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  describe('SearchIndex', () => {
    it('drops the B-tree indexes of an empty index while loading and builds them before the first query', async () => {
      const path = join(directory, 'search.db');
      const normal = createEmbeddedSearchIndex({ path });
      await normal.ensureIndex(TRADEMARK_INDEX);
      await normal.close();
      const declared = indexNames(path, 'si_trademarks');
      expect(declared).to.include('si_trademarks_office_code');

      const bulk = createEmbeddedSearchIndex({ path, bulkLoad: true });
      await bulk.ensureIndex(TRADEMARK_INDEX);
      expect(indexNames(path, 'si_trademarks')).to.deep.equal([]);
      await bulk.upsert('trademarks', [
        { id: 'tm_1', mark_text: 'Acme Rockets', office_code: 'US', nice_classes: [9, 12], filing_date: '2020-01-01' },
        { id: 'tm_2', mark_text: 'Acme Anvils', office_code: 'EM', nice_classes: [9], filing_date: '2021-01-01' },
        { id: 'tm_3', mark_text: 'Zenith', office_code: 'US', nice_classes: [12], filing_date: '2019-01-01' },
      ]);
      const hits = await bulk.search({
        index: 'trademarks',
        text: 'acme',
        filters: [{ field: 'nice_classes', op: 'eq', value: 9 }],
        sort: [{ field: 'filing_date', direction: 'desc' }],
        limit: 10,
      });
      expect(hits.hits.map((hit) => hit.id)).to.deep.equal(['tm_2', 'tm_1']);
      expect(indexNames(path, 'si_trademarks')).to.deep.equal(declared);
      await bulk.close();
    });

    it('builds deferred indexes at close when nothing queried, and restores the FTS buffer size', async () => {
      const path = join(directory, 'search.db');
      const bulk = createEmbeddedSearchIndex({ path, bulkLoad: true });
      await bulk.ensureIndex(TRADEMARK_INDEX);
      await bulk.upsert('trademarks', [{ id: 'tm_1', mark_text: 'Acme', office_code: 'US' }]);
      await bulk.close();
      expect(indexNames(path, 'si_trademarks')).to.include('si_trademarks_office_code');
      expect(indexNames(path, 'si_trademarks__nice_classes')).to.deep.equal(['si_trademarks__nice_classes_value']);
      const db = new Database(path, { readonly: true });
      // SQLite's FTS5 default is 1 MiB; the bulk load raised it only while loading.
      expect(db.prepare("SELECT v FROM si_trademarks__substr_config WHERE k = 'hashsize'").pluck().get()).to.equal(1024 * 1024);
      db.close();
    });

    it('leaves an index that already holds documents as it is', async () => {
      const path = join(directory, 'search.db');
      const normal = createEmbeddedSearchIndex({ path });
      await normal.ensureIndex(TRADEMARK_INDEX);
      await normal.upsert('trademarks', [{ id: 'tm_1', mark_text: 'Acme', office_code: 'US' }]);
      await normal.close();
      const bulk = createEmbeddedSearchIndex({ path, bulkLoad: true });
      await bulk.ensureIndex(TRADEMARK_INDEX);
      expect(indexNames(path, 'si_trademarks')).to.include('si_trademarks_office_code');
      await bulk.close();
    });

    it('recreates indexes an interrupted bulk load left out when the index is next ensured', async () => {
      const path = join(directory, 'search.db');
      const bulk = createEmbeddedSearchIndex({ path, bulkLoad: true });
      await bulk.ensureIndex(TRADEMARK_INDEX);
      // Simulates a crash: the bulk connection never closes.
      const normal = createEmbeddedSearchIndex({ path });
      await normal.ensureIndex(TRADEMARK_INDEX);
      expect(indexNames(path, 'si_trademarks')).to.include('si_trademarks_office_code');
      await normal.close();
      await bulk.close();
    });
  });

  describe('DocumentStore', () => {
    it('rebuilds the secondary indexes of collections it found empty at close, and writes no feed when told so', async () => {
      const path = join(directory, 'store.db');
      const normal = createEmbeddedDocumentStore({ path });
      await normal.ensureIndexes([{ collection: 'events', paths: ['trademark_id'] }]);
      const declared = indexNames(path, 'events');
      expect(declared).to.have.length(1);

      const bulk = createEmbeddedDocumentStore({ path, feedCollections: [], bulkLoad: true });
      await bulk.collection<{ _id: string; trademark_id: string }>('events').insertMany([
        { _id: 'e1', trademark_id: 'tm_1' },
        { _id: 'e2', trademark_id: 'tm_2' },
      ]);
      expect(indexNames(path, 'events')).to.deep.equal([]);
      await bulk.close();

      expect(indexNames(path, 'events')).to.deep.equal(declared);
      expect(await normal.collection('events').countDocuments({ trademark_id: 'tm_2' })).to.equal(1);
      expect(await normal.latestPosition()).to.equal(null);
      await normal.close();
    });
  });
});
