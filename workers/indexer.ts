/**
 * The search indexer: keeps every SearchIndex in step with the DocumentStore by consuming the
 * change feed and applying the registered index projections (workers/projections/).
 *
 * The feed position is checkpointed in the store (`meta` collection) after each applied batch;
 * re-applying a batch is harmless because upserts are idempotent.
 */
import type { ChangeEvent, DocumentStore, Filter, SearchIndex, StoredDocument } from '../datasources/ports';
import { COLLECTIONS, type FeedCheckpointDoc } from '../domain/records';
import { INDEXER_CHECKPOINT_ID } from './feed-checkpoints';
import { FeedLoop } from './feed-loop';
import { PROJECTIONS } from './projections';
import type { IndexProjection } from './projections/projection';

const DEPENDENT_FILTERS_PER_QUERY = 200;

/** Collections whose changes matter to some projection. */
function watchedCollections(projections: readonly IndexProjection[]): string[] {
  return [...new Set(projections.flatMap((p) => [p.source, ...Object.keys(p.dependents ?? {})]))];
}

export class SearchIndexer {
  private readonly loop: FeedLoop;
  /** Feed position read up to; undefined until loaded from the checkpoint. */
  private position: string | null | undefined = undefined;
  /** The feed collections it reads (its projections' sources). */
  readonly collections: readonly string[];

  constructor(
    private readonly store: DocumentStore,
    private readonly search: SearchIndex,
    onError: (error: unknown) => void = (error) => console.error('indexer:', error),
    private readonly projections: readonly IndexProjection[] = PROJECTIONS,
  ) {
    this.collections = watchedCollections(projections);
    this.loop = new FeedLoop(store, async () => (await this.catchUp(), this.position ?? null), onError);
  }

  private get checkpoints() {
    return this.store.collection<FeedCheckpointDoc>(COLLECTIONS.meta);
  }

  /**
   * Creates or migrates every projection's index, and refills from the store those the SearchIndex
   * had to create empty or gave new fields (an index definition changed by an upgrade), or whose
   * refill a stopped process left unfinished, before anything is served.
   */
  async ensureIndexes(onRefill?: (index: string) => void): Promise<void> {
    const stale: IndexProjection[] = [];
    for (const projection of this.projections) if ((await this.search.ensureIndex(projection.index)).needsRefill) stale.push(projection);
    if (stale.length === 0) return;
    stale.forEach((projection) => onRefill?.(projection.index.name));
    await this.refill(stale);
  }

  private async index(projection: IndexProjection, docs: readonly StoredDocument[]): Promise<void> {
    if (docs.length === 0) return;
    await this.search.upsert(projection.index.name, await projection.toIndexDocuments(docs, { store: this.store, search: this.search }));
  }

  private async apply(projection: IndexProjection, events: readonly ChangeEvent[]): Promise<void> {
    const upserted = new Set<string>();
    const removed = new Set<string>();
    const dependentFilters: Filter[] = [];
    for (const event of events) {
      if (event.collection === projection.source) {
        const [add, drop] = event.operation === 'delete' ? [removed, upserted] : [upserted, removed];
        add.add(event.documentId);
        drop.delete(event.documentId);
      } else {
        const filter = await projection.dependents?.[event.collection]?.(event, { store: this.store, search: this.search });
        if (filter) dependentFilters.push(filter);
      }
    }
    const source = this.store.collection(projection.source);
    const changed = await source.findByIds([...upserted]);
    const dependents: StoredDocument[] = [];
    // Bounded $or: SQLite refuses expression trees deeper than 1,000 (one batch can hold 1,000 events).
    for (let i = 0; i < dependentFilters.length; i += DEPENDENT_FILTERS_PER_QUERY) {
      dependents.push(...(await source.find({ $or: dependentFilters.slice(i, i + DEPENDENT_FILTERS_PER_QUERY) })));
    }
    await this.index(projection, [...new Map([...changed, ...dependents].map((d) => [d._id, d])).values()]);
    if (removed.size > 0) await this.search.remove(projection.index.name, [...removed]);
  }

  /**
   * Applies every change after the checkpoint, in batches; returns how many feed events it read.
   * Callers (tests, the seed command) use it to wait until the indexes have caught up.
   */
  async catchUp(batchSize = 1000): Promise<number> {
    let total = 0;
    if (this.position === undefined) this.position = (await this.checkpoints.findOne({ _id: INDEXER_CHECKPOINT_ID }))?.position ?? null;
    for (;;) {
      const batch = await this.store.readChanges(this.position, batchSize, this.collections);
      if (batch.position === this.position) return total;
      // Only applied work is checkpointed: a batch of other collections' changes just moves the
      // position in memory (persisting it would itself be a change, where the checkpoint
      // collection is fed, and wake the loop forever). After a restart those are read once more.
      // The position moves only once the batch is applied: a batch that failed (a locked index)
      // is read again by the retry, never skipped.
      if (batch.events.length > 0) {
        total += batch.events.length;
        for (const projection of this.projections) await this.apply(projection, batch.events);
        await this.checkpoints.replaceOne({ _id: INDEXER_CHECKPOINT_ID, position: batch.position });
      }
      this.position = batch.position;
    }
  }

  /**
   * Re-indexes every projection from the store (first start, after a bulk seed), then moves the
   * checkpoint to the feed position taken before the scan, so later changes are still applied.
   */
  async rebuild(onProgress?: (index: string, done: number) => void, pageSize = 2000): Promise<void> {
    const position = await this.store.latestPosition();
    await this.refill(this.projections, onProgress, pageSize);
    await this.checkpoints.replaceOne({ _id: INDEXER_CHECKPOINT_ID, position });
    this.position = position;
  }

  /**
   * Indexes every source document of these projections, each marked filled once done; the feed
   * checkpoint is left alone.
   */
  private async refill(projections: readonly IndexProjection[], onProgress?: (index: string, done: number) => void, pageSize = 2000): Promise<void> {
    for (const projection of projections) {
      const source = this.store.collection(projection.source);
      let after = '';
      let done = 0;
      for (;;) {
        const page = await source.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: pageSize });
        if (page.length === 0) break;
        await this.index(projection, page);
        done += page.length;
        after = (page[page.length - 1] as StoredDocument)._id;
        onProgress?.(projection.index.name, done);
      }
      await this.search.markFilled(projection.index.name);
    }
  }

  /**
   * Runs `catchUp` whenever the store reports writes, until `stop`, going on from the persisted
   * checkpoint: another process may have run the indexer while this one stood by.
   */
  start(): void {
    this.position = undefined;
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
