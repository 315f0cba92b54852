/**
 * Latency of the per-request limit check: one consumeWindows (plan + tier window) followed by one
 * consumeCounters (monthly + daily quota), on each KeyValue adapter this machine can run.
 *
 *   node -r ts-node/register/transpile-only bench/key-value.ts [iterations]
 *
 * Redis: REDIS_URL, else a throwaway redis-server from PATH, else skipped.
 */
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import type { KeyValue } from '../datasources/ports';
import { latencyLine, onEachKeyValue, timeRuns } from './samples';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const WARMUP = 1_000;

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
  const samples = await timeRuns(
    async () => {
      const nowMs = Date.now();
      await store.consumeWindows(windows, 1, nowMs);
      await store.consumeCounters(counters, 1, nowMs);
    },
    ITERATIONS,
    WARMUP,
  );
  console.log(latencyLine(label, samples, 24));
}

async function main(): Promise<void> {
  const inMemory = createEmbeddedKeyValue({ path: ':memory:' });
  await measure('embedded (:memory:)', inMemory);
  await inMemory.close();
  await onEachKeyValue('kv-bench', measure);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
