/**
 * `npm run bench:graphql`: what the GraphQL guard costs an abuser and spares everyone else, on a
 * real `marque serve` over a seeded embedded data directory (issue 14's figures):
 *
 * - how fast the 6,000-alias fragment bomb is refused (it used to take 24 s and 4 GB);
 * - `/health/live` latency while the heaviest queries the limits still allow run back to back
 *   from several clients, against the same probe on an idle server.
 *
 * The heaviest allowed queries are found black-box: as many aliases of a full page (or a full
 * batch) as the server accepts, growing until it answers 400. Writes BENCHMARKS-GRAPHQL.md.
 *
 * Settings (environment): BENCH_MARKS (20000), BENCH_SECONDS per load phase (10),
 * BENCH_HEAVY_CLIENTS concurrent heavy clients (2), BENCH_OUTPUT (BENCHMARKS-GRAPHQL.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareDataset, type Dataset } from './dataset';
import { mixedItems } from './deadline-items';
import { PROJECT_ROOT, residentBytes, startMarqueServe, type Child } from './processes';
import { machineDescription } from './report';
import { envInt, percentile } from './samples';

const settings = {
  marks: envInt('BENCH_MARKS', 20_000),
  seconds: envInt('BENCH_SECONDS', 10),
  heavyClients: Math.max(1, envInt('BENCH_HEAVY_CLIENTS', 2)),
  output: process.env.BENCH_OUTPUT ?? join(PROJECT_ROOT, 'BENCHMARKS-GRAPHQL.md'),
};
const PROBE_INTERVAL_MS = 10;
const REFUSAL_RUNS = 30;

interface Answer {
  status: number;
  bytes: number;
  ms: number;
  detail?: string;
}

async function post(url: string, key: string, payload: unknown): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const detail =
    response.status >= 400 ? (JSON.parse(text) as { errors?: Array<{ extensions?: { detail?: string } }> }).errors?.[0]?.extensions?.detail : undefined;
  return { status: response.status, bytes: Buffer.byteLength(text), ms, ...(detail === undefined ? {} : { detail }) };
}

interface Heavy {
  name: string;
  aliases: number;
  payload: unknown;
}

/** The most aliases of `field` the server accepts (up to the alias limit), found by asking it. */
async function heaviestAllowed(url: string, key: string, name: string, field: string, variables: Record<string, unknown>, declaration: string): Promise<Heavy> {
  let accepted: Heavy | null = null;
  for (let aliases = 1; aliases <= 20; aliases++) {
    const query = `query ${declaration} { ${Array.from({ length: aliases }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
    const payload = { query, variables };
    const answer = await post(url, key, payload);
    if (answer.status !== 200) break;
    accepted = { name, aliases, payload };
  }
  if (!accepted) throw new Error(`${name}: not even one alias is accepted`);
  return accepted;
}

const SUMMARY = `id mark_text office_code jurisdiction_code filing_date registration_date status { primary stage }
  owners { id name country_code } classifications { nice_class goods_services_text }`;

async function heavyQueries(url: string, key: string, dataset: Dataset): Promise<Heavy[]> {
  const word = dataset.words[0] ?? 'mark';
  return [
    await heaviestAllowed(
      url,
      key,
      `full text search pages (q="${word}", limit 100)`,
      `searchTrademarks(q: $q, limit: 100) { data { ${SUMMARY} } }`,
      { q: word },
      '($q: String)',
    ),
    await heaviestAllowed(
      url,
      key,
      'batches of 100 IDs',
      `trademarksByIds(ids: $ids) { data { ${SUMMARY} } }`,
      { ids: dataset.ids.slice(0, 100) },
      '($ids: [ID!]!)',
    ),
    await heaviestAllowed(
      url,
      key,
      'deadline computations of 1,000 items',
      'computeDeadlines(items: $items) { data { deadlines { type due_date } } }',
      { items: mixedItems(1_000) },
      '($items: [DeadlineItemInput!]!)',
    ),
  ];
}

/** Probes `/health/live` every few ms until `until` resolves; returns the sorted latencies. */
async function probeLiveness(url: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const samples: number[] = [];
  while (!done) {
    const started = performance.now();
    await (await fetch(`${url}/health/live`)).text();
    samples.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  return samples.sort((a, b) => a - b);
}

async function runFor(seconds: number, clients: number, work: () => Promise<Answer>): Promise<Answer[]> {
  const endAt = performance.now() + seconds * 1000;
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < endAt) answers.push(await work());
    }),
  );
  return answers;
}

function describeMachine(): string {
  const machine = machineDescription();
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB RAM; Node ${machine.node}; load average ${machine.load}`;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const row = (label: string, sorted: readonly number[]): string =>
  `| ${label} | ${sorted.length.toLocaleString('en-US')} | ${ms(percentile(sorted, 0.5))} | ${ms(percentile(sorted, 0.99))} | ${ms(sorted[sorted.length - 1] ?? 0)} |`;

async function main(): Promise<void> {
  const dataset = await prepareDataset(join(PROJECT_ROOT, '.tmp', 'bench-data'), settings.marks);
  const server: Child = await startMarqueServe(dataset.dir);
  const base = server.url;
  try {
    const key = dataset.apiKey;
    // The fragment bomb of finding 3.
    const bomb = `query { ...F } fragment F on Query { ${Array.from({ length: 6000 }, (_, i) => `a${i}: searchTrademarks(limit: 100) { data { id } }`).join(' ')} }`;
    for (let warmup = 0; warmup < 3; warmup++) await post(base, key, { query: bomb });
    const refusals: Answer[] = [];
    for (let run = 0; run < REFUSAL_RUNS; run++) refusals.push(await post(base, key, { query: bomb }));
    if (refusals.some((answer) => answer.status !== 400)) throw new Error(`the 6,000-alias query was not refused: ${refusals.map((a) => a.status).join(',')}`);
    const refusalMs = refusals.map((answer) => answer.ms).sort((a, b) => a - b);

    const idle = await probeLiveness(base, new Promise((resolve) => setTimeout(resolve, settings.seconds * 1000)));
    const phases: Array<{ heavy: Heavy; clients: number; live: number[]; answers: Answer[]; rss: number }> = [];
    const heavies = await heavyQueries(base, key, dataset);
    for (const clients of [...new Set([1, settings.heavyClients])])
      for (const heavy of heavies) {
        let peak = 0;
        const rssTimer = setInterval(() => (peak = Math.max(peak, residentBytes(server.process.pid ?? 0))), 200);
        const load = runFor(settings.seconds, clients, () => post(base, key, heavy.payload));
        const live = await probeLiveness(base, load);
        clearInterval(rssTimer);
        const answers = await load;
        if (answers.some((answer) => answer.status !== 200))
          throw new Error(`${heavy.name}: refused under load: ${answers.find((a) => a.status !== 200)?.detail}`);
        phases.push({ heavy, clients, live, answers, rss: peak });
      }

    const lines = [
      '# Benchmarks: the GraphQL guard',
      '',
      `Generated by \`BENCH_MARKS=${settings.marks} npm run bench:graphql\` (bench/graphql-guard.ts) on ${new Date().toISOString()}.`,
      '',
      `- Machine: ${describeMachine()}.`,
      `- Data: embedded default (SQLite), ${settings.marks.toLocaleString('en-US')} generated marks; one real \`marque serve\` process, loaded from the harness process.`,
      `- Heavy load: 1, then ${settings.heavyClients} clients, each sending the query again as soon as it is answered, for ${settings.seconds} s; \`/health/live\` probed every ${PROBE_INTERVAL_MS} ms meanwhile by one more client.`,
      '',
      '## The 6,000-alias fragment bomb (finding 3)',
      '',
      `Refused with 400 \`validation_error\` (“${refusals[0]?.detail ?? ''}”) in ${REFUSAL_RUNS} runs after 3 dropped warm-up runs:`,
      `p50 ${ms(percentile(refusalMs, 0.5))}, p99 ${ms(percentile(refusalMs, 0.99))}, max ${ms(refusalMs[refusalMs.length - 1] ?? 0)} (request of ${Math.round(Buffer.byteLength(bomb) / 1024)} KiB, round trip included).`,
      '',
      '## `/health/live` while the heaviest allowed queries run',
      '',
      'Each heavy query is as many aliases of its field as the server accepts (the next alias is refused by the cost or alias limit).',
      '',
      '| heavy query | clients | aliases | heavy p50 | heavy p99 | response | peak RSS |',
      '|---|---|---|---|---|---|---|',
      ...phases.map(({ heavy, clients, answers, rss }) => {
        const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
        return `| ${heavy.name} | ${clients} | ${heavy.aliases} | ${ms(percentile(sorted, 0.5))} | ${ms(percentile(sorted, 0.99))} | ${Math.round((answers[0]?.bytes ?? 0) / 1024)} KiB | ${Math.round(rss / 2 ** 20)} MiB |`;
      }),
      '',
      '| `/health/live` during | probes | p50 | p99 | max |',
      '|---|---|---|---|---|',
      row('an idle server', idle),
      ...phases.map(({ heavy, clients, live }) => row(`${heavy.name}, ${clients} client${clients === 1 ? '' : 's'}`, live)),
      '',
    ];
    writeFileSync(settings.output, lines.join('\n'));
    console.log(lines.join('\n'));
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
