/**
 * The retention worker: deletes what is only kept for a while, once at start and then hourly.
 * Request logs past their retention; idempotency receipts past their 24 hours; webhook delivery
 * rows past their 30 days (a disabled endpoint's queued rows too: a month-old alert is news
 * nobody acts on, and GET /v1/events still has the event); change-feed
 * entries that every feed consumer has read (by its persisted checkpoint) and that are older than
 * the feed retention. A consumer that never checkpointed holds nothing back: when it first runs
 * it starts from its own rule (the indexer rebuilds). Failures are reported and retried next time.
 */
import type { DocumentStore } from '../datasources/ports';
import { COLLECTIONS, type IdempotencyReceiptDoc, type RequestLogDoc, type WebhookDeliveryDoc, type FeedCheckpointDoc } from '../domain/records';
import { DELIVERY_RETENTION_DAYS } from '../domain/webhook-deliveries';
import { FEED_RETENTION_DAYS, REQUEST_LOG_RETENTION_DAYS, retentionCutoff } from '../domain/retention';
import { FEED_CHECKPOINT_IDS } from './feed-checkpoints';

const HOUR_MS = 60 * 60 * 1000;

export interface RetentionReport {
  requestLogs: number;
  idempotencyReceipts: number;
  webhookDeliveries: number;
  changes: number;
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
    const requestLogs = await this.store
      .collection<RequestLogDoc>(COLLECTIONS.requestLogs)
      .deleteMany({ occurred_at: { $lt: retentionCutoff(now, REQUEST_LOG_RETENTION_DAYS) } });
    const idempotencyReceipts = await this.store
      .collection<IdempotencyReceiptDoc>(COLLECTIONS.idempotencyReceipts)
      .deleteMany({ expires_at: { $lt: now.toISOString() } });
    const webhookDeliveries = await this.store
      .collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries)
      .deleteMany({ created_at: { $lt: retentionCutoff(now, DELIVERY_RETENTION_DAYS) } });
    const checkpoints = await this.store.collection<FeedCheckpointDoc>(COLLECTIONS.meta).findByIds(FEED_CHECKPOINT_IDS);
    const consumed = checkpoints.map((checkpoint) => checkpoint.position).filter((position): position is string => position !== null);
    const changes = consumed.length === 0 ? 0 : await this.store.pruneChanges(consumed, retentionCutoff(now, FEED_RETENTION_DAYS));
    return { requestLogs, idempotencyReceipts, webhookDeliveries, changes };
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
