/**
 * `npm run bench:webhooks`: the webhook dispatcher against a real local receiver (issue 16).
 *
 * A fresh embedded data directory (.tmp/bench-webhooks) holds only what the dispatcher reads:
 * webhook endpoints of one organization, all subscribed to `alert.created`, and that
 * organization's alerts with their `alert.created` events, written as the watch evaluator writes
 * them (alert rows and events in one transaction, the event built by `alertCreatedEvent`). The
 * dispatcher sends with the outbound client `serve` uses (`webhookTransport`, development rules:
 * plain http to 127.0.0.1 allowed), so every delivery is a signed POST on its own TCP connection.
 *
 * The receiver is a node:http server on 127.0.0.1 in a worker thread of this process: on this
 * two-core machine it gets its own core and event loop, so its work is not billed to the
 * dispatcher's, and an arrival is stamped when its body has been read rather than when the
 * dispatcher's thread (busy with synchronous SQLite calls) would get round to it. Both threads
 * stamp with process.hrtime (one monotonic clock for the whole process). Each endpoint has its
 * own path; the receiver answers 200, verifies every signature with the `standardwebhooks`
 * reference library against that endpoint's secret, and counts repeats of a (path, webhook-id).
 *
 * 1. Throughput: ENDPOINTS endpoints, then EVENTS alerts and events in transactions of 500, then
 *    `fanOut` and `runUntilIdle` timed: deliveries per second = EVENTS × ENDPOINTS / seconds.
 * 2. Lag: the dispatcher in its loop (`start`) while alerts are written at RATE per second for
 *    LAG_SECONDS, one transaction each (an alert and its event, as the evaluator does); per
 *    delivery, the time from the commit of its event to the receiver having it (each endpoint's
 *    first attempt): p50, p95, p99, max. Goal p95 < 1 s. Three runs: the writes in this process
 *    (`serve` running the evaluator and the dispatcher together), the same writes from another
 *    process (the dispatcher alone as `marque worker webhooks`: the embedded feed sees another
 *    process's commits by polling), and, unless OVERLOAD_RATE is 0, OVERLOAD_RATE per second for
 *    OVERLOAD_SECONDS, more deliveries than the dispatcher sends in a second (what a backlog does
 *    to the lag). The default RATE, 20 alerts/s to 10 endpoints, is 200 deliveries/s: well within
 *    what the dispatcher sends here; the lag goal is about a dispatcher that keeps up.
 * Every delivery must arrive exactly once, signed, and every row must end `delivered`.
 *
 * Settings (environment): BENCH_WEBHOOK_EVENTS (10000), BENCH_WEBHOOK_ENDPOINTS (10),
 * BENCH_WEBHOOK_RATE (20 alerts/s), BENCH_WEBHOOK_SECONDS (10), BENCH_WEBHOOK_OVERLOAD_RATE
 * (200 alerts/s; 0: no such run), BENCH_WEBHOOK_OVERLOAD_SECONDS (3), BENCH_WEBHOOK_CONCURRENCY
 * (32, the dispatcher's pool), BENCH_OUTPUT (BENCHMARKS-WEBHOOKS.md). About 4 minutes with the
 * defaults on two cores, most of it the throughput run.
 */
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Webhook } from 'standardwebhooks';
import { closeAdapters, openAdapters } from '../bin/adapters';
import { webhookTransport } from '../bin/background';
import { readConfig } from '../bin/config';
import type { DocumentStore } from '../datasources/ports';
import { randomId } from '../domain/ids';
import { ALERT_TRIGGER_TYPES, COLLECTIONS, type AlertDoc, type EventDoc, type WebhookDeliveryDoc, type WebhookEndpointDoc } from '../domain/records';
import { newEndpointDoc } from '../domain/webhook-endpoints';
import { WebhookDispatcher } from '../workers/webhooks/dispatcher';
import { alertCreatedEvent } from '../workers/watches/evaluator';
import { PROJECT_ROOT } from './processes';
import { machineDescription } from './report';
import { envInt, percentile } from './samples';

