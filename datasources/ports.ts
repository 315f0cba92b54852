/**
 * The ports every adapter implements: DocumentStore (source of truth), SearchIndex (search,
 * lists, counts), KeyValue (limits, quotas, idempotency, short caches) and MediaStore (image bytes
 * of marks, with a thumbnail each). Everything above
 * `datasources/` talks to these interfaces only; the composition root picks the adapters.
 *
 * All methods are async even where the embedded adapter is synchronous underneath, so the same
 * repository code runs on MongoDB, Elasticsearch and Redis.
 */

// ---------------------------------------------------------------------------------------------
// DocumentStore: a small subset of the MongoDB collection API.
// ---------------------------------------------------------------------------------------------

/** Every stored document has a string `_id` (the public prefixed ID for catalog records). */
export interface StoredDocument {
  _id: string;
}

/** A scalar or array value a filter can compare against. */
export type FilterValue = string | number | boolean | null | ReadonlyArray<string | number | boolean | null>;

/** Operators allowed on one dotted path. `$eq` on an array field matches any element (MongoDB rule). */
export interface FieldOperators {
  $eq?: FilterValue;
  $ne?: FilterValue;
  $in?: ReadonlyArray<string | number | boolean | null>;
  $nin?: ReadonlyArray<string | number | boolean | null>;
  $gt?: string | number;
  $gte?: string | number;
  $lt?: string | number;
  $lte?: string | number;
  $exists?: boolean;
}

/**
 * A MongoDB-style filter: `{ 'owners.owner_id': 'own_x', status: { $in: [...] }, $or: [...] }`.
 * A bare value means `$eq`. Anything outside this subset is rejected by the adapter with
 * `UnsupportedQueryError`.
 */
export interface Filter {
  $and?: Filter[];
  $or?: Filter[];
  [path: string]: FilterValue | FieldOperators | Filter[] | undefined;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  limit?: number;
  skip?: number;
}

/** Update operators: `$set $unset $inc $push $setOnInsert` on dotted paths. */
export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, '' | 1 | true>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  $setOnInsert?: Record<string, unknown>;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId: string | null;
}

export interface Collection<T extends StoredDocument> {
  readonly name: string;
  findOne(filter: Filter): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /**
   * Documents whose `_id` is in `ids`, in no particular order; missing IDs are simply absent. A
   * document may be shared with other readers and frozen (the embedded store's cache): copy it
   * before changing it.
   */
  findByIds(ids: readonly string[]): Promise<T[]>;
  countDocuments(filter: Filter): Promise<number>;
  insertOne(doc: T): Promise<void>;
  insertMany(docs: readonly T[]): Promise<void>;
  /** Replaces the whole document with the same `_id` (inserting it when absent). */
  replaceOne(doc: T): Promise<void>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
}

/**
 * Index hints per collection: dotted paths the adapter should index (SQLite: expression
 * indexes on `json_extract`; MongoDB: `createIndex`). Declared by the repositories, applied
 * by `DocumentStore.ensureIndexes`.
 */
export interface IndexSpec {
  collection: string;
  paths: string[];
  unique?: boolean;
}

export type ChangeOperation = 'insert' | 'update' | 'replace' | 'delete';

/** One entry of the change feed, written in the same transaction as the change itself. */
export interface ChangeEvent {
  /** Opaque, totally ordered resume position (SQLite: the `_changes` row id as a string). */
  position: string;
  collection: string;
  operation: ChangeOperation;
  documentId: string;
  /** The document after the change; null on delete. */
  document: StoredDocument | null;
  occurredAt: string;
}

export interface ChangeBatch {
  /** May be empty while `position` moved: the changes read all belonged to other collections. */
  events: ChangeEvent[];
  /**
   * Position to resume after: past every change read, including those a collection filter left
   * out; equals the input position only when there was nothing new at all.
   */
  position: string | null;
}

