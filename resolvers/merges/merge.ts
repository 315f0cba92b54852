/**
 * Merging one owner, attorney, firm or resolved entity (FROM) into another (INTO): every
 * reference to FROM is re-pointed to INTO and FROM keeps `merged_into`, so a stale ID answers 410
 * entity_merged. All writes commit together; the indexer then follows the change feed. Writes that
 * drop a reference record it in `detached_party_ids` (resolvers/parties/detached.ts) so the party
 * projections recount what FROM lost.
 */
import type { DocumentStore } from '../../datasources/ports';
import { ApiError, notFound } from '../../domain/errors';
import type { IdPrefix } from '../../domain/ids';
import { COLLECTIONS, type EntityDoc, type OwnerDoc, type ProceedingDoc, type TrademarkDoc } from '../../domain/records';
import { parseId } from '../../domain/validation';
import { DETACHED_FIELD } from '../parties/detached';
import type { MergeableDoc } from '../parties/lookup';

export const MERGE_KINDS = {
  owner: { prefix: 'own_', collection: COLLECTIONS.owners },
  attorney: { prefix: 'att_', collection: COLLECTIONS.attorneys },
  firm: { prefix: 'firm_', collection: COLLECTIONS.firms },
  entity: { prefix: 'ent_', collection: COLLECTIONS.entities },
} as const satisfies Record<string, { prefix: IdPrefix; collection: string }>;

export type MergeKind = keyof typeof MERGE_KINDS;

export interface MergeSummary {
  kind: MergeKind;
  from: string;
  into: string;
  /** Documents re-pointed, per collection. */
  repointed: Record<string, number>;
}

const replaceId = (ids: readonly string[], from: string, into: string): string[] => [...new Set(ids.map((id) => (id === from ? into : id)))];

/** Re-points one ID inside the array field of every mark that holds it. */
async function repointMarks(store: DocumentStore, field: 'owner_ids' | 'attorney_ids', from: string, into: string, now: string): Promise<number> {
  const marks = store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
  const holding = await marks.find({ [field]: from });
  for (const mark of holding) {
    await marks.updateOne({ _id: mark._id }, { $set: { [field]: replaceId(mark[field], from, into), [DETACHED_FIELD]: [from], updated_at: now } });
  }
  return holding.length;
}

async function mergeOwner(store: DocumentStore, from: OwnerDoc, into: string, now: string): Promise<Record<string, number>> {
  const trademarks = await repointMarks(store, 'owner_ids', from._id, into, now);
  const proceedings = store.collection<ProceedingDoc>(COLLECTIONS.proceedings);
  const contested = await proceedings.find({ 'parties.owner_id': from._id });
  for (const proceeding of contested) {
    const parties = proceeding.parties.map((p) => (p.owner_id === from._id ? { ...p, owner_id: into } : p));
    await proceedings.updateOne({ _id: proceeding._id }, { $set: { parties, updated_at: now } });
  }
  const owners = store.collection<OwnerDoc>(COLLECTIONS.owners);
  const relatives = await owners.find({ 'relationships.related_owner_id': from._id });
  for (const relative of relatives) {
    const relationships = relative.relationships.map((r) => (r.related_owner_id === from._id ? { ...r, related_owner_id: into } : r));
    await owners.updateOne({ _id: relative._id }, { $set: { relationships, updated_at: now } });
  }
  const entities = store.collection<EntityDoc>(COLLECTIONS.entities);
  const entity = await entities.findOne({ _id: from.entity_id });
  if (entity)
    await entities.updateOne({ _id: entity._id }, { $set: { member_owner_ids: entity.member_owner_ids.filter((id) => id !== from._id), updated_at: now } });
  return { trademarks, proceedings: contested.length, owners: relatives.length };
}

async function mergeEntity(store: DocumentStore, from: EntityDoc, into: string, now: string): Promise<Record<string, number>> {
  const owners = await store
    .collection<OwnerDoc>(COLLECTIONS.owners)
    .updateMany({ entity_id: from._id }, { $set: { entity_id: into, [DETACHED_FIELD]: [from._id], updated_at: now } });
  const entities = store.collection<EntityDoc>(COLLECTIONS.entities);
  const survivor = await entities.findOne({ _id: into });
  const members = [...new Set([...(survivor?.member_owner_ids ?? []), ...from.member_owner_ids])];
  await entities.updateOne({ _id: into }, { $set: { member_owner_ids: members, updated_at: now } });
  return { owners: owners.modifiedCount };
}

/** Loads FROM and INTO, refusing unknown IDs, self-merges and merged records on either side. */
async function loadPair(store: DocumentStore, kind: MergeKind, fromId: string, intoId: string): Promise<MergeableDoc> {
  const { prefix, collection } = MERGE_KINDS[kind];
  parseId('from_id', fromId, prefix);
  parseId('into_id', intoId, prefix);
  if (fromId === intoId) throw new ApiError('validation_error', `into_id: must differ from from_id (${fromId})`, { parameter: 'into_id' });
  const docs = new Map((await store.collection<MergeableDoc>(collection).findByIds([fromId, intoId])).map((d) => [d._id, d]));
  const from = docs.get(fromId);
  const into = docs.get(intoId);
  if (!from) throw notFound(`${kind} ${fromId}`);
  if (!into) throw notFound(`${kind} ${intoId}`);
  for (const doc of [from, into]) {
    if (doc.merged_into !== null)
      throw new ApiError('entity_merged', `${kind} ${doc._id} was already merged into ${doc.merged_into}`, { merged_into: doc.merged_into });
  }
  return from;
}

export async function mergeParties(store: DocumentStore, kind: MergeKind, fromId: string, intoId: string, now: Date = new Date()): Promise<MergeSummary> {
  if (!(kind in MERGE_KINDS)) throw new ApiError('validation_error', `kind: must be one of ${Object.keys(MERGE_KINDS).join(', ')}`, { parameter: 'kind' });
  const at = now.toISOString();
  return store.transaction(async () => {
    const from = await loadPair(store, kind, fromId, intoId);
    let repointed: Record<string, number>;
    switch (kind) {
      case 'owner':
        repointed = await mergeOwner(store, from as OwnerDoc, intoId, at);
        break;
      case 'attorney':
        repointed = { trademarks: await repointMarks(store, 'attorney_ids', fromId, intoId, at) };
        break;
      case 'firm': {
        const moved = await store
          .collection(COLLECTIONS.attorneys)
          .updateMany({ firm_id: fromId }, { $set: { firm_id: intoId, [DETACHED_FIELD]: [fromId], updated_at: at } });
        repointed = { attorneys: moved.modifiedCount };
        break;
      }
      case 'entity':
        repointed = await mergeEntity(store, from as EntityDoc, intoId, at);
        break;
    }
    await store.collection(MERGE_KINDS[kind].collection).updateOne({ _id: fromId }, { $set: { merged_into: intoId, updated_at: at } });
    return { kind, from: fromId, into: intoId, repointed };
  });
}
