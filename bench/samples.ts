/**
 * Timing helpers shared by the benchmarks: exact percentiles over kept samples, sequential timed
 * runs with a dropped warm-up, one summary line, and the KeyValue adapters this machine can run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import type { KeyValue } from '../datasources/ports';
import { createRedisKeyValue } from '../datasources/redis/key-value';
import { startRedisServer } from '../test/support/redis-server';

/** The nearest-rank percentile of ascending samples (NaN when there are none). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

/** Milliseconds of `runs` sequential calls of `run` after `warmup` untimed ones, ascending. */
export async function timeRuns(run: () => unknown, runs: number, warmup = 0): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < warmup + runs; index += 1) {
    const startedAt = process.hrtime.bigint();
    await run();
    if (index >= warmup) samples.push(Number(process.hrtime.bigint() - startedAt) / 1e6);
  }
  return samples.sort((a, b) => a - b);
}

/** `label  median … p99 … (n=…)` for ascending samples. */
export function latencyLine(label: string, sorted: readonly number[], width: number): string {
  const format = (ms: number): string => `${ms.toFixed(4)} ms`;
  return `${label.padEnd(width)} median ${format(percentile(sorted, 0.5))}  p99 ${format(percentile(sorted, 0.99))}  (n=${sorted.length})`;
}

/**
 * Runs `measure` on the embedded KeyValue (on a file in a temporary directory), then on Redis:
 * REDIS_URL, else a throwaway redis-server from PATH, else says it skipped.
 */
export async function onEachKeyValue(name: string, measure: (label: string, kv: KeyValue) => Promise<void>): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), `marque-${name}-`));
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
    const redis = await createRedisKeyValue({ url: server.url, keyPrefix: `${name}:${process.pid}:` });
    await measure('redis (loopback)', redis);
    await redis.close();
  } finally {
    await server.stop();
  }
}

/** A non-negative integer setting from the environment (BENCH_*), or `fallback` when unset. */
export function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a non-negative integer`);
  return Number(raw);
}