/** The settings' defaults (the report names only the settings a run changed). */
const DEFAULTS = { events: 10_000, endpoints: 10, rate: 20, seconds: 10, overloadRate: 200, overloadSeconds: 3, concurrency: 32 };
const EVENTS = envInt('BENCH_WEBHOOK_EVENTS', DEFAULTS.events);
const ENDPOINTS = Math.max(1, envInt('BENCH_WEBHOOK_ENDPOINTS', DEFAULTS.endpoints));
const RATE = Math.max(1, envInt('BENCH_WEBHOOK_RATE', DEFAULTS.rate));
const LAG_SECONDS = Math.max(1, envInt('BENCH_WEBHOOK_SECONDS', DEFAULTS.seconds));
const OVERLOAD_RATE = envInt('BENCH_WEBHOOK_OVERLOAD_RATE', DEFAULTS.overloadRate);
const OVERLOAD_SECONDS = Math.max(1, envInt('BENCH_WEBHOOK_OVERLOAD_SECONDS', DEFAULTS.overloadSeconds));
const CONCURRENCY = Math.max(1, envInt('BENCH_WEBHOOK_CONCURRENCY', DEFAULTS.concurrency));
const OUTPUT = process.env.BENCH_OUTPUT ?? join(PROJECT_ROOT, 'BENCHMARKS-WEBHOOKS.md');
/** Events per transaction in the throughput phase's writes. */
const WRITE_BATCH = 500;
/** How long the lag phase waits, after its last write, for the last deliveries to arrive. */
const SETTLE_TIMEOUT_MS = 120_000;
const ORGANIZATION_ID = 'org_bench_webhooks';

/** Milliseconds on the process-wide monotonic clock (the same in every thread), to the microsecond. */
function clockMs(): number {
  return Number(process.hrtime.bigint() / 1000n) / 1000;
}

// ---------------------------------------------------------------------------------------------
// The receiver (worker thread side)

interface ReceiverData {
  /** Signing secret of the endpoint at path /hooks/{index}. */
  secrets: string[];
}

/** One delivery as the receiver saw it first. */
interface Arrival {
  endpoint: number;
  webhookId: string;
  atMs: number;
}

interface ReceiverReport {
  arrivals: Arrival[];
  /** Requests whose (path, webhook-id) had arrived before. */
  repeats: number;
  /** Requests whose signature did not verify, or that came to an unknown path. */
  rejected: number;
}

type ToReceiver = { kind: 'count'; seq: number } | { kind: 'collect'; seq: number } | { kind: 'close'; seq: number };
type FromReceiver =
  | { kind: 'listening'; port: number }
  | { kind: 'count'; seq: number; count: number }
  | { kind: 'collect'; seq: number; report: ReceiverReport }
  | { kind: 'close'; seq: number };

function runReceiver(data: ReceiverData): void {
  const port = parentPort;
  if (port === null) throw new Error('the receiver runs as a worker thread');
  const verifiers = data.secrets.map((secret) => new Webhook(secret));
  let arrivals: Arrival[] = [];
  let seen = new Set<string>();
  let repeats = 0;
  let rejected = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const atMs = clockMs();
      const match = /^\/hooks\/(\d+)$/.exec(request.url ?? '');
      const endpoint = match ? Number(match[1]) : -1;
      const verifier = verifiers[endpoint];
      const header = (name: string): string => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : '';
      };
      const webhookId = header('webhook-id');
      try {
        if (verifier === undefined) throw new Error(`unknown path ${request.url ?? ''}`);
        verifier.verify(Buffer.concat(chunks), {
          'webhook-id': webhookId,
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        });
      } catch {
        rejected += 1;
        // A 400 would make the dispatcher retry; the count is what the report checks.
        response.writeHead(400).end();
        return;
      }
      const key = `${endpoint} ${webhookId}`;
      if (seen.has(key)) repeats += 1;
      else {
        seen.add(key);
        arrivals.push({ endpoint, webhookId, atMs });
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  // Every delivery opens its own connection (the client's `agent: false`): room for bursts.
  server.listen({ host: '127.0.0.1', port: 0, backlog: 1024 }, () => {
    port.postMessage({ kind: 'listening', port: (server.address() as AddressInfo).port } satisfies FromReceiver);
  });
  port.on('message', (message: ToReceiver) => {
    if (message.kind === 'count') port.postMessage({ kind: 'count', seq: message.seq, count: arrivals.length } satisfies FromReceiver);
    else if (message.kind === 'collect') {
      port.postMessage({ kind: 'collect', seq: message.seq, report: { arrivals, repeats, rejected } } satisfies FromReceiver);
      arrivals = [];
      seen = new Set();
      repeats = 0;
      rejected = 0;
    } else server.close(() => port.postMessage({ kind: 'close', seq: message.seq } satisfies FromReceiver));
  });
}

