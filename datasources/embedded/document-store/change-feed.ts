/**
 * The embedded change feed: the `_changes` table, appended to inside each write's transaction,
 * and read by position (the row id). Waiters wake at once on a commit of this process and poll
 * otherwise, so writes by another process on the same file (the CLI) are seen too.
 *
 * A row refers to its document instead of copying it while that document is unchanged since:
 * the row's `document` is NULL (for a delete it is always NULL) and a read takes the document from
 * its collection's table. Before a write overwrites or deletes a document, `supersede` copies the
 * state being replaced into the rows that still refer to it, in the same transaction, so every row
 * still reads as the document right after its own change. This saves about a quarter of what a
 * bulk ingestion writes (a mark and its change record were stored twice, in their tables and
 * here). Rows written before this scheme carry their copy and read as they always did.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { ChangeBatch, ChangeEvent, ChangeOperation, StoredDocument } from '../../ports';

/** How often a waiter looks for commits made by other processes. */
const POLL_INTERVAL_MS = 200;

interface ChangeRow {
  id: number;
  collection: string;
  operation: ChangeOperation;
  document_id: string;
  document: string | null;
  occurred_at: string;
  /** Filtered reads only: 0 for a change of a collection the reader did not ask for. */
  wanted?: number;
}

/**
 * Feed entries deleted per statement when pruning (about 8 ms here): a feed of millions of
 * entries (a backfile ingested a week ago) goes a chunk at a time, letting the event loop and
 * other processes' writes in between, instead of in one statement that held both for seconds
 * (1.5 s for 1 M entries).
 */
export const PRUNE_CHUNK = 5000;

export class ChangeFeed {
  private readonly appendRow: Statement<[string, ChangeOperation, string, string]>;
  private readonly copyInto: Statement<[string, string, string]>;
  private readonly anyReferring: Statement<[string], number>;
  private readonly documentReads = new Map<string, Statement<[string], string>>();
  private readonly readAll: Statement<[number, number], ChangeRow>;
  private readonly readSome: Statement<[string, number, number], ChangeRow>;
  private readonly latestId: Statement<[], number | null>;
  private readonly deleteConsumed: Statement<[number, string]>;
  private readonly waiters = new Set<() => void>();
  private uncommittedAppends = false;
  private closed = false;

