/**
 * The one write path for trademark records outside the bulk seed. Office ingestion (USPTO bulk
 * XML, ST.96, assignments, TTAB) and manual edits (`marque marks add|update`) all come here.
 *
 * `write` takes the full desired state of office records (MarkInput) and `amend` the additions
 * of sources that do not restate the whole record (MarkAmendment). Each call of `write` is one
 * `store.transaction` (`amend` takes one per 2,000 marks or 50,000 owner-history rows): the
 * parties it matched or created, every new `TrademarkDoc` version (`version` + 1, or 1 when new),
 * one `TrademarkChangeDoc` per version (changed_fields with old and new values,
 * domain/trademark-changes.ts), the new prosecution events, and for `write` the source
 * observation and its raw record. The DocumentStore appends the trademark and party writes
 * to its change feed itself, so the indexer, watches and webhooks see them like any other change.
 *
 * Which version wins (office records): the source's data date (USPTO transaction-date).
 * - A raw record already stored for the mark (same payload hash) changes nothing.
 * - A record dated before the mark's latest observation is skipped (`skipped_older`): an older
 *   file never overwrites a newer record. Records of the same date apply in the order given.
 * - A record without a data date (manual edits; an ST.96 record with neither a status date nor an
 *   event) always applies, and its version's `source_updated_at` is the write time. A USPTO
 *   case-file never arrives without one: uspto/applications.ts rejects a case-file whose
 *   transaction-date is missing or in the future, as it would overwrite newer records and then
 *   make the mark's later real files count as older.
 * - Otherwise the record replaces the mark's office content. Carried over from the stored record,
 *   because other sources own them: `proceeding_count` (proceedings) and the owner-history rows of
 *   recorded assignments. Events accumulate; none is ever removed.
 * - Images (ingest-images.ts): a record naming an image file whose file was not usable keeps the
 *   stored `media`; one whose image links differently from the stored mark applies even when its
 *   raw record is already stored (the image is read from beside the record, not from it).
 * - When nothing tracked changed, no version is written; the observation alone is recorded if it
 *   is newer than every stored one (a later raw record with the same content), else nothing is.
 */
import type { DocumentStore, Filter } from '../../datasources/ports';
import { catalogId } from '../../domain/ids';
import {
  COLLECTIONS,
  type OwnerHistoryEntry,
  type OwnerHistorySource,
  type TrademarkChangeDoc,
  type TrademarkDoc,
  type TrademarkEventDoc,
  type TrademarkRawRecordDoc,
  type TrademarkSourceDoc,
} from '../../domain/records';
import { addEvents, diffValues, trackedValues, type FieldChanges } from '../../domain/trademark-changes';
import type { EventInput, MarkAmendment, MarkInput, OwnerHistoryInput, OwnerRef } from './mark-input';
import { PartyResolver } from './party-resolver';

export type WriteOutcome = 'inserted' | 'updated' | 'unchanged' | 'skipped_older' | 'not_found';

export interface MarkWriteResult {
  trademark_id: string;
  outcome: WriteOutcome;
  /** The mark's version after the call; null when it does not exist. */
  version: number | null;
}

/** Everything one transaction writes, collected while the batch is decided. */
class PendingWrites {
  readonly inserted = new Map<string, TrademarkDoc>();
  readonly replaced = new Map<string, TrademarkDoc>();
  readonly changes: TrademarkChangeDoc[] = [];
  readonly events: TrademarkEventDoc[] = [];
  readonly sources: TrademarkSourceDoc[] = [];
  readonly raws: TrademarkRawRecordDoc[] = [];

  /** Records the latest state of a mark (a mark changed twice in one batch is written once). */
  put(doc: TrademarkDoc, existedBefore: boolean): void {
    (existedBefore ? this.replaced : this.inserted).set(doc._id, doc);
  }
}

const dateOf = (timestamp: string | null | undefined): string | null => (timestamp ? timestamp.slice(0, 10) : null);
const maxDate = (a: string | null, b: string | null): string | null => (a === null ? b : b === null || a >= b ? a : b);
const unique = (ids: readonly string[]): string[] => [...new Set(ids)];

export function sourceId(trademarkId: string, payloadHash: string): string {
  return `${trademarkId}:${payloadHash}`;
}

