/**
 * Latency of the per-request limit check: one consumeWindows (plan + tier window) and one
 * consumeCounters (monthly + daily quota) asked for together, as the limits stage asks (so the
 * embedded adapter commits them as one group), on each KeyValue adapter this machine can run, then on
 * the embedded file shared by 2 processes checking the same keys at the same time (the API with
 * `--workers 2` and one busy organization).
 *
 *   node -r ts-node/register/transpile-only bench/key-value.ts [iterations]
 *
 * Redis: REDIS_URL, else a throwaway redis-server from PATH, else skipped.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import type { KeyValue } from '../datasources/ports';
import { latencyLine, onEachKeyValue, timeRuns } from './samples';

const ITERATIONS = Number(process.argv[2] ?? 20_000);
const WARMUP = 1_000;
const PROCESSES = 2;
/** `[iterations] --shared <file> <label> <start epoch ms>`: one of the processes sharing a file. */
const SHARED_FLAG = '--shared';

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
      await Promise.all([store.consumeWindows(windows, 1, nowMs), store.consumeCounters(counters, 1, nowMs)]);
    },
    ITERATIONS,
    WARMUP,
  );
  console.log(latencyLine(label, samples, 34));
}

/** Runs PROCESSES copies of this script on one file, all starting their runs at the same instant. */
async function measureSharedFile(): Promise<void> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marque-kv-bench-shared-'));
  // Far enough ahead for every copy to have loaded and opened the file.
  const startAt = Date.now() + 5_000;
  try {
    const runs = Array.from({ length: PROCESSES }, (_, index) => {
      const label = `embedded (file, ${PROCESSES} processes) #${index + 1}`;
      const args = [
        '-r',
        'ts-node/register/transpile-only',
        __filename,
        String(ITERATIONS),
        SHARED_FLAG,
        path.join(directory, 'kv.sqlite'),
        label,
        String(startAt),
      ];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'] });
      return new Promise<void>((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${label} exited with ${code}`)))));
    });
    await Promise.all(runs);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const shared = process.argv.indexOf(SHARED_FLAG);
  if (shared !== -1) {
    const [file, label, startAt] = process.argv.slice(shared + 1) as [string, string, string];
    const store = createEmbeddedKeyValue({ path: file });
    await sleep(Math.max(0, Number(startAt) - Date.now()));
    await measure(label, store);
    await store.close();
    return;
  }
  const inMemory = createEmbeddedKeyValue({ path: ':memory:' });
  await measure('embedded (:memory:)', inMemory);
  await inMemory.close();
  await onEachKeyValue('kv-bench', measure);
  await measureSharedFile();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
