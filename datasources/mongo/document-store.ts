/**
 * The DocumentStore on MongoDB (chosen when MONGODB_URL is set). Filters, sorts and updates go
 * to the server as they are, after the same subset check as the embedded adapter, so a query
 * that works here also works on SQLite and the reverse.
 *
 * The change feed is MongoDB change streams, which need a replica set (a single-node replica set
 * is enough; a standalone server has no oplog). Positions are the JSON of resume tokens.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { MongoClient, MongoNetworkError, MongoServerSelectionError } from 'mongodb';
import type {
  ChangeStream,
  ChangeStreamDocument,
  ChangeStreamOptions,
  ClientSession,
  Collection as MongoCollection,
  Db,
  Document,
  Filter as MongoFilter,
  ResumeToken,
  Timestamp,
} from 'mongodb';
import { DependencyUnavailableError } from '../ports';
import type {
  ChangeBatch,
  ChangeEvent,
  Collection,
  DocumentStore,
  Filter,
  FindOptions,
  IndexSpec,
  StoredDocument,
  Update,
  UpdateOptions,
  UpdateResult,
} from '../ports';
import { parseFilter, parseSort, parseUpdate, upsertId, validatePaging } from '../embedded/document-store/query-subset';

export interface MongoDocumentStoreOptions {
  url: string;
  database: string;
  /** When given, only changes to these collections appear in the change feed (default: all). */
  feedCollections?: readonly string[];
}

/** How long one getMore on a change stream waits for events when reading what is already there. */
const READ_AWAIT_MS = 100;
/** Upper bound of one getMore while waiting for changes (the wait loops until its timeout). */
const WAIT_AWAIT_MS = 1000;
const FED_OPERATIONS = ['insert', 'update', 'replace', 'delete'];

export function createMongoDocumentStore(options: MongoDocumentStoreOptions): DocumentStore {
  return new MongoDocumentStore(options);
}

/** What collections need from their store: the database, the open session and error mapping. */
interface MongoContext {
  db: Db;
  /** `{ session }` inside `transaction(work)`, so writes join it; `{}` outside. */
  sessionOption(): { session?: ClientSession };
  guard<R>(run: () => Promise<R>): Promise<R>;
}

class MongoDocumentStore implements DocumentStore {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly sessions = new AsyncLocalStorage<ClientSession>();
  private readonly context: MongoContext;
  private feedStart: Promise<Timestamp | undefined> | undefined;

  constructor(private readonly options: MongoDocumentStoreOptions) {
    this.client = new MongoClient(options.url);
    this.db = this.client.db(options.database);
    this.context = {
      db: this.db,
      sessionOption: () => {
        const session = this.sessions.getStore();
        return session ? { session } : {};
      },
      guard: (run) => this.guard(run),
    };
  }

  collection<T extends StoredDocument>(name: string): Collection<T> {
    return new MongoDocumentCollection<T>(name, this.context);
  }

  /** One index per spec: compound over its paths, in order (multikey when a path holds arrays). */
  async ensureIndexes(specs: readonly IndexSpec[]): Promise<void> {
    await this.guard(async () => {
      for (const spec of specs) {
        const paths = spec.paths.filter((path) => path !== '_id');
        if (paths.length === 0) continue;
        const keys = Object.fromEntries(paths.map((path) => [path, 1 as const]));
        await this.db.collection(spec.collection).createIndex(keys, { unique: spec.unique === true });
      }
    });
  }

  /**
   * A session transaction; every operation inside `work` joins it through AsyncLocalStorage.
   * The driver retries `work` on transient transaction errors, so it may run more than once:
   * keep side effects other than store writes out of it. Needs a replica set.
   */
  async transaction<R>(work: () => Promise<R>): Promise<R> {
    if (this.sessions.getStore()) return work();
    const session = this.client.startSession();
    try {
      return await this.guard(() => session.withTransaction(() => this.sessions.run(session, work)));
    } finally {
      await session.endSession();
    }
  }