export function eventId(trademarkId: string, key: string): string {
  return `${trademarkId}:${key}`;
}

export class MarkWriter {
  private readonly parties: PartyResolver;
  private lastStamp = 0;
  /** Nesting of `transaction` calls. */
  private depth = 0;

  constructor(
    private readonly store: DocumentStore,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.parties = new PartyResolver(store);
  }

  /** Writes the desired states of office records, in order, in one transaction. */
  async write(inputs: readonly MarkInput[]): Promise<MarkWriteResult[]> {
    return this.inTransaction(async (pending) => {
      const ids = inputs.map((input) => catalogId('tm_', input.office_code, input.application_number));
      const sourceIds = inputs.map((input, i) => sourceId(ids[i]!, input.source.payload_hash));
      const current = await this.loadMarks(ids);
      const seen = new Set((await this.sources.findByIds(sourceIds)).map((source) => source._id));
      const latestSeen = await this.latestObservations(current, inputs);
      const imageChanged = (i: number): boolean => {
        const input = inputs[i]!;
        return input.image !== undefined && input.content.media.length > 0 && !sameJson(input.content.media, current.get(ids[i]!)?.media ?? []);
      };
      // The source observation is stored once: a known raw record only applies for a changed image.
      const known = new Set(sourceIds.filter((id, i) => seen.has(id) && !imageChanged(i)));
      const isStale = (i: number): boolean => {
        const date = inputs[i]!.source.data_date;
        const latest = latestSeen.get(ids[i]!) ?? null;
        return date !== null && latest !== null && date < latest;
      };
      // Parties are resolved for the records that may apply as of the stored state, so a record
      // that changes nothing or is skipped creates no party.
      const live = inputs.map((_, i) => !known.has(sourceIds[i]!) && !isStale(i));
      const stamp = this.partyTime();
      const owners = await resolveGroups(
        inputs.map((input, i) => (live[i] ? [...input.owners, ...input.owner_history.map((entry) => entry.owner)] : [])),
        (refs) => this.parties.owners(refs, stamp),
      );
      const attorneys = await resolveGroups(
        inputs.map((input, i) => (live[i] ? input.attorneys : [])),
        (refs) => this.parties.attorneys(refs, stamp),
      );
      const storedEvents = await this.storedEventIds(
        inputs.flatMap((input, i) => (live[i] && current.has(ids[i]!) ? input.events.map((event) => eventId(ids[i]!, event.key)) : [])),
      );

      const results: MarkWriteResult[] = [];
      for (const [i, input] of inputs.entries()) {
        const id = ids[i]!;
        const stored = current.get(id) ?? null;
        // Checked again per record: an earlier record of the same batch may have been the same or newer.
        const skip: WriteOutcome | null = known.has(sourceIds[i]!) ? 'unchanged' : isStale(i) ? 'skipped_older' : null;
        if (skip !== null || !live[i]) {
          results.push({ trademark_id: id, outcome: skip ?? 'unchanged', version: stored?.version ?? null });
          continue;
        }
        const ownerIds = owners[i]!;
        const stamped = this.stamp();
        const desired = this.desiredDoc(
          id,
          input,
          stored,
          unique(ownerIds.slice(0, input.owners.length)),
          unique(attorneys[i]!),
          historyEntries(input.owner_history, ownerIds.slice(input.owners.length), 'office_record'),
          stamped,
        );
        const newEvents = input.events.filter((event) => !storedEvents.has(eventId(id, event.key)));
        for (const event of newEvents) storedEvents.add(eventId(id, event.key));
        const outcome = this.record(pending, stored, desired, newEvents, input.change_type ?? 'updated', input.source.data_date, stamped);
        const latest = latestSeen.get(id) ?? null;
        const date = input.source.data_date;
        if (!seen.has(sourceIds[i]!) && (outcome !== 'unchanged' || (date !== null && (latest === null || date > latest))))
          this.observe(pending, id, input, stamped);
        seen.add(sourceIds[i]!);
        known.add(sourceIds[i]!);
        latestSeen.set(id, maxDate(latest, date));
        const now = outcome === 'unchanged' ? stored : desired;
        if (now) current.set(id, now);
        results.push({ trademark_id: id, outcome, version: now?.version ?? null });
      }
      return results;
    });
  }

