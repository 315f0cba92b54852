/**
 * The background half of the composition: the change-feed workers and retention over the
 * adapters, the services the resolvers are given, and the webhook transport. `marque worker` and
 * the primary of `marque serve --workers N` need only this half, so they start without the HTTP
 * stack (compose.ts adds it).
 */
import { checkOutboundUrl } from '../datasources/outbound/outbound-url';
import { postJson } from '../datasources/outbound/post-json';
import { RESPONSE_BODY_BYTES } from '../domain/webhook-deliveries';
import type { Services } from '../resolvers/context';
import { CursorCodec } from '../resolvers/cursors';
import { ImageIndexer } from '../workers/image-index';
import { SearchIndexer } from '../workers/indexer';
import { Retention } from '../workers/retention';
import { WatchEvaluator } from '../workers/watches/evaluator';
import { WebhookDispatcher, type SendWebhook } from '../workers/webhooks/dispatcher';
import { WorkerLease, type LeasedWork } from '../workers/worker-lease';
import type { Adapters } from './adapters';
import { WORKER_NAMES, type Config, type WorkerName } from './config';

/** How webhooks are sent and their URLs checked. */
export interface WebhookOptions {
  /** production: webhooks only to HTTPS URLs resolving to public addresses (default development). */
  environment?: Config['environment'];
  webhookTimeouts?: { connectMs: number; responseMs: number };
}

export interface ServicesOptions extends WebhookOptions {
  /** Pinned clock for tests. */
  now?: () => Date;
  /** Time budget of one watch preview (default 20 s). */
  previewBudgetMs?: number;
}

/** The options of the webhook transport, from the configuration. */
export function webhookOptions(config: Config): WebhookOptions {
  return { environment: config.environment, webhookTimeouts: { connectMs: config.webhookConnectTimeoutMs, responseMs: config.webhookResponseTimeoutMs } };
}

/** The outbound client the dispatcher sends with, and the URL check of endpoint creation and changes. */
export function webhookTransport(options: WebhookOptions): {
  send: SendWebhook;
  checkUrl: (url: string) => Promise<void>;
} {
  const production = options.environment === 'production';
  const timeouts = options.webhookTimeouts ?? { connectMs: 5_000, responseMs: 10_000 };
  return {
    send: (url, body, headers) =>
      postJson(url, body, headers, {
        production,
        connectTimeoutMs: timeouts.connectMs,
        responseTimeoutMs: timeouts.responseMs,
        maxResponseBytes: RESPONSE_BODY_BYTES,
      }),
    checkUrl: (url) => checkOutboundUrl(url, { production }),
  };
}

const DEFAULT_PREVIEW_BUDGET_MS = 20_000;
/** The `log` of the server, its workers and the CLI: the message on stderr, and the error (with its stack) when there is one. */
export const logToStderr = (message: string, error?: unknown): void => (error === undefined ? console.error(message) : console.error(message, error));

/** The change-feed workers and the retention chores, built together; `start` runs those asked for. */
export interface BackgroundWorkers {
  indexer: SearchIndexer;
  /** Keeps image search's fingerprints and ANN indexes in step (runs with the indexer; null without `adapters.images`). */
  imageIndexer: ImageIndexer | null;
  retention: Retention;
  watchEvaluator: WatchEvaluator;
  webhookDispatcher: WebhookDispatcher;
  /** Starts retention and, through their leases (workers/worker-lease.ts), the workers asked for. */
  start(): void;
  /** Each stops after its current batch, whose position it has checkpointed, and releases its lease. */
  stop(): Promise<void>;
}

export interface BackgroundOptions extends WebhookOptions {
  /** Pinned clock for tests. */
  now?: () => Date;
  /** The change-feed workers to run in-process (default all: indexer, watches, webhooks). */
  workers?: readonly WorkerName[];
  /** Run the retention chores (default true). */
  runRetention?: boolean;
  /** Time to live of the workers' leases (MARQUE_WORKER_LEASE_MS; default DEFAULT_LEASE_MS). */
  workerLeaseMs?: number;
  /** Where failures are reported (default logToStderr). */
  log?: (message: string, error?: unknown) => void;
  /** Retry jitter source of the webhook dispatcher (tests pin it). */
  random?: () => number;
}

export async function createBackgroundWorkers(adapters: Adapters, options: BackgroundOptions = {}): Promise<BackgroundWorkers> {
  const now = options.now ?? (() => new Date());
  const workers = new Set(options.workers ?? WORKER_NAMES);
  const log = options.log ?? logToStderr;
  const indexer = new SearchIndexer(adapters.store, adapters.search, (error) => log('indexer failed', error));
  await indexer.ensureIndexes((index) =>
    log(
      `marque: writing the search index "${index}" again from the store (new or upgraded, or a refill cut short); this process starts its work when it is done`,
    ),
  );
  const retention = new Retention(
    adapters.store,
    () => new Date(),
    (error) => log('retention failed', error),
  );
  const watchEvaluator = new WatchEvaluator(adapters.store, adapters.search, now, (error) => log('watch evaluator failed', error));
  await watchEvaluator.initialize();
  const webhookDispatcher = new WebhookDispatcher(adapters.store, webhookTransport(options).send, {
    now,
    random: options.random,
    onError: (error) => log('webhook dispatcher failed', error),
  });
  await webhookDispatcher.initialize();
  const imageIndexer = adapters.images
    ? new ImageIndexer(adapters.store, adapters.media, adapters.images, { onError: (error) => log('image indexer failed', error) })
    : null;
  const work: Record<WorkerName, LeasedWork> = {
    indexer: {
      start: () => (indexer.start(), imageIndexer?.start()),
      stop: async () => (await indexer.stop(), await imageIndexer?.stop()),
    },
    watches: watchEvaluator,
    webhooks: webhookDispatcher,
  };
  const leases = WORKER_NAMES.filter((name) => workers.has(name)).map(
    (name) =>
      new WorkerLease(adapters.kv, name, work[name], {
        ttlMs: options.workerLeaseMs,
        log,
        onError: (error) => log(`${name} worker lease failed`, error),
      }),
  );
  return {
    indexer,
    imageIndexer,
    retention,
    watchEvaluator,
    webhookDispatcher,
    start: () => {
      if (options.runRetention ?? true) retention.start();
      for (const lease of leases) lease.start();
    },
    stop: async () => {
      await retention.stop();
      for (const lease of leases) await lease.stop();
    },
  };
}

/** What the resolvers are given: the adapters, the cursor codec, the clock and the webhook URL check. */
export function createServices(adapters: Adapters, secret: Buffer, options: ServicesOptions = {}): Services {
  const now = options.now ?? (() => new Date());
  return {
    store: adapters.store,
    search: adapters.search,
    kv: adapters.kv,
    cursors: new CursorCodec(secret, () => now().getTime()),
    now,
    previewBudgetMs: options.previewBudgetMs ?? DEFAULT_PREVIEW_BUDGET_MS,
    checkWebhookUrl: webhookTransport(options).checkUrl,
  };
}