// ---------------------------------------------------------------------------------------------
// The receiver (main thread side)

class Receiver {
  private seq = 0;
  private readonly waiting = new Map<number, (message: FromReceiver) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly port: number,
  ) {
    worker.on('message', (message: FromReceiver) => {
      if (message.kind === 'listening') return;
      this.waiting.get(message.seq)?.(message);
      this.waiting.delete(message.seq);
    });
  }

  static async start(secrets: string[]): Promise<Receiver> {
    const fromSource = extname(__filename) === '.ts';
    const worker = new Worker(__filename, {
      workerData: { secrets } satisfies ReceiverData,
      execArgv: fromSource ? [...process.execArgv, '-r', 'ts-node/register/transpile-only'] : process.execArgv,
    });
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (message: FromReceiver) => {
        if (message.kind === 'listening') resolve(message.port);
      });
    });
    return new Receiver(worker, port);
  }

  private ask(kind: ToReceiver['kind']): Promise<FromReceiver> {
    const seq = ++this.seq;
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      this.worker.postMessage({ kind, seq } satisfies ToReceiver);
    });
  }

  async count(): Promise<number> {
    const answer = await this.ask('count');
    return answer.kind === 'count' ? answer.count : 0;
  }

  /** What arrived since the last collect; the receiver starts over. */
  async collect(): Promise<ReceiverReport> {
    const answer = await this.ask('collect');
    if (answer.kind !== 'collect') throw new Error('unexpected answer from the receiver');
    return answer.report;
  }

  async close(): Promise<void> {
    await this.ask('close');
    await this.worker.terminate();
  }
}

// ---------------------------------------------------------------------------------------------
// The benchmark (main thread)

function endpointDoc(url: string, secret: string, at: string, index: number): WebhookEndpointDoc {
  return newEndpointDoc({
    id: randomId('whk_'),
    organizationId: ORGANIZATION_ID,
    url,
    description: `bench receiver ${index}`,
    enabledEvents: ['alert.created'],
    secret,
    metadata: {},
    at: new Date(at),
  });
}

/** An alert as the evaluator makes one (a similarity hit on a new filing, or a change of a watched mark). */
function alertDoc(index: number, at: Date): AlertDoc {
  const iso = at.toISOString();
  const similarity = index % 2 === 0;
  return {
    _id: randomId('alt_', at.getTime()),
    organization_id: ORGANIZATION_ID,
    watch_id: `wch_bench${String(index % 50).padStart(4, '0')}`,
    watch_type: similarity ? 'similarity' : 'trademark',
    trademark_id: randomId('tm_', at.getTime()),
    status: 'open',
    trigger: {
      type: similarity ? 'new_filing' : (ALERT_TRIGGER_TYPES[index % ALERT_TRIGGER_TYPES.length] ?? 'new_filing'),
      record_version: 1 + (index % 4),
      changed_fields: similarity ? [] : ['status'],
      event_type: null,
      occurred_at: iso,
    },
    score: similarity ? 0.8 + (index % 20) / 100 : null,
    signals: similarity ? [{ type: 'phonetic', strength: 0.9, detail: 'same sound' }] : null,
    must_act_by: similarity ? new Date(at.getTime() + 30 * 86_400_000).toISOString().slice(0, 10) : null,
    opposition_window_status: similarity ? 'not_published' : 'no_rule',
    created_at: iso,
    updated_at: iso,
  };
}

/** Writes alerts and their events in one transaction, as the evaluator does; returns the events. */
async function writeAlerts(store: DocumentStore, first: number, count: number): Promise<EventDoc[]> {
  const at = new Date();
  const alerts = Array.from({ length: count }, (_, i) => alertDoc(first + i, at));
  const events = alerts.map(alertCreatedEvent);
  await store.transaction(async () => {
    await store.collection<AlertDoc>(COLLECTIONS.alerts).insertMany(alerts);
    await store.collection<EventDoc>(COLLECTIONS.events).insertMany(events);
  });
  return events;
}

/** Alerts written one transaction each at `rate` per second for `seconds`; commit times by event ID. */
interface SteadyWrites {
  committedAt: Map<string, number>;
  /** Writes that began more than 50 ms after their turn (the writer could not keep the rate). */
  late: number;
  lastCommitMs: number;
}

