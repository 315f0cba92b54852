/**
 * Configuration: read from environment variables and validated here, once, at start. Nothing
 * else in the code base reads `process.env`.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_LEASE_MS } from '../workers/worker-lease';

/** More HTTP processes than this only add memory: each holds its own caches and connections. */
export const MAX_SERVE_WORKERS = 64;

/**
 * Node options for the processes that serve HTTP. A 64 MiB semi-space (V8's default here is 16)
 * lets the objects of the requests in flight die young instead of being promoted to the old
 * generation and collected by a full mark-compact: at 10 connections on two workers, batches of
 * 100 were answered about twice as fast (bench/analysis.md). The cluster primary gives them to its
 * HTTP workers; `npm start` gives them to the process itself, which is the one that serves with
 * `--workers 1` (Node reads them only at start). Not to other commands: ingestion was slower with
 * them. Threads inherit them and may not be given them (workers/ingest/thread-exec-argv.ts).
 */
export const HTTP_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=64'];

/**
 * Parsed catalog documents each process keeps between reads (embedded store): a generated mark
 * takes 1.7 KB of heap (an owner 0.8 KB), so some 20 MB per process, and far more than the marks
 * and parties of a batch of 100 (about 360).
 */
export const DEFAULT_DOCUMENT_CACHE_ENTRIES = 10_000;

/** How long a client may take to send a whole request: an 8 MB image upload at about 1 Mbit/s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  mongodbUrl: string | null;
  mongodbDatabase: string;
  elasticsearchUrl: string | null;
  redisUrl: string | null;
  /** Secret that signs pagination cursors; generated and kept in the data directory when unset. */
  cursorSecret: string | null;
  /** Size and seed of the demo dataset created on first start with an empty store. */
  demoMarks: number;
  demoSeed: number;
  logLevel: 'silent' | 'info';
  /** On SIGTERM/SIGINT: how long readiness answers shutting_down before the listener closes. */
  drainMs: number;
  /** Then how long requests in flight may take before their connections are cut. */
  shutdownTimeoutMs: number;
  /**
   * MARQUE_REQUEST_TIMEOUT_MS: how long a client may take to send a whole request (head and body);
   * past it the connection is closed, so a body sent a byte at a time cannot hold one for ever.
   */
  requestTimeoutMs: number;
  /** Time budget of one watch preview (spec: about 20 seconds). */
  previewBudgetMs: number;
  /** MARQUE_DOCUMENT_CACHE_ENTRIES: parsed catalog documents the embedded store keeps per process (0: none). */
  documentCacheEntries: number;
  /** Demo change simulator: marks written per minute while `serve` runs (0: off). */
  demoChangesPerMinute: number;
  /**
   * MARQUE_ENV: `development` (the default of `npm start`) or `production` (what a deployment
   * sets): production sends webhooks only to HTTPS URLs that resolve to public addresses.
   */
  environment: 'development' | 'production';
  /**
   * MARQUE_WORKERS: the HTTP processes `serve` runs on one port (default: the machine's cores);
   * `serve --workers N` overrides it. 1 runs everything in one process.
   */
  serveWorkers: number;
  /** NODE_OPTIONS as given: an option set there is not overridden by HTTP_NODE_OPTIONS. */
  nodeOptions: string;
  /** MARQUE_FEED_WORKERS: the change-feed workers `serve` runs in-process (default all; `none` for none). */
  workers: readonly WorkerName[];
  /**
   * MARQUE_WORKER_LEASE_MS: each change-feed worker runs in one process at a time, the one holding
   * its lease; after that process dies, another takes the worker over within 4/3 of this time.
   */
  workerLeaseMs: number;
  /** Webhook deliveries: connect and whole-response timeouts. */
  webhookConnectTimeoutMs: number;
  webhookResponseTimeoutMs: number;
  /** MARQUE_PUBLIC_URL: `{base_url}`, the audience of MCP access tokens (default: the listen address). */
  publicUrl: string | null;
  /** MARQUE_AUTH_URL: `{auth_url}` of the OAuth authorization server for /mcp (unset: API keys only). */
  authUrl: string | null;
  /** MARQUE_API_KEY: the key `marque mcp` (stdio) acts with. */
  apiKey: string | null;
  /** MARQUE_MCP_TOOLSETS: the toolsets `marque mcp` lists (comma-separated; unset: every tool); `--toolsets` overrides it. */
  mcpToolsets: string | null;
  /** MARQUE_METRICS_TOKEN: the bearer token /metrics needs (unset: open in development, off in production). */
  metricsToken: string | null;
}

export const WORKER_NAMES = ['indexer', 'watches', 'webhooks'] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

