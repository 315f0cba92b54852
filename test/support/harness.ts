/**
 * Starts the real server in-process on an ephemeral loopback port, over embedded adapters in a
 * temporary directory, with a fixture dataset the generator makes from a fixed seed. Tests talk
 * to it over HTTP with fetch, as a client would.
 *
 * MARQUE_TEST_SERVERS=2 runs every such app as two servers over the same files, each with its own
 * adapters (SQLite connections, caches, KeyValue connection), behind a front that alternates
 * requests between them: what `marque serve --workers 2` shares and what it does not, so the whole
 * suite checks that nothing a client relies on lives in one process's memory (`npm run
 * test:servers2`). The test's own handles (`adapters`, `server`, `indexer`) are the first server's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { closeAdapters, type Adapters } from '../../bin/adapters';
import { DEFAULT_DOCUMENT_CACHE_ENTRIES } from '../../bin/config';
import { logToStderr } from '../../bin/background';
import { createServer, type Server, type ServerOptions } from '../../bin/compose';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import { createEmbeddedMediaStore } from '../../datasources/embedded/media-store';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { ImageIndex } from '../../datasources/image-index';
import type { DocumentStore, KeyValue } from '../../datasources/ports';
import type { LimitsOverride, PlanName } from '../../domain/plans';
import { CATALOG_COLLECTIONS, COLLECTIONS } from '../../domain/records';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { STORE_INDEXES } from '../../resolvers/store-indexes';
import { SearchIndexer } from '../../workers/indexer';
import { withGeneratedLogos } from '../../workers/ingest/generated-logos';
import { seedStore } from '../../workers/ingest/seed';
import { startAlternatingProxy } from './alternating-proxy';
import { readCatalog, type Catalog } from './party-expectations';

export const FIXTURE_SEED = 20261101;

/** Servers per test app (see above). */
const SERVERS = Number(process.env.MARQUE_TEST_SERVERS ?? 1);

export interface Keys {
  /** Every customer scope. */
  full: string;
  /** A second organization's key with every customer scope. */
  otherOrg: string;
  /** Valid key without trademarks:read. */
  billingOnly: string;
  /** Legacy scope search:read only. */
  legacy: string;
}

export interface TestApp {
  baseUrl: string;
  /**
   * The first server's own address, bypassing the front when there are two (otherwise baseUrl): for
   * tests of one server's transport, on raw sockets or with bodies the server stops reading, which
   * a front would answer itself. `marque serve` hands each connection whole to one worker.
   */
  directUrl: string;
  keys: Keys;
  /** The organization of keys.full, billingOnly and legacy. */
  organizationId: string;
  adapters: Adapters;
  /** The embedded store's file, for a second connection as another process would open it; its folder is a MARQUE_DATA_DIR. */
  storePath: string;
  server: Server;
  indexer: SearchIndexer;
  /** Counts DocumentStore calls by method (for N+1 checks). */
  storeCalls: Map<string, number>;
  /** Writes every server's pending request-log rows now (they are written about 25 ms after each response). */
  flushRequestLogs(): Promise<void>;
  get(path: string, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  post(path: string, body: unknown, key?: string | null, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Wraps a store so tests can count calls per collection method (`findByIds`, `find`, …). */
function countingStore(store: DocumentStore, calls: Map<string, number>): DocumentStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop !== 'collection') return Reflect.get(target, prop, receiver);
      return (name: string) =>
        new Proxy(target.collection(name), {
          get(collection, method, r) {
            const value = Reflect.get(collection, method, r);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              const key = `${name}.${String(method)}`;
              calls.set(key, (calls.get(key) ?? 0) + 1);
              return (value as (...a: unknown[]) => unknown).apply(collection, args);
            };
          },
        });
    },
  });
}

