/**
 * `npm run bench:queries`: the cost of one request of each expensive kind, alone on a real
 * `marque serve` (one connection, one request at a time, so no queue): search with `q` and the
 * bench's filters, a batch of 100 IDs, 1,000 deadline items, search without `q` as a reference,
 * and once each a search with `q` for a text not searched before (a text's first searches cost
 * more than its repeats: datasources/embedded/search-index/kept-matches.ts). The kinds alternate
 * in rounds, so a change in the shared machine's load weighs on all alike; percentiles are exact
 * over every timed request, and the server's CPU time per request (from /proc) is given beside
 * them, being less moved by other processes than latency.
 *
 *   BENCH_MARKS=1000000 npm run bench:queries
 *
 * Settings (environment): BENCH_MARKS (20000: the data directory of bench/dataset.ts, m<marks>
 * under BENCH_DATA_ROOT (.tmp/bench-data), seeded first when absent), BENCH_REQUESTS per kind
 * (400), BENCH_ROUNDS (4), BENCH_PROFILE=1 to write the server's CPU profile to .tmp/bench-prof/
 * (warm-up included), BENCH_ONLY (a comma list of kinds: search_q, search, batch, deadlines).
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { prepareDataset, type Dataset } from './dataset';
import { computeRequestBody, mixedItems } from './deadline-items';
import { PROJECT_ROOT, startMarqueServe } from './processes';
import { envInt, percentile } from './samples';

/** The same requests bench/run.ts loads the server with. */
const SEARCH_OFFICES = ['US', 'EM', 'GB', 'CN', 'JP', 'DE', 'FR', 'AU', 'CA', 'KR'];
const BATCH_IDS = 100;
const DEADLINE_ITEMS = 1000;

