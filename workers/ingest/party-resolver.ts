/**
 * Turns the parties a source names into owner, attorney and firm IDs, inside the write path's
 * transaction: a party whose dedupe key (domain/party-keys.ts) matches a stored record is that
 * record (followed through `merged_into`); otherwise a record is created, with its ID derived from
 * the key, so the same party never gets two records. A new owner gets its own resolved entity
 * (`derived`), as generated owners do.
 *
 * An organization named without a country (TTAB parties) matches an organization with the same
 * canonical name in any country, if there is one.
 *
 * Keys resolved by committed transactions are remembered (up to CACHE_LIMIT) so a long ingestion
 * looks each party up once; those of a transaction that rolled back are forgotten.
 */
import type { DocumentStore } from '../../datasources/ports';
import { stableId } from '../../domain/ids';
import { attorneyDedupeKey, firmDedupeKey, ownerDedupeKey } from '../../domain/party-keys';
import { canonicalName } from '../../domain/party-names';
import { COLLECTIONS, type AttorneyDoc, type EntityDoc, type FirmDoc, type OwnerDoc } from '../../domain/records';
import type { AttorneyInput, AttorneyRef, FirmInput, OwnerInput, OwnerRef } from './mark-input';

const CACHE_LIMIT = 200_000;

interface PartyRecord {
  _id: string;
  dedupe_key: string;
  canonical_name: string;
  merged_into: string | null;
}

/** Parties created by one transaction, written by `flush` before it commits. */
interface Created {
  owners: OwnerDoc[];
  entities: EntityDoc[];
  firms: FirmDoc[];
  attorneys: AttorneyDoc[];
}

const isOwnerId = (ref: OwnerRef): ref is { owner_id: string } => 'owner_id' in ref;
const isAttorneyId = (ref: AttorneyRef): ref is { attorney_id: string } => 'attorney_id' in ref;

function ownerKey(owner: OwnerInput): string {
  return ownerDedupeKey(owner.name, owner.entity_type, owner);
}

function firmKey(firm: FirmInput): string {
  return firmDedupeKey(firm.name, firm.country_code);
}

function attorneyKey(attorney: AttorneyInput): string {
  return attorneyDedupeKey(attorney.name, attorney.firm ? firmKey(attorney.firm) : null, attorney.country_code);
}

export class PartyResolver {
  private readonly cache = new Map<string, string>();
  private pending = new Map<string, string>();
  private created: Created = { owners: [], entities: [], firms: [], attorneys: [] };

  constructor(private readonly store: DocumentStore) {}

  /** Owner IDs of `refs`, in order, creating missing owners (written by `flush`). */
  async owners(refs: readonly OwnerRef[], now: string): Promise<string[]> {
    const inputs = refs.filter((ref): ref is OwnerInput => !isOwnerId(ref));
    await this.resolve(
      COLLECTIONS.owners,
      inputs.map((input) => ({ key: ownerKey(input), input })),
      (input) => (input.entity_type !== 'individual' && input.country_code === null ? canonicalName(input.name) : null),
      (input, key) => this.newOwner(input, key, now),
    );
    return refs.map((ref) => (isOwnerId(ref) ? ref.owner_id : this.idOf(ownerKey(ref))));
  }

  /** Attorney IDs of `refs`, in order, creating missing attorneys and their firms. */
  async attorneys(refs: readonly AttorneyRef[], now: string): Promise<string[]> {
    const inputs = refs.filter((ref): ref is AttorneyInput => !isAttorneyId(ref));
    const firms = inputs.flatMap((input) => (input.firm ? [input.firm] : []));
    await this.resolve(
      COLLECTIONS.firms,
      firms.map((input) => ({ key: firmKey(input), input })),
      () => null,
      (input, key) => this.newFirm(input, key, now),
    );
    await this.resolve(
      COLLECTIONS.attorneys,
      inputs.map((input) => ({ key: attorneyKey(input), input })),
      () => null,
      (input, key) => this.newAttorney(input, key, now),
    );
    return refs.map((ref) => (isAttorneyId(ref) ? ref.attorney_id : this.idOf(attorneyKey(ref))));
  }

