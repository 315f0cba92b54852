/**
 * Writes TTAB proceedings (uspto/ttab.ts) and joins them to their marks, in one transaction per
 * batch with the marks' amendments (mark-writer.ts):
 * - the proceeding record (`prc_` ID from office US + proceeding number) is inserted, replaced when
 *   anything changed, or left alone;
 * - its marks are the contested marks' serial numbers (uspto/ttab.ts; IDs derived from them);
 *   contested classes are the classes of those marks in the store;
 * - a party is the owner of one of its marks when their canonical names match (the applicant
 *   defending an opposition), otherwise an owner matched or created by the party rules;
 * - each mark in the store newly named gets proceeding_count + 1 and an event (OPP opposition_filed,
 *   CAN cancellation_requested, EXA appeal_filed, EXT opposition_extension_requested, else
 *   office_event); a mark no longer named gets − 1. Marks not in the store are counted as not
 *   found and awaited (`awaited_proceeding_marks`): when one arrives (`joinArrived`, after its
 *   case-file is written) it gets the same count and event, and the proceeding its classes and
 *   the owner match, as if it had been there first.
 */
import type { DocumentStore } from '../../datasources/ports';
import { catalogId } from '../../domain/ids';
import { canonicalName } from '../../domain/party-names';
import { COLLECTIONS, type AwaitedProceedingMarkDoc, type OwnerDoc, type ProceedingDoc, type ProceedingParty, type TrademarkDoc } from '../../domain/records';
import { sameValue } from '../../domain/trademark-changes';
import type { MarkAmendment } from './mark-input';
import type { MarkWriter, MarkWriteResult } from './mark-writer';
import type { ProceedingRecord } from './uspto/ttab';

export type ProceedingOutcome = 'inserted' | 'updated' | 'unchanged';

export interface ProceedingWriteResult {
  proceedings: ProceedingOutcome[];
  marks: MarkWriteResult[];
}

/** The event a newly named mark gets, by TTAB type code. */
const MARK_EVENT: Readonly<Record<string, string>> = {
  OPP: 'opposition_filed',
  CAN: 'cancellation_requested',
  EXA: 'appeal_filed',
  EXT: 'opposition_extension_requested',
};

const unique = (values: readonly string[]) => [...new Set(values)];

export class ProceedingWriter {
  constructor(
    private readonly store: DocumentStore,
    private readonly marks: MarkWriter,
  ) {}

  async write(records: readonly ProceedingRecord[]): Promise<ProceedingWriteResult> {
    return this.marks.transaction(async () => {
      const ids = records.map((record) => catalogId('prc_', 'US', record.number));
      const stored = new Map((await this.proceedings.findByIds(unique(ids))).map((doc) => [doc._id, doc]));
      const markIds = records.map((record) => unique(record.serials.map((serial) => catalogId('tm_', 'US', serial))));
      const marks = await this.loadMarks(markIds.flat());
      const markOwners = await this.ownersOf(marks.values());
      // A party named like an owner of one of its marks is that owner; only the others are matched
      // or created by the party rules (no stray owner record for the applicant defending its mark).
      const known = markIds.map((group) => group.map((markId) => marks.get(markId)).filter((mark): mark is TrademarkDoc => mark !== undefined));
      const markOwnerIds = records.map((record, i) => record.parties.map((party) => markOwnerNamed(known[i]!, markOwners, party.owner.name)));
      const resolvedIds = await this.marks.resolveOwners(
        records.flatMap((record, i) => record.parties.filter((_, j) => markOwnerIds[i]![j] === undefined).map((party) => party.owner)),
      );
      await this.marks.flushParties();

      const now = this.marks.stamp();
      const outcomes: ProceedingOutcome[] = [];
      const amendments: MarkAmendment[] = [];
      const awaited = new Map<string, AwaitedProceedingMarkDoc['proceedings']>();
      let cursor = 0;
      for (const [i, record] of records.entries()) {
        const id = ids[i]!;
        const trademarkIds = markIds[i]!;
        const parties = record.parties.map((party, j): ProceedingParty => {
          const ownerId = markOwnerIds[i]![j] ?? resolvedIds[cursor++]!;
          return {
            owner_id: ownerId,
            name: party.owner.name,
            role: party.role,
            country_code: markOwners.get(ownerId)?.country_code ?? party.owner.country_code,
          };
        });
        const previous = stored.get(id);
        const content: Omit<ProceedingDoc, '_id' | 'created_at' | 'updated_at'> = {
          proceeding_type: record.proceeding_type,
          proceeding_number: record.number,
          office_code: 'US',
          status: record.status,
          filed_date: record.filed_date,
          decision_date: record.decision_date,
          decision_outcome: null,
          trademark_ids: trademarkIds,
          parties,
          contested_classes: contestedClasses(known[i]!),
          description: record.description,
        };
        if (previous && sameValue(withoutStamps(previous), content)) {
          outcomes.push('unchanged');
          continue;
        }
        const doc: ProceedingDoc = { _id: id, ...content, created_at: previous?.created_at ?? now, updated_at: now };
        await (previous ? this.proceedings.replaceOne(doc) : this.proceedings.insertOne(doc));
        stored.set(id, doc);
        outcomes.push(previous ? 'updated' : 'inserted');
        const before = new Set(previous?.trademark_ids ?? []);
        const event = {
          key: `ttab:${record.number}`,
          event_type: MARK_EVENT[record.type_code] ?? 'office_event',
          event_date: record.filed_date,
          description: record.description,
        };
        for (const markId of trademarkIds.filter((markId) => !before.has(markId))) {
          amendments.push(joining(markId, event));
          if (!marks.has(markId)) awaited.set(markId, [...(awaited.get(markId) ?? []), { proceeding_id: id, event }]);
        }
        for (const markId of [...before].filter((markId) => !trademarkIds.includes(markId))) {
          amendments.push({ trademark_id: markId, proceeding_count_delta: -1, data_date: record.filed_date });
        }
      }
      await this.recordAwaited(awaited);
      return { proceedings: outcomes, marks: amendments.length === 0 ? [] : await this.marks.amend(amendments) };
    });
  }