  /** `fedCollections`: when given, only writes to these collections are recorded. */
  constructor(
    private readonly db: Database,
    private readonly fedCollections: readonly string[] | undefined,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS _changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      collection TEXT NOT NULL,
      operation TEXT NOT NULL,
      document_id TEXT NOT NULL,
      document TEXT,
      occurred_at TEXT NOT NULL
    )`);
    // Only the rows that still refer to their document: a handful per document at most, and none
    // once superseded, so the index stays small however long the feed.
    db.exec(`CREATE INDEX IF NOT EXISTS _changes__referring ON _changes (collection, document_id) WHERE document IS NULL AND operation <> 'delete'`);
    this.appendRow = db.prepare('INSERT INTO _changes (collection, operation, document_id, document, occurred_at) VALUES (?, ?, ?, NULL, ?)');
    this.copyInto = db.prepare("UPDATE _changes SET document = ? WHERE collection = ? AND document_id = ? AND document IS NULL AND operation <> 'delete'");
    const columns = 'id, collection, operation, document_id, document, occurred_at';
    this.anyReferring = db
      .prepare<[string], number>("SELECT 1 FROM _changes WHERE collection = ? AND document IS NULL AND operation <> 'delete' LIMIT 1")
      .pluck();
    this.readAll = db.prepare(`SELECT ${columns} FROM _changes WHERE id > ? ORDER BY id LIMIT ?`);
    // Reads past the changes of other collections too (document left out), so the batch's
    // position moves beyond them and a reader filtering collections never re-reads them.
    this.readSome = db.prepare(
      `SELECT id, collection, operation, document_id, CASE WHEN wanted THEN document END AS document, occurred_at, wanted
       FROM (SELECT *, collection IN (SELECT value FROM json_each(?)) AS wanted FROM _changes WHERE id > ? ORDER BY id LIMIT ?)`,
    );
    this.latestId = db.prepare<[], number | null>('SELECT MAX(id) FROM _changes').pluck();
    // AUTOINCREMENT: ids are never reused, so deleting old rows never moves a position.
    this.deleteConsumed = db.prepare(
      `DELETE FROM _changes WHERE id IN (
         SELECT id FROM _changes WHERE id <= ? AND id < (SELECT MAX(id) FROM _changes) AND occurred_at < ? ORDER BY id LIMIT ${PRUNE_CHUNK})`,
    );
  }

  isFed(collection: string): boolean {
    return this.fedCollections === undefined || this.fedCollections.includes(collection);
  }

  /** Call inside the write's transaction, after the write (the row refers to the document as written). */
  append(collection: string, operation: ChangeOperation, documentId: string): void {
    if (!this.isFed(collection)) return;
    this.appendRow.run(collection, operation, documentId, new Date().toISOString());
    this.uncommittedAppends = true;
  }

  /** Whether any row of `collection` still refers to its document (call inside the write's transaction). */
  refersInto(collection: string): boolean {
    return this.anyReferring.get(collection) !== undefined;
  }

  /**
   * Call inside the write's transaction, before a stored document is overwritten or deleted, with
   * its stored JSON. Runs whether or not this connection feeds the collection: another process
   * sharing the file may, and its rows must keep their document.
   */
  supersede(collection: string, documentId: string, storedJson: string): void {
    this.copyInto.run(storedJson, collection, documentId);
  }

  /** Call after every commit: wakes this process's waiters when the commit added changes. */
  committed(): void {
    if (!this.uncommittedAppends) return;
    this.uncommittedAppends = false;
    for (const wake of [...this.waiters]) wake();
  }

  rolledBack(): void {
    this.uncommittedAppends = false;
  }

  read(after: string | null, limit: number, collections?: readonly string[]): ChangeBatch {
    const afterId = parsePosition(after);
    // One read transaction: the rows and the documents they refer to come from the same snapshot.
    return this.db.transaction(() => {
      const rows = collections ? this.readSome.all(JSON.stringify(collections), afterId, limit) : this.readAll.all(afterId, limit);
      const last = rows[rows.length - 1];
      const events = rows.filter((row) => row.wanted !== 0).map((row) => toEvent(row, this.documentOf(row)));
      return { events, position: last ? String(last.id) : after };
    })();
  }

  /** The row's document as JSON: its copy, or the one it refers to (null for deletes). */
  private documentOf(row: ChangeRow): string | null {
    if (row.document !== null || row.operation === 'delete') return row.document;
    let read = this.documentReads.get(row.collection);
    if (read === undefined) {
      // Collection names were checked when written (document-store.ts: letters, digits, underscores).
      read = this.db.prepare<[string], string>(`SELECT doc FROM "${row.collection}" WHERE _id = ?`).pluck();
      this.documentReads.set(row.collection, read);
    }
    return read.get(row.document_id) ?? null;
  }

  /** Deletes the oldest PRUNE_CHUNK (at most) of the entries `pruneChanges` would; returns how many it did. */
  pruneChunk(consumedUpTo: readonly string[], occurredBefore: string): number {
    if (consumedUpTo.length === 0) return 0;
    const everyoneRead = Math.min(...consumedUpTo.map(parsePosition));
    return this.deleteConsumed.run(everyoneRead, occurredBefore).changes;
  }

  latest(): string | null {
    const id = this.latestId.get();
    return id === null || id === undefined ? null : String(id);
  }

  /** Resolves at once when the feed is closed, so consumers' loops can notice and stop. */
  wait(after: string | null, timeoutMs: number): Promise<void> {
    const afterId = parsePosition(after);
    if (this.closed) return Promise.resolve();
    const hasNewer = (): boolean => (this.latestId.get() ?? 0) > afterId;
    if (hasNewer()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timeout);
        clearInterval(poll);
        this.waiters.delete(finish);
        resolve();
      };
      const timeout = setTimeout(finish, timeoutMs);
      const poll = setInterval(() => {
        if (hasNewer()) finish();
      }, POLL_INTERVAL_MS);
      this.waiters.add(finish);
    });
  }

  /** Releases every waiter (the store is closing). */
  close(): void {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
  }
}

function parsePosition(position: string | null): number {
  if (position === null) return 0;
  if (!/^(0|[1-9][0-9]{0,15})$/.test(position)) throw new Error(`Invalid change position "${position}".`);
  return Number(position);
}

function toEvent(row: ChangeRow, document: string | null): ChangeEvent {
  return {
    position: String(row.id),
    collection: row.collection,
    operation: row.operation,
    documentId: row.document_id,
    document: document === null ? null : (JSON.parse(document) as StoredDocument),
    occurredAt: row.occurred_at,
  };
}
