/**
 * One collection of the embedded DocumentStore: a table `(_id TEXT PRIMARY KEY, doc TEXT)`
 * holding each document as JSON. Writes read, change and write back documents in JavaScript
 * inside one transaction, and append their change-feed rows in that same transaction (a row
 * refers to the document; an overwrite or delete first hands the old JSON to the rows still
 * referring to it: change-feed.ts).
 */
import type { Database, Statement } from 'better-sqlite3';
import type { Collection, Filter, FindOptions, StoredDocument, Update, UpdateOptions, UpdateResult } from '../../ports';
import { UnsupportedQueryError } from '../../ports';
import type { ArrayPathRegistry } from './array-paths';
import type { ChangeFeed } from './change-feed';
import type { DocumentCache } from './document-cache';
import { compileFilter, compileSort } from './filter-to-sql';
import type { SqlFragment, SqlParam } from './filter-to-sql';
import { parseFilter, parseSort, parseUpdate, validatePaging } from './query-subset';
import type { FilterNode, ParsedUpdate } from './query-subset';
import type { TransactionGate } from './transaction-gate';
import { applyUpdate, buildUpsertDocument } from './update-apply';

/** What a collection needs from its store; one per store, shared by all its collections. */
export interface StoreInternals {
  db: Database;
  /** Creates the collection's table unless this store already did (since the last rollback). */
  ensureTable(collection: string): void;
  /** A prepared statement for `sql`, cached per store. */
  statement(sql: string): Statement<SqlParam[]>;
  arrayPaths: ArrayPathRegistry;
  feed: ChangeFeed;
  gate: TransactionGate;
  /** The up-to-date cache of the collection's documents, or null when reads must go to the file. */
  cacheOf(collection: string): DocumentCache | null;
  /** Runs synchronous writes to `collection` in one immediate transaction (a savepoint inside an open one). */
  write<R>(collection: string, writes: () => R): R;
}

interface MatchedRow {
  _id: string;
  doc: string;
}

export class EmbeddedCollection<T extends StoredDocument> implements Collection<T> {
  private readonly quotedName: string;

  constructor(
    readonly name: string,
    private readonly store: StoreInternals,
  ) {
    this.quotedName = `"${name}"`;
  }

  /** The quoted table name, creating the table first when needed (a rolled-back transaction may have dropped it). */
  private get table(): string {
    this.store.ensureTable(this.name);
    return this.quotedName;
  }