function workerList(raw: string | undefined): readonly WorkerName[] {
  if (raw === undefined || raw === '') return WORKER_NAMES;
  if (raw === 'none') return [];
  const names = raw.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !(WORKER_NAMES as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new ConfigError(`MARQUE_FEED_WORKERS must be none or a comma-separated list of ${WORKER_NAMES.join(', ')} (got '${unknown}')`);
  return names as WorkerName[];
}

function environment(raw: string | undefined): Config['environment'] {
  if (raw === undefined || raw === '' || raw === 'development') return 'development';
  if (raw === 'production') return 'production';
  throw new ConfigError(`MARQUE_ENV must be development or production (got '${raw}')`);
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
  return Number(raw);
}

const optional = (value: string | undefined): string | null => (value === undefined || value === '' ? null : value);

/** An http(s) base URL without a trailing slash, or null when unset. */
function baseUrl(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = optional(env[name]);
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http or https URL (got '${raw}')`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '')
    throw new ConfigError(`${name} must be an http or https URL without query or fragment (got '${raw}')`);
  return raw.replace(/\/+$/, '');
}

/**
 * The cursor secret also derives the key that seals stored idempotent responses (which hold API
 * keys and webhook secrets): one short enough to guess would open both. 32 characters is what
 * `openssl rand -hex 16` gives; the README suggests -hex 32.
 */
const MIN_SECRET_LENGTH = 32;

function secret(env: NodeJS.ProcessEnv, name: string): string | null {
  const value = optional(env[name]);
  if (value !== null && value.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(`${name} must be at least ${MIN_SECRET_LENGTH} characters (got ${value.length}); e.g. openssl rand -hex 32`);
  }
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const runsIn = environment(env.MARQUE_ENV);
  const logLevel = env.MARQUE_LOG_LEVEL ?? 'info';
  if (logLevel !== 'silent' && logLevel !== 'info') throw new ConfigError(`MARQUE_LOG_LEVEL must be silent or info (got '${logLevel}')`);
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir: resolve(env.MARQUE_DATA_DIR || './data'),
    mongodbUrl: optional(env.MONGODB_URL),
    mongodbDatabase: env.MONGODB_DATABASE || 'marque',
    elasticsearchUrl: optional(env.ELASTICSEARCH_URL),
    redisUrl: optional(env.REDIS_URL),
    cursorSecret: secret(env, 'MARQUE_CURSOR_SECRET'),
    // Production seeds no demo account (whose full-scope key would be printed) unless asked to.
    demoMarks: integer(env, 'MARQUE_DEMO_MARKS', runsIn === 'production' ? 0 : 20_000, 0, 10_000_000),
    demoSeed: integer(env, 'MARQUE_DEMO_SEED', 42, 0, 2 ** 31 - 1),
    logLevel,
    drainMs: integer(env, 'MARQUE_DRAIN_MS', 3_000, 0, 600_000),
    shutdownTimeoutMs: integer(env, 'MARQUE_SHUTDOWN_TIMEOUT_MS', 30_000, 0, 600_000),
    requestTimeoutMs: integer(env, 'MARQUE_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 1_000, 3_600_000),
    previewBudgetMs: integer(env, 'MARQUE_PREVIEW_BUDGET_MS', 20_000, 1, 600_000),
    documentCacheEntries: integer(env, 'MARQUE_DOCUMENT_CACHE_ENTRIES', DEFAULT_DOCUMENT_CACHE_ENTRIES, 0, 10_000_000),
    demoChangesPerMinute: integer(env, 'MARQUE_DEMO_CHANGES_PER_MINUTE', 6, 0, 6_000),
    environment: runsIn,
    serveWorkers: integer(env, 'MARQUE_WORKERS', availableParallelism(), 1, MAX_SERVE_WORKERS),
    nodeOptions: env.NODE_OPTIONS ?? '',
    workers: workerList(env.MARQUE_FEED_WORKERS),
    workerLeaseMs: integer(env, 'MARQUE_WORKER_LEASE_MS', DEFAULT_LEASE_MS, 1_000, 600_000),
    webhookConnectTimeoutMs: integer(env, 'MARQUE_WEBHOOK_CONNECT_TIMEOUT_MS', 5_000, 100, 60_000),
    webhookResponseTimeoutMs: integer(env, 'MARQUE_WEBHOOK_RESPONSE_TIMEOUT_MS', 10_000, 100, 120_000),
    publicUrl: baseUrl(env, 'MARQUE_PUBLIC_URL'),
    authUrl: baseUrl(env, 'MARQUE_AUTH_URL'),
    apiKey: optional(env.MARQUE_API_KEY),
    mcpToolsets: optional(env.MARQUE_MCP_TOOLSETS),
    metricsToken: optional(env.MARQUE_METRICS_TOKEN),
  };
}
