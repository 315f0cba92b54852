/**
 * Added latency of the limits stage per request: one Limiter.admit (plan features, the plan and
 * tier windows, the monthly and daily quota counters, headers) as the REST lifecycle runs it, for
 * a metered read route and an unmetered utility route, on each KeyValue adapter this machine can
 * run. Requests are sequential, so the figures are per-request latency, not throughput.
 *
 *   node -r ts-node/register/transpile-only bench/limits.ts [iterations]
 *
 * Redis: REDIS_URL, else a throwaway redis-server from PATH, else skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import { createRedisKeyValue } from '../datasources/redis/key-value';
import type { KeyValue } from '../datasources/ports';
import type { OrganizationDoc } from '../domain/records';
import { Limiter } from '../rest/limits';
import type { RouteDef } from '../rest/route';
import { freeObject } from '../rest/schemas/json-schema';
import { startRedisServer } from '../test/support/redis-server';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const WARMUP = 1_000;

const organization: OrganizationDoc = {
  _id: 'org_bench',
  name: 'Bench',
  plan: 'beta',
  billing_anchor_day: 1,
  // High enough that no iteration is refused: the common path is what a request pays.
  limits_override: { per_minute: { read: 1e9, utility: 1e9 }, monthly: { read: 1e12 }, tier_ceilings: { reads: 1e9 } },
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

const route = (id: string, pool: RouteDef['pool']): RouteDef => ({
  kind: 'custom',
  id,
  method: 'GET',
  path: `/bench/${id}`,
  summary: id,
  description: id,
  tag: 'Bench',
  scope: null,
  pool,
  tier: 'reads',
  idempotency: 'none',
  pathParams: [],
  query: [],
  successStatus: 200,
  envelope: 'single',
  response: freeObject(),
  errors: [],
  handle: async () => ({ status: 200, body: {} }),
});

const percentile = (sorted: readonly number[], fraction: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;

async function measure(label: string, kv: KeyValue): Promise<void> {
  const limiter = new Limiter(kv);
  for (const target of [route('metered-read', 'read'), route('unmetered-utility', 'utility')]) {
    const samples: number[] = [];
    for (let index = 0; index < WARMUP + ITERATIONS; index += 1) {
      const startedAt = process.hrtime.bigint();
      const decision = await limiter.admit(target, organization);
      const elapsed = Number(process.hrtime.bigint() - startedAt) / 1e6;
      if (decision.refusal !== null) throw new Error(`refused: ${decision.refusal.detail}`);
      if (index >= WARMUP) samples.push(elapsed);
    }
    samples.sort((a, b) => a - b);
    const format = (ms: number): string => `${ms.toFixed(4)} ms`;
    console.log(`${`${label} ${target.id}`.padEnd(44)} median ${format(percentile(samples, 0.5))}  p99 ${format(percentile(samples, 0.99))}  (n=${samples.length})`);
  }
}

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marque-limits-bench-'));
  try {
    const embedded = createEmbeddedKeyValue({ path: path.join(directory, 'kv.sqlite') });
    await measure('embedded (SQLite file)', embedded);
    await embedded.close();
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
  const server = await startRedisServer();
  if (server === null) {
    console.log('redis: skipped (no REDIS_URL and no redis-server on PATH)');
    return;
  }
  try {
    const redis = await createRedisKeyValue({ url: server.url, keyPrefix: `bench-limits:${process.pid}:` });
    await measure('redis (loopback)', redis);
    const pings: number[] = [];
    for (let index = 0; index < 5_000; index += 1) {
      const startedAt = process.hrtime.bigint();
      await redis.ping();
      pings.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
    }
    pings.sort((a, b) => a - b);
    console.log(`${'redis (loopback) PING, one round trip'.padEnd(44)} median ${percentile(pings, 0.5).toFixed(4)} ms`);
    await redis.close();
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
