/**
 * Brings the stored party keys to the current fold (domain/party-keys.ts PARTY_KEYS_VERSION), so
 * a party an office record names still matches the owner, attorney or firm stored under a key of
 * an older fold instead of becoming a duplicate. Run at every open of a store (bin/adapters.ts)
 * before anything ingests; it works only while the `meta` document `party_keys` records an older
 * version (absent: version 1).
 *
 * - Each record's new `dedupe_key` and `canonical_name` are a function of the stored ones alone
 *   (refoldDedupeKey, canonicalName), and each is written with a compare-and-set on the values it
 *   was computed from: running it again, or in two processes starting together, writes the same
 *   values or nothing, and never undoes a write made in between.
 * - Records are read a page at a time in `_id` order, so memory stays bounded however many parties.
 * - The version is recorded only after every collection is done: a run cut short starts over at
 *   the next open, skipping what it already rewrote.
 *
 * Two records that the older fold kept apart and the current one does not ("ORSTED A/S" and
 * "ØRSTED A/S", both DK) end with the same key and stay two records; ingestion then resolves the
 * key to the lower `_id` (party-resolver.ts), and merging them is an editor's decision (merges).
 */
import type { DocumentStore, Filter, StoredDocument } from '../../datasources/ports';
import { PARTY_KEYS_VERSION, refoldDedupeKey } from '../../domain/party-keys';
import { canonicalName } from '../../domain/party-names';
import { COLLECTIONS } from '../../domain/records';

export const PARTY_KEYS_META_ID = 'party_keys';
/** The version of a store whose keys no `meta` document describes: written before versions were recorded. */
const UNRECORDED_VERSION = 1;
const PAGE_SIZE = 1000;

interface PartyKeysDoc extends StoredDocument {
  version: number;
}

interface PartyKeyFields extends StoredDocument {
  canonical_name: string;
  /** Absent on resolved entities, which are matched through their owners. */
  dedupe_key?: string;
}

/** The collections whose records keep a canonical name (and, but for entities, a dedupe key). */
const PARTY_COLLECTIONS = [COLLECTIONS.owners, COLLECTIONS.attorneys, COLLECTIONS.firms, COLLECTIONS.entities];

/** Refolds the stored keys of a store of an older version; returns how many records it rewrote. */
export async function upgradePartyKeys(store: DocumentStore): Promise<number> {
  const meta = store.collection<PartyKeysDoc>(COLLECTIONS.meta);
  const recorded = (await meta.findOne({ _id: PARTY_KEYS_META_ID }))?.version ?? UNRECORDED_VERSION;
  if (recorded >= PARTY_KEYS_VERSION) return 0;
  let rewritten = 0;
  for (const name of PARTY_COLLECTIONS) rewritten += await refoldCollection(store, name);
  await meta.replaceOne({ _id: PARTY_KEYS_META_ID, version: PARTY_KEYS_VERSION });
  return rewritten;
}

async function refoldCollection(store: DocumentStore, name: string): Promise<number> {
  const records = store.collection<PartyKeyFields>(name);
  let rewritten = 0;
  for (let after = ''; ;) {
    const page = await records.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: PAGE_SIZE });
    if (page.length === 0) return rewritten;
    for (const record of page) if (await refoldRecord(store, name, record)) rewritten++;
    after = page[page.length - 1]!._id;
  }
}

/** Rewrites one record's keys when the current fold changes them; true when it did. */
async function refoldRecord(store: DocumentStore, name: string, record: PartyKeyFields): Promise<boolean> {
  const stored: Filter = { _id: record._id, canonical_name: record.canonical_name };
  const refolded: Partial<PartyKeyFields> = { canonical_name: canonicalName(record.canonical_name) };
  if (record.dedupe_key !== undefined) {
    stored['dedupe_key'] = record.dedupe_key;
    refolded.dedupe_key = refoldDedupeKey(record.dedupe_key);
  }
  if (refolded.canonical_name === record.canonical_name && refolded.dedupe_key === record.dedupe_key) return false;
  const { modifiedCount } = await store.collection<PartyKeyFields>(name).updateOne(stored, { $set: refolded });
  return modifiedCount > 0;
}