  /**
   * Adds owner-history rows, events and proceeding counts to existing marks, in order. One
   * transaction per AMEND_MARKS_PER_TRANSACTION marks or AMEND_HISTORY_ROWS_PER_TRANSACTION
   * owner-history rows, whichever comes first: a recorded assignment can name tens of thousands of
   * marks, each gaining a row per party, and one transaction holds every changed mark in memory
   * until it commits (20,000 marks and 51 parties peaked at 610 MB in one).
   */
  async amend(amendments: readonly MarkAmendment[]): Promise<MarkWriteResult[]> {
    const results: MarkWriteResult[] = [];
    for (const group of amendmentGroups(amendments)) results.push(...(await this.amendTogether(group)));
    return results;
  }

  private amendTogether(amendments: readonly MarkAmendment[]): Promise<MarkWriteResult[]> {
    return this.inTransaction(async (pending) => {
      const current = await this.loadMarks(amendments.map((a) => a.trademark_id));
      const stamp = this.partyTime();
      const owners = await resolveGroups(
        amendments.map((a) => (current.has(a.trademark_id) ? (a.owner_history ?? []).map((entry) => entry.owner) : [])),
        (refs) => this.parties.owners(refs, stamp),
      );
      const storedEvents = await this.storedEventIds(
        amendments.flatMap((a) => (current.has(a.trademark_id) ? (a.events ?? []).map((e) => eventId(a.trademark_id, e.key)) : [])),
      );
      const results: MarkWriteResult[] = [];
      for (const [i, amendment] of amendments.entries()) {
        const stored = current.get(amendment.trademark_id);
        if (!stored) {
          results.push({ trademark_id: amendment.trademark_id, outcome: 'not_found', version: null });
          continue;
        }
        const history = [...(stored.owner_history ?? [])];
        const kept = new Set(history.map(historyRowKey));
        for (const entry of historyEntries(amendment.owner_history ?? [], owners[i]!, 'assignment')) {
          const key = historyRowKey(entry);
          if (kept.has(key)) continue;
          kept.add(key);
          history.push(entry);
        }
        const stamped = this.stamp();
        const desired: TrademarkDoc = {
          ...withoutDetached(stored),
          owner_history: history,
          proceeding_count: Math.max(0, stored.proceeding_count + (amendment.proceeding_count_delta ?? 0)),
          version: stored.version + 1,
          updated_at: stamped,
        };
        const newEvents = (amendment.events ?? []).filter((event) => !storedEvents.has(eventId(stored._id, event.key)));
        for (const event of newEvents) storedEvents.add(eventId(stored._id, event.key));
        const outcome = this.record(pending, stored, desired, newEvents, 'updated', amendment.data_date, stamped);
        const now = outcome === 'unchanged' ? stored : desired;
        current.set(stored._id, now);
        results.push({ trademark_id: stored._id, outcome, version: now.version });
      }
      return results;
    });
  }

  private get marks() {
    return this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
  }

  private get sources() {
    return this.store.collection<TrademarkSourceDoc>(COLLECTIONS.trademarkSources);
  }

  /**
   * Runs `work` in one transaction that the writer's own calls inside it join (a proceeding and
   * the marks it names commit together). Party lookups are remembered only once the outermost
   * transaction has committed.
   */
  async transaction<R>(work: () => Promise<R>): Promise<R> {
    this.depth++;
    let committed = false;
    try {
      const result = await this.store.transaction(work);
      committed = true;
      return result;
    } finally {
      this.depth--;
      if (this.depth === 0) this.parties.settle(committed);
    }
  }

  /** Owner IDs for parties named outside a mark record (proceeding parties); call inside `transaction`. */
  async resolveOwners(refs: readonly OwnerRef[]): Promise<string[]> {
    return this.parties.owners(refs, this.partyTime());
  }

  /** Writes the parties resolved so far; call inside `transaction`, before it ends. */
  async flushParties(): Promise<void> {
    await this.parties.flush();
  }

  /** Runs `work` and then its writes in one transaction. */
  private inTransaction(work: (pending: PendingWrites) => Promise<MarkWriteResult[]>): Promise<MarkWriteResult[]> {
    return this.transaction(async () => {
      const pending = new PendingWrites();
      const results = await work(pending);
      await this.flush(pending);
      return results;
    });
  }

