/**
 * Opening an embedded SQLite file privately: the file is created 0600 before SQLite opens it
 * (SQLite then gives its -wal and -shm files the same permissions), and an existing file is
 * narrowed to 0600, so no other user of the machine can read the organizations' keys, logs or
 * stored responses. `:memory:` databases have no file. And in WAL mode, however many processes
 * open a new file at the same moment.
 */
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';

export const PRIVATE_FILE_MODE = 0o600;

export function openPrivateDatabase(path: string): Database.Database {
  if (path !== ':memory:' && path !== '') {
    if (existsSync(path)) chmodSync(path, PRIVATE_FILE_MODE);
    else closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
    for (const companion of [`${path}-wal`, `${path}-shm`]) if (existsSync(companion)) chmodSync(companion, PRIVATE_FILE_MODE);
  }
  return new Database(path);
}

/** SQLITE_BUSY or one of its extended codes: another connection holds a lock this one needs. */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export interface BusyRetry {
  /** Time from the first busy answer after which `onDeadline` decides what is thrown. */
  deadlineMs: number;
  /** The first sleep between attempts; each next one doubles (with ±50 % jitter), up to `longestWaitMs`. */
  firstWaitMs: number;
  longestWaitMs: number;
  /** What to throw once the deadline has passed, given the last busy error. */
  onDeadline: (error: unknown) => Error;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `body`, again after a short sleep while SQLite answers SQLITE_BUSY (another process holds a
 * lock). The thread sleeps (Atomics.wait): better-sqlite3 is synchronous, so it waits either way.
 */
export function retryWhileBusy<T>(body: () => T, retry: BusyRetry): T {
  let waitMs = retry.firstWaitMs;
  let deadline: number | null = null;
  for (;;) {
    try {
      return body();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      const nowMs = Date.now();
      deadline ??= nowMs + retry.deadlineMs;
      if (nowMs >= deadline) throw retry.onDeadline(error);
      Atomics.wait(sleeper, 0, 0, waitMs * (0.5 + Math.random()));
      waitMs = Math.min(waitMs * 2, retry.longestWaitMs);
    }
  }
}

/**
 * Puts the file in WAL mode. Processes opening a new file at the same moment (`serve` and
 * `marque worker` on a new data directory) each switch it, and SQLite answers a switch that meets
 * another's lock with SQLITE_BUSY at once, without its busy handler; so this waits and retries,
 * for up to 5 s.
 */
export function useWriteAheadLog(db: Database.Database): void {
  retryWhileBusy(() => db.pragma('journal_mode = WAL'), { deadlineMs: 5_000, firstWaitMs: 1, longestWaitMs: 20, onDeadline: (error) => error as Error });
}
