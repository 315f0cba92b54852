/**
 * Parsed documents of chosen collections (the catalog that read routes fetch by ID), kept between
 * `findByIds` calls. A batch of 100 marks reads some 360 documents, and reading their JSON out of
 * SQLite and parsing it was a third of the batch's busy CPU (bench/analysis.md).
 *
 * A kept document must never outlive its row. Triggers kept in the file add a row to `_evictions`
 * for every update and delete of a cached collection's row, whichever connection, process or code
 * writes it (`marque ingest`, another HTTP worker, a raw SQL fix). An insert needs none: a missing
 * ID is never kept. Before a read the cache reads the rows added since it last looked, but only
 * when something may have been committed since: another connection (SQLite's `data_version`) or a
 * store of this process. `_evictions` is a ring: each trigger deletes the row `EVICTION_RING`
 * behind the one it adds, and a reader that finds a gap before the first row it reads (it slept
 * through more than a ring of writes) empties itself instead.
 *
 * A document is kept from its second read (`keep`). Inside a transaction the store does not use
 * the cache: its reads see its own uncommitted writes, which must not be kept. Kept documents are
 * shared by every reader, so every document read through the cache is frozen (deeply), kept or
 * not: code that changes a document it read must copy it first, and gets a TypeError if it does not.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { StoredDocument } from '../../ports';

/** Eviction rows kept in the file: more than any reader falls behind while it serves. */
export const EVICTION_RING = 100_000;
/** Past this many rows to read, the reader empties itself (cheaper than evicting one by one). */
const LARGEST_CATCH_UP = 2_000;

interface EvictionRow {
  id: number;
  collection: string;
  document_id: string;
}

export class DocumentCache {
  private readonly kept = new Map<string, StoredDocument>();
  /** Keys read from the file once and not kept (at most `capacity`, then it starts over). */
  private readonly missedOnce = new Set<string>();
  private readonly cached: ReadonlySet<string>;
  private readonly newEvictions: Statement<[number, number], EvictionRow>;
  private position: number;
  private seenDataVersion = -1;
  private seenCommits = -1;

  /** `capacity` is at least 1 (the store makes none for 0); `ensureTable` creates a collection's table, which its triggers need. */
  constructor(
    db: Database,
    collections: readonly string[],
    private readonly capacity: number,
    ensureTable: (collection: string) => void,
  ) {
    this.cached = new Set(collections);
    db.exec('CREATE TABLE IF NOT EXISTS _evictions (id INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, document_id TEXT NOT NULL)');
    for (const collection of collections) {
      ensureTable(collection);
      for (const event of ['UPDATE', 'DELETE']) {
        db.exec(`CREATE TRIGGER IF NOT EXISTS "${collection}__evict_on_${event.toLowerCase()}" AFTER ${event} ON "${collection}" BEGIN
          INSERT INTO _evictions (collection, document_id) VALUES ('${collection}', OLD._id);
          DELETE FROM _evictions WHERE id <= last_insert_rowid() - ${EVICTION_RING};
        END`);
      }
    }
    this.newEvictions = db.prepare('SELECT id, collection, document_id FROM _evictions WHERE id > ? ORDER BY id LIMIT ?');
    this.position = (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = '_evictions'").pluck().get() as number | undefined) ?? 0;
  }

  caches(collection: string): boolean {
    return this.cached.has(collection);
  }

  /**
   * Drops what changed since the last look, if anything may have been committed since: another
   * connection moves `dataVersion`, a store of this process `commits`.
   */
  refresh(dataVersion: number, commits: number): void {
    if (dataVersion === this.seenDataVersion && commits === this.seenCommits) return;
    this.seenDataVersion = dataVersion;
    this.seenCommits = commits;
    const rows = this.newEvictions.all(this.position, LARGEST_CATCH_UP + 1);
    if (rows.length === 0) return;
    const last = rows[rows.length - 1] as EvictionRow;
    if (rows.length > LARGEST_CATCH_UP || (rows[0] as EvictionRow).id !== this.position + 1) {
      this.kept.clear();
    } else {
      for (const row of rows) this.kept.delete(keyOf(row.collection, row.document_id));
    }
    this.position = last.id;
  }

  get(collection: string, id: string): StoredDocument | undefined {
    const key = keyOf(collection, id);
    const document = this.kept.get(key);
    if (document !== undefined) {
      // Least recently used first: a hit moves to the end.
      this.kept.delete(key);
      this.kept.set(key, document);
    }
    return document;
  }

  /**
   * Freezes a document read from the file, and keeps it if it was missed once before (since the
   * list of those last started over). Reads of IDs spread over millions of marks would otherwise
   * keep each document long enough to move it to V8's old generation and then drop it there: with
   * every read missing, detail reads took 10–15 % more CPU than with no cache.
   */
  keep<T extends StoredDocument>(collection: string, document: T): T {
    deepFreeze(document);
    const key = keyOf(collection, document._id);
    if (!this.missedOnce.delete(key)) {
      if (this.missedOnce.size >= this.capacity) this.missedOnce.clear();
      this.missedOnce.add(key);
      return document;
    }
    this.kept.set(key, document);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value as string);
    return document;
  }
}

function keyOf(collection: string, id: string): string {
  return `${collection}\u0000${id}`;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}
