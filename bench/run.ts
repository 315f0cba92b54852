/**
 * `npm run bench`: the gateway against a direct control and the machine's limit, on a seeded
 * embedded data directory, loaded from this process with autocannon; writes BENCHMARKS.md.
 *
 *   BENCH_MARKS=1000000 npm run bench     # the figures (seeds once, ~10 min; then reused)
 *   npm run bench                         # quick run on 20,000 marks
 *
 * Settings (environment): BENCH_MARKS (20000), BENCH_SECONDS per measurement (10),
 * BENCH_WARMUP seconds dropped before each (3), BENCH_CONNECTIONS (10), BENCH_DETAIL_ROUNDS
 * alternating rounds of the detail comparison (3), BENCH_PROFILE=1 to
 * write a CPU profile of the real server to .tmp/bench-prof/, BENCH_OUTPUT (BENCHMARKS.md).
 * Every process it starts is stopped at the end, also on failure.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDataset, type Dataset } from './dataset';
import { computeRequestBody, mixedItems } from './deadline-items';
import { measure, measureAlternating, type LoadResult, type LoadSpec } from './load';
import { freePort, nodeArgs, PROJECT_ROOT, residentBytes, startChild, type Child } from './processes';
import { machineDescription, renderReport, type Figures } from './report';
import { envInt } from './samples';

const settings = {
  marks: envInt('BENCH_MARKS', 20_000),
  seconds: envInt('BENCH_SECONDS', 10),
  warmupSeconds: envInt('BENCH_WARMUP', 3),
  connections: envInt('BENCH_CONNECTIONS', 10),
  detailRounds: Math.max(1, envInt('BENCH_DETAIL_ROUNDS', 3)),
  profile: process.env.BENCH_PROFILE === '1',
  output: process.env.BENCH_OUTPUT ?? join(PROJECT_ROOT, 'BENCHMARKS.md'),
};
const TMP = join(PROJECT_ROOT, '.tmp');
const BATCH_IDS = 100;
const DEADLINE_ITEMS = 1000;
const SEARCH_OFFICES = ['US', 'EM', 'GB', 'CN', 'JP', 'DE', 'FR', 'AU', 'CA', 'KR'];

async function startRealServer(dataset: Dataset): Promise<Child> {
  const port = await freePort();
  const profileArgs = settings.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(TMP, 'bench-prof')}`] : [];
  const env = { MARQUE_DATA_DIR: dataset.dir, HOST: '127.0.0.1', PORT: String(port), MARQUE_DEMO_MARKS: '0', MARQUE_LOG_LEVEL: 'silent' };
  const base = `http://127.0.0.1:${port}`;
  return startChild('marque serve', nodeArgs(['-e', "require('./bin/cli.ts').main(['serve'])"], profileArgs), env, `${base}/health/live`, base);
}

async function startDirectControl(dataset: Dataset): Promise<Child> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  return startChild(
    'direct control',
    nodeArgs(['bench/direct-control.ts']),
    { BENCH_DATA_DIR: dataset.dir, PORT: String(port) },
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
  const base = (spec: Pick<LoadSpec, 'url' | 'method' | 'paths'> & Partial<LoadSpec>): LoadSpec => ({
    connections: settings.connections,
    seconds: settings.seconds,
    warmupSeconds: settings.warmupSeconds,
    ...spec,
  });
  try {
    const server = await startRealServer(dataset);
    children.push(server);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAtRest = residentBytes(server.process.pid!);
    const detailPaths = dataset.ids.map((id) => `/v1/trademarks/${id}`);

    const control = await startDirectControl(dataset);
    children.push(control);
    const sampleBody = await bodyWithoutRequestId(`${server.url}${detailPaths[0]}`, dataset.apiKey);
    const controlBody = await bodyWithoutRequestId(`${control.url}${detailPaths[0]}`, dataset.apiKey);
    const bodyFile = join(TMP, 'bench-detail-body.json');
    mkdirSync(TMP, { recursive: true });
    writeFileSync(bodyFile, sampleBody);
    const limit = await startMachineLimit(bodyFile);
    children.push(limit);

    const run = async (label: string, spec: LoadSpec): Promise<LoadResult> => {
      process.stdout.write(`bench: ${label}… `);
      const result = await measure(spec);
      console.log(
        `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`,
      );
      if (result.errors > 0 || result.non2xx > 0) console.log(`bench:   ${result.errors} errors, ${result.non2xx} non-2xx responses`);
      return result;
    };
    const pid = server.process.pid!;
    process.stdout.write(`bench: detail, full path / direct control / machine limit, ${settings.detailRounds} alternating rounds… `);
    const alternating = await measureAlternating(
      [
        base({ url: server.url, method: 'GET', paths: detailPaths, headers: auth, pid }),
        base({ url: control.url, method: 'GET', paths: detailPaths }),
        base({ url: limit.url, method: 'GET', paths: detailPaths }),
      ],
      settings.detailRounds,
    );
    const [full, controlResult, limitResult] = alternating.results as [LoadResult, LoadResult, LoadResult];
    const detail = { full, control: controlResult, limit: limitResult };
    console.log(alternating.rounds.map((rates) => rates.map((rate) => Math.round(rate)).join(' / ')).join('; ') + ' req/s');
    const filters = (index: number) => `office=${SEARCH_OFFICES[index % SEARCH_OFFICES.length]}&status_primary=active&sort=-filing_date`;
    const searchText = await run(
      'search with q',
      base({ url: server.url, method: 'GET', paths: dataset.words.map((word, i) => `/v1/trademarks?q=${word}&${filters(i)}`), headers: auth, pid }),
    );
    const searchFilters = await run(
      'search without q',
      base({ url: server.url, method: 'GET', paths: SEARCH_OFFICES.map((_, i) => `/v1/trademarks?${filters(i)}`), headers: auth, pid }),
    );
    const batchBodies = Array.from({ length: 10 }, (_, i) => JSON.stringify({ ids: dataset.ids.slice(i * BATCH_IDS, (i + 1) * BATCH_IDS) }));
    const batch = await run(
      `batch of ${BATCH_IDS}`,
      base({ url: server.url, method: 'POST', paths: ['/v1/trademarks/batch'], bodies: batchBodies, headers: auth, pid }),
    );
    const deadlines = await run(
      `deadlines, ${DEADLINE_ITEMS} items`,
      base({ url: server.url, method: 'POST', paths: ['/v1/deadlines/compute'], bodies: [computeRequestBody(mixedItems(DEADLINE_ITEMS))], headers: auth, pid }),
    );

    // The same requests one at a time: latency without queueing behind other connections.
    const single = { connections: 1 };
    const latency = {
      searchText: await run(
        'search with q, 1 connection',
        base({ url: server.url, method: 'GET', paths: dataset.words.map((word, i) => `/v1/trademarks?q=${word}&${filters(i)}`), headers: auth, ...single }),
      ),
      searchFilters: await run(
        'search without q, 1 connection',
        base({ url: server.url, method: 'GET', paths: SEARCH_OFFICES.map((_, i) => `/v1/trademarks?${filters(i)}`), headers: auth, ...single }),
      ),
      batch: await run(
        `batch of ${BATCH_IDS}, 1 connection`,
        base({ url: server.url, method: 'POST', paths: ['/v1/trademarks/batch'], bodies: batchBodies, headers: auth, ...single }),
      ),
    };

    const figures: Figures = {
      startedAt,
      settings: {
        marks: settings.marks,
        seconds: settings.seconds,
        warmupSeconds: settings.warmupSeconds,
        connections: settings.connections,
        detailRounds: settings.detailRounds,
        profile: settings.profile,
      },
      machine: { ...machineDescription(), loadBefore },
      seed: dataset.seed,
      sameJson: sampleBody === controlBody,
      detailBodyBytes: Buffer.byteLength(sampleBody),
      detail,
      detailRounds: alternating.rounds,
      searchText,
      searchFilters,
      batch,
      deadlines,
      latency,
      rssAtRest,
      rssUnderLoad: Math.max(...[detail.full, searchText, searchFilters, batch, deadlines].map((r) => r.peakRssBytes ?? 0)),
    };
    writeFileSync(settings.output, renderReport(figures));
    console.log(`bench: wrote ${settings.output}`);
    if (!figures.sameJson) console.log('bench: WARNING the direct control answered different JSON than the full path');
  } finally {
    for (const child of children.reverse()) await child.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
