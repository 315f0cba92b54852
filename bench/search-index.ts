/**
 * Measures the embedded SearchIndex on synthetic trademark-like documents: bulk upsert rate
 * (1,000 documents per call) and latency of representative queries.
 *
 *   node -r ts-node/register/transpile-only bench/search-index.ts [documentCount] [dbPath]
 *
 * The database file defaults to a fresh temporary file; it is deleted afterwards.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedSearchIndex } from '../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../datasources/index-definitions';
import type { IndexDocument, SearchQuery } from '../datasources/ports';
import { percentile, timeRuns } from './samples';

const BATCH_SIZE = 1000;
const QUERY_RUNS = 50;

/** Deterministic PRNG (mulberry32) so runs are comparable. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = randomSource(42);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const SYLLABLES = ['ka', 'lo', 'mi', 'zen', 'tor', 'vex', 'sol', 'ar', 'neo', 'qua', 'ri', 'ste', 'lux', 'bri', 'do', 'fa', 'gel', 'hy', 'ion', 'jo'];
const word = (): string => Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(SYLLABLES)).join('');
const MARK_WORDS = Array.from({ length: 3000 }, word);
const GOODS_WORDS = Array.from({ length: 400 }, word).concat(['clothing', 'software', 'coffee', 'footwear', 'beverages', 'services', 'computer']);
const OWNERS = Array.from({ length: 20000 }, (_, index) => ({ id: `own_${index}`, name: `${pick(MARK_WORDS)} ${pick(['Inc', 'GmbH', 'Ltd', 'SA', 'LLC'])}` }));
const OFFICES = ['US', 'EM', 'GB', 'FR', 'DE', 'JP', 'CN', 'AU', 'CA', 'WO'];
const STATUSES = ['active', 'pending', 'inactive', 'unknown'];

function date(fromYear: number, span: number): string {
  const day = new Date(Date.UTC(fromYear, 0, 1) + Math.floor(random() * span * 365) * 86400000);
  return day.toISOString().slice(0, 10);
}

function syntheticTrademark(index: number): IndexDocument {
  const markText = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(MARK_WORDS)).join(' ');
  const owners = Array.from({ length: 1 + Math.floor(random() * 1.3) }, () => pick(OWNERS));
  const registered = random() < 0.6;
  const office = pick(OFFICES);
  return {
    id: `tm_${index.toString(36).padStart(8, '0')}`,
    mark_text: markText,
    owner_names: owners.map((owner) => owner.name),
    goods_services_text: Array.from({ length: 8 + Math.floor(random() * 20) }, () => pick(GOODS_WORDS)).join(' '),
    office_code: office,
    jurisdiction_code: office,
    status_primary: pick(STATUSES),
    status_stage: pick(['registered', 'filed', 'published', 'abandoned', 'expired']),
    challenge_states: random() < 0.05 ? ['opposition_pending'] : [],
    mark_feature_type: pick(['word', 'figurative', 'combined']),
    right_kind: 'trademark',
    application_number: String(70000000 + index),
    registration_number: registered ? String(1000000 + index) : null,
    nice_classes: [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => 1 + Math.floor(random() * 45)))],
    owner_ids: owners.map((owner) => owner.id),
    owner_countries: [pick(OFFICES)],
    has_media: random() < 0.5,
    is_madrid: random() < 0.1,
    filing_date: date(1990, 35),
    registration_date: registered ? date(1992, 33) : null,
    expiry_date: registered ? date(2025, 10) : null,
    updated_at: `${date(2023, 2)}T12:00:00.000Z`,
  };
}

async function timeQuery(label: string, run: () => Promise<unknown>): Promise<void> {
  let last: unknown;
  const times = await timeRuns(async () => (last = await run()), QUERY_RUNS);
  const summary = JSON.stringify(last).slice(0, 60);
  console.log(`${label.padEnd(62)} p50 ${percentile(times, 0.5).toFixed(2)} ms  p95 ${percentile(times, 0.95).toFixed(2)} ms  ${summary}`);
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100000);
  const directory = process.argv[3] ? null : mkdtempSync(join(tmpdir(), 'marque-bench-'));
  const path = process.argv[3] ?? join(directory!, 'search.db');
  const index = createEmbeddedSearchIndex({ path });
  await index.ensureIndex(TRADEMARK_INDEX);

  const docs = Array.from({ length: count }, (_, position) => syntheticTrademark(position));
  const started = Date.now();
  for (let offset = 0; offset < count; offset += BATCH_SIZE) {
    await index.upsert('trademarks', docs.slice(offset, offset + BATCH_SIZE));
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(`upserted ${count} docs in ${seconds.toFixed(1)} s: ${Math.round(count / seconds)} docs/s; file ${(statSync(path).size / 1e6).toFixed(0)} MB`);

  const reupsertStarted = Date.now();
  await index.upsert('trademarks', docs.slice(0, BATCH_SIZE));
  console.log(`re-upsert of ${BATCH_SIZE} existing docs: ${Date.now() - reupsertStarted} ms`);

  const markWord = docs[123]!.mark_text as string;
  const term = markWord.split(' ')[0]!;
  const base = { index: 'trademarks', limit: 20 } satisfies Partial<SearchQuery>;
  const twoFilters: SearchQuery['filters'] = [
    { field: 'office_code', op: 'eq', value: 'US' },
    { field: 'status_primary', op: 'in', values: ['active', 'pending'] },
  ];
  const run = (query: Omit<SearchQuery, 'index' | 'limit'>) => () => index.search({ ...base, ...query });
  await timeQuery(
    `q "${term}" + 2 filters, sort _score, count`,
    run({ text: term, filters: twoFilters, sort: [{ field: '_score', direction: 'desc' }], countUpTo: 10000 }),
  );
  await timeQuery(
    `q "${term}" + 2 filters, sort -filing_date, count`,
    run({ text: term, filters: twoFilters, sort: [{ field: 'filing_date', direction: 'desc' }], countUpTo: 10000 }),
  );
  await timeQuery(
    'q "zen" (common substring) + 2 filters, sort _score',
    run({ text: 'zen', filters: twoFilters, sort: [{ field: '_score', direction: 'desc' }], countUpTo: 10000 }),
  );
  await timeQuery('q "zen" + 2 filters, sort expiry_date asc', run({ text: 'zen', filters: twoFilters, sort: [{ field: 'expiry_date', direction: 'asc' }] }));
  await timeQuery(
    'q "software" (goods) + class 9 + office, sort _score',
    run({
      text: 'software',
      filters: [
        { field: 'nice_classes', op: 'eq', value: 9 },
        { field: 'office_code', op: 'eq', value: 'US' },
      ],
      sort: [{ field: '_score', direction: 'desc' }],
    }),
  );
  await timeQuery(
    'q "ka" (short prefix, mark_text) + 2 filters, sort _score',
    run({ text: 'ka', textFields: ['mark_text'], filters: twoFilters, sort: [{ field: '_score', direction: 'desc' }] }),
  );
  await timeQuery(
    'owner_ids eq, sort -filing_date, count',
    run({ filters: [{ field: 'owner_ids', op: 'eq', value: 'own_77' }], sort: [{ field: 'filing_date', direction: 'desc' }], countUpTo: 10000 }),
  );
  await timeQuery(
    'office US + class 25, sort -filing_date, count',
    run({
      filters: [
        { field: 'office_code', op: 'eq', value: 'US' },
        { field: 'nice_classes', op: 'eq', value: 25 },
      ],
      sort: [{ field: 'filing_date', direction: 'desc' }],
      countUpTo: 10000,
    }),
  );
  await timeQuery(
    'office US, sort expiry_date asc (nulls last)',
    run({ filters: [{ field: 'office_code', op: 'eq', value: 'US' }], sort: [{ field: 'expiry_date', direction: 'asc' }] }),
  );
  const page = await index.search({
    ...base,
    limit: 1000,
    filters: [{ field: 'office_code', op: 'eq', value: 'US' }],
    sort: [{ field: 'filing_date', direction: 'desc' }],
  });
  await timeQuery(
    'office US, sort -filing_date, searchAfter page 51',
    run({
      filters: [{ field: 'office_code', op: 'eq', value: 'US' }],
      sort: [{ field: 'filing_date', direction: 'desc' }],
      searchAfter: page.hits[999]!.sortValues,
    }),
  );
  await timeQuery('terms nice_classes (office US), size 10', () =>
    index.terms('trademarks', 'nice_classes', [{ field: 'office_code', op: 'eq', value: 'US' }], 10),
  );
  await timeQuery('terms status_primary (no filter)', () => index.terms('trademarks', 'status_primary', [], 10));

  await index.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
}

void main();