export interface TestAppOptions {
  marks?: number;
  now?: () => Date;
  /** The KeyValue adapter (default: embedded in the temporary directory); closed with the app. */
  kv?: KeyValue;
  /** Time budget of one watch preview (default 20 s). */
  previewBudgetMs?: number;
  /** Plan and limit overrides of the test organization (the one of keys.full). */
  organization?: { plan?: PlanName; limitsOverride?: LimitsOverride; billingAnchorDay?: number };
  /** Webhook transport rules and timeouts, and the dispatcher's retry jitter (see ServerOptions). */
  webhooks?: Pick<ServerOptions, 'environment' | 'webhookTimeouts' | 'random'>;
  /** The OAuth authorization server of /mcp, and the public base URL (default: the listen address). */
  mcp?: Pick<ServerOptions, 'authUrl' | 'publicUrl'>;
  /** The bearer token /metrics needs. */
  metricsToken?: string;
  /**
   * Servers behind the front (default MARQUE_TEST_SERVERS, else 1). 1 for tests of one process's
   * counters: /metrics sums its workers only under `marque serve` (test/bin/serve-workers.test.ts).
   */
  servers?: number;
}

/** Adapters over the app's files in `dir`, as each serving process opens its own. */
function openAdapters(dir: string, storeCalls: Map<string, number>, kv: KeyValue | undefined): { rawStore: DocumentStore; adapters: Adapters } {
  const rawStore = createEmbeddedDocumentStore({
    path: join(dir, 'marque.sqlite'),
    cache: { collections: CATALOG_COLLECTIONS, entries: DEFAULT_DOCUMENT_CACHE_ENTRIES },
  });
  return {
    rawStore,
    adapters: {
      store: countingStore(rawStore, storeCalls),
      search: createEmbeddedSearchIndex({ path: join(dir, 'search.sqlite') }),
      kv: kv ?? createEmbeddedKeyValue({ path: join(dir, 'kv.sqlite') }),
      media: withGeneratedLogos(createEmbeddedMediaStore({ directory: join(dir, 'media'), store: rawStore }), rawStore),
      images: new ImageIndex({ store: rawStore, directory: join(dir, 'image-index') }),
    },
  };
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'marque-test-'));
  const storeCalls = new Map<string, number>();
  // The file names `marque` uses, so a CLI process with MARQUE_DATA_DIR=dirname(storePath) works on this app's data.
  const storePath = join(dir, 'marque.sqlite');
  const { rawStore, adapters } = openAdapters(dir, storeCalls, options.kv);
  await rawStore.ensureIndexes(STORE_INDEXES);
  const indexer = new SearchIndexer(rawStore, adapters.search);
  await indexer.ensureIndexes();
  await seedStore(rawStore, { marks: options.marks ?? 1500, seed: FIXTURE_SEED });
  await indexer.rebuild();

  const org = await createOrganization(rawStore, {
    name: 'Test org',
    plan: options.organization?.plan,
    billingAnchorDay: options.organization?.billingAnchorDay,
  });
  const limitsOverride = options.organization?.limitsOverride;
  if (limitsOverride) await rawStore.collection(COLLECTIONS.organizations).updateOne({ _id: org._id }, { $set: { limits_override: limitsOverride } });
  const other = await createOrganization(rawStore, { name: 'Other org' });
  const keys: Keys = {
    full: (await createApiKey(rawStore, { organizationId: org._id, name: 'full', scopes: [...CUSTOMER_SCOPES] })).secret,
    otherOrg: (await createApiKey(rawStore, { organizationId: other._id, name: 'other', scopes: [...CUSTOMER_SCOPES] })).secret,
    billingOnly: (await createApiKey(rawStore, { organizationId: org._id, name: 'billing', scopes: ['billing:read'] })).secret,
    legacy: (await createApiKey(rawStore, { organizationId: org._id, name: 'legacy', scopes: ['search:read'] })).secret,
  };

  // No background workers: tests run the indexer, the watch evaluator and the webhook dispatcher
  // when they need them.
  const serverOptions: ServerOptions = {
    workers: [],
    runRetention: false,
    now: options.now,
    // A slow step of a close is always told (the shared app's close has taken a minute at the end of full runs).
    log: (m: string, e?: unknown) => {
      if (process.env.DEBUG_LOG || m.startsWith('shutdown:')) logToStderr(m, e);
    },
    previewBudgetMs: options.previewBudgetMs,
    ...options.webhooks,
    ...options.mcp,
    metricsToken: options.metricsToken,
  };
  const secret = Buffer.from('test-cursor-secret');
  const listen = async (app: Server['app']): Promise<string> => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  };
  // The front starts first so that the servers' public URL (MCP's OAuth metadata) is its address,
  // as every worker of `marque serve` shares one port.
  const servers = options.servers ?? SERVERS;
  const backends: string[] = [];
  const proxy = servers > 1 ? await startAlternatingProxy(backends) : null;
  if (proxy !== null) serverOptions.publicUrl ??= proxy.baseUrl;
  const server = await createServer(adapters, secret, serverOptions);
  backends.push(await listen(server.app));
  const others: { server: Server; adapters: Adapters }[] = [];
  for (let i = 1; i < servers; i++) {
    const other = openAdapters(dir, storeCalls, options.kv).adapters;
    const otherServer = await createServer(other, secret, serverOptions);
    others.push({ server: otherServer, adapters: other });
    backends.push(await listen(otherServer.app));
  }
  const baseUrl = proxy?.baseUrl ?? backends[0]!;
  const allServers = [server, ...others.map((other) => other.server)];

  const headersFor = (key: string | null | undefined, extra: Record<string, string> = {}) => ({
    ...(key === null ? {} : { authorization: `Bearer ${key ?? keys.full}` }),
    ...extra,
  });
  return {
    baseUrl,
    directUrl: backends[0]!,
    keys,
    organizationId: org._id,
    adapters,
    storePath,
    server,
    indexer,
    storeCalls,
    flushRequestLogs: async () => {
      await Promise.all(allServers.map((each) => each.requestLog.flush()));
    },
    get: (path, key, headers) => fetch(baseUrl + path, { headers: headersFor(key, headers) }),
    post: (path, body, key, headers) =>
      fetch(baseUrl + path, {
        method: 'POST',
        headers: headersFor(key, { 'content-type': 'application/json', ...headers }),
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await proxy?.close();
      await Promise.all(allServers.map((each) => each.close()));
      // A KeyValue the test passed in is one instance for every server: closed once, below.
      for (const { adapters: other } of others)
        await Promise.all([other.store.close(), other.search.close(), ...(options.kv === undefined ? [other.kv.close()] : [])]);
      await closeAdapters(adapters);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let shared: Promise<TestApp> | null = null;

/** One read-only app shared by the test files that do not change data (closed at exit). */
export function sharedTestApp(): Promise<TestApp> {
  shared ??= startTestApp();
  return shared;
}

/** The shared app and its fixture catalog, read from its store once. */
export interface SharedFixture {
  app: TestApp;
  catalog: Catalog;
}

let sharedCatalog: Promise<Catalog> | null = null;

/**
 * The setup most read-only test files share: a `before` hook that opens the shared app (with a
 * timeout long enough to seed it) and hands it, with the fixture catalog, to `use`.
 */
export function beforeShared(use: (fixture: SharedFixture) => void): void {
  before(async function () {
    this.timeout(120_000);
    const app = await sharedTestApp();
    sharedCatalog ??= readCatalog(app.adapters.store);
    use({ app, catalog: await sharedCatalog });
  });
}

after(async function () {
  // The shared app has served 14 files' requests by now: its close has been seen to take over
  // mocha's 20 s default at the end of a full run (and then the hooks after it, which stop the
  // suite's throwaway Redis servers, never ran). How long it took is printed when that is long,
  // beside the server's own line for a slow step of its close.
  this.timeout(120_000);
  if (!shared) return;
  const started = Date.now();
  await (await shared).close();
  const seconds = (Date.now() - started) / 1000;
  if (seconds > 10) console.warn(`harness: closing the shared app took ${seconds.toFixed(1)} s`);
});
