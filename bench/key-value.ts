/**
 * Latency of the per-request limit check: one consumeWindows (plan + tier window) followed by one
 * consumeCounters (monthly + daily quota), on each KeyValue adapter this machine can run.
 *
 *   node -r ts-node/register/transpile-only bench/key-value.ts [iterations]
 *
 * Redis: REDIS_URL, else a throwaway redis-server from PATH, else skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import { createRedisKeyValue } from '../datasources/redis/key-value';
import type { KeyValue } from '../datasources/ports';
import { startRedisServer } from '../test/support/redis-server';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const WARMUP = 1_000;

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function measure(label: string, store: KeyValue): Promise<void> {
  const windows = [
    { key: 'bench:org_1:read', limit: 1_000_000, windowMs: 60_000 },
    { key: 'bench:tier:reads:org_1', limit: 1_000_000, windowMs: 60_000 },
  ];
  const resetsAt = Date.now() + 86_400_000;
  const counters = [
    { key: 'bench:org_1:read:monthly', limit: 1_000_000_000, resetsAt },
    { key: 'bench:org_1:read:daily', limit: 100_000_000, resetsAt },
  ];
  const samples: number[] = [];
  for (let index = 0; index < WARMUP + ITERATIONS; index += 1) {
    const startedAt = process.hrtime.bigint();
    const nowMs = Date.now();
    await store.consumeWindows(windows, 1, nowMs);
    await store.consumeCounters(counters, 1, nowMs);
    if (index >= WARMUP) samples.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
  const format = (ms: number): string => `${ms.toFixed(4)} ms`;
  console.log(
    `${label.padEnd(24)} median ${format(percentile(samples, 0.5))}  p99 ${format(percentile(samples, 0.99))}  mean ${format(mean)}  (n=${samples.length})`,
  );
}

async function main(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marque-kv-bench-'));
  try {
    const onFile = createEmbeddedKeyValue({ path: path.join(directory, 'kv.sqlite') });
    await measure('embedded (SQLite file)', onFile);
    await onFile.close();
    const inMemory = createEmbeddedKeyValue({ path: ':memory:' });
    await measure('embedded (:memory:)', inMemory);
    await inMemory.close();
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }

  const server = await startRedisServer();
  if (server === null) {
    console.log('redis                    skipped: no REDIS_URL and no redis-server on PATH');
    return;
  }
  try {
    const redis = await createRedisKeyValue({ url: server.url, keyPrefix: `bench:${process.pid}:` });
    await measure('redis', redis);
    await redis.close();
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
