/**
 * Opening an embedded SQLite file privately: the file is created 0600 before SQLite opens it
 * (SQLite then gives its -wal and -shm files the same permissions), and an existing file is
 * narrowed to 0600, so no other user of the machine can read the organizations' keys, logs or
 * stored responses. `:memory:` databases have no file.
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
