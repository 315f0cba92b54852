import { expect } from 'chai';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import type { ChangeEvent, DocumentStore } from '../../datasources/ports';
import { COLLECTIONS, type FeedCheckpointDoc } from '../../domain/records';
import { FeedConsumer } from '../../workers/feed-consumer';

const CHECKPOINT_ID = 'test_consumer_position';

describe('workers/feed-consumer: a place in the change feed shared by the watch evaluator and the webhook dispatcher', () => {
  let store: DocumentStore;

  beforeEach(() => {
    store = createEmbeddedDocumentStore({ path: ':memory:', feedCollections: [COLLECTIONS.owners, COLLECTIONS.firms] });
  });

  afterEach(() => store.close());

  const addOwners = (...ids: string[]) => store.collection(COLLECTIONS.owners).insertMany(ids.map((_id) => ({ _id, name: _id })));
  const savedPosition = async () => (await store.collection<FeedCheckpointDoc>(COLLECTIONS.meta).findOne({ _id: CHECKPOINT_ID }))?.position;
  /** A consumer of the owners feed that records the document IDs it is handed, batch by batch, and saves its checkpoint. */
  const recording = (consumer: FeedConsumer, batches: string[][]) => async (events: ChangeEvent[], position: string | null) => {
    batches.push(events.map((event) => event.documentId));
    await consumer.saveCheckpoint(position);
  };
  const everything = () => true;

  it('starts at the end of the feed on its very first run, and saves that position', async () => {
    await addOwners('own_before_1', 'own_before_2');
    const consumer = new FeedConsumer(store, CHECKPOINT_ID, [COLLECTIONS.owners]);
    const batches: string[][] = [];
    await consumer.consume(10, everything, recording(consumer, batches));
    expect(batches).to.deep.equal([]);
    expect(await savedPosition()).to.equal(await store.latestPosition());
    expect(consumer.consumedPosition).to.equal(await store.latestPosition());
  });

  it('hands every later event in feed order, in batches of at most batchSize, and a new consumer resumes after the checkpoint', async () => {
    const first = new FeedConsumer(store, CHECKPOINT_ID, [COLLECTIONS.owners]);
    await first.initialize();
    await addOwners('own_a', 'own_b', 'own_c');
    const batches: string[][] = [];
    await first.consume(2, everything, recording(first, batches));
    expect(batches).to.deep.equal([['own_a', 'own_b'], ['own_c']]);

    await addOwners('own_d');
    const restarted = new FeedConsumer(store, CHECKPOINT_ID, [COLLECTIONS.owners]);
    const after: string[][] = [];
    await restarted.consume(2, everything, recording(restarted, after));
    expect(after).to.deep.equal([['own_d']]);
  });

  it('reads only its feed collections and the events it wants; a batch with none moves the position in memory only', async () => {
    const consumer = new FeedConsumer(store, CHECKPOINT_ID, [COLLECTIONS.owners]);
    await consumer.initialize();
    const saved = await savedPosition();
    await store.collection(COLLECTIONS.firms).insertMany([{ _id: 'frm_x' }]);
    await addOwners('own_x');
    const batches: string[][] = [];
    await consumer.consume(10, (event) => event.operation === 'delete', recording(consumer, batches));
    expect(batches).to.deep.equal([]);
    expect(consumer.consumedPosition).to.equal(await store.latestPosition());
    // Saving it would be a write of its own; the saved checkpoint stays where it was.
    expect(await savedPosition()).to.equal(saved);
  });

  it('runs one consume at a time, so two callers never hand the same event twice', async () => {
    const consumer = new FeedConsumer(store, CHECKPOINT_ID, [COLLECTIONS.owners]);
    await consumer.initialize();
    await addOwners('own_1', 'own_2');
    const handed: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = consumer.consume(10, everything, async (events, position) => {
      await held;
      handed.push(...events.map((event) => event.documentId));
      await consumer.saveCheckpoint(position);
    });
    const second = consumer.consume(10, everything, async (events) => {
      handed.push(...events.map((event) => event.documentId));
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handed).to.deep.equal([]);
    release();
    await Promise.all([slow, second]);
    expect(handed).to.deep.equal(['own_1', 'own_2']);
  });

  it('keeps its position when apply fails, so the next run hands the same events again', async () => {
    const consumer = new FeedConsumer(store, CHECKPOINT_ID, [COLLECTIONS.owners]);
    await consumer.initialize();
    await addOwners('own_retry');
    const failing = consumer.consume(10, everything, () => Promise.reject(new Error('store unavailable')));
    await failing.then(
      () => expect.fail('consume should reject'),
      (error: Error) => expect(error.message).to.equal('store unavailable'),
    );
    const batches: string[][] = [];
    await consumer.consume(10, everything, recording(consumer, batches));
    expect(batches).to.deep.equal([['own_retry']]);
  });
});
