/**
 * Processes started together on one data directory (`serve` beside `marque worker`): child
 * processes each open the same new file as the embedded store, search index (ensuring the
 * trademark index) or key-value does, released at the same moment for every file, and report
 * what they created or what they threw. Processes, not threads: SQLite's file locks (POSIX
 * advisory locks) only conflict between processes.
 */
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';

export type EmbeddedFile = 'document-store' | 'search-index' | 'key-value';

/** `created`: whether ensuring the search index asked for a refill (it created the tables, or found them not yet filled); false for the other files. */
export type OpenOutcome = { path: string; created: boolean } | { path: string; error: string };

/** Opens `path` as `file` and closes it again; true when it created the search index's tables. */
async function openAndClose(file: EmbeddedFile, path: string): Promise<boolean> {
  if (file === 'document-store') {
    await createEmbeddedDocumentStore({ path }).close();
    return false;
  }
  if (file === 'key-value') {
    await createEmbeddedKeyValue({ path }).close();
    return false;
  }
  const index = createEmbeddedSearchIndex({ path });
  try {
    return (await index.ensureIndex(TRADEMARK_INDEX)).needsRefill;
  } finally {
    await index.close();
  }
}

const CHILD_ENV = 'MARQUE_TEST_OPEN_TOGETHER';

/** In a child: for each path, says it is ready, waits for the go, opens the file and reports. */
async function runChild(file: EmbeddedFile, paths: string[]): Promise<void> {
  const go = () => new Promise<void>((resolve) => process.once('message', () => resolve()));
  for (const path of paths) {
    const released = go();
    process.send!('ready');
    await released;
    let outcome: OpenOutcome;
    try {
      outcome = { path, created: await openAndClose(file, path) };
    } catch (error) {
      outcome = { path, error: String(error) };
    }
    process.send!(outcome);
  }
  process.disconnect();
}

if (process.env[CHILD_ENV] !== undefined && process.send !== undefined) {
  const { file, paths } = JSON.parse(process.env[CHILD_ENV]) as { file: EmbeddedFile; paths: string[] };
  void runChild(file, paths);
}

/** Opens `rounds` new files in `directory` as `file`, each from `processes` processes at one moment; what each opening did. */
export async function openTogether(file: EmbeddedFile, directory: string, processes: number, rounds: number): Promise<OpenOutcome[]> {
  const paths = Array.from({ length: rounds }, (_, round) => join(directory, `${file}-${round}.sqlite`));
  const children = Array.from({ length: processes }, () =>
    fork(__filename, [], {
      env: { ...process.env, [CHILD_ENV]: JSON.stringify({ file, paths }) },
      execArgv: [...process.execArgv, '-r', 'ts-node/register/transpile-only'],
    }),
  );
  const outcomes: OpenOutcome[] = [];
  let ready = 0;
  const exits = children.map((child) => {
    child.on('message', (message: 'ready' | OpenOutcome) => {
      if (message !== 'ready') {
        outcomes.push(message);
        return;
      }
      ready += 1;
      if (ready < processes) return;
      ready = 0;
      for (const each of children) each.send('go');
    });
    return new Promise<void>((resolve) => child.once('exit', () => resolve()));
  });
  await Promise.all(exits);
  return outcomes;
}

/**
 * Opens twelve new files as `file`, each from four processes at one moment: every opening
 * succeeds and every file is left in WAL mode (what lets the processes of a data directory read
 * beside one writer).
 */
export async function expectOpenedTogetherInWal(file: EmbeddedFile, directory: string): Promise<void> {
  const outcomes = await openTogether(file, directory, 4, 12);
  expect(outcomes).to.have.length(48);
  expect(outcomes.filter((outcome) => 'error' in outcome)).to.deep.equal([]);
  for (const path of new Set(outcomes.map((outcome) => outcome.path))) expect(journalMode(path), path).to.equal('wal');
}

function journalMode(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('journal_mode', { simple: true }) as string;
  } finally {
    db.close();
  }
}