  async findOne(filter: Filter): Promise<T | null> {
    const [document] = await this.find(filter, { limit: 1 });
    return document ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    // One look at the array paths per query: each look asks SQLite whether another process wrote.
    const isArrayPath = this.isArrayPath();
    const where = compileFilter(parseFilter(filter), isArrayPath);
    validatePaging(options.limit, options.skip);
    const order = compileSort(parseSort(options.sort), isArrayPath);
    // MongoDB reads limit 0 as "no limit"; SQLite spells that -1.
    const limit = options.limit ? options.limit : -1;
    await this.store.gate.waitOutside();
    const sql = `SELECT doc FROM ${this.table} WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const rows = this.store
      .statement(sql)
      .pluck()
      .all(...where.params, limit, options.skip ?? 0) as string[];
    return rows.map((json) => JSON.parse(json) as T);
  }

  async findByIds(ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    await this.store.gate.waitOutside();
    const cache = this.store.cacheOf(this.name);
    if (cache === null) return this.readByIds(ids);
    const found: T[] = [];
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      // The collection's documents are all of its type T.
      const kept = cache.get(this.name, id) as T | undefined;
      if (kept === undefined) missing.push(id);
      else found.push(kept);
    }
    if (missing.length > 0) for (const document of this.readByIds(missing)) found.push(cache.keep(this.name, document));
    return found;
  }

  private readByIds(ids: readonly string[]): T[] {
    const sql = `SELECT doc FROM ${this.table} WHERE _id IN (SELECT value FROM json_each(?))`;
    const rows = this.store.statement(sql).pluck().all(JSON.stringify(ids)) as string[];
    return rows.map((json) => JSON.parse(json) as T);
  }

  async countDocuments(filter: Filter): Promise<number> {
    const where = this.where(parseFilter(filter));
    await this.store.gate.waitOutside();
    return this.store
      .statement(`SELECT COUNT(*) FROM ${this.table} WHERE ${where.sql}`)
      .pluck()
      .get(...where.params) as number;
  }

  async insertOne(document: T): Promise<void> {
    await this.insertMany([document]);
  }

  async insertMany(documents: readonly T[]): Promise<void> {
    documents.forEach(requireStringId);
    await this.store.gate.waitOutside();
    const insert = this.store.statement(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`);
    this.store.write(this.name, () => {
      for (const document of documents) {
        insert.run(document._id, JSON.stringify(document));
        this.recordWritten('insert', document);
      }
    });
  }

  async replaceOne(document: T): Promise<void> {
    requireStringId(document);
    await this.store.gate.waitOutside();
    this.store.write(this.name, () => {
      const existing = this.store.statement(`SELECT doc FROM ${this.table} WHERE _id = ?`).pluck().get(document._id) as string | undefined;
      const json = JSON.stringify(document);
      if (existing === json) return;
      if (existing !== undefined) this.store.feed.supersede(this.name, document._id, existing);
      this.store.statement(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?) ON CONFLICT (_id) DO UPDATE SET doc = excluded.doc`).run(document._id, json);
      this.recordWritten(existing === undefined ? 'insert' : 'replace', document);
    });
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    return this.update(parseFilter(filter), parseUpdate(update), 1, options.upsert === true);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.update(parseFilter(filter), parseUpdate(update), -1, false);
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.delete(parseFilter(filter), 1);
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.delete(parseFilter(filter), -1);
  }

  private async update(filter: FilterNode, update: ParsedUpdate, limit: number, upsert: boolean): Promise<UpdateResult> {
    await this.store.gate.waitOutside();
    return this.store.write(this.name, () => {
      const where = this.where(filter);
      const matched = this.store.statement(`SELECT _id, doc FROM ${this.table} WHERE ${where.sql} LIMIT ?`).all(...where.params, limit) as MatchedRow[];
      if (matched.length === 0 && upsert) {
        const document = buildUpsertDocument(filter, update);
        this.store.statement(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`).run(document._id, JSON.stringify(document));
        this.recordWritten('insert', document);
        return { matchedCount: 0, modifiedCount: 0, upsertedId: document._id };
      }
      const write = this.store.statement(`UPDATE ${this.table} SET doc = ? WHERE _id = ?`);
      let modifiedCount = 0;
      for (const row of matched) {
        const updated = applyUpdate(JSON.parse(row.doc) as StoredDocument, update, false);
        const json = JSON.stringify(updated);
        if (json === row.doc) continue;
        this.store.feed.supersede(this.name, row._id, row.doc);
        write.run(json, row._id);
        this.recordWritten('update', updated);
        modifiedCount++;
      }
      return { matchedCount: matched.length, modifiedCount, upsertedId: null };
    });
  }

  private async delete(filter: FilterNode, limit: number): Promise<number> {
    await this.store.gate.waitOutside();
    return this.store.write(this.name, () => {
      const where = this.where(filter);
      // The deleted JSON is read back only when change rows may still refer to it (a collection
      // nobody feeds, such as the request logs retention prunes by the thousand, never has any).
      const referred = this.store.feed.refersInto(this.name);
      const sql = `DELETE FROM ${this.table} WHERE _id IN (SELECT _id FROM ${this.table} WHERE ${where.sql} LIMIT ?) RETURNING _id${referred ? ', doc' : ''}`;
      const deleted = this.store.statement(sql).all(...where.params, limit) as Array<Pick<MatchedRow, '_id'> & Partial<MatchedRow>>;
      for (const row of deleted) {
        if (row.doc !== undefined) this.store.feed.supersede(this.name, row._id, row.doc);
        this.store.feed.append(this.name, 'delete', row._id);
      }
      return deleted.length;
    });
  }

  private recordWritten(operation: 'insert' | 'update' | 'replace', document: StoredDocument): void {
    this.store.arrayPaths.record(this.name, document);
    this.store.feed.append(this.name, operation, document._id);
  }

  private where(filter: FilterNode): SqlFragment {
    return compileFilter(filter, this.isArrayPath());
  }

  private isArrayPath(): (path: string) => boolean {
    return this.store.arrayPaths.arrayPathsOf(this.name);
  }
}

function requireStringId(document: StoredDocument): void {
  if (typeof document !== 'object' || document === null || typeof document._id !== 'string' || document._id === '') {
    throw new UnsupportedQueryError('Every stored document needs a non-empty string _id.');
  }
}
