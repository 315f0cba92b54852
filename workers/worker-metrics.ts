/**
 * Gauges of the change-feed workers for /metrics, read at scrape time from the store and the
 * KeyValue (so they are right whichever process runs the workers): each worker's backlog and lag
 * behind the feed, the process running it, and the webhook deliveries waiting to be sent.
 */
import { Gauge, type Registry } from 'prom-client';
import type { DocumentStore, KeyValue } from '../datasources/ports';
import { COLLECTIONS, type WebhookDeliveryDoc } from '../domain/records';
import { feedBacklog, type FeedConsumer } from './feed-backlog';
import {
  INDEXER_CHECKPOINT_ID,
  WATCH_EVALUATOR_CHECKPOINT_ID,
  WATCH_EVALUATOR_FEED,
  WEBHOOK_DISPATCHER_CHECKPOINT_ID,
  WEBHOOK_DISPATCHER_FEED,
} from './feed-checkpoints';
import { workerLeaseKey } from './worker-lease';

/** The three feed consumers; the indexer's collections come from its projections. */
export function feedConsumers(indexerCollections: readonly string[]): FeedConsumer[] {
  return [
    { name: 'indexer', checkpointId: INDEXER_CHECKPOINT_ID, collections: indexerCollections },
    { name: 'watches', checkpointId: WATCH_EVALUATOR_CHECKPOINT_ID, collections: WATCH_EVALUATOR_FEED },
    { name: 'webhooks', checkpointId: WEBHOOK_DISPATCHER_CHECKPOINT_ID, collections: WEBHOOK_DISPATCHER_FEED },
  ];
}

export function registerWorkerMetrics(
  registry: Registry,
  store: DocumentStore,
  kv: KeyValue,
  consumers: readonly FeedConsumer[],
  now: () => Date = () => new Date(),
): void {
  // One read per scrape serves both feed gauges.
  let reading: Promise<Array<{ name: string; backlog: Awaited<ReturnType<typeof feedBacklog>> }>> | null = null;
  const read = () =>
    (reading ??= Promise.all(consumers.map(async (consumer) => ({ name: consumer.name, backlog: await feedBacklog(store, consumer, now()) }))).finally(() => {
      reading = null;
    }));
  new Gauge({
    name: 'marque_worker_backlog_entries',
    help: 'Change-feed entries a worker has not read yet (counted up to 1000).',
    labelNames: ['worker'] as const,
    registers: [registry],
    // Every HTTP process reads the same store: under `serve --workers N` one reading, not N summed.
    aggregator: 'first',
    async collect() {
      for (const { name, backlog } of await read()) if (backlog !== null) this.set({ worker: name }, backlog.entries);
    },
  });
  new Gauge({
    name: 'marque_worker_lag_seconds',
    help: 'Age of the oldest change-feed entry a worker has not read yet (0 when caught up).',
    labelNames: ['worker'] as const,
    registers: [registry],
    aggregator: 'first',
    async collect() {
      for (const { name, backlog } of await read()) if (backlog !== null) this.set({ worker: name }, backlog.lagSeconds);
    },
  });
  new Gauge({
    name: 'marque_worker_holder',
    help: 'The process running each change-feed worker (its lease holder: host/pid/random), 1; no series while none runs it.',
    labelNames: ['worker', 'holder'] as const,
    registers: [registry],
    aggregator: 'first',
    async collect() {
      this.reset();
      for (const { name } of consumers) {
        const holder = await kv.get(workerLeaseKey(name));
        if (holder !== null) this.set({ worker: name, holder }, 1);
      }
    },
  });
  new Gauge({
    name: 'marque_webhook_deliveries_pending',
    help: 'Webhook delivery attempts waiting to be sent (due now or scheduled retries).',
    registers: [registry],
    aggregator: 'first',
    async collect() {
      this.set(await store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries).countDocuments({ status: 'pending' }));
    },
  });
}
