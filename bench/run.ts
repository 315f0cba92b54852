/**
 * `npm run bench`: the gateway against a direct control and the machine's limit, on a seeded
 * embedded data directory, loaded from this process with autocannon; writes BENCHMARKS.md.
 *
 *   BENCH_MARKS=1000000 npm run bench     # the figures (seeds once, ~10 min; then reused)
 *   npm run bench                         # quick run on 20,000 marks
 *
 * Settings (environment): BENCH_MARKS (20000), BENCH_SECONDS per measurement (10),
 * BENCH_WARMUP seconds dropped before each (3), BENCH_CONNECTIONS (10), BENCH_DETAIL_ROUNDS
 * alternating rounds of the detail comparison (3), BENCH_WORKERS the worker count compared with one
 * (default: the machine's cores), BENCH_PROFILE=1 to
 * write a CPU profile of the real server to .tmp/bench-prof/, BENCH_OUTPUT (BENCHMARKS.md).
 * Every process it starts is stopped at the end, also on failure.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { HTTP_NODE_OPTIONS } from '../bin/config';
import { prepareDataset, type Dataset } from './dataset';
import { computeRequestBody, mixedItems } from './deadline-items';
import { measure, measureAlternating, type LoadResult, type LoadSpec } from './load';
import { freePort, nodeArgs, PROJECT_ROOT, residentBytes, startChild, startMarqueServe, type Child } from './processes';
import { machineDescription, renderReport, type Figures, type HeavyFigures } from './report';
import { envInt } from './samples';

const settings = {
  marks: envInt('BENCH_MARKS', 20_000),
  seconds: envInt('BENCH_SECONDS', 10),
  warmupSeconds: envInt('BENCH_WARMUP', 3),
  connections: envInt('BENCH_CONNECTIONS', 10),
  detailRounds: Math.max(1, envInt('BENCH_DETAIL_ROUNDS', 3)),
  workers: envInt('BENCH_WORKERS', availableParallelism()),
  profile: process.env.BENCH_PROFILE === '1',
  output: process.env.BENCH_OUTPUT ?? join(PROJECT_ROOT, 'BENCHMARKS.md'),
};
const TMP = join(PROJECT_ROOT, '.tmp');
const BATCH_IDS = 100;
const DEADLINE_ITEMS = 1000;
const SEARCH_OFFICES = ['US', 'EM', 'GB', 'CN', 'JP', 'DE', 'FR', 'AU', 'CA', 'KR'];

async function startDirectControl(dataset: Dataset, workers: number): Promise<Child> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return startChild(
    `direct control, ${workers} workers`,
    // The Node options of marque serve's HTTP processes, so that the comparison is of the code alone.
    nodeArgs(['bench/direct-control.ts'], HTTP_NODE_OPTIONS),
    { BENCH_DATA_DIR: dataset.dir, PORT: String(port), BENCH_WORKERS: String(workers) },
    `${base}/v1/trademarks/none`,
    base,
  );
}

async function startMachineLimit(bodyFile: string): Promise<Child> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return startChild('machine limit', nodeArgs(['bench/machine-limit.ts']), { BENCH_BODY_FILE: bodyFile, PORT: String(port) }, base, base);
}

/** The body without its request id, to check the control answers the same JSON. */
async function bodyWithoutRequestId(url: string, key: string): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.text()).replace(/"request_id":"req_[0-9a-z]+"/, '"request_id":""');
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = machineDescription().load;
  const dataset = await prepareDataset(join(TMP, 'bench-data'), settings.marks);
  const auth = { authorization: `Bearer ${dataset.apiKey}` };
  const children: Child[] = [];
  const start = async (child: Promise<Child>): Promise<Child> => {
    const started = await child;
    children.push(started);
    return started;
  };
  const base = (spec: Pick<LoadSpec, 'url' | 'method' | 'paths'> & Partial<LoadSpec>): LoadSpec => ({
    connections: settings.connections,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    ...spec,
  });
  try {
    const one = await start(startMarqueServe(dataset.dir, { workers: 1, profile: settings.profile }));
    const many = await start(startMarqueServe(dataset.dir, { workers: settings.workers, profile: settings.profile }));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAtRest = { one: residentBytes(one.process.pid!), many: residentBytes(many.process.pid!) };
    const detailPaths = dataset.ids.map((id) => `/v1/trademarks/${id}`);

    const controlOne = await start(startDirectControl(dataset, 1));
    const controlMany = await start(startDirectControl(dataset, settings.workers));
    const sampleBody = await bodyWithoutRequestId(`${one.url}${detailPaths[0]}`, dataset.apiKey);
    const otherBodies = await Promise.all(
      [many, controlOne, controlMany].map((server) => bodyWithoutRequestId(`${server.url}${detailPaths[0]}`, dataset.apiKey)),
    );
    const sameJson = otherBodies.every((body) => body === sampleBody);
    const bodyFile = join(TMP, 'bench-detail-body.json');
    mkdirSync(TMP, { recursive: true });
    writeFileSync(bodyFile, sampleBody);
    const limit = await start(startMachineLimit(bodyFile));

    const run = async (label: string, spec: LoadSpec): Promise<LoadResult> => {
      process.stdout.write(`bench: ${label}… `);
      const result = await measure(spec);
      console.log(
        `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`,
      );
      if (result.errors > 0 || result.non2xx > 0) console.log(`bench:   ${result.errors} errors, ${result.non2xx} non-2xx responses`);
      return result;
    };
    process.stdout.write(
      `bench: detail, full path and direct control at 1 and ${settings.workers} workers, machine limit, ${settings.detailRounds} alternating rounds… `,
    );
    const alternating = await measureAlternating(
      [
        base({ url: one.url, method: 'GET', paths: detailPaths, headers: auth, pid: one.process.pid }),
        base({ url: controlOne.url, method: 'GET', paths: detailPaths }),
        base({ url: many.url, method: 'GET', paths: detailPaths, headers: auth, pid: many.process.pid }),
        base({ url: controlMany.url, method: 'GET', paths: detailPaths }),
        base({ url: limit.url, method: 'GET', paths: detailPaths }),
      ],
      settings.detailRounds,
    );
    const [fullOne, controlOneResult, fullMany, controlManyResult, limitResult] = alternating.results as [
      LoadResult,
      LoadResult,
      LoadResult,
      LoadResult,
      LoadResult,
    ];
    console.log(alternating.rounds.map((rates) => rates.map((rate) => Math.round(rate)).join(' / ')).join('; ') + ' req/s');

    const filters = (index: number) => `office=${SEARCH_OFFICES[index % SEARCH_OFFICES.length]}&status_primary=active&sort=-filing_date`;
    const searchTextPaths = dataset.words.map((word, i) => `/v1/trademarks?q=${word}&${filters(i)}`);
    const searchFilterPaths = SEARCH_OFFICES.map((_, i) => `/v1/trademarks?${filters(i)}`);
    const batchBodies = Array.from({ length: 10 }, (_, i) => JSON.stringify({ ids: dataset.ids.slice(i * BATCH_IDS, (i + 1) * BATCH_IDS) }));
    const deadlineBodies = [computeRequestBody(mixedItems(DEADLINE_ITEMS))];
    /** The four expensive requests at `connections` against one server. */
    const heavy = async (server: Child, workers: number, connections: number): Promise<HeavyFigures> => {
      const at = `${workers} worker${workers === 1 ? '' : 's'}, ${connections} connection${connections === 1 ? '' : 's'}`;
      const pid = server.process.pid;
      return {
        searchText: await run(`search with q, ${at}`, base({ url: server.url, method: 'GET', paths: searchTextPaths, headers: auth, pid, connections })),
        searchFilters: await run(
          `search without q, ${at}`,
          base({ url: server.url, method: 'GET', paths: searchFilterPaths, headers: auth, pid, connections }),
        ),
        batch: await run(
          `batch of ${BATCH_IDS}, ${at}`,
          base({ url: server.url, method: 'POST', paths: ['/v1/trademarks/batch'], bodies: batchBodies, headers: auth, pid, connections }),
        ),
        deadlines: await run(
          `deadlines, ${DEADLINE_ITEMS} items, ${at}`,
          base({ url: server.url, method: 'POST', paths: ['/v1/deadlines/compute'], bodies: deadlineBodies, headers: auth, pid, connections }),
        ),
      };
    };
    const loaded = { one: await heavy(one, 1, settings.connections), many: await heavy(many, settings.workers, settings.connections) };
    // One request at a time: each request's own latency, no queue (the worker count does not matter).
    const alone = await heavy(one, 1, 1);

    const figures: Figures = {
      startedAt,
      settings: {
        marks: settings.marks,
        seconds: settings.seconds,
        warmupSeconds: settings.warmupSeconds,
        connections: settings.connections,
        detailRounds: settings.detailRounds,
        workers: settings.workers,
        profile: settings.profile,
      },
      machine: { ...machineDescription(), loadBefore },
      seed: dataset.seed,
      sameJson,
      detailBodyBytes: Buffer.byteLength(sampleBody),
      detail: { fullOne, controlOne: controlOneResult, fullMany, controlMany: controlManyResult, limit: limitResult },
      detailRounds: alternating.rounds,
      loaded,
      alone,
      rssAtRest,
      rssUnderLoad: {
        one: Math.max(...[fullOne, ...Object.values(loaded.one)].map((r) => r.peakRssBytes ?? 0)),
        many: Math.max(...[fullMany, ...Object.values(loaded.many)].map((r) => r.peakRssBytes ?? 0)),
      },
    };
    writeFileSync(settings.output, renderReport(figures));
    console.log(`bench: wrote ${settings.output}`);
    if (!figures.sameJson) console.log('bench: WARNING a server answered different JSON than the full path with one worker');
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
