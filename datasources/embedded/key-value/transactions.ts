/**
 * Every KeyValue operation is atomic on the shared `kv.sqlite`, so any number of processes
 * opening the file see each other's effects whole. Writes take the write lock first
 * (`BEGIN IMMEDIATE`): a read-then-write transaction that began as a reader could find its
 * snapshot stale when it tries to write, and SQLite then fails it at once instead of waiting.
 *
 * Writes asked for in one turn of the event loop share one transaction (a group commit): the
 * first queues a flush for the end of the turn (`setImmediate`), and the operations run there in
 * the order they were asked, each in its own savepoint, so one that throws is undone alone. A
 * commit is mostly fixed cost (about six lock calls and two writes per dirty page), so under load
 * this takes most of the limits stage's cost off each request and holds the lock shared with the
 * other processes fewer times; a request alone waits only for the rest of its turn. A read asked
 * for while writes are queued joins the group, so it sees them, as it would on Redis, whose
 * commands run in the order sent.
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
import { isBusyError, retryWhileBusy, type BusyRetry } from '../sqlite-file';

export interface KeyValueTransactions {
  /** Runs `body` in the write transaction of this turn's group, after the operations asked for before it. */
  write<T>(body: () => T): Promise<T>;
  /** Runs `body` at once in a write transaction of its own (opening the file, sweeps). */
  writeNow<T>(body: () => T): T;
  /** Runs a read-only `body`: at once, or in the group when writes are queued (so it sees them). */
  read<T>(body: () => T): Promise<T>;
  /** Commits the queued operations now (before the connection closes). */
  flush(): void;
}

interface Queued {
  body: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

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
  // The transaction's result is the body's, whose type the shared wrapper cannot carry.
  const writeNow = <T>(body: () => T): T => retryingBusy(() => inTransaction.immediate(body) as T);

  let queue: Queued[] = [];

  /** Each operation's outcome; inside the transaction, one operation's failure undoes only its savepoint. */
  function runGroup(group: readonly Queued[]): Outcome[] {
    if (group.length === 1) return [{ ok: true, value: writeNow(group[0]!.body) }];
    return writeNow(() =>
      group.map((item): Outcome => {
        try {
          // Nested inside the group's transaction, better-sqlite3 runs it as a savepoint.
          return { ok: true, value: inTransaction(item.body) };
        } catch (error) {
          // A lock lost mid-group fails the whole group, which is then retried from the start.
          if (isBusyError(error)) throw error;
          return { ok: false, error };
        }
      }),
    );
  }

  function flush(): void {
    const group = queue;
    queue = [];
    if (group.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = runGroup(group);
    } catch (error) {
      for (const item of group) item.reject(error);
      return;
    }
    group.forEach((item, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  function enqueue<T>(body: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ body, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  return {
    write: enqueue,
    writeNow,
    read: async <T>(body: () => T): Promise<T> => (queue.length > 0 ? enqueue(body) : retryingBusy(body)),
    flush,
  };
}
