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

/** How long a file may stay locked by other processes switching it to WAL at the same moment. */
const WAL_SWITCH_DEADLINE_MS = 5_000;

/**
 * Puts the file in WAL mode. Processes opening a new file at the same moment (`serve` and
 * `marque worker` on a new data directory) each switch it, and SQLite answers a switch that meets
 * another's lock with SQLITE_BUSY at once, without its busy handler; so this waits and retries.
 */
export function useWriteAheadLog(db: Database.Database): void {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + WAL_SWITCH_DEADLINE_MS;
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error;
      Atomics.wait(sleeper, 0, 0, 1 + Math.random() * 4);
    }
  }
}