async function writeSteadily(store: DocumentStore, rate: number, seconds: number, first: number): Promise<SteadyWrites> {
  const committedAt = new Map<string, number>();
  let late = 0;
  const startMs = clockMs();
  for (let i = 0; i < rate * seconds; i++) {
    const wait = startMs + (i * 1000) / rate - clockMs();
    if (wait > 0) await delay(wait);
    else if (wait < -50) late += 1;
    const [event] = await writeAlerts(store, first + i, 1);
    if (event) committedAt.set(event._id, clockMs());
  }
  return { committedAt, late, lastCommitMs: clockMs() };
}

// ---------------------------------------------------------------------------------------------
// The writer in another process (forked: this module with BENCH_WEBHOOK_WRITER set)

interface WriterOrder {
  dir: string;
  rate: number;
  seconds: number;
  first: number;
}

interface WriterResult {
  commits: Array<[string, number]>;
  late: number;
  lastCommitMs: number;
}

async function runWriter(order: WriterOrder): Promise<void> {
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: order.dir }));
  try {
    const writes = await writeSteadily(adapters.store, order.rate, order.seconds, order.first);
    const result: WriterResult = { commits: [...writes.committedAt], late: writes.late, lastCommitMs: writes.lastCommitMs };
    await new Promise<void>((resolve, reject) => process.send?.(result, undefined, undefined, (error) => (error ? reject(error) : resolve())));
  } finally {
    await closeAdapters(adapters);
  }
}

