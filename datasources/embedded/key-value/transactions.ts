/**
 * Every KeyValue operation is one SQLite transaction on the shared `kv.sqlite`, so any number of
 * processes opening the file see each other's effects whole. Writes take the write lock first
 * (`BEGIN IMMEDIATE`): a read-then-write transaction that began as a reader could find its
 * snapshot stale when it tries to write, and SQLite then fails it at once instead of waiting.
 *
 * The wait for a lock held by another process is ours, not SQLite's busy handler: SQLite's sleeps
 * 1, 2, 5, 10 ms..., while a KeyValue transaction holds the lock for tens of microseconds, so
 * a contended request would wait a millisecond for nothing. Here a caller retries after a short
 * jittered sleep that doubles from 20 µs to 250 µs (Atomics.wait: better-sqlite3 is synchronous,
 * so the thread waits either way), and gives up after `busyDeadlineMs` as a cache outage. The low
 * ceiling keeps a waiter from losing every race to a busy neighbour: in alternating runs of
 * bench/key-value.ts here (two processes checking the same keys flat out), p99 was 0.6–2.8 ms with
 * a 2 ms ceiling and 0.3–0.6 ms with 250 µs; a failed attempt costs a few microseconds.
 */
import type Database from 'better-sqlite3';
import { DependencyUnavailableError } from '../../ports';
import { retryWhileBusy, type BusyRetry } from '../sqlite-file';

export interface KeyValueTransactions {
  /** Runs `body` in a write transaction (`BEGIN IMMEDIATE`), retrying while another process holds the lock. */
  write<T>(body: () => T): T;
  /** Runs one statement or a read-only `body` outside a write transaction, retrying on a busy database. */
  read<T>(body: () => T): T;
}

const FIRST_WAIT_MS = 0.02;
const LONGEST_WAIT_MS = 0.25;

export function keyValueTransactions(db: Database.Database, busyDeadlineMs: number): KeyValueTransactions {
  // retryWhileBusy replaces SQLite's busy handler.
  db.pragma('busy_timeout = 0');
  const inTransaction = db.transaction((body: () => unknown) => body());
  const retry: BusyRetry = {
    deadlineMs: busyDeadlineMs,
    firstWaitMs: FIRST_WAIT_MS,
    longestWaitMs: LONGEST_WAIT_MS,
    onDeadline: () => new DependencyUnavailableError('cache', `the embedded key-value file stayed locked for ${busyDeadlineMs} ms`),
  };
  const retryingBusy = <T>(body: () => T): T => retryWhileBusy(body, retry);

  return {
    // The transaction's result is the body's, whose type the shared wrapper cannot carry.
    write: <T>(body: () => T) => retryingBusy(() => inTransaction.immediate(body) as T),
    read: retryingBusy,
  };
}
