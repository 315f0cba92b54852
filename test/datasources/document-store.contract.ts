/**
 * The DocumentStore contract: one suite that every adapter must pass unchanged. Expected values
 * follow MongoDB's documented query semantics (the port is a subset of its collection API).
 */
import { expect } from 'chai';
import { UnsupportedQueryError } from '../../datasources/ports';
import type { Collection, DocumentStore, Filter, StoredDocument, Update } from '../../datasources/ports';

interface Item extends StoredDocument {
  [field: string]: unknown;
}

const ITEMS: Item[] = [
  {
    _id: 'a',
    name: 'alpha',
    n: 1,
    flag: true,
    date: '2024-01-15',
    status: { primary: 'active', stage: 'registered' },
    owner_ids: ['own_x', 'own_y'],
    classifications: [{ nice_class: 9 }, { nice_class: 42 }],
  },
  {
    _id: 'b',
    name: 'beta',
    n: 2,
    flag: false,
    date: '2024-03-01',
    status: { primary: 'pending', stage: 'filed' },
    owner_ids: ['own_y'],
    classifications: [{ nice_class: 25 }],
  },
  { _id: 'c', name: 'gamma', n: 3, flag: null, date: '2023-12-31', status: { primary: 'active', stage: 'renewed' }, owner_ids: [], classifications: [] },
  { _id: 'd', name: 'delta', n: '1', status: { primary: 'inactive' } },
];

const ids = (documents: readonly StoredDocument[]): string[] => documents.map((document) => document._id).sort();
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function expectUnsupported(attempt: () => Promise<unknown>): Promise<void> {
  let failure: unknown;
  try {
    await attempt();
  } catch (error) {
    failure = error;
  }
  expect(failure, 'expected an UnsupportedQueryError').to.be.instanceOf(UnsupportedQueryError);
}

