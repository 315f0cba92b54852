/**
 * The composition root: wires the server and its workers together over the adapters that
 * adapters.ts opens.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { MEDIA_MAX_BYTES, MEDIA_MIME_TYPES } from '../datasources/ports';
import { CursorCodec } from '../resolvers/cursors';
import { buildSchema, OperationRegistry } from '../resolvers/engine';
import type { Services } from '../resolvers/context';
import { buildApp } from '../rest/app';
import { mountDocs } from '../rest/docs-page';
import { mountDashboard } from '../rest/dashboard-page';
import { mountGraphql } from '../rest/graphql/endpoint';
import { InternalCalls } from '../rest/internal-calls';
import { Metrics, mountMetrics } from '../rest/metrics';
import { feedConsumers, registerWorkerMetrics } from '../workers/worker-metrics';
import { createAccessTokenVerifier, OAUTH_SCOPES, type AccessTokenVerifier } from '../mcp/access-tokens';
import { mountMcp } from '../mcp/endpoint';
import { buildTools, type ToolDefinition } from '../mcp/tools';
import { RequestLogWriter } from '../rest/metering';
import { buildRouteTable, operationNames } from '../rest/route-table';
import { SearchIndexer } from '../workers/indexer';
import { Retention } from '../workers/retention';
import { WatchEvaluator } from '../workers/watches/evaluator';
import { WebhookDispatcher, type SendWebhook } from '../workers/webhooks/dispatcher';
import { checkOutboundUrl } from '../datasources/outbound/outbound-url';
import { postJson } from '../datasources/outbound/post-json';
import { getImage } from '../datasources/outbound/get-image';
import { LogoOcr } from '../datasources/logo-ocr';
import { ImageIndexer } from '../workers/image-index';
import { WorkerLease, type LeasedWork } from '../workers/worker-lease';
import { RESPONSE_BODY_BYTES } from '../domain/webhook-deliveries';
import type { Adapters } from './adapters';
import { WORKER_NAMES, type Config, type WorkerName } from './config';

export interface Server {
  app: FastifyInstance;
  indexer: SearchIndexer;
  imageIndexer: ImageIndexer | null;
  services: Services;
  /** The buffered request-log writer (tests flush it before reading the log). */
  requestLog: RequestLogWriter;
  /** Deletes what is kept only for a while (request logs, idempotency receipts, the read change feed). */
  retention: Retention;
  /** Turns new trademark versions into alerts (in-process when `workers` names it). */
  watchEvaluator: WatchEvaluator;
  /** Delivers the event logs to webhook endpoints (in-process when `workers` names it). */
  webhookDispatcher: WebhookDispatcher;
  /** The MCP tools (from the route table) and the tickets their in-process route calls carry. */
  mcp: { tools: readonly ToolDefinition[]; internalCalls: InternalCalls; version: string };
  /** Stops accepting requests, drains, stops the workers. Adapters stay open (the caller owns them). */
  close(): Promise<void>;
  /**
   * The graceful stop: readiness answers 503 shutting_down for `drainMs` while everything is still
   * served (so a load balancer takes the instance out), then `close`, with requests in flight given
   * `timeoutMs` to finish before their connections are cut.
   */
  shutdown(timing: ShutdownTiming): Promise<void>;
}

export interface ShutdownTiming {
  drainMs: number;
  timeoutMs: number;
}

export interface ServerOptions {
  /** Pinned clock for tests. */
  now?: () => Date;
  /** The change-feed workers to run in-process (default all: indexer, watches, webhooks). */
  workers?: readonly WorkerName[];
  /** Run the retention chores (default true). */
  runRetention?: boolean;
  /** Time to live of the workers' leases (MARQUE_WORKER_LEASE_MS; default DEFAULT_LEASE_MS). */
  workerLeaseMs?: number;
  version?: string;
  log?: (message: string, error?: unknown) => void;
  /** Time budget of one watch preview (default 20 s). */
  previewBudgetMs?: number;
  /** production: webhooks only to HTTPS URLs resolving to public addresses (default development). */
  environment?: Config['environment'];
  webhookTimeouts?: { connectMs: number; responseMs: number };
  /** Retry jitter source of the webhook dispatcher (tests pin it). */
  random?: () => number;
  /** `{base_url}` (MARQUE_PUBLIC_URL); default: the address the server listens at. */
  publicUrl?: string | null;
  /** `{auth_url}` of the OAuth authorization server for /mcp (MARQUE_AUTH_URL); none: API keys only. */
  authUrl?: string | null;
  /** JSON request logs on stderr (`info`), or none (default). */
  logLevel?: Config['logLevel'];
  /** MARQUE_METRICS_TOKEN: /metrics needs it as a bearer token; none: open in development, off in production. */
  metricsToken?: string | null;
  /** Where /metrics reads its text from, given this process's registry (default: that registry alone). */
  metricsExposition?: (registry: Registry) => () => Promise<string>;
}

