/**
 * What the watch evaluator and the webhook dispatcher share: a place in the change feed kept in a
 * `meta` document, which on the very first run starts at the feed's end (they are about what
 * happens from then on), read in batches by one run at a time (the loop and a caller waiting for
 * its results share the position).
 */
import type { ChangeEvent, DocumentStore } from '../datasources/ports';
import { COLLECTIONS, type FeedCheckpointDoc } from '../domain/records';

export class FeedConsumer {
  private position: string | null | undefined = undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: DocumentStore,
    private readonly checkpointId: string,
    /** The feed collections it reads. */
    private readonly feed: readonly string[],
  ) {}

  private get checkpoints() {
    return this.store.collection<FeedCheckpointDoc>(COLLECTIONS.meta);
  }

  /** The feed position consumed up to (null before anything was read; undefined before initialize). */
  get consumedPosition(): string | null | undefined {
    return this.position;
  }

  /**
   * Loads the checkpoint, or on the very first run sets it to the feed's end. The composition root
   * calls it at start, so changes written after start are consumed even before the loop first runs.
   */
  async initialize(): Promise<void> {
    if (this.position !== undefined) return;
    const checkpoint = await this.checkpoints.findOne({ _id: this.checkpointId });
    if (checkpoint) {
      this.position = checkpoint.position;
      return;
    }
    this.position = await this.store.latestPosition();
    await this.saveCheckpoint(this.position);
  }

  /**
   * Makes the next run go on from the persisted checkpoint instead of the position in memory:
   * a process that stood by while another held the worker's lease is behind what that one
   * consumed. Runs after the run in progress, like a run.
   */
  resume(): void {
    this.queue = this.queue.then(() => {
      this.position = undefined;
    });
  }

  /** Persists the position: `apply` calls it in the transaction that stores a batch's results, so both land or neither. */
  saveCheckpoint(position: string | null): Promise<void> {
    return this.checkpoints.replaceOne({ _id: this.checkpointId, position });
  }

  /**
   * Hands `apply` the events `wanted` keeps, batch by batch, until the feed's end. A batch with none
   * only moves the position in memory: persisting it would itself be a change, where the checkpoint
   * collection is fed, and wake the loop forever; after a restart such a batch is read once more.
   */
  consume(batchSize: number, wanted: (event: ChangeEvent) => boolean, apply: (events: ChangeEvent[], position: string | null) => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      await this.initialize();
      for (;;) {
        const position = this.position ?? null;
        const batch = await this.store.readChanges(position, batchSize, this.feed);
        if (batch.position === position) return;
        const events = batch.events.filter(wanted);
        if (events.length > 0) await apply(events, batch.position);
        this.position = batch.position;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