export interface DocumentStore {
  collection<T extends StoredDocument>(name: string): Collection<T>;
  ensureIndexes(specs: readonly IndexSpec[]): Promise<void>;
  /**
   * Runs `work` so that every write inside it commits together (with its change-feed rows).
   * The embedded adapter uses one SQLite transaction; MongoDB a session transaction.
   */
  transaction<R>(work: () => Promise<R>): Promise<R>;
  /** Changes strictly after `after` (null: from the beginning), oldest first, at most `limit`. */
  readChanges(after: string | null, limit: number, collections?: readonly string[]): Promise<ChangeBatch>;
  /** Resolves on the next write (or after `timeoutMs`), so workers need not busy-poll. */
  waitForChanges(after: string | null, timeoutMs: number): Promise<void>;
  /** Latest change position, or null when the feed is empty. */
  latestPosition(): Promise<string | null>;
  /**
   * Deletes the feed entries every consumer has read (at or before each position of
   * `consumedUpTo`, as returned by readChanges) that occurred before `occurredBefore` (ISO 8601);
   * the newest entry always stays, so positions keep their meaning. Returns how many were
   * deleted. An adapter whose engine trims the feed itself (MongoDB: the oplog) deletes nothing.
   */
  pruneChanges(consumedUpTo: readonly string[], occurredBefore: string): Promise<number>;
  /**
   * A token that differs from every earlier one once `collection` may have changed, through this
   * store or any other connection to the same data; null when the adapter cannot tell cheaply.
   * Lets a caller keep what it read until the token moves (read the token first, then the data).
   */
  changeToken(collection: string): Promise<string | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown by an adapter for a filter, sort or update outside the supported subset. */
export class UnsupportedQueryError extends Error {
  override readonly name = 'UnsupportedQueryError';
}

/**
 * A query's `snapshot` was taken before the index was recreated (an upgrade's refill numbers its
 * documents anew), so it no longer says which documents a page walk had seen.
 */
export class StaleSnapshotError extends Error {
  override readonly name = 'StaleSnapshotError';
}

// ---------------------------------------------------------------------------------------------
// SearchIndex: typed queries over flat index documents.
// ---------------------------------------------------------------------------------------------

/**
 * Field kinds of an index. `keyword` fields filter exactly; `text` fields are full-text searched
 * (and may also be filtered by `keyword` twin fields); `date` holds `YYYY-MM-DD` or ISO
 * timestamps and compares as strings; `number` and `boolean` as such. `array: true` fields hold
 * several values; a filter matches when any value matches.
 */
export type IndexFieldKind = 'keyword' | 'text' | 'date' | 'number' | 'boolean';

export interface IndexFieldSpec {
  kind: IndexFieldKind;
  array?: boolean;
  /** Text fields only: relative weight in relevance ranking (default 1). */
  boost?: number;
  /** Fields usable in `sort` (scalar keyword, date, number or boolean fields only). */
  sortable?: boolean;
}

export interface IndexDefinition {
  name: string;
  fields: Record<string, IndexFieldSpec>;
  /**
   * What the documents' values mean, as a number bumped whenever the projection or the folding
   * changes the values it writes for the same record (the fields staying the same): an index
   * stored under another revision must be written again (`needsRefill`). Absent is revision 0.
   */
  revision?: number;
  /**
   * Field lists the common queries filter and sort by together, in index order: fields compared
   * for equality first, then at most one sortable field. An adapter that keeps one structure per
   * field (B-tree per column) builds one compound index per list, so such a query reads its page
   * in order instead of every document that passes one filter; adapters whose engine intersects
   * per-field structures itself (Elasticsearch) may ignore them. Changing only this list never
   * empties an index.
   */
  compoundIndexes?: ReadonlyArray<readonly string[]>;
}

/** A flat document to index. `id` is the record's public ID. */
export interface IndexDocument {
  id: string;
  [field: string]: string | number | boolean | null | Array<string | number> | undefined;
}

/**
 * Filters name an index field, or `id` (with `eq` or `in`): the documents' own IDs (a portfolio's
 * marks), whatever fields the index defines.
 */
export const DOCUMENT_ID_FIELD = 'id';

export type SearchFilter =
  | { field: string; op: 'eq'; value: string | number | boolean }
  | { field: string; op: 'in'; values: ReadonlyArray<string | number> }
  | { field: string; op: 'range'; gt?: string | number; gte?: string | number; lt?: string | number; lte?: string | number }
  | { field: string; op: 'exists'; value: boolean }
  /** Full-text match of `text` against one `text` field (fuzzy like the main text query; no effect on score). */
  | { field: string; op: 'match'; text: string }
  /** Any of the nested filters (used for "owner_publicly_traded=false" style negations too). */
  | { op: 'or'; filters: SearchFilter[] }
  | { op: 'not'; filter: SearchFilter };

export interface SearchSort {
  /** An index field marked `sortable`, or `_score` for relevance (only with `text`). */
  field: string;
  direction: 'asc' | 'desc';
}

/** Values of the sort keys of the last hit of the previous page, plus its id as final tiebreaker. */
export type SearchAfter = ReadonlyArray<string | number | boolean | null>;

export interface SearchQuery {
  index: string;
  /** Free text matched against the index's `text` fields (prefix/trigram matching is the adapter's). */
  text?: string;
  /** Restrict text matching to these text fields (default: all text fields of the index). */
  textFields?: readonly string[];
  filters: readonly SearchFilter[];
  /** Sort keys in order; the adapter always appends `id` ascending as the final tiebreaker. */
  sort: readonly SearchSort[];
  /** Relevance bonuses, applied only when the query sorts by `_score`. */
  boosts?: readonly ScoreBoost[];
  searchAfter?: SearchAfter;
  limit: number;
  /**
   * Only documents first indexed at or before this sequence number (pins a pagination snapshot:
   * inserts after the first page never appear in later pages). One taken before the index was
   * recreated is refused with StaleSnapshotError.
   */
  snapshot?: number;
  /** When set, also count matches, stopping at this cap (10,000 for public totals). */
  countUpTo?: number;
}

/**
 * Documents whose `field` (a scalar keyword field) equals `value` score `boost` more, on top of the
 * text relevance (the trademark search lifts the marks whose whole text is the query's).
 */
export interface ScoreBoost {
  field: string;
  value: string;
  /** A positive number, in the adapter's score units: large enough to rank such documents first. */
  boost: number;
}

export interface SearchHit {
  id: string;
  /**
   * Relevance, when the query sorts by `_score`; otherwise null, as relevance is then not computed
   * (like Elasticsearch with a field sort).
   */
  score: number | null;
  /** Values of the query's sort keys for this hit, followed by its id (feed back as searchAfter). */
  sortValues: Array<string | number | boolean | null>;
}

export interface SearchResult {
  hits: SearchHit[];
  /** Present when `countUpTo` was set. `approximate` is true when the count hit the cap. */
  total?: { value: number; approximate: boolean };
  /** Snapshot sequence the query ran under (the current one when the query had none). */
  snapshot: number;
}

export interface TermCount {
  value: string | number;
  count: number;
}

/** What `ensureIndex` did. */
export interface EnsuredIndex {
  /**
   * True when the index's documents must be written again from the source of truth (the indexer
   * rebuilds that projection): it exists empty because this call created it (the first time, or
   * its fields changed in a way the adapter cannot migrate in place), it gained fields in place
   * that the documents it holds lack, or its documents were written under another `revision`;
   * and, until `markFilled` records that a refill finished, at every later call too (a process
   * stopped in the middle of a refill leaves it to the next start, not an index half empty).
   */
  needsRefill: boolean;
}

export interface SearchIndex {
  /** Creates or migrates the index for a definition (idempotent). */
  ensureIndex(definition: IndexDefinition): Promise<EnsuredIndex>;
  /** Records that every document of the index has been written since `ensureIndex` asked for a refill. */
  markFilled(index: string): Promise<void>;
  /** Inserts or replaces documents (by `id`), keeping each one's first-indexed sequence. */
  upsert(index: string, docs: readonly IndexDocument[]): Promise<void>;
  remove(index: string, ids: readonly string[]): Promise<void>;
  search(query: SearchQuery): Promise<SearchResult>;
  /** Counts of the values of a keyword field among the documents matching `filters` (facets). */
  terms(index: string, field: string, filters: readonly SearchFilter[], size: number): Promise<TermCount[]>;
  /** The current snapshot sequence (highest first-indexed sequence so far). */
  currentSnapshot(index: string): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// KeyValue: what Redis holds in production. The higher-level operations are atomic in every
// adapter, across processes (Redis: Lua scripts; embedded: one SQLite transaction each).
// ---------------------------------------------------------------------------------------------

export interface SetOptions {
  /** Time to live in milliseconds. */
  ttlMs?: number;
  /** Only set when the key does not exist; `set` then returns false when it did. */
  onlyIfAbsent?: boolean;
}

/** One sliding 60-second (or other) window to check and charge. */
export interface WindowCheck {
  key: string;
  limit: number;
  windowMs: number;
}

export interface WindowState {
  key: string;
  limit: number;
  /** Requests counted in the window after this call (including this one when allowed). */
  used: number;
  remaining: number;
  /** Milliseconds until the window has room again (0 when it has room now). */
  resetMs: number;
}

export interface WindowsDecision {
  /** True when every window had room; then every window was charged. */
  allowed: boolean;
  windows: WindowState[];
}

/** A counter with a limit that resets at a fixed instant (monthly and daily quotas). */
export interface CounterCheck {
  key: string;
  /** null: unlimited (counted, never refused). */
  limit: number | null;
  /** Epoch milliseconds when the counter resets; used as the key's expiry. */
  resetsAt: number;
}

export interface CounterState {
  key: string;
  limit: number | null;
  used: number;
  resetsAt: number;
}

export interface CountersDecision {
  allowed: boolean;
  /** Index into the checks of the first counter that refused, or -1. */
  refusedIndex: number;
  counters: CounterState[];
}

export type IdempotencyBegin =
  { state: 'started' } | { state: 'in_flight'; fingerprint: string } | { state: 'completed'; fingerprint: string; response: string };

export interface KeyValue {
  get(key: string): Promise<string | null>;
  /** Returns false only when `onlyIfAbsent` was set and the key existed. */
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Atomically adds `by` and returns the new value; sets the TTL when the key is created. */
  increment(key: string, by: number, ttlMs?: number): Promise<number>;
  /**
   * Takes or keeps a lease: `key` becomes `holder`'s for `ttlMs` from now when it is absent,
   * expired or already `holder`'s. True when `holder` holds it now; false when another does.
   */
  holdLease(key: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Ends `holder`'s lease on `key` at once; a lease another holder has taken since is left alone. */
  releaseLease(key: string, holder: string): Promise<void>;

  /** Sliding windows: all must have room for `cost`; if so all are charged, atomically. */
  consumeWindows(checks: readonly WindowCheck[], cost: number, nowMs: number): Promise<WindowsDecision>;
  /** Reads windows without charging them. */
  peekWindows(checks: readonly WindowCheck[], nowMs: number): Promise<WindowState[]>;
  /** Quota counters: all must have room for `cost`; if so all are charged, atomically. */
  consumeCounters(checks: readonly CounterCheck[], cost: number, nowMs: number): Promise<CountersDecision>;
  peekCounters(checks: readonly CounterCheck[], nowMs: number): Promise<CounterState[]>;

  /**
   * Claims an idempotency key: `started` when this caller now owns it (stored as in flight with
   * `fingerprint` for `inFlightTtlMs`), otherwise what an earlier caller left.
   */
  beginIdempotent(key: string, fingerprint: string, inFlightTtlMs: number): Promise<IdempotencyBegin>;
  /** Stores the final response for a claimed key (kept `ttlMs`). */
  completeIdempotent(key: string, fingerprint: string, response: string, ttlMs: number): Promise<void>;
  /** Releases a claimed key without storing (non-2xx outcomes are not cached). */
  abandonIdempotent(key: string): Promise<void>;

  ping(): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// MediaStore: the images of marks (what offices publish, and the demo generator's logos).
// ---------------------------------------------------------------------------------------------

/** Raster formats only: SVG and anything else is refused by `put`. */
export type MediaFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export const MEDIA_MIME_TYPES: Readonly<Record<MediaFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** What is known of one stored image (original or thumbnail) without reading its bytes. */
export interface MediaImageInfo {
  format: MediaFormat;
  mime_type: string;
  width: number;
  height: number;
  byte_size: number;
  /** SHA-256 of the bytes, lowercase hex. */
  checksum_sha256: string;
}

/** Where a generated near-duplicate comes from (the demo generator's ground truth for recall). */
export interface MediaDerivation {
  media_id: string;
  trademark_id: string;
  /** What was done to the original, in order: `recolour`, `rescale`, `crop`, `retypeset`. */
  transforms: string[];
}

/** One stored image: the original's facts, its thumbnail's, and where it belongs. */
export interface MediaRecord extends MediaImageInfo {
  /** `med_…` */
  _id: string;
  /** The thumbnail: PNG, at most MEDIA_THUMBNAIL_MAX_SIDE on its longer side, never enlarged. */
  thumbnail: MediaImageInfo;
  /** The mark this image represents, when it is a mark's. */
  trademark_id: string | null;
  derived_from: MediaDerivation | null;
  created_at: string;
}

/** The longer side of a thumbnail, in pixels. */
export const MEDIA_THUMBNAIL_MAX_SIDE = 256;

/** The largest image stored or searched with, in bytes (the spec's 8 MB upload limit). */
export const MEDIA_MAX_BYTES = 8 * 1024 * 1024;

export interface MediaPutMeta {
  /** The ID to store under (`med_…`; a stable one for a mark's representation); default a new random ID. */
  id?: string;
  trademark_id?: string | null;
  derived_from?: MediaDerivation | null;
}

export interface MediaContent {
  record: MediaRecord;
  bytes: Buffer;
}

export interface MediaStore {
  /**
   * Stores `bytes` (a raster image: PNG, JPEG, WebP or GIF) and its thumbnail, and returns the
   * record. Putting under an existing ID replaces it. Anything else (SVG, not an image, an image
   * its decoder rejects) throws `MediaFormatError` and stores nothing.
   */
  put(bytes: Uint8Array, meta?: MediaPutMeta): Promise<MediaRecord>;
  /** The original's bytes and the record, or null for an unknown ID. */
  get(id: string): Promise<MediaContent | null>;
  /** The thumbnail's bytes and the record (whose `thumbnail` describes them), or null. */
  getThumbnail(id: string): Promise<MediaContent | null>;
  exists(id: string): Promise<boolean>;
}

/** Thrown by `MediaStore.put` for bytes that are not a raster image it accepts. */
export class MediaFormatError extends Error {
  override readonly name = 'MediaFormatError';
}

/** Thrown by any adapter when its backing service cannot be reached (→ 503 service_unavailable). */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
  constructor(
    readonly dependency: 'database' | 'cache' | 'search_index',
    message: string,
  ) {
    super(message);
  }
}