/** Runs the writer in a child process and returns what it wrote. */
async function writeFromAnotherProcess(order: WriterOrder): Promise<SteadyWrites> {
  const fromSource = extname(__filename) === '.ts';
  const child = fork(__filename, [], {
    env: { ...process.env, BENCH_WEBHOOK_WRITER: JSON.stringify(order) },
    execArgv: fromSource ? [...process.execArgv, '-r', 'ts-node/register/transpile-only'] : process.execArgv,
  });
  const result = await new Promise<WriterResult>((resolve, reject) => {
    child.once('message', (message) => resolve(message as WriterResult));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the writer process exited with code ${code} before reporting`)));
  });
  return { committedAt: new Map(result.commits), late: result.late, lastCommitMs: result.lastCommitMs };
}

// ---------------------------------------------------------------------------------------------
// Figures

interface Check {
  expected: number;
  arrived: number;
  repeats: number;
  rejected: number;
  /** Rows `delivered` in the store since the previous check. */
  delivered: number;
  /** Rows in the store in any other status (pending, failed, exhausted). */
  otherRows: number;
}

class Checker {
  private deliveredBefore = 0;

  constructor(private readonly store: DocumentStore) {}

  async check(report: ReceiverReport, expected: number): Promise<Check> {
    const deliveries = this.store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries);
    const delivered = await deliveries.countDocuments({ status: 'delivered' });
    const result = {
      expected,
      arrived: report.arrivals.length,
      repeats: report.repeats,
      rejected: report.rejected,
      delivered: delivered - this.deliveredBefore,
      otherRows: await deliveries.countDocuments({ status: { $ne: 'delivered' } }),
    };
    this.deliveredBefore = delivered;
    return result;
  }
}

function passed(result: Check): boolean {
  return result.arrived === result.expected && result.repeats === 0 && result.rejected === 0 && result.delivered === result.expected && result.otherRows === 0;
}

function checkLine(label: string, result: Check): string {
  return (
    `- ${label}: ${passed(result) ? 'checked' : '**check failed**'}: ${int(result.arrived)} of ${int(result.expected)} deliveries arrived, ` +
    `${result.repeats} more than once, ${result.rejected} with a signature that did not verify; ` +
    `${int(result.delivered)} rows recorded \`delivered\`, ${result.otherRows} left in any other status.`
  );
}

interface Lag {
  label: string;
  writer: string;
  rate: number;
  seconds: number;
  events: number;
  late: number;
  /** Milliseconds from an event's commit to the receiver having it, one per delivery, ascending. */
  lags: number[];
  /** From the last commit to the last arrival. */
  tailSeconds: number;
  /** Deliveries that arrived after the last write, per second of the tail: how fast the loop works off a backlog. */
  tailRate: number;
  check: Check;
}

interface LagRun {
  label: string;
  writer: 'this process' | 'another process';
  rate: number;
  seconds: number;
}

/**
 * One lag measurement with the dispatcher running: the writes, then waiting until every delivery
 * has arrived (or SETTLE_TIMEOUT_MS).
 */
async function measureLag(run: LagRun, context: { store: DocumentStore; dir: string; receiver: Receiver; checker: Checker; first: number }): Promise<Lag> {
  const order: WriterOrder = { dir: context.dir, rate: run.rate, seconds: run.seconds, first: context.first };
  const writes =
    run.writer === 'this process' ? await writeSteadily(context.store, run.rate, run.seconds, context.first) : await writeFromAnotherProcess(order);
  const expected = writes.committedAt.size * ENDPOINTS;
  const settleStarted = clockMs();
  while ((await context.receiver.count()) < expected && clockMs() - settleStarted < SETTLE_TIMEOUT_MS) await delay(20);
  const report = await context.receiver.collect();
  const lags = report.arrivals
    .map((arrival) => arrival.atMs - (writes.committedAt.get(arrival.webhookId) ?? NaN))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const tail = report.arrivals.filter((arrival) => arrival.atMs > writes.lastCommitMs);
  const lastArrivalMs = Math.max(writes.lastCommitMs, ...tail.map((arrival) => arrival.atMs));
  const tailSeconds = (lastArrivalMs - writes.lastCommitMs) / 1000;
  return {
    ...run,
    events: writes.committedAt.size,
    late: writes.late,
    lags,
    tailSeconds,
    tailRate: tailSeconds > 0 ? tail.length / tailSeconds : NaN,
    check: await context.checker.check(report, expected),
  };
}

const int = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
const ms = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');

function lagRow(lag: Lag): string {
  const { lags } = lag;
  return (
    `| ${lag.label} | ${lag.writer} | ${lag.rate}/s × ${lag.seconds} s → ${int(lag.rate * ENDPOINTS)}/s | ${ms(percentile(lags, 0.5))} | ` +
    `${ms(percentile(lags, 0.95))} | ${ms(percentile(lags, 0.99))} | ${ms(lags[lags.length - 1] ?? NaN)} | ${int(lags.length)} | ${lag.tailSeconds.toFixed(2)} s |`
  );
}

// ---------------------------------------------------------------------------------------------
// The benchmark

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = machineDescription().load;
  const dir = join(PROJECT_ROOT, '.tmp', 'bench-webhooks');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const secrets = Array.from({ length: ENDPOINTS }, () => `whsec_${randomBytes(32).toString('base64')}`);
  const receiver = await Receiver.start(secrets);
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dir }));
  let errors = 0;
  try {
    const store = adapters.store;
    const checker = new Checker(store);
    const at = new Date().toISOString();
    const endpoints = secrets.map((secret, i) => endpointDoc(`http://127.0.0.1:${receiver.port}/hooks/${i}`, secret, at, i));
    await store.collection<WebhookEndpointDoc>(COLLECTIONS.webhookEndpoints).insertMany(endpoints);
    const dispatcher = new WebhookDispatcher(store, webhookTransport({ environment: 'development' }).send, {
      concurrency: CONCURRENCY,
      onError: (error) => {
        errors += 1;
        console.error('webhook dispatcher:', error);
      },
    });
    // Before the events: on its first run the dispatcher starts at the feed's end.
    await dispatcher.initialize();

    // 1. Throughput: a backlog of EVENTS events, sent by runUntilIdle.
    const writeStarted = performance.now();
    for (let first = 0; first < EVENTS; first += WRITE_BATCH) await writeAlerts(store, first, Math.min(WRITE_BATCH, EVENTS - first));
    const writeSeconds = (performance.now() - writeStarted) / 1000;
    const fanOutStarted = performance.now();
    const rows = await dispatcher.fanOut();
    const fanOutSeconds = (performance.now() - fanOutStarted) / 1000;
    const sendStarted = performance.now();
    await dispatcher.runUntilIdle();
    const sendSeconds = (performance.now() - sendStarted) / 1000;
    const throughputDeliveries = EVENTS * ENDPOINTS;
    const throughputSeconds = fanOutSeconds + sendSeconds;
    const throughputCheck = await checker.check(await receiver.collect(), throughputDeliveries);
    const perSecond = throughputDeliveries / throughputSeconds;
    console.log(`throughput: ${int(throughputDeliveries)} deliveries in ${throughputSeconds.toFixed(1)} s (${int(perSecond)}/s)`);

    // 2. Lag: the dispatcher in its loop while alerts are written at a steady rate.
    dispatcher.start();
    const runs: LagRun[] = [
      { label: 'steady', writer: 'this process', rate: RATE, seconds: LAG_SECONDS },
      { label: 'steady, evaluator in another process', writer: 'another process', rate: RATE, seconds: LAG_SECONDS },
      ...(OVERLOAD_RATE > 0 ? [{ label: 'past capacity', writer: 'this process' as const, rate: OVERLOAD_RATE, seconds: OVERLOAD_SECONDS }] : []),
    ];
    const lagResults: Lag[] = [];
    let first = EVENTS;
    for (const run of runs) {
      const lag = await measureLag(run, { store, dir, receiver, checker, first });
      first += lag.events;
      lagResults.push(lag);
      console.log(`lag, ${run.label}: p50 ${ms(percentile(lag.lags, 0.5))}, p95 ${ms(percentile(lag.lags, 0.95))}`);
    }
    await dispatcher.stop();

    const [steady, crossProcess, overload] = lagResults;
    if (steady === undefined || crossProcess === undefined) throw new Error('the steady lag runs are missing');
    const p95 = percentile(steady.lags, 0.95);
    const crossP95 = percentile(crossProcess.lags, 0.95);
    const machine = machineDescription();
    const settings = [
      ['BENCH_WEBHOOK_EVENTS', EVENTS, DEFAULTS.events],
      ['BENCH_WEBHOOK_ENDPOINTS', ENDPOINTS, DEFAULTS.endpoints],
      ['BENCH_WEBHOOK_RATE', RATE, DEFAULTS.rate],
      ['BENCH_WEBHOOK_SECONDS', LAG_SECONDS, DEFAULTS.seconds],
      ['BENCH_WEBHOOK_OVERLOAD_RATE', OVERLOAD_RATE, DEFAULTS.overloadRate],
      ['BENCH_WEBHOOK_OVERLOAD_SECONDS', OVERLOAD_SECONDS, DEFAULTS.overloadSeconds],
      ['BENCH_WEBHOOK_CONCURRENCY', CONCURRENCY, DEFAULTS.concurrency],
    ] as const;
    const overrides = settings.filter(([, value, fallback]) => value !== fallback).map(([name, value]) => `${name}=${value} `);
    const inFlight = Math.min(CONCURRENCY, ENDPOINTS);
    const lines = [
      '# Benchmarks: webhook deliveries',
      '',
      `Generated by \`${overrides.join('')}npm run bench:webhooks\` (bench/webhooks.ts) on ${startedAt.toISOString()}.`,
      '',
      `- Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM; Node ${machine.node}; load average before ${loadBefore}, after ${machine.load}.`,
      `- Store: a fresh embedded data directory (.tmp/bench-webhooks): ${ENDPOINTS} active endpoints of one organization, all subscribed to \`alert.created\`, and the alerts with their \`alert.created\` events (\`alertCreatedEvent\`), written as the watch evaluator writes them (alerts and events in one transaction, one \`created_at\` per transaction).`,
      `- Dispatcher: \`WebhookDispatcher\` with the outbound client of \`serve\` (development rules, a new connection per delivery), concurrency ${CONCURRENCY}; at most one attempt per endpoint is in flight, so at most ${inFlight} at once here.`,
      '- Receiver: node:http on 127.0.0.1 in a worker thread of the benchmark process (its own core and event loop), one path per endpoint; it verifies every signature with `standardwebhooks` and answers 200. An arrival is stamped when its body has been read, on the monotonic clock every thread and process shares.',
      '',
      '## Throughput',
      '',
      '| what | figure |',
      '|---|---|',
      `| alerts + events written, ${WRITE_BATCH} per transaction | ${int(EVENTS)} in ${writeSeconds.toFixed(1)} s |`,
      `| fan-out (\`fanOut\`): delivery rows made | ${int(rows)} in ${fanOutSeconds.toFixed(1)} s (${int(rows / fanOutSeconds)} rows/s) |`,
      `| sending (\`runUntilIdle\`) | ${int(throughputDeliveries)} deliveries in ${sendSeconds.toFixed(1)} s (${int(throughputDeliveries / sendSeconds)}/s) |`,
      `| **deliveries per second**, fan-out included | **${int(perSecond)}** (${int(throughputDeliveries)} in ${throughputSeconds.toFixed(1)} s) |`,
      '',
      '## Lag from an alert to its first delivery attempt',
      '',
      "The dispatcher in its loop (`start`) while alerts are written at a steady rate, each alert and its event in one transaction; per delivery (each endpoint's first attempt), the time from the commit of the event to the receiver having the request. Each run waits until all its deliveries have arrived before the next begins. _tail_: from the last commit to the last arrival.",
      '',
      '| run | events written by | alerts/s × seconds → deliveries/s offered | p50 | p95 | p99 | max | n | tail |',
      '|---|---|---|---|---|---|---|---|---|',
      ...lagResults.map(lagRow),
      '',
      ...lagResults
        .filter((lag) => lag.late > 0)
        .flatMap((lag) => [`${lag.label}: ${lag.late} writes began more than 50 ms late (the writer could not keep its rate).`, '']),
      '## Checks',
      '',
      checkLine('throughput', throughputCheck),
      ...lagResults.map((lag) => checkLine(`lag, ${lag.label}`, lag.check)),
      ...(errors > 0 ? [`- The dispatcher reported ${errors} errors (see the run's stderr).`] : []),
      '',
      '## Goals',
      '',
      '| goal | figure | |',
      '|---|---|---|',
      `| lag p95 < 1 s, steady (${int(RATE * ENDPOINTS)} deliveries/s offered), evaluator in this process / in another | ${ms(p95)} / ${ms(crossP95)} | ${goal(p95 < 1000)} / ${goal(crossP95 < 1000)} |`,
      ...(overload
        ? [
            `| the same past capacity (${int(OVERLOAD_RATE * ENDPOINTS)} deliveries/s offered) | ${ms(percentile(overload.lags, 0.95))} | ${goal(percentile(overload.lags, 0.95) < 1000)} |`,
          ]
        : []),
      '',
      '## Reading',
      '',
      ...reading({ perSecond, inFlight, steady, crossProcess, overload }),
      '',
    ];
    writeFileSync(OUTPUT, lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    await closeAdapters(adapters);
    await receiver.close();
  }
}

