/**
 * Pure-computation benchmark: 1,000 mixed items through computeDeadlinesBatch (the work behind
 * one POST /v1/deadlines/compute at the batch limit). Prints the cold first run (date-holidays
 * builds each calendar-year's holiday set on first use) and the warm median and p95. Then the
 * same batch over HTTP against the real server (embedded adapters, one connection, autocannon):
 * parse, auth, GraphQL execution, envelope and serialization included.
 *
 *   node -r ts-node/register/transpile-only bench/deadlines.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { closeAdapters } from '../bin/adapters';
import { createServer } from '../bin/compose';
import corpusJson from '../data/rules.json';
import { createEmbeddedDocumentStore } from '../datasources/embedded/document-store';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import { createEmbeddedMediaStore } from '../datasources/embedded/media-store';
import { createEmbeddedSearchIndex } from '../datasources/embedded/search-index';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization } from '../resolvers/accounts/organizations';
import { STORE_INDEXES } from '../resolvers/store-indexes';
import { computeDeadlinesBatch, type DeadlineOptions } from '../domain/deadlines';
import { computeRequestBody, mixedItems } from './deadline-items';
import { loadRuleCorpus } from '../domain/rules';
import { percentile } from './samples';

const ITEMS = 1000;
const RUNS = 50;

function timeMs(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const corpus = loadRuleCorpus(corpusJson);
const items = mixedItems(ITEMS);
const options: DeadlineOptions = { asOfDate: '2025-06-01', horizonYears: 5, includeOptional: true, includeMissed: true };

let deadlineCount = 0;
const cold = timeMs(() => {
  deadlineCount = computeDeadlinesBatch(corpus, items, options).reduce((sum, result) => sum + result.deadlines.length, 0);
});
const warm = Array.from({ length: RUNS }, () => timeMs(() => computeDeadlinesBatch(corpus, items, options))).sort((a, b) => a - b);
const at = (fraction: number) => percentile(warm, fraction).toFixed(2);
console.log(`computeDeadlinesBatch: ${ITEMS} items, ${deadlineCount} deadlines`);
console.log(`  cold first run ${cold.toFixed(1)} ms; warm median ${at(0.5)} ms, p95 ${at(0.95)} ms over ${RUNS} runs`);

const HTTP_REQUESTS = 200;

async function benchHttp(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'marque-bench-'));
  const store = createEmbeddedDocumentStore({ path: join(dir, 'store.sqlite') });
  await store.ensureIndexes(STORE_INDEXES);
  const adapters = {
    store,
    search: createEmbeddedSearchIndex({ path: join(dir, 'search.sqlite') }),
    kv: createEmbeddedKeyValue({ path: join(dir, 'kv.sqlite') }),
    media: createEmbeddedMediaStore({ directory: join(dir, 'media'), store }),
  };
  const org = await createOrganization(store, { name: 'Bench org' });
  const { secret } = await createApiKey(store, { organizationId: org._id, name: 'bench', scopes: ['trademarks:read'] });
  const server = await createServer(adapters, Buffer.from('bench-cursor-secret'), { workers: ['watches', 'webhooks'], log: () => undefined });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = server.app.server.address() as AddressInfo;
  const body = computeRequestBody(items);
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/v1/deadlines/compute`,
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body,
      connections: 1,
      amount: HTTP_REQUESTS,
    });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} requests failed`);
    console.log(`POST /v1/deadlines/compute over HTTP: ${ITEMS} items (${(body.length / 1024).toFixed(0)} KiB body), ${HTTP_REQUESTS} requests, 1 connection`);
    console.log(`  latency median ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms`);
  } finally {
    await server.close();
    await closeAdapters(adapters);
    rmSync(dir, { recursive: true, force: true });
  }
}

benchHttp().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
