/**
 * The embedded DocumentStore: SQLite through better-sqlite3, one connection per store, one table
 * per collection, MongoDB's query subset translated to SQL over JSON (see document-store/).
 *
 * The database runs in WAL mode with a busy timeout, because another process (the `marque` CLI)
 * may write the same file while the server runs; each process sees the other's commits. Every
 * write appends to the `_changes` table in its own transaction, which is the change feed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { openPrivateDatabase, useWriteAheadLog } from './sqlite-file';
import type { Statement } from 'better-sqlite3';
import { DependencyUnavailableError, UnsupportedQueryError } from '../ports';
import type { ChangeBatch, Collection, DocumentStore, IndexSpec, StoredDocument } from '../ports';
import { ArrayPathRegistry } from './document-store/array-paths';
import { ChangeFeed, PRUNE_CHUNK } from './document-store/change-feed';
import { EmbeddedCollection } from './document-store/collection';
import { DocumentCache } from './document-store/document-cache';
import type { StoreInternals } from './document-store/collection';
import type { SqlParam } from './document-store/filter-to-sql';
import { parseQueryPath } from './document-store/query-subset';
import { TransactionGate } from './document-store/transaction-gate';

export interface EmbeddedDocumentStoreOptions {
  /** Database file, or ':memory:'. */
  path: string;
  /** When given, only writes to these collections produce change-feed rows (default: all). */
  feedCollections?: readonly string[];
  /** How long a write waits for another process's write lock before failing (default 5000). */
  busyTimeoutMs?: number;
  /**
   * For a one-off bulk load into empty collections (`marque seed`): this connection skips
   * fsyncs, checkpoints the write-ahead log rarely, and drops the secondary indexes of each
   * collection it finds empty, rebuilding them once at `close` from the loaded rows (an
   * interrupted load leaves them to `ensureIndexes`, which every start runs). Other connections
   * keep their durability; a crash mid-load can lose this connection's writes, which a seed redoes.
   */
  bulkLoad?: boolean;
  /**
   * Write-ahead log between automatic checkpoints, in 4 KiB units whatever the file's page size
   * (SQLite's default is 1,000 pages). A connection that writes for a long time with the change
   * feed on (`marque ingest`) runs about twice as fast with 16,384 (64 MB) than with 4 MB; readers
   * meanwhile scan a longer write-ahead log. Bulk loads use 65,536 (256 MB).
   */
  checkpointPages?: number;
  /**
   * Parsed documents of these collections kept between `findByIds` calls, up to `entries` in all
   * (least recently used dropped first; 0 keeps none). See document-store/document-cache.ts.
   */
  cache?: { collections: readonly string[]; entries: number };
}

/** Page size of a store created by this version (SQLite's default is 4,096). */
const PAGE_BYTES = 16384;
/** Write-ahead log between checkpoints during a bulk load, in 4 KiB units (256 MB instead of SQLite's 4 MB). */
const BULK_LOAD_CHECKPOINT_PAGES = 65536;
const CHECKPOINT_UNIT_BYTES = 4096;
/** Page cache of a bulk-loading connection, in KiB: the primary-key B-trees of a million marks' history. */
const BULK_LOAD_CACHE_KIB = 1024 * 1024;
/**
 * Page cache of a serving connection, in KiB (SQLite's default is 2 MiB): a batch of 100 marks reads
 * some 360 documents over the collections' B-trees, and in a process's own cache their inner pages
 * stay hot (the batch's store reads took 9.0 ms with the default, 3.3–4.2 ms with 64–128 MiB, on
 * 1M marks). Each process of `serve --workers N` has its own.
 */
const SERVING_CACHE_KIB = 64 * 1024;

/** Statements are cached by SQL text; past this many distinct texts the cache starts over. */
const STATEMENT_CACHE_LIMIT = 500;
const COLLECTION_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Commits by the embedded stores of this process (any file): each makes a kept data_version stale. */
let commitsInThisProcess = 0;

export function createEmbeddedDocumentStore(options: EmbeddedDocumentStoreOptions): DocumentStore {
  return new EmbeddedDocumentStore(options);
}

