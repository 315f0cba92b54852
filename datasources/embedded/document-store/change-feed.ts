/**
 * The embedded change feed: the `_changes` table, appended to inside each write's transaction,
 * and read by position (the row id). Waiters wake at once on a commit of this process and poll
 * otherwise, so writes by another process on the same file (the CLI) are seen too.
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

export class ChangeFeed {
  private readonly appendRow: Statement<[string, ChangeOperation, string, string | null, string]>;
  private readonly readAll: Statement<[number, number], ChangeRow>;
  private readonly readSome: Statement<[string, number, number], ChangeRow>;
  private readonly latestId: Statement<[], number | null>;
  private readonly deleteConsumed: Statement<[number, string]>;
  private readonly waiters = new Set<() => void>();
  private uncommittedAppends = false;
  private closed = false;

  /** `fedCollections`: when given, only writes to these collections are recorded. */
  constructor(
    db: Database,
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
    this.appendRow = db.prepare('INSERT INTO _changes (collection, operation, document_id, document, occurred_at) VALUES (?, ?, ?, ?, ?)');
    const columns = 'id, collection, operation, document_id, document, occurred_at';
    this.readAll = db.prepare(`SELECT ${columns} FROM _changes WHERE id > ? ORDER BY id LIMIT ?`);
    // Reads past the changes of other collections too (document left out), so the batch's
    // position moves beyond them and a reader filtering collections never re-reads them.
    this.readSome = db.prepare(
      `SELECT id, collection, operation, document_id, CASE WHEN wanted THEN document END AS document, occurred_at, wanted
       FROM (SELECT *, collection IN (SELECT value FROM json_each(?)) AS wanted FROM _changes WHERE id > ? ORDER BY id LIMIT ?)`,
    );
    this.latestId = db.prepare<[], number | null>('SELECT MAX(id) FROM _changes').pluck();
    // AUTOINCREMENT: ids are never reused, so deleting old rows never moves a position.
    this.deleteConsumed = db.prepare('DELETE FROM _changes WHERE id <= ? AND id < (SELECT MAX(id) FROM _changes) AND occurred_at < ?');
  }

  isFed(collection: string): boolean {
    return this.fedCollections === undefined || this.fedCollections.includes(collection);
  }

  /** Call inside the write's transaction; `documentJson` is null for deletes. */
  append(collection: string, operation: ChangeOperation, documentId: string, documentJson: string | null): void {
    if (!this.isFed(collection)) return;
    this.appendRow.run(collection, operation, documentId, documentJson, new Date().toISOString());
    this.uncommittedAppends = true;
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
    const rows = collections ? this.readSome.all(JSON.stringify(collections), afterId, limit) : this.readAll.all(afterId, limit);
    const last = rows[rows.length - 1];
    return { events: rows.filter((row) => row.wanted !== 0).map(toEvent), position: last ? String(last.id) : after };
  }

  prune(consumedUpTo: readonly string[], occurredBefore: string): number {
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

function toEvent(row: ChangeRow): ChangeEvent {
  return {
    position: String(row.id),
    collection: row.collection,
    operation: row.operation,
    documentId: row.document_id,
    document: row.document === null ? null : (JSON.parse(row.document) as StoredDocument),
    occurredAt: row.occurred_at,
  };
}