function goal(met: boolean): string {
  return met ? 'met' : '**missed**';
}

/** The short reading under the figures: what bounds them, from how the dispatcher and the feed work. */
function reading(f: { perSecond: number; inFlight: number; steady: Lag; crossProcess: Lag; overload: Lag | undefined }): string[] {
  const lines = [
    `- Throughput: ${(1000 / f.perSecond).toFixed(1)} ms per delivery. The dispatcher's thread does all of it: a new TCP connection per delivery, signing, and the outcome's transaction. \`runUntilIdle\` sends in rounds (one attempt per free endpoint, then \`drain\` waits for the round's slowest), so at most ${f.inFlight} deliveries are in flight; each round looks for due rows once, through the (status, due_at, event_id) index, which gives them in send order without sorting.`,
    `- Lag while the dispatcher keeps up: p50 ${ms(percentile(f.steady.lags, 0.5))} when the events are committed in its own process (the store wakes its waiters on commit, so the loop starts a pass at once), p50 ${ms(percentile(f.crossProcess.lags, 0.5))} when another process commits them (the embedded feed looks for other processes' commits every 200 ms, so a commit may wait that long to be noticed). The loop's 1 s wait (workers/feed-loop.ts) is only a timeout: it bounds how late a retry that falls due without any write is started, not a first attempt.`,
  ];
  const overload = f.overload;
  if (overload) {
    lines.push(
      `- Past capacity the lag is queueing: ${int(overload.rate * ENDPOINTS)} deliveries/s offered for ${overload.seconds} s, then the loop worked off the backlog at ${int(overload.tailRate)} deliveries/s (\`runUntilIdle\`: ${int(f.perSecond)}/s). In the loop a finished attempt starts its endpoint's next due row by one lookup of that endpoint's rows (the (endpoint_id, status, due_at, event_id) index), so a backlog costs no rescans.`,
    );
  }
  return lines;
}

const writerOrder = process.env.BENCH_WEBHOOK_WRITER;
if (!isMainThread) {
  runReceiver(workerData as ReceiverData);
} else if (writerOrder !== undefined) {
  runWriter(JSON.parse(writerOrder) as WriterOrder).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
