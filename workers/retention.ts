/**
 * The retention worker: deletes what is only kept for a while, once at start and then hourly.
 * Request logs past their retention; idempotency receipts past their 24 hours; webhook delivery
 * rows past their 30 days (a disabled endpoint's queued rows too: a month-old alert is news
 * nobody acts on, and GET /v1/events still has the event); change-feed
 * entries that every feed consumer has read (by its persisted checkpoint) and that are older than
 * the feed retention. A consumer that never checkpointed holds nothing back: when it first runs
 * it starts from its own rule (the indexer rebuilds). Failures are reported and retried next time.
 *
 * Rows go oldest first, DELETE_CHUNK at a time, each chunk its own write: a first pass over a
 * large backlog (or an hour of a busy service's request logs) never holds the store's write lock,
 * or the event loop of the process it runs in, for longer than one chunk. Every rule's date path
 * has an index of its own (resolvers/store-indexes.ts): a pass reads only what it deletes.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Collection, DocumentStore, StoredDocument } from '../datasources/ports';
import { COLLECTIONS, type FeedCheckpointDoc } from '../domain/records';
import { DELIVERY_RETENTION_DAYS } from '../domain/webhook-deliveries';
import { FEED_RETENTION_DAYS, REQUEST_LOG_RETENTION_DAYS, retentionCutoff } from '../domain/retention';
import { FEED_CHECKPOINT_IDS } from './feed-checkpoints';

const HOUR_MS = 60 * 60 * 1000;

/** Rows deleted per write. */
export const DELETE_CHUNK = 1000;

export interface RetentionReport {
  requestLogs: number;
  idempotencyReceipts: number;
  webhookDeliveries: number;
  changes: number;
}

/** One kind of row kept for a while: its collection, the date path it ages by, and the instant before which it goes. */
export interface RetentionRule {
  report: Exclude<keyof RetentionReport, 'changes'>;
  collection: string;
  path: string;
  cutoff: (now: Date) => string;
}

export const RETENTION_RULES: readonly RetentionRule[] = [
  { report: 'requestLogs', collection: COLLECTIONS.requestLogs, path: 'occurred_at', cutoff: (now) => retentionCutoff(now, REQUEST_LOG_RETENTION_DAYS) },
  { report: 'idempotencyReceipts', collection: COLLECTIONS.idempotencyReceipts, path: 'expires_at', cutoff: (now) => now.toISOString() },
  {
    report: 'webhookDeliveries',
    collection: COLLECTIONS.webhookDeliveries,
    path: 'created_at',
    cutoff: (now) => retentionCutoff(now, DELIVERY_RETENTION_DAYS),
  },
];

/** The rows of `collection` whose `path` is before `cutoff`, oldest first, DELETE_CHUNK per write; returns how many went. */
async function deleteBefore(collection: Collection<StoredDocument>, path: string, cutoff: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await collection.find({ [path]: { $lt: cutoff } }, { sort: { [path]: 1 }, limit: DELETE_CHUNK });
    if (rows.length === 0) return deleted;
    deleted += await collection.deleteMany({ _id: { $in: rows.map((row) => row._id) } });
    if (rows.length < DELETE_CHUNK) return deleted;
    // The store's promises settle in microtasks: without a turn of the loop here, requests would wait for the whole pass.
    await nextTurn();
  }
}

export class Retention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: DocumentStore,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (error: unknown) => void = (error) => console.error('retention:', error),
  ) {}

  /** One pass; returns how many rows of each kind it deleted. */
  async run(): Promise<RetentionReport> {
    const now = this.now();
    const report: RetentionReport = { requestLogs: 0, idempotencyReceipts: 0, webhookDeliveries: 0, changes: 0 };
    for (const rule of RETENTION_RULES) report[rule.report] = await deleteBefore(this.store.collection(rule.collection), rule.path, rule.cutoff(now));
    const checkpoints = await this.store.collection<FeedCheckpointDoc>(COLLECTIONS.meta).findByIds(FEED_CHECKPOINT_IDS);
    const consumed = checkpoints.map((checkpoint) => checkpoint.position).filter((position): position is string => position !== null);
    if (consumed.length > 0) report.changes = await this.store.pruneChanges(consumed, retentionCutoff(now, FEED_RETENTION_DAYS));
    return report;
  }

  start(intervalMs = HOUR_MS): void {
    const pass = (): void => {
      this.running = this.run().catch(this.onError);
    };
    pass();
    this.timer = setInterval(pass, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