  private async flush(pending: PendingWrites): Promise<void> {
    await this.parties.flush();
    if (pending.inserted.size > 0) await this.marks.insertMany([...pending.inserted.values()]);
    for (const doc of pending.replaced.values()) await this.marks.replaceOne(doc);
    if (pending.changes.length > 0) await this.store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges).insertMany(pending.changes);
    if (pending.events.length > 0) await this.store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents).insertMany(pending.events);
    if (pending.sources.length > 0) await this.sources.insertMany(pending.sources);
    if (pending.raws.length > 0) await this.store.collection<TrademarkRawRecordDoc>(COLLECTIONS.trademarkRawRecords).insertMany(pending.raws);
  }

  /** Strictly increasing timestamps, so versions and observations written together still sort. */
  stamp(): string {
    this.lastStamp = Math.max(this.now().getTime(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }

  /** The time of parties created now (not a version's stamp, which must stay unique). */
  private partyTime(): string {
    return new Date(Math.max(this.now().getTime(), this.lastStamp)).toISOString();
  }

  private async loadMarks(ids: readonly string[]): Promise<Map<string, TrademarkDoc>> {
    return new Map((await this.marks.findByIds(unique(ids))).map((doc) => [doc._id, doc]));
  }

  /**
   * The latest data date seen per stored mark: its version's own date, or a later observation
   * that changed nothing (only observations at or after the batch's earliest date are read).
   */
  private async latestObservations(current: ReadonlyMap<string, TrademarkDoc>, inputs: readonly MarkInput[]): Promise<Map<string, string | null>> {
    const latest = new Map<string, string | null>();
    for (const doc of current.values()) latest.set(doc._id, dateOf(doc.source_updated_at));
    const dates = inputs.map((input) => input.source.data_date).filter((date): date is string => date !== null);
    if (current.size === 0 || dates.length === 0) return latest;
    const earliest = dates.reduce((a, b) => (a < b ? a : b));
    const filter: Filter = { trademark_id: { $in: [...current.keys()] }, source_data_date: { $gte: earliest } };
    for (const source of await this.sources.find(filter)) {
      latest.set(source.trademark_id, maxDate(latest.get(source.trademark_id) ?? null, source.source_data_date));
    }
    return latest;
  }

  private async storedEventIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await this.store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents).findByIds(unique(ids));
    return new Set(found.map((event) => event._id));
  }

  private desiredDoc(
    id: string,
    input: MarkInput,
    stored: TrademarkDoc | null,
    ownerIds: string[],
    attorneyIds: string[],
    officeHistory: OwnerHistoryEntry[],
    stamp: string,
  ): TrademarkDoc {
    const assignments = (stored?.owner_history ?? []).filter((entry) => entry.source === 'assignment');
    const doc: TrademarkDoc = {
      _id: id,
      ...input.content,
      office_code: input.office_code.trim().toUpperCase(),
      application_number: input.application_number,
      owner_ids: ownerIds,
      attorney_ids: attorneyIds,
      owner_history: [...officeHistory, ...assignments],
      media: input.image !== undefined && input.content.media.length === 0 ? (stored?.media ?? []) : input.content.media,
      proceeding_count: stored?.proceeding_count ?? 0,
      version: (stored?.version ?? 0) + 1,
      source_updated_at: input.source.data_date === null ? stamp : `${input.source.data_date}T00:00:00.000Z`,
      created_at: stored?.created_at ?? stamp,
      updated_at: stamp,
    };
    // Parties this version no longer names are re-counted by the party projections.
    const detached = stored
      ? [...stored.owner_ids, ...stored.attorney_ids].filter((partyId) => !ownerIds.includes(partyId) && !attorneyIds.includes(partyId))
      : [];
    return detached.length > 0 ? ({ ...doc, detached_party_ids: detached } as TrademarkDoc) : doc;
  }

  /** Adds the version (or nothing when nothing tracked changed) to the pending writes. */
  private record(
    pending: PendingWrites,
    stored: TrademarkDoc | null,
    desired: TrademarkDoc,
    newEvents: readonly EventInput[],
    changeType: 'updated' | 'corrected',
    dataDate: string | null,
    stamp: string,
  ): WriteOutcome {
    const tracked = trackedValues(desired);
    // A new mark's events are new too (spec: a new prosecution event is an `events` change).
    const changes: FieldChanges =
      stored === null ? { changed_fields: Object.keys(tracked), old_values: {}, new_values: { ...tracked } } : diffValues(trackedValues(stored), tracked);
    addEvents(changes, newEvents);
    if (changes.changed_fields.length === 0) return 'unchanged';
    pending.put(desired, stored !== null);
    pending.changes.push({
      _id: `${desired._id}:v${desired.version}`,
      trademark_id: desired._id,
      version: desired.version,
      change_type: stored === null ? 'created' : changeType,
      changed_fields: changes.changed_fields,
      old_values: stored === null ? null : changes.old_values,
      new_values: changes.new_values,
      source_data_date: dataDate,
      office_code: desired.office_code,
      created_at: stamp,
    });
    for (const event of newEvents) {
      pending.events.push({
        _id: eventId(desired._id, event.key),
        trademark_id: desired._id,
        event_type: event.event_type,
        event_date: event.event_date,
        office_code: desired.office_code,
        office_event_code: event.office_event_code,
        description: event.description,
      });
    }
    return stored === null ? 'inserted' : 'updated';
  }

  private observe(pending: PendingWrites, trademarkId: string, input: MarkInput, stamp: string): void {
    const id = sourceId(trademarkId, input.source.payload_hash);
    pending.sources.push({
      _id: id,
      trademark_id: trademarkId,
      office_code: input.office_code.trim().toUpperCase(),
      observed_at: stamp,
      source_format: input.source.format,
      source_response_type: input.source.response_type,
      source_locator: input.source.locator,
      payload_hash: input.source.payload_hash,
      source_data_date: input.source.data_date,
    });
    if (input.source.raw)
      pending.raws.push({ _id: id, trademark_id: trademarkId, media_type: input.source.raw.media_type, gzip_base64: input.source.raw.gzip_base64 });
  }
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Resolves lists of parties in one call and hands each list its IDs back. */
async function resolveGroups<R>(groups: ReadonlyArray<readonly R[]>, resolve: (refs: R[]) => Promise<string[]>): Promise<string[][]> {
  const ids = await resolve(groups.flat());
  let cursor = 0;
  return groups.map((group) => {
    cursor += group.length;
    return ids.slice(cursor - group.length, cursor);
  });
}

