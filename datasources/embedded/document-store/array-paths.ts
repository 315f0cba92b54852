/**
 * Which dotted paths of a collection have ever held an array. Filters and sorts on a path that
 * never crossed an array compile to a bare `json_extract(doc, '$.path')`, which SQLite can serve
 * from an expression index; only paths recorded here get the slower `json_each` branches that
 * give MongoDB's "any element matches" semantics.
 *
 * The set only grows (a stale extra entry costs speed, never correctness). Other processes
 * writing the same file record their paths in the same table; `PRAGMA data_version` tells us
 * when they committed, and then the set is reloaded.
 */
import type { Database, Statement } from 'better-sqlite3';
import { isPlainObject } from './query-subset';

export class ArrayPathRegistry {
  private readonly known = new Map<string, Set<string>>();
  private readonly insert: Statement<[string, string]>;
  private readonly selectAll: Statement<[], { collection: string; path: string }>;
  private readonly dataVersion: Statement<[], number>;
  private seenDataVersion = -1;

  constructor(db: Database) {
    db.exec('CREATE TABLE IF NOT EXISTS _array_paths (collection TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY (collection, path)) WITHOUT ROWID');
    this.insert = db.prepare('INSERT OR IGNORE INTO _array_paths (collection, path) VALUES (?, ?)');
    this.selectAll = db.prepare('SELECT collection, path FROM _array_paths');
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** Records the array paths of a document being written (call inside the write's transaction). */
  record(collection: string, document: object): void {
    let paths = this.known.get(collection);
    if (!paths) {
      paths = new Set();
      this.known.set(collection, paths);
    }
    const known = paths;
    forEachArrayPath(document, '', (path) => {
      if (known.has(path)) return;
      known.add(path);
      this.insert.run(collection, path);
    });
  }

  /** A predicate over dotted paths of `collection`, current as of other processes' last commit. */
  arrayPathsOf(collection: string): (path: string) => boolean {
    this.reloadIfChangedElsewhere();
    const paths = this.known.get(collection);
    return (path) => paths?.has(path) ?? false;
  }

  private reloadIfChangedElsewhere(): void {
    const dataVersion = this.dataVersion.get() ?? 0;
    if (dataVersion === this.seenDataVersion) return;
    this.seenDataVersion = dataVersion;
    for (const { collection, path } of this.selectAll.all()) {
      const paths = this.known.get(collection) ?? new Set<string>();
      paths.add(path);
      this.known.set(collection, paths);
    }
  }
}

/** Calls `visit` with the dotted path (array indexes left out) of every array in the document. */
function forEachArrayPath(value: unknown, path: string, visit: (path: string) => void): void {
  if (Array.isArray(value)) {
    visit(path);
    for (const element of value) if (isPlainObject(element)) forEachField(element, path, visit);
  } else if (isPlainObject(value)) {
    forEachField(value, path, visit);
  }
}

function forEachField(object: Record<string, unknown>, path: string, visit: (path: string) => void): void {
  for (const key in object) {
    const child = object[key];
    if (typeof child === 'object' && child !== null) forEachArrayPath(child, path === '' ? key : `${path}.${key}`, visit);
  }
}
