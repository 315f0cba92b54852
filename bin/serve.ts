/**
 * `marque serve [--workers N]`: the API on HOST:PORT.
 *
 * With one worker everything runs in this process: the HTTP server, the change-feed workers
 * (MARQUE_FEED_WORKERS), retention and the demo changes. With N > 1 (MARQUE_WORKERS, default the
 * machine's cores) it uses node:cluster. This process, the primary, is the one writer of the
 * background work: it seeds an empty store, runs the change-feed workers, retention and the demo
 * changes, and serves no HTTP itself. It forks N HTTP workers sharing the port (the primary hands
 * out connections round-robin), each with its own connections to the same SQLite files; WAL mode
 * lets their reads run beside one another and beside the writer. The workers' own writes (request
 * logs, watches, keys…) are short transactions that wait for one another on SQLite's busy timeout.
 * Because only the primary runs the feed workers, N never multiplies alerts or deliveries; the
 * embedded KeyValue keeps limits exact across the workers (one SQLite file, atomic transactions).
 * The HTTP stack (compose.ts) is loaded by the processes that serve HTTP, not by the primary.
 */
import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { DocumentStore } from '../datasources/ports';
import { DemoChanges } from '../workers/demo-changes';
import { inTurn } from '../workers/worker-lease';
import { err, onStopSignals, positiveInt, progressFor, UsageError } from './cli-support';
import { closeAdapters, cursorSecret, openAdapters, type Adapters } from './adapters';
import { createBackgroundWorkers, createServices, logToStderr, webhookOptions } from './background';
import type { ServerOptions } from './compose';
import { HTTP_NODE_OPTIONS, MAX_SERVE_WORKERS, type Config } from './config';
import {
  clearInterruptedSeed,
  createDemoAccount,
  createDemoWatches,
  DEMO_KEY_FILE,
  interruptedDemoSeed,
  type DemoSeed,
  isEmptyStore,
  recordDemoSeed,
  seedAndIndex,
} from './demo';

/** Messages between the primary and its HTTP workers (beside prom-client's own). */
type ClusterMessage =
  { type: 'marque:shutdown' } | { type: 'marque:metrics-request'; id: number } | { type: 'marque:metrics'; id: number; text?: string; error?: string };

const isClusterMessage = (message: unknown): message is ClusterMessage =>
  typeof message === 'object' && message !== null && String((message as { type?: unknown }).type).startsWith('marque:');

/** A crashed HTTP worker is replaced after this pause (a tight crash loop would only burn a core). */
const RESTART_DELAY_MS = 1_000;

export async function serve(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { workers: { type: 'string' } } });
  const workers = positiveInt('workers', values.workers, config.serveWorkers);
  if (workers < 1 || workers > MAX_SERVE_WORKERS) throw new UsageError(`--workers must be from 1 to ${MAX_SERVE_WORKERS} (got ${workers})`);
  const log = config.logLevel === 'silent' ? () => undefined : (line: string) => err(line);
  const adapters = await openAdapters(config);
  const demo = await seedDemoIfEmpty(config, adapters, log);
  if (workers === 1) return serveInOneProcess(config, adapters, demo, log);
  return servePrimary(config, adapters, demo, workers, log);
}

/**
 * An empty embedded store gets the demo dataset and account (printed once) before anything serves.
 * Of several processes started together on a new data directory one seeds; the others wait for
 * it to finish, and serve the seeded store. A seed cut short (the process stopped during it)
 * starts over with what it was asked for, at the next start.
 */
async function seedDemoIfEmpty(config: Config, adapters: Adapters, log: (line: string) => void): Promise<{ organizationId: string } | null> {
  if (config.demoMarks === 0 || (await pendingDemoSeed(config, adapters.store)) === null) return null;
  return inTurn(
    adapters.kv,
    DEMO_SEED_LEASE,
    // Asked again in turn: the process this one waited for may have seeded meanwhile.
    async () => {
      const pending = await pendingDemoSeed(config, adapters.store);
      return pending === null ? null : seedDemo(config, adapters, pending, log);
    },
    { ttlMs: config.workerLeaseMs, onWait: () => log(`marque: another process is seeding ${config.dataDir}; waiting for it`) },
  );
}

/** The lease of the process that seeds an empty data directory. */
const DEMO_SEED_LEASE = 'demo-seed';

