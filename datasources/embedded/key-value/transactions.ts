/**
 * Every KeyValue operation is atomic on the shared `kv.sqlite`, so any number of processes
 * opening the file see each other's effects whole. Writes take the write lock first
 * (`BEGIN IMMEDIATE`): a read-then-write transaction that began as a reader could find its
 * snapshot stale when it tries to write, and SQLite then fails it at once instead of waiting.
 *
 * The limits stage's charges are grouped: the window and quota checks of one admission, asked for
 * together, share one transaction (committed in a microtask, so before anything else runs), each
 * in its own savepoint in the order asked, so one that throws is undone alone. A commit is mostly
 * fixed cost (about six lock calls and two writes per dirty page), so a metered request pays one
 * instead of two. Every other operation runs at once, after committing a group queued before it
 * (so it sees the group, as a Redis command sees the ones sent before it).
 *
 * Nothing waits for a later turn of the event loop. Grouping the charges of all the requests of a
 * turn (a commit at its end, `setImmediate`) was measured and set aside: it took work off each
 * request under load, but Node's HTTP server drops a request whose client half-closed its
 * connection once the handler waits a turn (the embedded default answers those clients), and a
 * DocumentStore transaction, which holds its file's write lock across its awaits, must not let
 * another turn in, where another connection of the same thread could ask for that lock and block
 * the thread.
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
  /** Runs `body` in the transaction of the operations asked for with it, committed in a microtask. */
  writeGrouped<T>(body: () => T): Promise<T>;
  /** Runs `body` at once in a write transaction of its own, after committing the queued group. */
  write<T>(body: () => T): T;
  /** Runs a read-only `body` at once, after committing the queued group. */
  read<T>(body: () => T): T;
  /** Commits the queued group now (before the connection closes). */
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
  const inOwnTransaction = <T>(body: () => T): T => retryingBusy(() => inTransaction.immediate(body) as T);

  let queue: Queued[] = [];

  /** Each operation's outcome; inside the transaction, one operation's failure undoes only its savepoint. */
  function runGroup(group: readonly Queued[]): Outcome[] {
    if (group.length === 1) return [{ ok: true, value: inOwnTransaction(group[0]!.body) }];
    return inOwnTransaction(() =>
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
      if (queue.length === 0) queueMicrotask(flush);
      queue.push({ body, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  return {
    writeGrouped: enqueue,
    write: (body) => {
      flush();
      return inOwnTransaction(body);
    },
    read: (body) => {
      flush();
      return retryingBusy(body);
    },
    flush,
  };
}
