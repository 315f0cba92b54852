/**
 * The embedded store's document cache (datasources/embedded/document-store/document-cache.ts): a
 * kept document is never read after its row changed, whoever changed it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { describeDocumentStoreContract } from '../document-store.contract';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import { EVICTION_RING } from '../../../datasources/embedded/document-store/document-cache';
import { UnsupportedQueryError } from '../../../datasources/ports';
import type { DocumentStore, StoredDocument } from '../../../datasources/ports';

interface Mark extends StoredDocument {
  name: string;
}

const CONTRACT_COLLECTIONS = ['items', 'log', 'one', 'paged', 'pruned', 'two', 'tx', 'uniques', 'wake'];
let contractDirectory: string | undefined;

describeDocumentStoreContract(
  'embedded, every collection cached',
  async () => {
    contractDirectory = mkdtempSync(join(tmpdir(), 'marque-cache-contract-'));
    return createEmbeddedDocumentStore({ path: join(contractDirectory, 'documents.sqlite'), cache: { collections: CONTRACT_COLLECTIONS, entries: 1000 } });
  },
  async () => {
    if (contractDirectory) rmSync(contractDirectory, { recursive: true, force: true });
  },
);

describe('embedded DocumentStore: the document cache', function () {
  let directory: string;
  let file: string;
  const opened: DocumentStore[] = [];
  /** A store with a cache of `marks` (and a process's own connection, as each HTTP worker has). */
  const open = (entries = 100): DocumentStore => {
    const store = createEmbeddedDocumentStore({ path: file, cache: { collections: ['marks'], entries } });
    opened.push(store);
    return store;
  };
  const marksOf = (store: DocumentStore) => store.collection<Mark>('marks');
  const nameOf = async (store: DocumentStore, id: string): Promise<string | undefined> => (await marksOf(store).findByIds([id]))[0]?.name;
  /** Reads `ids` until the cache keeps them (from the second read), and checks it does. */
  const keepAll = async (store: DocumentStore, ids: readonly string[]): Promise<void> => {
    await marksOf(store).findByIds(ids);
    const second = await marksOf(store).findByIds(ids);
    const third = await marksOf(store).findByIds(ids);
    expect(third).to.have.length(ids.length);
    // Strict equality: the very objects of the second read.
    for (const doc of third) expect(second).to.include(doc);
  };

  /** A serving store that keeps m1 (NOVALUX) and m2 (ORBITA), and another connection to the same file. */
  const twoKeptMarks = async (): Promise<{ server: DocumentStore; other: DocumentStore }> => {
    const server = open();
    const other = open();
    await marksOf(other).insertMany([
      { _id: 'm1', name: 'NOVALUX' },
      { _id: 'm2', name: 'ORBITA' },
    ]);
    await keepAll(server, ['m1', 'm2']);
    return { server, other };
  };

  beforeEach(function () {
    directory = mkdtempSync(join(tmpdir(), 'marque-cache-'));
    file = join(directory, 'documents.sqlite');
  });

  afterEach(async function () {
    for (const store of opened.splice(0)) await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps a document from its second read: the next read returns the same object; every one is frozen', async function () {
    const store = open();
    await marksOf(store).insertOne({ _id: 'm1', name: 'NOVALUX' });
    const [first] = await marksOf(store).findByIds(['m1']);
    const [second] = await marksOf(store).findByIds(['m1']);
    const [third] = await marksOf(store).findByIds(['m1', 'm1']);
    expect(second).to.deep.equal(first);
    expect(second).not.to.equal(first);
    expect(third).to.equal(second);
    for (const read of [first, second]) {
      expect(() => {
        (read as Mark).name = 'CHANGED';
      }).to.throw(TypeError);
    }
    // A collection not named is read from the file each time.
    await store.collection<Mark>('other').insertOne({ _id: 'o1', name: 'A' });
    const [a] = await store.collection<Mark>('other').findByIds(['o1']);
    const [b] = await store.collection<Mark>('other').findByIds(['o1']);
    expect(a).to.deep.equal(b);
    expect(a).not.to.equal(b);
  });

  it("reads this store's own update and delete at once", async function () {
    const store = open();
    await marksOf(store).insertMany([
      { _id: 'm1', name: 'NOVALUX' },
      { _id: 'm2', name: 'ORBITA' },
    ]);
    await keepAll(store, ['m1', 'm2']);
    await marksOf(store).updateOne({ _id: 'm1' }, { $set: { name: 'NOVALUX II' } });
    await marksOf(store).replaceOne({ _id: 'm2', name: 'ORBITA NEW' });
    expect(await nameOf(store, 'm1')).to.equal('NOVALUX II');
    expect(await nameOf(store, 'm2')).to.equal('ORBITA NEW');
    await marksOf(store).deleteOne({ _id: 'm1' });
    expect(await nameOf(store, 'm1')).to.equal(undefined);
  });

  it("reads another connection's update and delete from the next turn of the event loop", async function () {
    const { server, other } = await twoKeptMarks();
    await marksOf(other).updateOne({ _id: 'm1' }, { $set: { name: 'NOVALUX II' } });
    await marksOf(other).deleteOne({ _id: 'm2' });
    await nextTurn();
    expect(await nameOf(server, 'm1')).to.equal('NOVALUX II');
    expect(await nameOf(server, 'm2')).to.equal(undefined);
  });

  it('reads a change written by plain SQL, without any of our code (the triggers are in the file)', async function () {
    const { server } = await twoKeptMarks();
    const raw = new Database(file);
    try {
      raw.prepare('UPDATE marks SET doc = ? WHERE _id = ?').run(JSON.stringify({ _id: 'm1', name: 'FIXED BY HAND' }), 'm1');
      raw.prepare('DELETE FROM marks WHERE _id = ?').run('m2');
    } finally {
      raw.close();
    }
    await nextTurn();
    expect(await nameOf(server, 'm1')).to.equal('FIXED BY HAND');
    expect(await nameOf(server, 'm2')).to.equal(undefined);
  });

  it('keeps no missing ID: a mark inserted after a read that missed it is found', async function () {
    const server = open();
    const other = open();
    expect(await nameOf(server, 'm1')).to.equal(undefined);
    expect(await nameOf(server, 'm1')).to.equal(undefined);
    await marksOf(other).insertOne({ _id: 'm1', name: 'NOVALUX' });
    await nextTurn();
    expect(await nameOf(server, 'm1')).to.equal('NOVALUX');
  });

  it('keeps nothing a transaction read: after a rollback the committed document is read', async function () {
    const store = open();
    await marksOf(store).insertOne({ _id: 'm1', name: 'NOVALUX' });
    await keepAll(store, ['m1']);
    const failure = new Error('rolled back on purpose');
    let caught: unknown;
    try {
      await store.transaction(async () => {
        await marksOf(store).updateOne({ _id: 'm1' }, { $set: { name: 'UNCOMMITTED' } });
        // Twice: a document read twice outside a transaction would be kept.
        expect(await nameOf(store, 'm1')).to.equal('UNCOMMITTED');
        expect(await nameOf(store, 'm1')).to.equal('UNCOMMITTED');
        throw failure;
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.equal(failure);
    expect(await nameOf(store, 'm1')).to.equal('NOVALUX');
  });

  it('empties itself when evictions it had not read were dropped from the ring', async function () {
    const { server, other } = await twoKeptMarks();
    await marksOf(other).updateOne({ _id: 'm1' }, { $set: { name: 'NOVALUX II' } });
    await marksOf(other).updateOne({ _id: 'm2' }, { $set: { name: 'ORBITA II' } });
    // As if more than a ring of writes had passed: the row of m1's update is gone.
    const raw = new Database(file);
    try {
      raw.prepare('DELETE FROM _evictions WHERE id = (SELECT MIN(id) FROM _evictions)').run();
    } finally {
      raw.close();
    }
    await nextTurn();
    expect(await nameOf(server, 'm1')).to.equal('NOVALUX II');
    expect(await nameOf(server, 'm2')).to.equal('ORBITA II');
  });

  it(`keeps the eviction table to a ring of ${EVICTION_RING.toLocaleString('en-US')} rows`, async function () {
    this.timeout(60_000);
    const store = open();
    await marksOf(store).insertOne({ _id: 'm1', name: 'N0' });
    await keepAll(store, ['m1']);
    const updates = EVICTION_RING + 10;
    const raw = new Database(file);
    try {
      const update = raw.prepare('UPDATE marks SET doc = ? WHERE _id = ?');
      raw.transaction(() => {
        for (let i = 1; i <= updates; i++) update.run(JSON.stringify({ _id: 'm1', name: `N${i}` }), 'm1');
      })();
      const { rows, first, last } = raw.prepare('SELECT COUNT(*) AS rows, MIN(id) AS first, MAX(id) AS last FROM _evictions').get() as Record<string, number>;
      expect({ rows, first, last }).to.deep.equal({ rows: EVICTION_RING, first: 11, last: updates });
    } finally {
      raw.close();
    }
    await nextTurn();
    expect(await nameOf(store, 'm1')).to.equal(`N${updates}`);
  });

  it('refuses a cached collection whose name would not be a plain SQL name', function () {
    expect(() => createEmbeddedDocumentStore({ path: file, cache: { collections: ["marks'; DROP TABLE marks; --"], entries: 10 } })).to.throw(
      UnsupportedQueryError,
      'Invalid collection name',
    );
  });

  it('drops the least recently read document first when full', async function () {
    const store = open(2);
    await marksOf(store).insertMany(['a', 'b', 'c'].map((id) => ({ _id: id, name: id.toUpperCase() })));
    await keepAll(store, ['a']);
    await keepAll(store, ['b']);
    const [a] = await marksOf(store).findByIds(['a']);
    const [b] = await marksOf(store).findByIds(['b']);
    expect((await marksOf(store).findByIds(['a']))[0]).to.equal(a);
    await keepAll(store, ['c']);
    // b was read least recently: it was dropped, a was kept.
    expect((await marksOf(store).findByIds(['a']))[0]).to.equal(a);
    const [bAgain] = await marksOf(store).findByIds(['b']);
    expect(bAgain).to.deep.equal(b);
    expect(bAgain).not.to.equal(b);
  });
});