interface PendingDemoSeed {
  asked: DemoSeed;
  /** A seed cut short, whose writes go before it runs again. */
  startOver: boolean;
}

/** The demo seed to run: one cut short, as it was asked for; a new one on an empty store; or none. */
async function pendingDemoSeed(config: Config, store: DocumentStore): Promise<PendingDemoSeed | null> {
  const interrupted = await interruptedDemoSeed(store);
  if (interrupted !== null) return { asked: interrupted, startOver: true };
  return (await isEmptyStore(store)) ? { asked: { marks: config.demoMarks, seed: config.demoSeed }, startOver: false } : null;
}

async function seedDemo(
  config: Config,
  adapters: Adapters,
  { asked, startOver }: PendingDemoSeed,
  log: (line: string) => void,
): Promise<{ organizationId: string }> {
  if (startOver) {
    log(`marque: the demo seed in ${config.dataDir} was cut short; starting it over (${asked.marks.toLocaleString('en-US')} marks)…`);
    await clearInterruptedSeed(config, adapters);
  } else {
    log(`marque: empty store in ${config.dataDir}; seeding the demo dataset (${asked.marks.toLocaleString('en-US')} marks)…`);
  }
  await recordDemoSeed(adapters.store, 'seeding', asked);
  const report = await seedAndIndex(config, adapters, asked.marks, asked.seed, progressFor(config));
  log(`marque: demo dataset ready in ${report.seconds.toFixed(1)} s`);
  const account = await createDemoAccount(adapters.store, config.dataDir);
  await recordDemoSeed(adapters.store, 'done', asked);
  // In production a secret is never written to the output, which log collectors keep: the file only.
  if (config.environment === 'production') log(`marque: the demo API key is in ${join(config.dataDir, DEMO_KEY_FILE)} (mode 0600)`);
  else process.stdout.write(`\nDemo API key (shown once; also saved to ${join(config.dataDir, DEMO_KEY_FILE)}):\n\n  ${account.secret}\n\n`);
  return account;
}

/** A demo data directory stays alive: a few marks a minute, which the demo watches alert on. */
function startDemoChanges(config: Config, adapters: Adapters): DemoChanges {
  const perMinute = existsSync(join(config.dataDir, DEMO_KEY_FILE)) ? config.demoChangesPerMinute : 0;
  const changes = new DemoChanges(adapters.store, perMinute, config.demoSeed, (error) => err(`demo changes failed: ${String(error)}`));
  changes.start();
  return changes;
}

function serverOptions(config: Config): ServerOptions {
  return {
    log: logToStderr,
    previewBudgetMs: config.previewBudgetMs,
    requestTimeoutMs: config.requestTimeoutMs,
    publicUrl: config.publicUrl,
    authUrl: config.authUrl,
    logLevel: config.logLevel,
    metricsToken: config.metricsToken,
    workerLeaseMs: config.workerLeaseMs,
    ...webhookOptions(config),
  };
}

async function serveInOneProcess(config: Config, adapters: Adapters, demo: { organizationId: string } | null, log: (line: string) => void): Promise<void> {
  const { createServer } = await import('./compose');
  const server = await createServer(adapters, cursorSecret(config), { ...serverOptions(config), workers: config.workers });
  if (demo) await createDemoWatches(server.services, demo.organizationId);
  const changes = startDemoChanges(config, adapters);
  const address = await server.app.listen({ host: config.host, port: config.port });
  // The handlers go in before the serving line: whoever reads that line may signal at once.
  onStopSignals(log, async () => {
    await changes.stop();
    await server.shutdown({ drainMs: config.drainMs, timeoutMs: config.shutdownTimeoutMs });
    await closeAdapters(adapters);
  });
  log(`marque: serving ${address}/v1 (data: ${config.dataDir})`);
}