function historyEntries(inputs: readonly OwnerHistoryInput[], ownerIds: readonly string[], source: OwnerHistorySource): OwnerHistoryEntry[] {
  return inputs.map((input, i) => ({
    owner_id: ownerIds[i]!,
    name: input.name,
    role: input.role,
    source,
    office_party_type: input.office_party_type,
    recorded_date: input.recorded_date,
    reference: input.reference,
    conveyance: input.conveyance,
  }));
}

/** What makes an owner-history row the same row again (an assignment read twice adds nothing). */
const historyRowKey = (entry: OwnerHistoryEntry): string => JSON.stringify([entry.owner_id, entry.role, entry.reference, entry.source]);

/** Most marks amended in one transaction (MarkWriter.amend). */
export const AMEND_MARKS_PER_TRANSACTION = 2_000;
/** Most owner-history rows added in one transaction (MarkWriter.amend). */
export const AMEND_HISTORY_ROWS_PER_TRANSACTION = 50_000;

/** The amendments in order, cut where a transaction would pass either bound (each group holds one at least). */
function amendmentGroups(amendments: readonly MarkAmendment[]): MarkAmendment[][] {
  const groups: MarkAmendment[][] = [];
  let group: MarkAmendment[] = [];
  let rows = 0;
  for (const amendment of amendments) {
    const added = amendment.owner_history?.length ?? 0;
    if (group.length > 0 && (group.length === AMEND_MARKS_PER_TRANSACTION || rows + added > AMEND_HISTORY_ROWS_PER_TRANSACTION)) {
      groups.push(group);
      group = [];
      rows = 0;
    }
    group.push(amendment);
    rows += added;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/** A stored record without the previous write's detached-party trail (resolvers/parties/detached.ts). */
export function withoutDetached(doc: TrademarkDoc): TrademarkDoc {
  const { detached_party_ids: _trail, ...rest } = doc as TrademarkDoc & { detached_party_ids?: string[] };
  return rest;
}