export function describeDocumentStoreContract(name: string, open: () => Promise<DocumentStore>, cleanup?: () => Promise<void>): void {
  describe(`DocumentStore contract: ${name}`, function () {
    let store: DocumentStore;
    let items: Collection<Item>;

    beforeEach(async function () {
      store = await open();
      items = store.collection<Item>('items');
      await items.insertMany(ITEMS);
    });

    afterEach(async function () {
      await store.close();
      await cleanup?.();
    });

    const matching = async (filter: Filter): Promise<string[]> => ids(await items.find(filter));

    describe('filters', function () {
      it('compares bare values by JSON type: 1 matches neither "1" nor true', async function () {
        expect(await matching({ n: 1 })).to.deep.equal(['a']);
        expect(await matching({ n: '1' })).to.deep.equal(['d']);
        expect(await matching({ flag: true })).to.deep.equal(['a']);
        expect(await matching({ flag: false })).to.deep.equal(['b']);
      });

      it('never matches an object or array by a string that spells its JSON, but matches such a string', async function () {
        expect(await matching({ status: '{"primary":"active","stage":"renewed"}' })).to.deep.equal([]);
        expect(await matching({ owner_ids: '[]' })).to.deep.equal([]);
        expect(await matching({ owner_ids: { $in: ['[]', '["own_x","own_y"]'] } })).to.deep.equal([]);
        await items.insertOne({ _id: 'e', name: '{"primary":"active"}', status: { primary: 'active' } });
        expect(await matching({ name: '{"primary":"active"}' })).to.deep.equal(['e']);
        expect(await matching({ status: '{"primary":"active"}' })).to.deep.equal([]);
      });

      it('matches null against null and missing fields', async function () {
        expect(await matching({ flag: null })).to.deep.equal(['c', 'd']);
        expect(await matching({ flag: { $ne: null } })).to.deep.equal(['a', 'b']);
      });

      it('supports $eq, $ne (missing fields match), $in and $nin', async function () {
        expect(await matching({ name: { $eq: 'beta' } })).to.deep.equal(['b']);
        expect(await matching({ flag: { $ne: true } })).to.deep.equal(['b', 'c', 'd']);
        expect(await matching({ n: { $in: [2, 3, '1'] } })).to.deep.equal(['b', 'c', 'd']);
        expect(await matching({ n: { $nin: [1, 2] } })).to.deep.equal(['c', 'd']);
        expect(await matching({ n: { $in: [] } })).to.deep.equal([]);
        expect(await matching({ flag: { $in: [false, null] } })).to.deep.equal(['b', 'c', 'd']);
      });

      it('compares ranges only within the operand type (numbers with numbers, strings with strings)', async function () {
        expect(await matching({ n: { $gt: 1 } })).to.deep.equal(['b', 'c']);
        expect(await matching({ n: { $gte: 1 } })).to.deep.equal(['a', 'b', 'c']);
        expect(await matching({ n: { $lt: 3 } })).to.deep.equal(['a', 'b']);
        expect(await matching({ n: { $lte: 3, $gt: 1 } })).to.deep.equal(['b', 'c']);
        expect(await matching({ date: { $gte: '2024-01-01', $lt: '2024-03-01' } })).to.deep.equal(['a']);
        expect(await matching({ n: { $gte: '0' } })).to.deep.equal(['d']);
      });

      it('treats $exists as presence, with null present', async function () {
        expect(await matching({ flag: { $exists: true } })).to.deep.equal(['a', 'b', 'c']);
        expect(await matching({ flag: { $exists: false } })).to.deep.equal(['d']);
        expect(await matching({ 'status.stage': { $exists: false } })).to.deep.equal(['d']);
      });

      it('follows dotted paths into embedded objects', async function () {
        expect(await matching({ 'status.primary': 'active' })).to.deep.equal(['a', 'c']);
        expect(await matching({ 'status.primary': { $in: ['pending', 'inactive'] } })).to.deep.equal(['b', 'd']);
      });

      it('matches an array field when any element matches', async function () {
        expect(await matching({ owner_ids: 'own_y' })).to.deep.equal(['a', 'b']);
        expect(await matching({ owner_ids: { $in: ['own_x', 'own_z'] } })).to.deep.equal(['a']);
        expect(await matching({ owner_ids: { $ne: 'own_x' } })).to.deep.equal(['b', 'c', 'd']);
        expect(await matching({ owner_ids: { $nin: ['own_y'] } })).to.deep.equal(['c', 'd']);
      });

      it('matches a whole array against an array value, in order', async function () {
        expect(await matching({ owner_ids: ['own_x', 'own_y'] })).to.deep.equal(['a']);
        expect(await matching({ owner_ids: ['own_y', 'own_x'] })).to.deep.equal([]);
      });

      it('follows dotted paths through arrays of objects, matching any element', async function () {
        expect(await matching({ 'classifications.nice_class': 42 })).to.deep.equal(['a']);
        // Without $elemMatch each operator may be satisfied by a different element: a has 42 >= 20 and 9 <= 30.
        expect(await matching({ 'classifications.nice_class': { $gte: 20, $lte: 30 } })).to.deep.equal(['a', 'b']);
        expect(await matching({ 'classifications.nice_class': { $gt: 40 } })).to.deep.equal(['a']);
        expect(await matching({ 'classifications.nice_class': { $in: [9, 25] } })).to.deep.equal(['a', 'b']);
        expect(await matching({ 'classifications.nice_class': { $exists: true } })).to.deep.equal(['a', 'b']);
        expect(await matching({ 'classifications.nice_class': { $ne: 9 } })).to.deep.equal(['b', 'c', 'd']);
      });

      it('combines conditions with $and, $or and implicit AND', async function () {
        expect(await matching({ $or: [{ n: 1 }, { 'status.primary': 'pending' }] })).to.deep.equal(['a', 'b']);
        expect(await matching({ 'status.primary': 'active', $or: [{ n: 3 }, { flag: true }] })).to.deep.equal(['a', 'c']);
        expect(await matching({ $and: [{ owner_ids: 'own_y' }, { $or: [{ flag: false }, { n: 3 }] }] })).to.deep.equal(['b']);
        expect(await matching({})).to.deep.equal(['a', 'b', 'c', 'd']);
      });

      it('filters on _id', async function () {
        expect(await matching({ _id: { $in: ['a', 'c', 'zz'] } })).to.deep.equal(['a', 'c']);
        expect(await matching({ _id: { $gt: 'b' } })).to.deep.equal(['c', 'd']);
      });

      it('counts, finds one and finds by IDs', async function () {
        expect(await items.countDocuments({ 'status.primary': 'active' })).to.equal(2);
        expect((await items.findOne({ name: 'gamma' }))?._id).to.equal('c');
        expect(await items.findOne({ name: 'omega' })).to.equal(null);
        expect(ids(await items.findByIds(['d', 'a', 'missing']))).to.deep.equal(['a', 'd']);
        expect(await items.findByIds([])).to.deep.equal([]);
        expect(await items.findOne({ _id: 'a' })).to.deep.equal(ITEMS[0]);
      });
    });

    describe('sort, limit and skip', function () {
      const order = async (sort: Record<string, 1 | -1>, limit?: number, skip?: number): Promise<string[]> =>
        (await items.find({}, { sort, limit, skip })).map((item) => item._id);

      it('sorts ascending with missing and null first, descending with them last', async function () {
        expect(await order({ date: 1 })).to.deep.equal(['d', 'c', 'a', 'b']);
        expect(await order({ date: -1 })).to.deep.equal(['b', 'a', 'c', 'd']);
      });

      it('sorts on dotted paths with later keys breaking ties', async function () {
        expect(await order({ 'status.primary': 1, name: -1 })).to.deep.equal(['c', 'a', 'd', 'b']);
      });

      it('sorts arrays by their smallest element ascending and largest descending', async function () {
        // a: [9, 42], b: [25], c and d: none
        expect(await order({ 'classifications.nice_class': 1 })).to.deep.equal(['c', 'd', 'a', 'b']);
        expect(await order({ 'classifications.nice_class': -1 })).to.deep.equal(['a', 'b', 'c', 'd']);
      });

      it('breaks remaining ties by _id and applies limit and skip after sorting', async function () {
        expect(await order({ 'status.primary': 1 })).to.deep.equal(['a', 'c', 'd', 'b']);
        expect(await order({ name: 1 }, 2)).to.deep.equal(['a', 'b']);
        expect(await order({ name: 1 }, 2, 1)).to.deep.equal(['b', 'd']);
        expect(await order({ name: 1 }, undefined, 3)).to.deep.equal(['c']);
      });
    });

    describe('writes', function () {
      it('rejects a second document with the same _id', async function () {
        let failed = false;
        await items.insertOne({ _id: 'a', name: 'again' }).catch(() => (failed = true));
        expect(failed).to.equal(true);
        expect((await items.findOne({ _id: 'a' }))?.name).to.equal('alpha');
      });

      it('replaces whole documents, inserting when absent', async function () {
        await items.replaceOne({ _id: 'a', name: 'replaced' });
        await items.replaceOne({ _id: 'e', name: 'new' });
        expect(await items.findOne({ _id: 'a' })).to.deep.equal({ _id: 'a', name: 'replaced' });
        expect(await items.findOne({ _id: 'e' })).to.deep.equal({ _id: 'e', name: 'new' });
      });

      it('applies $set on dotted paths, creating missing objects', async function () {
        const result = await items.updateOne({ _id: 'd' }, { $set: { 'status.stage': 'expired', 'extra.deep.value': 5, name: 'DELTA' } });
        expect(result).to.deep.equal({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await items.findOne({ _id: 'd' })).to.deep.equal({
          _id: 'd',
          name: 'DELTA',
          n: '1',
          status: { primary: 'inactive', stage: 'expired' },
          extra: { deep: { value: 5 } },
        });
      });

      it('applies $unset, $inc and $push', async function () {
        await items.updateOne({ _id: 'b' }, { $unset: { 'status.stage': '' }, $inc: { n: 5, counter: 2 }, $push: { owner_ids: 'own_z', history: 'created' } });
        const updated = await items.findOne({ _id: 'b' });
        expect(updated?.status).to.deep.equal({ primary: 'pending' });
        expect(updated?.n).to.equal(7);
        expect(updated?.counter).to.equal(2);
        expect(updated?.owner_ids).to.deep.equal(['own_y', 'own_z']);
        expect(updated?.history).to.deep.equal(['created']);
        await items.updateOne({ _id: 'b' }, { $push: { owner_ids: { $each: ['own_1', 'own_2'] } } });
        expect((await items.findOne({ _id: 'b' }))?.owner_ids).to.deep.equal(['own_y', 'own_z', 'own_1', 'own_2']);
      });

      it('reports an update that changes nothing as matched but not modified', async function () {
        expect(await items.updateOne({ _id: 'a' }, { $set: { name: 'alpha' } })).to.deep.equal({
          matchedCount: 1,
          modifiedCount: 0,
          upsertedId: null,
        });
        expect(await items.updateOne({ _id: 'zz' }, { $set: { name: 'x' } })).to.deep.equal({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedId: null,
        });
      });

      it('updates every match with updateMany', async function () {
        const result = await items.updateMany({ 'status.primary': 'active' }, { $set: { reviewed: true } });
        expect(result).to.deep.equal({ matchedCount: 2, modifiedCount: 2, upsertedId: null });
        expect(await matching({ reviewed: true })).to.deep.equal(['a', 'c']);
      });

      it('ignores $setOnInsert on update and upserts from the filter equalities plus the update', async function () {
        await items.updateOne({ _id: 'a' }, { $set: { n: 10 }, $setOnInsert: { created: 'now' } }, { upsert: true });
        expect(await items.findOne({ _id: 'a' })).to.not.have.property('created');
        const result = await items.updateOne(
          { _id: 'e', 'status.primary': 'pending' },
          { $set: { name: 'epsilon' }, $inc: { n: 1 }, $setOnInsert: { created: 'now' } },
          { upsert: true },
        );
        expect(result).to.deep.equal({ matchedCount: 0, modifiedCount: 0, upsertedId: 'e' });
        expect(await items.findOne({ _id: 'e' })).to.deep.equal({
          _id: 'e',
          status: { primary: 'pending' },
          name: 'epsilon',
          n: 1,
          created: 'now',
        });
      });

      it('deletes one or many and returns how many', async function () {
        expect(await items.deleteOne({ 'status.primary': 'active' })).to.equal(1);
        expect(await items.countDocuments({ 'status.primary': 'active' })).to.equal(1);
        expect(await items.deleteMany({ n: { $gte: 1 } })).to.equal(2);
        expect(await items.deleteMany({ n: { $gte: 1 } })).to.equal(0);
        expect(await items.countDocuments({})).to.equal(1);
      });

      it('ensures indexes idempotently and enforces unique ones', async function () {
        const specs = [
          { collection: 'items', paths: ['status.primary', 'date'] },
          { collection: 'uniques', paths: ['code'], unique: true },
        ];
        await store.ensureIndexes(specs);
        await store.ensureIndexes(specs);
        const uniques = store.collection<Item>('uniques');
        await uniques.insertOne({ _id: 'u1', code: 'X' });
        let failed = false;
        await uniques.insertOne({ _id: 'u2', code: 'X' }).catch(() => (failed = true));
        expect(failed).to.equal(true);
        expect(await matching({ 'status.primary': 'active', date: { $gt: '2024-01-01' } })).to.deep.equal(['a']);
      });
    });

    describe('unsupported queries', function () {
      const unsupportedFilters: Array<[string, unknown]> = [
        ['$regex', { name: { $regex: '^a' } }],
        ['$elemMatch', { classifications: { $elemMatch: { nice_class: 9 } } }],
        ['$nor', { $nor: [{ n: 1 }] }],
        ['$where', { $where: 'true' }],
        ['embedded-document equality', { status: { primary: 'active' } }],
        ['an empty $or', { $or: [] }],
        ['a numeric path segment', { 'owner_ids.0': 'own_x' }],
        ['an object operand', { n: { $gt: { value: 1 } } }],
      ];
      for (const [label, filter] of unsupportedFilters) {
        it(`rejects ${label} in a filter`, async function () {
          await expectUnsupported(() => items.find(filter as Filter));
          await expectUnsupported(() => items.countDocuments(filter as Filter));
          await expectUnsupported(() => items.deleteMany(filter as Filter));
        });
      }

      const unsupportedUpdates: Array<[string, unknown]> = [
        ['$rename', { $rename: { name: 'title' } }],
        ['$pull', { $pull: { owner_ids: 'own_x' } }],
        ['an empty update', {}],
        ['conflicting paths', { $set: { status: {} }, $unset: { 'status.primary': '' } }],
        ['a change of _id', { $set: { _id: 'other' } }],
        ['$push with $slice', { $push: { owner_ids: { $each: ['x'], $slice: 2 } } }],
      ];
      for (const [label, update] of unsupportedUpdates) {
        it(`rejects ${label} in an update, changing nothing`, async function () {
          await expectUnsupported(() => items.updateOne({ _id: 'a' }, update as Update));
          await expectUnsupported(() => items.updateMany({}, update as Update));
          expect(await items.findOne({ _id: 'a' })).to.deep.equal(ITEMS[0]);
        });
      }

      it('rejects an upsert that names no _id, and a bad sort direction', async function () {
        await expectUnsupported(() => items.updateOne({ name: 'omega' }, { $set: { n: 1 } }, { upsert: true }));
        await expectUnsupported(() => items.find({}, { sort: { name: 0 as unknown as 1 } }));
      });
    });

    describe('change feed', function () {
      it('records every write in order with the document after it', async function () {
        const start = await store.latestPosition();
        const log = store.collection<Item>('log');
        await log.insertOne({ _id: 'l1', v: 1 });
        await log.updateOne({ _id: 'l1' }, { $inc: { v: 1 } });
        await log.updateOne({ _id: 'l1' }, { $set: { v: 2 } });
        await log.replaceOne({ _id: 'l1', v: 3 });
        await log.deleteOne({ _id: 'l1' });
        await log.updateOne({ _id: 'l2' }, { $set: { v: 9 } }, { upsert: true });
        const batch = await store.readChanges(start, 100, ['log']);
        expect(batch.events.map((event) => [event.operation, event.documentId, event.document])).to.deep.equal([
          ['insert', 'l1', { _id: 'l1', v: 1 }],
          ['update', 'l1', { _id: 'l1', v: 2 }],
          ['replace', 'l1', { _id: 'l1', v: 3 }],
          ['delete', 'l1', null],
          ['insert', 'l2', { _id: 'l2', v: 9 }],
        ]);
        expect(batch.events.every((event) => event.collection === 'log')).to.equal(true);
        expect(batch.events.every((event) => !Number.isNaN(Date.parse(event.occurredAt)))).to.equal(true);
        expect(batch.position).to.equal(batch.events[4]!.position);
      });

      it('pages through changes by position and returns the same position when nothing is new', async function () {
        const start = await store.latestPosition();
        const paged = store.collection<Item>('paged');
        for (let index = 1; index <= 5; index++) await paged.insertOne({ _id: `p${index}` });
        const seen: string[] = [];
        let position = start;
        for (let page = 0; page < 3; page++) {
          const batch = await store.readChanges(position, 2, ['paged']);
          expect(batch.events.length).to.equal(page < 2 ? 2 : 1);
          seen.push(...batch.events.map((event) => event.documentId));
          position = batch.position;
        }
        expect(seen).to.deep.equal(['p1', 'p2', 'p3', 'p4', 'p5']);
        const empty = await store.readChanges(position, 2, ['paged']);
        expect(empty).to.deep.equal({ events: [], position });
      });

      it('filters by collection', async function () {
        const start = await store.latestPosition();
        await store.collection<Item>('one').insertOne({ _id: 'o1' });
        await store.collection<Item>('two').insertOne({ _id: 't1' });
        await store.collection<Item>('one').insertOne({ _id: 'o2' });
        const batch = await store.readChanges(start, 10, ['one']);
        expect(batch.events.map((event) => event.documentId)).to.deep.equal(['o1', 'o2']);
      });

      it('moves the position past changes a collection filter leaves out', async function () {
        const start = await store.latestPosition();
        await store.collection<Item>('two').insertOne({ _id: 't2' });
        await store.collection<Item>('two').insertOne({ _id: 't3' });
        const skipped = await store.readChanges(start, 10, ['one']);
        expect(skipped.events).to.deep.equal([]);
        expect(skipped.position).not.to.equal(start);
        await store.collection<Item>('one').insertOne({ _id: 'o3' });
        const next = await store.readChanges(skipped.position, 10, ['one']);
        expect(next.events.map((event) => event.documentId)).to.deep.equal(['o3']);
        expect((await store.readChanges(next.position, 10, ['one'])).position).to.equal(next.position);
      });

      it('prunes only what every consumer has read and is old enough, never the newest entry, and positions keep their meaning', async function () {
        const start = await store.latestPosition();
        const pruned = store.collection<Item>('pruned');
        for (let index = 1; index <= 6; index++) await pruned.insertOne({ _id: `r${index}` });
        const all = (await store.readChanges(start, 10, ['pruned'])).events;
        const [, second, , fourth, , sixth] = all.map((event) => event.position);
        const future = new Date(Date.now() + 60_000).toISOString();
        // Nothing is old enough: nothing goes.
        expect(await store.pruneChanges([sixth!], '2000-01-01T00:00:00Z')).to.equal(0);
        const deleted = await store.pruneChanges([fourth!, second!], future);
        // An adapter whose engine trims the feed reports 0 and keeps serving every entry.
        if (deleted === 0) return;
        // The slower consumer read up to the second entry: the first two (and earlier) go, the rest stay.
        expect((await store.readChanges(start, 10, ['pruned'])).events.map((event) => event.documentId)).to.deep.equal(['r3', 'r4', 'r5', 'r6']);
        expect((await store.readChanges(second!, 10, ['pruned'])).events.map((event) => event.documentId)).to.deep.equal(['r3', 'r4', 'r5', 'r6']);
        await store.pruneChanges([sixth!], future);
        expect(await store.latestPosition()).to.equal(sixth);
        await pruned.insertOne({ _id: 'r7' });
        const after = await store.readChanges(sixth!, 10, ['pruned']);
        expect(after.events.map((event) => event.documentId)).to.deep.equal(['r7']);
        expect(after.position).not.to.equal(sixth);
      });

      it('commits a transaction with its change rows together', async function () {
        const start = await store.latestPosition();
        const result = await store.transaction(async () => {
          await store.collection<Item>('tx').insertOne({ _id: 'x1' });
          await store.collection<Item>('tx').updateOne({ _id: 'x1' }, { $set: { done: true } });
          return 'committed';
        });
        expect(result).to.equal('committed');
        expect(await store.collection<Item>('tx').findOne({ _id: 'x1' })).to.deep.equal({ _id: 'x1', done: true });
        const batch = await store.readChanges(start, 10, ['tx']);
        expect(batch.events.map((event) => event.operation)).to.deep.equal(['insert', 'update']);
      });

      it('leaves neither documents nor change rows after a failed transaction', async function () {
        const start = await store.latestPosition();
        const failure = new Error('abort');
        let caught: unknown;
        try {
          await store.transaction(async () => {
            await store.collection<Item>('tx').insertOne({ _id: 'x1' });
            await items.deleteMany({});
            throw failure;
          });
        } catch (error) {
          caught = error;
        }
        expect(caught).to.equal(failure);
        expect(await store.collection<Item>('tx').findOne({ _id: 'x1' })).to.equal(null);
        expect(await items.countDocuments({})).to.equal(4);
        expect((await store.readChanges(start, 10, ['tx', 'items'])).events).to.deep.equal([]);
      });

      it('never shows uncommitted transaction writes to reads outside it', async function () {
        let startOutsideRead: () => void = () => undefined;
        // Chained here, before the transaction, so the read runs in this (outside) async context.
        const outsideRead = new Promise<void>((resolve) => (startOutsideRead = resolve)).then(() => store.collection<Item>('tx').findOne({ _id: 'x1' }));
        await store
          .transaction(async () => {
            await store.collection<Item>('tx').insertOne({ _id: 'x1' });
            startOutsideRead();
            await delay(30);
            throw new Error('abort');
          })
          .catch(() => undefined);
        expect(await outsideRead).to.equal(null);
      });

      it("moves a collection's change token on every write to it (when the adapter keeps one)", async function () {
        const before = await store.changeToken('items');
        if (before === null) {
          expect(await store.changeToken('other')).to.equal(null);
          return;
        }
        const writes: Array<() => Promise<unknown>> = [
          () => items.insertOne({ _id: 'z1' }),
          () => items.updateOne({ _id: 'z1' }, { $set: { n: 5 } }),
          () => items.replaceOne({ _id: 'z1', n: 6 }),
          () => items.deleteOne({ _id: 'z1' }),
        ];
        const tokens = [before];
        for (const write of writes) {
          await write();
          tokens.push((await store.changeToken('items')) as string);
        }
        expect(new Set(tokens).size).to.equal(tokens.length);
        expect(await store.changeToken('items')).to.equal(tokens[tokens.length - 1]);
      });

      it('wakes a waiter on a write, and otherwise after the timeout', async function () {
        const start = await store.latestPosition();
        const began = Date.now();
        await store.waitForChanges(start, 60);
        expect(Date.now() - began).to.be.within(40, 1500);

        const waiting = store.waitForChanges(start, 10_000);
        await delay(20);
        const woke = Date.now();
        await store.collection<Item>('wake').insertOne({ _id: 'w1' });
        await waiting;
        expect(Date.now() - woke).to.be.below(2000);
      });
    });
  });
}