  async readChanges(after: string | null, limit: number, collections?: readonly string[]): Promise<ChangeBatch> {
    const stream = await this.openStream(after, collections, READ_AWAIT_MS);
    try {
      const events: ChangeEvent[] = [];
      while (events.length < limit) {
        const change = await this.guard(() => stream.tryNext());
        if (!change) break;
        const event = toEvent(change);
        if (event) events.push(event);
      }
      // The stream's resume token moves past changes its collection filter left out too.
      const token = stream.resumeToken;
      const position = token ? JSON.stringify(token) : events.length > 0 ? events[events.length - 1]!.position : after;
      return { events, position };
    } finally {
      await stream.close();
    }
  }

  async waitForChanges(after: string | null, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const stream = await this.openStream(after, undefined, Math.max(1, Math.min(timeoutMs, WAIT_AWAIT_MS)));
    try {
      while (Date.now() < deadline) {
        if (await this.guard(() => stream.tryNext())) return;
      }
    } finally {
      await stream.close();
    }
  }

  /**
   * MongoDB cannot name its latest event without reading it, so this is the resume token of
   * "now" (a fresh stream's post-batch token): reading after it returns only later changes.
   */
  /** Change streams read the oplog, which MongoDB trims by its own size and retention. */
  async pruneChanges(): Promise<number> {
    return 0;
  }

  async latestPosition(): Promise<string | null> {
    const stream = this.db.watch(this.pipeline(undefined), { fullDocument: 'updateLookup', maxAwaitTimeMS: READ_AWAIT_MS });
    try {
      await this.guard(() => stream.tryNext());
      const token: unknown = stream.resumeToken;
      return token === undefined || token === null ? null : JSON.stringify(token);
    } finally {
      await stream.close();
    }
  }

  /** MongoDB has no cheap per-collection version; callers read through every time. */
  async changeToken(): Promise<null> {
    return null;
  }

  async ping(): Promise<void> {
    await this.guard(() => this.db.command({ ping: 1 }));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  /**
   * A stream resuming after `after`. From null it starts at the operation time this store first
   * saw (captured on the first feed call): change streams cannot replay history from the
   * beginning, only what the oplog still holds, and only from a point in time.
   */
  private async openStream(after: string | null, collections: readonly string[] | undefined, maxAwaitTimeMS: number): Promise<ChangeStream> {
    const options: ChangeStreamOptions = { fullDocument: 'updateLookup', maxAwaitTimeMS };
    if (after !== null) {
      options.startAfter = JSON.parse(after) as ResumeToken;
    } else {
      const start = await this.firstOperationTime();
      if (start) options.startAtOperationTime = start;
    }
    return this.db.watch(this.pipeline(collections), options);
  }

  private firstOperationTime(): Promise<Timestamp | undefined> {
    this.feedStart ??= this.guard(() => this.db.command({ ping: 1 })).then(
      (reply) => reply.operationTime as Timestamp | undefined,
      (error: unknown) => {
        this.feedStart = undefined;
        throw error;
      },
    );
    return this.feedStart;
  }

  private pipeline(collections: readonly string[] | undefined): Document[] {
    const match: Document = { operationType: { $in: FED_OPERATIONS } };
    const fed = this.options.feedCollections;
    const wanted = collections && fed ? collections.filter((name) => fed.includes(name)) : (collections ?? fed);
    if (wanted) match['ns.coll'] = { $in: [...wanted] };
    return [{ $match: match }];
  }

  private async guard<R>(run: () => Promise<R>): Promise<R> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof MongoServerSelectionError || error instanceof MongoNetworkError) {
        throw new DependencyUnavailableError('database', `MongoDB is unreachable: ${error.message}`);
      }
      throw error;
    }
  }
}

/** Stored documents as the driver sees them: a string `_id` and any other fields. */
type StoredRecord = StoredDocument & Document;

class MongoDocumentCollection<T extends StoredDocument> implements Collection<T> {
  private readonly collection: MongoCollection<StoredRecord>;

  constructor(
    readonly name: string,
    private readonly context: MongoContext,
  ) {
    this.collection = context.db.collection<StoredRecord>(name);
  }

