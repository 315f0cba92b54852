/**
 * Records authentication reads on every request (API keys, organizations), kept per store between
 * requests. A kept record is used only while the store's change token for its collection has not
 * moved, so a change made through any process shows on the next request; the token is read
 * before the record, so a write landing in between costs a re-read, never a stale answer. A store
 * without change tokens (MongoDB) keeps a record for `ttlMsWithoutToken` (0: read every time).
 */
import type { DocumentStore } from '../datasources/ports';

interface Kept<T> {
  token: string | null;
  at: number;
  record: T;
}

/** Past this many records a store's cache starts over; records not found are never kept. */
const KEPT_LIMIT = 10_000;

export class KeptRecords<T> {
  private readonly byStore = new WeakMap<DocumentStore, Map<string, Kept<T>>>();

  constructor(
    private readonly collection: string,
    private readonly ttlMsWithoutToken: number,
  ) {}

  async get(store: DocumentStore, key: string, read: () => Promise<T | null>): Promise<T | null> {
    const token = await store.changeToken(this.collection);
    if (token === null && this.ttlMsWithoutToken === 0) return read();
    let cache = this.byStore.get(store);
    if (!cache) this.byStore.set(store, (cache = new Map()));
    const kept = cache.get(key);
    if (kept && (token === null ? Date.now() - kept.at < this.ttlMsWithoutToken : kept.token === token)) return kept.record;
    const record = await read();
    if (cache.size >= KEPT_LIMIT) cache.clear();
    if (record === null) cache.delete(key);
    else cache.set(key, { token, at: Date.now(), record });
    return record;
  }
}