/** `http://host:port` of a listening Fastify app. */
function listenUrl(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') return 'http://localhost';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The server options of the webhook transport, from the configuration. */
export function webhookOptions(config: Config): Pick<ServerOptions, 'environment' | 'webhookTimeouts'> {
  return { environment: config.environment, webhookTimeouts: { connectMs: config.webhookConnectTimeoutMs, responseMs: config.webhookResponseTimeoutMs } };
}

/** The outbound client the dispatcher sends with, and the URL check of endpoint creation and changes. */
export function webhookTransport(options: Pick<ServerOptions, 'environment' | 'webhookTimeouts'>): {
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
/** A step of a server's close taking this long or longer is logged (`shutdown: … took N s`). */
const SLOW_CLOSE_STEP_SECONDS = 5;

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

export type BackgroundOptions = Pick<
  ServerOptions,
  'now' | 'workers' | 'runRetention' | 'log' | 'random' | 'environment' | 'webhookTimeouts' | 'workerLeaseMs'
>;

export async function createBackgroundWorkers(adapters: Adapters, options: BackgroundOptions = {}): Promise<BackgroundWorkers> {
  const now = options.now ?? (() => new Date());
  const workers = new Set(options.workers ?? WORKER_NAMES);
  const log = options.log ?? logToStderr;
  const indexer = new SearchIndexer(adapters.store, adapters.search, (error) => log('indexer failed', error));
  await indexer.ensureIndexes();
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
export function createServices(
  adapters: Adapters,
  secret: Buffer,
  options: Pick<ServerOptions, 'now' | 'previewBudgetMs' | 'environment' | 'webhookTimeouts'> = {},
): Services {
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

export async function createServer(adapters: Adapters, secret: Buffer, options: ServerOptions = {}): Promise<Server> {
  const now = options.now ?? (() => new Date());
  const services = createServices(adapters, secret, options);
  const background = await createBackgroundWorkers(adapters, options);
  const { indexer, imageIndexer, retention, watchEvaluator, webhookDispatcher } = background;
  // The query images' OCR (image search's logo_text): an engine of its own, so searches never queue behind the image indexer's.
  const queryOcr = new LogoOcr();

  let shuttingDown = false;
  const startedAt = Date.now();
  const schema = buildSchema();
  const registry = new OperationRegistry(schema);
  const internalCalls = new InternalCalls();
  const metrics = new Metrics();
  let tools: ToolDefinition[] = [];
  let served: FastifyInstance | null = null;
  const publicUrl = (): string => options.publicUrl ?? (served === null ? 'http://localhost' : listenUrl(served));
  const authUrl = options.authUrl ?? null;
  // Built on first use: its audience is {base_url}/mcp, known once the server listens.
  let verifier: AccessTokenVerifier | null = null;
  const verifyAccessToken: AccessTokenVerifier | null =
    authUrl === null ? null : (token) => (verifier ??= createAccessTokenVerifier({ authUrl, audience: `${publicUrl()}/mcp` }))(token);
  const routes = buildRouteTable({
    oauth: { publicUrl, authUrl, scopes: OAUTH_SCOPES },
    media: adapters.media,
    store: adapters.store,
    imageSearch: {
      index: adapters.images ?? null,
      ocr: queryOcr,
      fetchImage: (url) =>
        getImage(url, {
          parameter: 'image_url',
          production: options.environment === 'production',
          connectTimeoutMs: 5_000,
          responseTimeoutMs: 10_000,
          maxBytes: MEDIA_MAX_BYTES,
          accept: Object.values(MEDIA_MIME_TYPES).join(', '),
        }),
    },
    version: options.version ?? '1.0.0',
    health: {
      startedAt,
      now: () => Date.now(),
      isShuttingDown: () => shuttingDown,
      probes: [
        { name: 'database', ping: () => adapters.store.ping() },
        { name: 'cache', ping: () => adapters.kv.ping() },
        { name: 'search_index', ping: () => adapters.search.ping() },
      ],
    },
  });
  registry.assertUsedExactly(operationNames(routes));
  tools = buildTools(routes);
  const log = options.log ?? logToStderr;
  const requestLog = new RequestLogWriter(adapters.store, { log });
  const app = await buildApp({
    serverSecret: secret,
    services,
    registry,
    routes,
    requestLog,
    internalCalls,
    metrics,
    logger:
      options.logLevel === 'info'
        ? {
            level: 'info',
            stream: process.stderr,
            redact: { paths: ['req.headers.authorization', 'req.headers["x-marque-internal-call"]'], censor: '[redacted]' },
          }
        : false,
    mount: [
      (instance) =>
        mountMetrics(instance, metrics, {
          token: options.metricsToken ?? null,
          production: options.environment === 'production',
          exposition: options.metricsExposition?.(metrics.registry),
        }),
      (instance) => mountGraphql(instance, { schema, services, registry, routes, log }),
      (instance) => mountDocs(instance),
      (instance) => mountDashboard(instance),
      (instance) =>
        mountMcp(instance, {
          store: adapters.store,
          tools,
          internalCalls,
          verifyAccessToken,
          publicUrl,
          version: options.version ?? '1.0.0',
          now,
          log,
        }),
    ],
    log,
  });
  served = app;
  registerWorkerMetrics(metrics.registry, adapters.store, adapters.kv, feedConsumers(indexer.collections));
  background.start();
  // A step of the close that takes longer than this is logged, so a slow stop names its cause.
  const slowStep = async (step: string, run: () => Promise<unknown>): Promise<void> => {
    const started = Date.now();
    await run();
    const seconds = (Date.now() - started) / 1000;
    if (seconds >= SLOW_CLOSE_STEP_SECONDS) log(`shutdown: ${step} took ${seconds.toFixed(1)} s`);
  };
  const close = async (): Promise<void> => {
    shuttingDown = true;
    // Stops accepting; idle keep-alive connections close; requests in flight finish first.
    await slowStep('the HTTP server', () => app.close());
    await slowStep('the request log', () => requestLog.close());
    await slowStep('the background workers', () => background.stop());
    await slowStep("the query images' OCR", () => queryOcr.close());
  };
  return {
    app,
    indexer,
    imageIndexer,
    services,
    requestLog,
    retention,
    watchEvaluator,
    webhookDispatcher,
    mcp: { tools, internalCalls, version: options.version ?? '1.0.0' },
    close,
    shutdown: async ({ drainMs, timeoutMs }) => {
      shuttingDown = true;
      await delay(drainMs);
      const cut = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
      try {
        await close();
      } finally {
        clearTimeout(cut);
      }
    },
  };
}