  async findOne(filter: Filter): Promise<T | null> {
    const [document] = await this.find(filter, { limit: 1 });
    return document ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    parseFilter(filter);
    validatePaging(options.limit, options.skip);
    const sort = Object.fromEntries(parseSort(options.sort).map((key) => [key.path.join('.'), key.direction]));
    return this.context.guard(async () => {
      const cursor = this.collection.find(toMongoFilter(filter), { ...this.context.sessionOption(), sort });
      if (options.limit) cursor.limit(options.limit);
      if (options.skip) cursor.skip(options.skip);
      return asStored<T>(await cursor.toArray());
    });
  }

  async findByIds(ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    return this.context.guard(async () => asStored<T>(await this.collection.find({ _id: { $in: [...ids] } }, this.context.sessionOption()).toArray()));
  }

  async countDocuments(filter: Filter): Promise<number> {
    parseFilter(filter);
    return this.context.guard(() => this.collection.countDocuments(toMongoFilter(filter), this.context.sessionOption()));
  }

  async insertOne(document: T): Promise<void> {
    await this.insertMany([document]);
  }

  /** Ordered: on a duplicate `_id` the documents before it stay inserted (SQLite inserts none). */
  async insertMany(documents: readonly T[]): Promise<void> {
    if (documents.length === 0) return;
    await this.context.guard(() => this.collection.insertMany(documents.map(toRecord), { ...this.context.sessionOption(), ordered: true }));
  }

  async replaceOne(document: T): Promise<void> {
    await this.context.guard(() => this.collection.replaceOne({ _id: document._id }, toRecord(document), { ...this.context.sessionOption(), upsert: true }));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const parsedFilter = parseFilter(filter);
    const parsedUpdate = parseUpdate(update);
    if (options.upsert) upsertId(parsedFilter, parsedUpdate);
    const result = await this.context.guard(() =>
      this.collection.updateOne(toMongoFilter(filter), update as Document, { ...this.context.sessionOption(), upsert: options.upsert === true }),
    );
    return toUpdateResult(result);
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    parseFilter(filter);
    parseUpdate(update);
    const result = await this.context.guard(() => this.collection.updateMany(toMongoFilter(filter), update as Document, this.context.sessionOption()));
    return toUpdateResult(result);
  }

  async deleteOne(filter: Filter): Promise<number> {
    parseFilter(filter);
    const result = await this.context.guard(() => this.collection.deleteOne(toMongoFilter(filter), this.context.sessionOption()));
    return result.deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    parseFilter(filter);
    const result = await this.context.guard(() => this.collection.deleteMany(toMongoFilter(filter), this.context.sessionOption()));
    return result.deletedCount;
  }
}

/** The port's filter subset is valid MongoDB filter syntax; only the static types differ. */
function toMongoFilter(filter: Filter): MongoFilter<StoredRecord> {
  return filter as MongoFilter<StoredRecord>;
}

function toRecord(document: StoredDocument): StoredRecord {
  return { ...document };
}

/** Documents of a collection are the caller's `T` by the collection's contract; the driver cannot know it. */
function asStored<T extends StoredDocument>(records: StoredRecord[]): T[] {
  return records as unknown as T[];
}

function toUpdateResult(result: { matchedCount: number; modifiedCount: number; upsertedId: unknown }): UpdateResult {
  return {
    matchedCount: result.matchedCount,
    modifiedCount: result.modifiedCount,
    upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
  };
}

/** A change stream event as a feed event; null for kinds the feed does not carry. */
function toEvent(change: ChangeStreamDocument): ChangeEvent | null {
  if (change.operationType !== 'insert' && change.operationType !== 'update' && change.operationType !== 'replace' && change.operationType !== 'delete') {
    return null;
  }
  const document = change.operationType === 'delete' ? null : ((change.fullDocument ?? null) as StoredDocument | null);
  return {
    position: JSON.stringify(change._id),
    collection: change.ns.coll,
    operation: change.operationType,
    documentId: String(change.documentKey._id),
    document,
    occurredAt: (change.wallTime ?? timestampToDate(change.clusterTime)).toISOString(),
  };
}

/** A BSON Timestamp's high 32 bits are seconds since the epoch. */
function timestampToDate(timestamp: Timestamp | undefined): Date {
  return timestamp ? new Date(timestamp.getHighBits() * 1000) : new Date();
}