class EmbeddedDocumentStore implements DocumentStore {
  private readonly db: Database.Database;
  private readonly internals: StoreInternals;
  private readonly statements = new Map<string, Statement<SqlParam[]>>();
  private readonly createdTables = new Set<string>();
  private readonly feed: ChangeFeed;
  private readonly gate = new TransactionGate();
  private readonly bulkLoad: boolean;
  /** Writes begun through this store per collection (change tokens; a rolled-back one counts too). */
  private readonly writesByCollection = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  /** data_version as read in this turn of the event loop, and the count of this process's commits then. */
  private turnDataVersion: { value: number; commits: number } | null = null;
  /** Bulk load: CREATE INDEX statements dropped from empty collections, run again at close. */
  private readonly deferredIndexes = new Map<string, string>();
  private readonly cache: DocumentCache | null;

  constructor(options: EmbeddedDocumentStoreOptions) {
    // Checked before the file is opened: trigger names are made of them.
    const cachedCollections = options.cache?.collections.map(checkedCollectionName) ?? [];
    this.db = openPrivateDatabase(options.path);
    // Only a new, empty file takes it (an existing one keeps the page size it was made with).
    // Documents are 0.3–3 KB of JSON: a 4 KB page holds one or two, a 16 KB page five to fifty,
    // so a bulk ingestion writes far fewer pages and WAL frames per mark (about 40 % less time
    // spent in inserts and commits, measured on the USPTO bench file).
    this.db.pragma(`page_size = ${PAGE_BYTES}`);
    useWriteAheadLog(this.db);
    this.db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
    // In WAL mode NORMAL stays consistent; a power loss may drop only the last commits.
    this.db.pragma(options.bulkLoad ? 'synchronous = OFF' : 'synchronous = NORMAL');
    const checkpointUnits = options.bulkLoad ? BULK_LOAD_CHECKPOINT_PAGES : options.checkpointPages;
    if (checkpointUnits !== undefined) {
      const pageBytes = this.db.pragma('page_size', { simple: true }) as number;
      this.db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.round((checkpointUnits * CHECKPOINT_UNIT_BYTES) / pageBytes))}`);
    }
    this.db.pragma(`cache_size = -${options.bulkLoad ? BULK_LOAD_CACHE_KIB : SERVING_CACHE_KIB}`);
    this.bulkLoad = options.bulkLoad === true;
    this.feed = new ChangeFeed(this.db, options.feedCollections);
    this.dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    this.cache =
      options.cache && options.cache.entries > 0 && !this.bulkLoad
        ? new DocumentCache(this.db, cachedCollections, options.cache.entries, (name) => this.ensureTable(name))
        : null;
    const immediate = this.db.transaction((writes: () => unknown) => writes()).immediate;
    this.internals = {
      db: this.db,
      ensureTable: (name) => this.ensureTable(name),
      statement: (sql) => this.statement(sql),
      arrayPaths: new ArrayPathRegistry(this.db),
      feed: this.feed,
      gate: this.gate,
      cacheOf: (collection) => this.cacheOf(collection),
      write: <R>(collection: string, writes: () => R): R => {
        this.writesByCollection.set(collection, (this.writesByCollection.get(collection) ?? 0) + 1);
        const result = withBusyAsUnavailable(() => immediate(writes) as R);
        commitsInThisProcess++;
        if (!this.db.inTransaction) this.feed.committed();
        return result;
      },
    };
  }

  collection<T extends StoredDocument>(name: string): Collection<T> {
    return new EmbeddedCollection<T>(checkedCollectionName(name), this.internals);
  }

  private ensureTable(name: string): void {
    if (this.createdTables.has(name)) return;
    this.db.exec(`CREATE TABLE IF NOT EXISTS "${name}" (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    this.createdTables.add(name);
    if (this.bulkLoad) this.deferIndexesOfEmpty(name);
  }

  private deferIndexesOfEmpty(name: string): void {
    if (this.db.prepare(`SELECT 1 FROM "${name}" LIMIT 1`).get() !== undefined) return;
    const indexes = this.db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(name) as Array<{
      name: string;
      sql: string;
    }>;
    for (const index of indexes) {
      this.db.exec(`DROP INDEX "${index.name}"`);
      this.deferredIndexes.set(index.name, index.sql);
    }
  }

  /** Rebuilds the indexes a bulk load dropped, unless another connection already did. */
  private createDeferredIndexes(): void {
    const exists = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?");
    for (const [name, sql] of this.deferredIndexes) if (exists.get(name) === undefined) this.db.exec(sql);
    this.deferredIndexes.clear();
  }

