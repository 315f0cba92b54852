/**
 * The HTTP half of the composition: the server (REST, /graphql, /mcp, the docs, the dashboard,
 * /metrics) over the adapters adapters.ts opens, with the background workers of background.ts
 * that it runs in-process.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import { MEDIA_MAX_BYTES, MEDIA_MIME_TYPES } from '../datasources/ports';
import { buildSchema, OperationRegistry } from '../resolvers/engine';
import type { Services } from '../resolvers/context';
import { buildApp } from '../rest/app';
import { mountDocs } from '../rest/docs-page';
import { mountDashboard } from '../rest/dashboard-page';
import { mountGraphql } from '../rest/graphql/endpoint';
import { InternalCalls } from '../rest/internal-calls';
import { Metrics, mountMetrics } from '../rest/metrics';
import { feedConsumers, registerWorkerMetrics } from '../workers/worker-metrics';
import { ADVERTISED_OAUTH_SCOPES, createAccessTokenVerifier, type AccessTokenVerifier } from '../mcp/access-tokens';
import { mountMcp } from '../mcp/endpoint';
import { buildTools, type ToolDefinition } from '../mcp/tools';
import { RequestLogWriter } from '../rest/metering';
import { buildRouteTable, operationNames } from '../rest/route-table';
import type { SearchIndexer } from '../workers/indexer';
import type { Retention } from '../workers/retention';
import type { WatchEvaluator } from '../workers/watches/evaluator';
import type { WebhookDispatcher } from '../workers/webhooks/dispatcher';
import { getImage } from '../datasources/outbound/get-image';
import { LogoOcr } from '../datasources/logo-ocr';
import type { ImageIndexer } from '../workers/image-index';
import type { Adapters } from './adapters';
import { createBackgroundWorkers, createServices, logToStderr, type BackgroundOptions, type ServicesOptions } from './background';
import { DEFAULT_REQUEST_TIMEOUT_MS, type Config } from './config';

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

export interface ServerOptions extends BackgroundOptions, ServicesOptions {
  version?: string;
  /** `{base_url}` (MARQUE_PUBLIC_URL); default: the address the server listens at. */
  publicUrl?: string | null;
  /** `{auth_url}` of the OAuth authorization server for /mcp (MARQUE_AUTH_URL); none: API keys only. */
  authUrl?: string | null;
  /** How long a client may take to send a whole request (MARQUE_REQUEST_TIMEOUT_MS); default: a minute. */
  requestTimeoutMs?: number;
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

/** A step of a server's close taking this long or longer is logged (`shutdown: … took N s`). */
const SLOW_CLOSE_STEP_SECONDS = 5;

/** Query images whose OCR may wait for the engine at once (each about 20 ms to a few seconds). */
const QUERY_OCR_WAITING = 4;

export async function createServer(adapters: Adapters, secret: Buffer, options: ServerOptions = {}): Promise<Server> {
  const now = options.now ?? (() => new Date());
  const services = createServices(adapters, secret, options);
  const background = await createBackgroundWorkers(adapters, options);
  const { indexer, imageIndexer, retention, watchEvaluator, webhookDispatcher } = background;
  // The query images' OCR (image search's logo_text): an engine of its own, so searches never queue behind the image indexer's;
  // past QUERY_OCR_WAITING queued recognitions a search answers without logo_text instead of adding work it would not wait for.
  const queryOcr = new LogoOcr(QUERY_OCR_WAITING);

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
    oauth: { publicUrl, authUrl, scopes: ADVERTISED_OAUTH_SCOPES },
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
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
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
          kv: adapters.kv,
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