/**
 * Node options for the workers: the primary's own, less an `-e` script (the workers run
 * serve-worker), plus each of HTTP_NODE_OPTIONS that neither they nor NODE_OPTIONS already set.
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = ''): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i += 1) {
    const arg = execArgv[i] as string;
    if (arg === '-e' || arg === '--eval' || arg === '-p' || arg === '--print') i += 1;
    else if (!arg.startsWith('--eval=') && !arg.startsWith('--print=')) kept.push(arg);
  }
  const given = [...kept, ...nodeOptions.split(/\s+/)].map((option) => option.split('=')[0]);
  return [...kept, ...HTTP_NODE_OPTIONS.filter((option) => !given.includes(option.split('=')[0]))];
}

async function servePrimary(
  config: Config,
  adapters: Adapters,
  demo: { organizationId: string } | null,
  count: number,
  log: (line: string) => void,
): Promise<void> {
  // Before any fork: the workers read the secret file this may create.
  const secret = cursorSecret(config);
  if (demo) await createDemoWatches(createServices(adapters, secret, serverOptions(config)), demo.organizationId);
  const background = await createBackgroundWorkers(adapters, { ...serverOptions(config), workers: config.workers });
  background.start();
  const changes = startDemoChanges(config, adapters);

  const aggregator = new AggregatorRegistry();
  cluster.setupPrimary({
    exec: join(__dirname, `serve-worker${extname(__filename)}`),
    execArgv: workerExecArgv(process.execArgv, config.nodeOptions),
    args: [],
  });
  let stopping = false;
  const listening = new Set<Worker>();
  let announced = false;

  const fork = (): void => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isClusterMessage(message) || message.type !== 'marque:metrics-request') return;
      const reply = (answer: { text?: string; error?: string }): void => {
        if (worker.isConnected()) worker.send({ type: 'marque:metrics', id: message.id, ...answer } satisfies ClusterMessage);
      };
      aggregator.clusterMetrics().then(
        (text) => reply({ text }),
        (error: unknown) => reply({ error: String(error) }),
      );
    });
    worker.once('listening', (address) => {
      listening.add(worker);
      if (announced || listening.size < count) return;
      announced = true;
      const host = address.addressType === 6 ? `[${address.address}]` : address.address;
      log(`marque: serving http://${host}:${address.port}/v1 (${count} workers; data: ${config.dataDir})`);
    });
    worker.once('exit', (code, signal) => {
      const wasListening = listening.delete(worker);
      if (stopping) return;
      if (!wasListening && !announced) {
        // It never started (a port in use, a broken data directory): restarting would fail the same way.
        log(`marque: an HTTP worker failed to start (exit ${code ?? signal}); stopping`);
        void stop().then(() => process.exit(1));
        return;
      }
      log(`marque: HTTP worker ${worker.process.pid} exited (${code ?? signal}); starting another`);
      setTimeout(() => stopping || fork(), RESTART_DELAY_MS).unref();
    });
  };

  const stop = async (): Promise<void> => {
    stopping = true;
    const exits = Object.values(cluster.workers ?? {}).map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker === undefined || worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          if (worker.isConnected()) worker.send({ type: 'marque:shutdown' } satisfies ClusterMessage);
        }),
    );
    await Promise.all(exits);
    await changes.stop();
    await background.stop();
    await closeAdapters(adapters);
  };

  onStopSignals(log, stop, () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
  });
  for (let i = 0; i < count; i += 1) fork();
}

/** One HTTP worker of `serve --workers N` (bin/serve-worker.ts runs it in each forked process). */
export async function serveWorker(config: Config): Promise<void> {
  const adapters = await openAdapters(config);
  const pending = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const { createServer } = await import('./compose');
  const server = await createServer(adapters, cursorSecret(config), {
    ...serverOptions(config),
    workers: [],
    runRetention: false,
    metricsExposition: (registry: Registry) => {
      // Answers the primary's collection requests with this worker's registry.
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries([registry]);
      return () =>
        new Promise<string>((resolve, reject) => {
          const id = (nextId += 1);
          pending.set(id, { resolve, reject });
          process.send?.({ type: 'marque:metrics-request', id } satisfies ClusterMessage);
        });
    },
  });
  let stopping: Promise<void> | null = null;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      await server.shutdown({ drainMs: config.drainMs, timeoutMs: config.shutdownTimeoutMs });
      await closeAdapters(adapters);
      process.exit(0);
    })());
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message)) return;
    if (message.type === 'marque:shutdown') void stop();
    if (message.type === 'marque:metrics') {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.text !== undefined) waiting?.resolve(message.text);
      else waiting?.reject(new Error(`metrics from the primary failed: ${message.error ?? 'no answer'}`));
    }
  });
  // A terminal's Ctrl-C reaches every process of the group: each worker drains once, however told.
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  await server.app.listen({ host: config.host, port: config.port });
}