interface Request {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

interface Kind {
  name: string;
  label: string;
  requests: Request[];
}

function kinds(dataset: Dataset): Kind[] {
  const filters = (index: number) => `office=${SEARCH_OFFICES[index % SEARCH_OFFICES.length]}&status_primary=active&sort=-filing_date`;
  const batchBodies = Array.from({ length: 10 }, (_, i) => JSON.stringify({ ids: dataset.ids.slice(i * BATCH_IDS, (i + 1) * BATCH_IDS) }));
  return [
    {
      name: 'search_q',
      label: 'search with q',
      requests: dataset.words.map((word, i) => ({ method: 'GET', path: `/v1/trademarks?q=${word}&${filters(i)}` })),
    },
    {
      name: 'search',
      label: 'search without q',
      requests: SEARCH_OFFICES.map((_, i) => ({ method: 'GET', path: `/v1/trademarks?${filters(i)}` })),
    },
    { name: 'batch', label: `batch of ${BATCH_IDS}`, requests: batchBodies.map((body) => ({ method: 'POST', path: '/v1/trademarks/batch', body })) },
    {
      name: 'deadlines',
      label: `deadlines, ${DEADLINE_ITEMS} items`,
      requests: [{ method: 'POST', path: '/v1/deadlines/compute', body: computeRequestBody(mixedItems(DEADLINE_ITEMS)) }],
    },
  ];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** Milliseconds from sending the request to the last byte of a 200 response. */
function timed(base: URL, key: string, request: Request): Promise<number> {
  return new Promise((resolve, reject) => {
    const startedAt = process.hrtime.bigint();
    const outgoing = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        headers: { authorization: `Bearer ${key}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const elapsed = Number(process.hrtime.bigint() - startedAt) / 1e6;
          if (response.statusCode !== 200) reject(new Error(`${request.path}: ${response.statusCode} ${Buffer.concat(chunks).toString()}`));
          else resolve(elapsed);
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** CPU time (user + system) a process has used, in milliseconds (Linux /proc; 10 ms ticks). */
function cpuMilliseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function main(): Promise<void> {
  const marks = envInt('BENCH_MARKS', 20_000);
  const perKind = envInt('BENCH_REQUESTS', 400);
  const rounds = Math.max(1, envInt('BENCH_ROUNDS', 4));
  const only = process.env.BENCH_ONLY?.split(',');
  const root = process.env.BENCH_DATA_ROOT ?? join(PROJECT_ROOT, '.tmp', 'bench-data');
  // prepareDataset seeds a directory without its ready file afresh; one without it is still being seeded.
  if (existsSync(join(root, `m${marks}`)) && !existsSync(join(root, `m${marks}`, 'bench-ready.json'))) {
    throw new Error(`${join(root, `m${marks}`)} is still being seeded (no bench-ready.json yet)`);
  }
  const dataset = await prepareDataset(root, marks);
  const selected = kinds(dataset).filter((kind) => !only || only.includes(kind.name));
  const server = await startMarqueServe(dataset.dir, { profile: process.env.BENCH_PROFILE === '1' });
  try {
    const base = new URL(server.url);
    const send = (kind: Kind, turn: number) => timed(base, dataset.apiKey, kind.requests[turn % kind.requests.length]!);
    // Warm-up, dropped: every distinct request once (statement caches, calendars, page cache).
    for (const kind of selected) for (let turn = 0; turn < kind.requests.length; turn++) await send(kind, turn);
    // Texts searched for the first time (each word less its last letter, a text no request has
    // searched yet): the cost of a search no earlier one helps.
    const firstTimes: number[] = [];
    const firstSearches = selected.find((kind) => kind.name === 'search_q');
    const firstCpu = cpuMilliseconds(server.process.pid!);
    if (firstSearches) {
      for (const request of firstSearches.requests) {
        firstTimes.push(await timed(base, dataset.apiKey, { ...request, path: request.path.replace(/q=([a-z]+)[a-z]&/, 'q=$1&') }));
      }
    }
    const firstCpuPerRequest = (cpuMilliseconds(server.process.pid!) - firstCpu) / Math.max(1, firstTimes.length);
    const samples = new Map(selected.map((kind) => [kind.name, [] as number[]]));
    const cpu = new Map(selected.map((kind) => [kind.name, 0]));
    const pid = server.process.pid!;
    const turns = new Map(selected.map((kind) => [kind.name, 0]));
    for (let round = 0; round < rounds; round++) {
      for (const kind of selected) {
        const share = Math.ceil(perKind / rounds);
        const cpuBefore = cpuMilliseconds(pid);
        for (let i = 0; i < share; i++) {
          const turn = turns.get(kind.name)!;
          turns.set(kind.name, turn + 1);
          samples.get(kind.name)!.push(await send(kind, turn));
        }
        cpu.set(kind.name, cpu.get(kind.name)! + cpuMilliseconds(pid) - cpuBefore);
      }
    }
    console.log(`${dataset.dir}: ${rounds} alternating rounds, one connection, one request at a time`);
    if (firstTimes.length > 0) {
      const sorted = firstTimes.sort((a, b) => a - b);
      const at = (fraction: number) => `${percentile(sorted, fraction).toFixed(1)} ms`;
      console.log(
        `${'search with q, new text'.padEnd(24)} p50 ${at(0.5)}  p95 ${at(0.95)}  max ${at(1)}  server CPU ${firstCpuPerRequest.toFixed(1)} ms/request  (n=${sorted.length})`,
      );
    }
    for (const kind of selected) {
      const sorted = samples.get(kind.name)!.sort((a, b) => a - b);
      const at = (fraction: number) => `${percentile(sorted, fraction).toFixed(1)} ms`;
      const cpuPerRequest = `${(cpu.get(kind.name)! / sorted.length).toFixed(1)} ms`;
      console.log(
        `${kind.label.padEnd(22)} p50 ${at(0.5)}  p95 ${at(0.95)}  p99 ${at(0.99)}  max ${at(1)}  server CPU ${cpuPerRequest}/request  (n=${sorted.length})`,
      );
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