  /** Writes the parties created since the last flush (inside the caller's transaction). */
  async flush(): Promise<void> {
    const { owners, entities, firms, attorneys } = this.created;
    this.created = { owners: [], entities: [], firms: [], attorneys: [] };
    if (owners.length > 0) await this.store.collection<OwnerDoc>(COLLECTIONS.owners).insertMany(owners);
    if (entities.length > 0) await this.store.collection<EntityDoc>(COLLECTIONS.entities).insertMany(entities);
    if (firms.length > 0) await this.store.collection<FirmDoc>(COLLECTIONS.firms).insertMany(firms);
    if (attorneys.length > 0) await this.store.collection<AttorneyDoc>(COLLECTIONS.attorneys).insertMany(attorneys);
  }

  /** Keeps what the transaction resolved when it committed, forgets it when it rolled back. */
  settle(committed: boolean): void {
    if (committed) {
      if (this.cache.size + this.pending.size > CACHE_LIMIT) this.cache.clear();
      for (const [key, id] of this.pending) this.cache.set(key, id);
    }
    this.pending = new Map();
    this.created = { owners: [], entities: [], firms: [], attorneys: [] };
  }

  private idOf(key: string): string {
    const id = this.pending.get(key) ?? this.cache.get(key);
    if (id === undefined) throw new Error(`party ${key} was not resolved`);
    return id;
  }

  /**
   * Finds the records of the keys not resolved yet (by key; then, for inputs with a fallback
   * name, by canonical name) and creates the rest.
   */
  private async resolve<I>(
    collection: string,
    wanted: ReadonlyArray<{ key: string; input: I }>,
    fallbackName: (input: I) => string | null,
    create: (input: I, key: string) => string,
  ): Promise<void> {
    const missing = new Map<string, I>();
    for (const { key, input } of wanted) if (!this.pending.has(key) && !this.cache.has(key)) missing.set(key, input);
    if (missing.size === 0) return;
    const records = this.store.collection<PartyRecord>(collection);
    const found = await records.find({ dedupe_key: { $in: [...missing.keys()] } }, { sort: { _id: 1 } });
    for (const record of found) {
      if (missing.delete(record.dedupe_key)) this.pending.set(record.dedupe_key, record.merged_into ?? record._id);
    }
    const byName = new Map<string, string[]>();
    for (const [key, input] of missing) {
      const name = fallbackName(input);
      if (name !== null) byName.set(name, [...(byName.get(name) ?? []), key]);
    }
    if (byName.size > 0) {
      const named = await records.find({ canonical_name: { $in: [...byName.keys()] } }, { sort: { _id: 1 } });
      for (const record of named) {
        if (!record.dedupe_key.startsWith('org|')) continue;
        for (const key of byName.get(record.canonical_name) ?? []) {
          if (missing.delete(key)) this.pending.set(key, record.merged_into ?? record._id);
        }
      }
    }
    for (const [key, input] of missing) this.pending.set(key, create(input, key));
  }

  private newOwner(input: OwnerInput, key: string, now: string): string {
    const id = stableId('own_', `dedupe:${key}`);
    const entityId = stableId('ent_', `owner:${id}`);
    const name = canonicalName(input.name);
    this.created.owners.push({
      _id: id,
      name: input.name,
      canonical_name: name,
      aliases: [],
      country_code: input.country_code,
      entity_type: input.entity_type,
      entity_id: entityId,
      entity_id_type: 'derived',
      companies: [],
      relationships: [],
      dedupe_key: key,
      merged_into: null,
      created_at: now,
      updated_at: now,
    });
    this.created.entities.push({
      _id: entityId,
      name: input.name,
      canonical_name: name,
      country_code: input.country_code,
      lei: null,
      ticker: null,
      member_owner_ids: [id],
      merged_into: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  private newFirm(input: FirmInput, key: string, now: string): string {
    const id = stableId('firm_', `dedupe:${key}`);
    this.created.firms.push({
      _id: id,
      name: input.name,
      canonical_name: canonicalName(input.name),
      country_code: input.country_code,
      aliases: [],
      dedupe_key: key,
      merged_into: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  }

  private newAttorney(input: AttorneyInput, key: string, now: string): string {
    const id = stableId('att_', `dedupe:${key}`);
    this.created.attorneys.push({
      _id: id,
      name: input.name,
      canonical_name: canonicalName(input.name),
      email: input.email,
      country_code: input.country_code,
      firm_id: input.firm ? this.idOf(firmKey(input.firm)) : null,
      bar_admissions: [],
      dedupe_key: key,
      merged_into: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  }
}
