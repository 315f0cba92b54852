/**
 * One of the processes of the KeyValue contract's cross-process tests. It opens the store named by
 * its argument (a HammerOrder, JSON), prints `ready`, waits for `go` on stdin (so every process
 * starts at once), then races the others: claims the idempotency key, sets the slot key if
 * absent, takes the lease if free, and `attempts` times consumes the windows and the counters and increments the shared
 * key. It prints what it was granted (a HammerReport, JSON) and exits.
 *
 *   node -r ts-node/register/transpile-only test/support/key-value-hammer.ts '<HammerOrder JSON>'
 */
import readline from 'node:readline';
import type { CounterCheck, IdempotencyBegin, WindowCheck } from '../../datasources/ports';
import { openKeyValue, type KeyValueSpec } from './key-value-spec';

export interface HammerOrder {
  store: KeyValueSpec;
  attempts: number;
  windows: WindowCheck[];
  counters: CounterCheck[];
  idempotencyKey: string;
  /** This process's fingerprint for the idempotency key. */
  fingerprint: string;
  slotKey: string;
  leaseKey: string;
  incrementKey: string;
}

export interface HammerReport {
  windowsAdmitted: number;
  countersAdmitted: number;
  idempotency: IdempotencyBegin;
  slotTaken: boolean;
  leaseHeld: boolean;
}

async function untilGo(): Promise<void> {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === 'go') break;
  }
  lines.close();
}

async function main(): Promise<void> {
  const order = JSON.parse(process.argv[2] ?? '') as HammerOrder;
  const store = await openKeyValue(order.store);
  try {
    process.stdout.write('ready\n');
    await untilGo();
    const idempotency = await store.beginIdempotent(order.idempotencyKey, order.fingerprint, 60_000);
    const slotTaken = await store.set(order.slotKey, order.fingerprint, { onlyIfAbsent: true, ttlMs: 60_000 });
    const leaseHeld = await store.holdLease(order.leaseKey, order.fingerprint, 60_000);
    const report: HammerReport = { windowsAdmitted: 0, countersAdmitted: 0, idempotency, slotTaken, leaseHeld };
    for (let attempt = 0; attempt < order.attempts; attempt += 1) {
      if ((await store.consumeWindows(order.windows, 1, Date.now())).allowed) report.windowsAdmitted += 1;
      if ((await store.consumeCounters(order.counters, 1, Date.now())).allowed) report.countersAdmitted += 1;
      await store.increment(order.incrementKey, 1);
    }
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