  /** One expression index per spec over `json_extract(doc, '$.path')`; useful for scalar paths only. */
  async ensureIndexes(specs: readonly IndexSpec[]): Promise<void> {
    await this.gate.waitOutside();
    for (const spec of specs) {
      this.collection(spec.collection);
      this.ensureTable(spec.collection);
      const paths = spec.paths.filter((path) => path !== '_id');
      if (paths.length === 0) continue;
      const columns = paths.map((path) => `json_extract(doc, '$.${parseQueryPath(path).join('.')}')`).join(', ');
      const name = `${spec.collection}__${paths.map((path) => path.replace(/\./g, '_')).join('__')}${spec.unique ? '__unique' : ''}`;
      this.db.exec(`CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}" ON "${spec.collection}" (${columns})`);
    }
  }

  /**
   * BEGIN IMMEDIATE … COMMIT around async work, on the store's one connection. See
   * TransactionGate for the limitation: other operations on this store wait while it is open,
   * and another process's writes wait (up to the busy timeout) for its lock.
   */
  transaction<R>(work: () => Promise<R>): Promise<R> {
    return this.gate.run(work, {
      begin: () => withBusyAsUnavailable(() => this.db.exec('BEGIN IMMEDIATE')),
      commit: () => {
        try {
          this.db.exec('COMMIT');
        } catch (error) {
          this.rollback();
          throw error;
        }
        commitsInThisProcess++;
        this.feed.committed();
      },
      rollback: () => this.rollback(),
    });
  }

  async readChanges(after: string | null, limit: number, collections?: readonly string[]): Promise<ChangeBatch> {
    await this.gate.waitOutside();
    return this.feed.read(after, limit, collections);
  }

  async waitForChanges(after: string | null, timeoutMs: number): Promise<void> {
    await this.gate.waitOutside();
    return this.feed.wait(after, timeoutMs);
  }

  async latestPosition(): Promise<string | null> {
    await this.gate.waitOutside();
    return this.feed.latest();
  }

  async pruneChanges(consumedUpTo: readonly string[], occurredBefore: string): Promise<number> {
    let pruned = 0;
    for (;;) {
      await this.gate.waitOutside();
      const deleted = this.feed.pruneChunk(consumedUpTo, occurredBefore);
      pruned += deleted;
      if (deleted < PRUNE_CHUNK) return pruned;
      await nextTurn();
    }
  }

  /**
   * SQLite's data_version moves when another connection (another process, or another store on
   * the same file) commits; this store's own writes are counted per collection.
   */
  async changeToken(collection: string): Promise<string> {
    await this.gate.waitOutside();
    return `${this.dataVersionOfThisTurn()}:${this.writesByCollection.get(collection) ?? 0}`;
  }

  /**
   * data_version, read again only in a new turn of the event loop or after a commit by any store
   * of this process: reading it begins and ends a read transaction (two lock calls on the WAL
   * index, 4–5 µs here), and every request asks for two tokens (its key and its organization).
   * Another process's commit shows from the next turn: the requests handled in this one were
   * received before it began.
   */
  private dataVersionOfThisTurn(): number {
    const kept = this.turnDataVersion;
    if (kept !== null && kept.commits === commitsInThisProcess) return kept.value;
    if (kept === null) setImmediate(() => (this.turnDataVersion = null));
    const value = this.dataVersion.get() ?? 0;
    this.turnDataVersion = { value, commits: commitsInThisProcess };
    return value;
  }

  /** The cache of `collection`'s documents, brought up to date; null when it has none or a transaction is open. */
  private cacheOf(collection: string): DocumentCache | null {
    const cache = this.cache;
    if (cache === null || !cache.caches(collection) || this.db.inTransaction) return null;
    cache.refresh(this.dataVersionOfThisTurn(), commitsInThisProcess);
    return cache;
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    await this.gate.waitOutside();
    this.createDeferredIndexes();
    this.feed.close();
    this.db.close();
  }

  private rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    // Tables created inside the transaction are gone again.
    this.createdTables.clear();
    this.feed.rolledBack();
  }

  private statement(sql: string): Statement<SqlParam[]> {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_LIMIT) this.statements.clear();
      statement = this.db.prepare<SqlParam[]>(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** A collection's name, which table, trigger and index names are made of. */
function checkedCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name) || name.toLowerCase().startsWith('sqlite')) {
    throw new UnsupportedQueryError(`Invalid collection name "${name}": use [A-Za-z][A-Za-z0-9_]*, not starting with "sqlite".`);
  }
  return name;
}

/** SQLITE_BUSY means another process held the write lock past the busy timeout. */
function withBusyAsUnavailable<R>(run: () => R): R {
  try {
    return run();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      throw new DependencyUnavailableError('database', 'The database is locked by another writer; try again.');
    }
    throw error;
  }
}
