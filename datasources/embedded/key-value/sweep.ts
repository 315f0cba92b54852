/**
 * The periodic sweep of what has expired from `kv.sqlite`: plain keys, quota counters and
 * idempotency records past their expiry, and windows whose every unit has left (a window still in
 * use prunes its own log when checked). Reads already ignore expired rows; the sweep keeps the
 * file from growing with keys nobody asks for again.
 *
 * It deletes in batches, each its own short transaction, and lets the event loop run between
 * them, so a large backlog never holds the write lock (which every process's requests need) or
 * this process's loop for long. Every process sharing the file sweeps; the deletes are idempotent.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type { KeyValueTransactions } from './transactions';

const BATCH = 500;

export interface Sweeper {
  stop(): void;
}

export function startSweeps(db: Database.Database, transactions: KeyValueTransactions, intervalMs: number): Sweeper {
  const expiring = ['entries', 'counters', 'idempotency'].map((table) =>
    db.prepare<[number]>(`DELETE FROM ${table} WHERE key IN (SELECT key FROM ${table} WHERE expires_at <= ? LIMIT ${BATCH})`),
  );
  // Windows have no index on their expiry (every charge moves it, and an index would cost every
  // request a page write), so they are walked in key order, a batch of rows at a time.
  const nextWindows = db.prepare<[string], { key: string; expires_at: number }>(
    `SELECT key, expires_at FROM windows WHERE key > ? ORDER BY key LIMIT ${BATCH}`,
  );
  const dropUnits = db.prepare<[string]>('DELETE FROM window_units WHERE key = ?');
  const dropWindow = db.prepare<[string]>('DELETE FROM windows WHERE key = ?');

  /** Handles one batch; returns how many rows it looked at (a full batch: there may be more). */
  type Batch = (nowMs: number) => number;
  const sweepTables: Batch[] = expiring.map((statement) => (nowMs) => transactions.write(() => statement.run(nowMs).changes));
  const sweepWindows = (): Batch => {
    let after = '';
    return (nowMs) =>
      transactions.write(() => {
        const rows = nextWindows.all(after);
        for (const row of rows) {
          if (row.expires_at > nowMs) continue;
          dropUnits.run(row.key);
          dropWindow.run(row.key);
        }
        after = rows.at(-1)?.key ?? after;
        return rows.length;
      });
  };

  let stopped = false;
  let running = false;

  async function sweep(): Promise<void> {
    const nowMs = Date.now();
    for (const batch of [...sweepTables, sweepWindows()]) {
      for (;;) {
        if (stopped) return;
        if (batch(nowMs) < BATCH) break;
        await nextTurn();
      }
      await nextTurn();
    }
  }

  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep()
      .catch((error: unknown) => {
        // A sweep that fails (the file locked past the deadline) is retried at the next interval.
        if (!stopped) process.emitWarning(`embedded key-value sweep failed: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();

  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