  /**
   * Joins the proceedings that named these marks before they were stored (call after writing
   * them): each mark gets the count and event it would have had, each proceeding the classes of
   * its marks now stored and, for a party named like an owner of the arrived mark, that owner.
   * One lookup by ID, and no transaction, when none awaits them (the common case).
   */
  async joinArrived(trademarkIds: readonly string[]): Promise<MarkWriteResult[]> {
    if (trademarkIds.length === 0 || (await this.awaited.findByIds(unique(trademarkIds))).length === 0) return [];
    return this.marks.transaction(async () => {
      const awaited = await this.awaited.findByIds(unique(trademarkIds));
      if (awaited.length === 0) return [];
      const proceedings = await this.proceedings.findByIds(unique(awaited.flatMap((doc) => doc.proceedings.map((entry) => entry.proceeding_id))));
      const marks = await this.loadMarks(proceedings.flatMap((proceeding) => proceeding.trademark_ids));
      const owners = await this.ownersOf(awaited.flatMap((doc) => marks.get(doc._id) ?? []));
      const now = this.marks.stamp();
      for (const proceeding of proceedings) {
        const known = proceeding.trademark_ids.map((markId) => marks.get(markId)).filter((mark): mark is TrademarkDoc => mark !== undefined);
        const arrived = known.filter((mark) => awaited.some((doc) => doc._id === mark._id));
        const parties = proceeding.parties.map((party): ProceedingParty => {
          const ownerId = markOwnerNamed(arrived, owners, party.name);
          return ownerId === undefined ? party : { ...party, owner_id: ownerId, country_code: owners.get(ownerId)?.country_code ?? party.country_code };
        });
        const joined: ProceedingDoc = { ...proceeding, parties, contested_classes: contestedClasses(known) };
        if (!sameValue(withoutStamps(joined), withoutStamps(proceeding))) await this.proceedings.replaceOne({ ...joined, updated_at: now });
      }
      const stillNamed = new Set(proceedings.flatMap((proceeding) => proceeding.trademark_ids.map((markId) => `${proceeding._id} ${markId}`)));
      const amendments = awaited.flatMap((doc) =>
        doc.proceedings.filter((entry) => stillNamed.has(`${entry.proceeding_id} ${doc._id}`)).map((entry) => joining(doc._id, entry.event)),
      );
      await this.awaited.deleteMany({ _id: { $in: awaited.map((doc) => doc._id) } });
      return amendments.length === 0 ? [] : this.marks.amend(amendments);
    });
  }

  /** Records marks not in the store that proceedings named, for joinArrived. */
  private async recordAwaited(awaited: ReadonlyMap<string, AwaitedProceedingMarkDoc['proceedings']>): Promise<void> {
    if (awaited.size === 0) return;
    const stored = new Map((await this.awaited.findByIds([...awaited.keys()])).map((doc) => [doc._id, doc]));
    for (const [markId, entries] of awaited) {
      const kept = (stored.get(markId)?.proceedings ?? []).filter((old) => !entries.some((entry) => entry.proceeding_id === old.proceeding_id));
      await this.awaited.replaceOne({ _id: markId, proceedings: [...kept, ...entries] });
    }
  }

  private get proceedings() {
    return this.store.collection<ProceedingDoc>(COLLECTIONS.proceedings);
  }

  private get awaited() {
    return this.store.collection<AwaitedProceedingMarkDoc>(COLLECTIONS.awaitedProceedingMarks);
  }

  private async loadMarks(ids: readonly string[]): Promise<Map<string, TrademarkDoc>> {
    return new Map((await this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds(unique(ids))).map((doc) => [doc._id, doc]));
  }

  private async ownersOf(marks: Iterable<TrademarkDoc>): Promise<Map<string, OwnerDoc>> {
    const ids = unique([...marks].flatMap((mark) => mark.owner_ids));
    return new Map((await this.store.collection<OwnerDoc>(COLLECTIONS.owners).findByIds(ids)).map((owner) => [owner._id, owner]));
  }
}

/** The amendment that joins a mark to a proceeding: one more proceeding, and its event. */
function joining(trademarkId: string, event: AwaitedProceedingMarkDoc['proceedings'][number]['event']): MarkAmendment {
  return { trademark_id: trademarkId, proceeding_count_delta: 1, events: [{ ...event, office_event_code: null }], data_date: event.event_date };
}

/** The owner of one of `marks` whose canonical name is the party's (the applicant defending an opposition). */
function markOwnerNamed(marks: readonly TrademarkDoc[], owners: ReadonlyMap<string, OwnerDoc>, partyName: string): string | undefined {
  const name = canonicalName(partyName);
  return marks.flatMap((mark) => mark.owner_ids).find((ownerId) => owners.get(ownerId)?.canonical_name === name);
}

function contestedClasses(marks: readonly TrademarkDoc[]): number[] {
  return [...new Set(marks.flatMap((mark) => mark.classifications.map((c) => c.nice_class)))].sort((a, b) => a - b);
}

function withoutStamps(doc: ProceedingDoc): Omit<ProceedingDoc, '_id' | 'created_at' | 'updated_at'> {
  const { _id: _id, created_at: _created, updated_at: _updated, ...content } = doc;
  return content;
}
