/**
 * Writes TTAB proceedings (uspto/ttab.ts) and joins them to their marks, in one transaction per
 * batch with the marks' amendments (mark-writer.ts):
 * - the proceeding record (`prc_` ID from office US + proceeding number) is inserted, replaced when
 *   anything changed, or left alone;
 * - its marks are the contested marks' serial numbers (uspto/ttab.ts; IDs derived from them, so
 *   a proceeding loaded before its mark is listed with it when the mark arrives); contested
 *   classes are the classes of the marks in the store;
 * - a party is the owner of one of its marks when their canonical names match (the applicant
 *   defending an opposition), otherwise an owner matched or created by the party rules;
 * - each mark in the store newly named gets proceeding_count + 1 and an event (OPP opposition_filed,
 *   CAN cancellation_requested, EXA appeal_filed, EXT opposition_extension_requested, else
 *   office_event); a mark no longer named gets − 1. Marks not in the store are counted as not found.
 */
import type { DocumentStore } from '../../datasources/ports';
import { catalogId } from '../../domain/ids';
import { canonicalName } from '../../domain/party-names';
import { COLLECTIONS, type OwnerDoc, type ProceedingDoc, type TrademarkDoc } from '../../domain/records';
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
      const proceedings = this.store.collection<ProceedingDoc>(COLLECTIONS.proceedings);
      const ids = records.map((record) => catalogId('prc_', 'US', record.number));
      const stored = new Map((await proceedings.findByIds(unique(ids))).map((doc) => [doc._id, doc]));
      const markIds = records.map((record) => unique(record.serials.map((serial) => catalogId('tm_', 'US', serial))));
      const marks = new Map((await this.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds(unique(markIds.flat()))).map((doc) => [doc._id, doc]));
      const markOwners = new Map(
        (await this.store.collection<OwnerDoc>(COLLECTIONS.owners).findByIds(unique([...marks.values()].flatMap((mark) => mark.owner_ids)))).map((owner) => [
          owner._id,
          owner,
        ]),
      );
      const ownerIds = await this.marks.resolveOwners(records.flatMap((record) => record.parties.map((party) => party.owner)));
      await this.marks.flushParties();

      const now = this.marks.stamp();
      const outcomes: ProceedingOutcome[] = [];
      const amendments: MarkAmendment[] = [];
      let cursor = 0;
      for (const [i, record] of records.entries()) {
        const id = ids[i]!;
        const trademarkIds = markIds[i]!;
        const known = trademarkIds.map((markId) => marks.get(markId)).filter((mark): mark is TrademarkDoc => mark !== undefined);
        const parties = record.parties.map((party) => {
          const resolved = ownerIds[cursor++]!;
          const name = canonicalName(party.owner.name);
          const markOwner = known.flatMap((mark) => mark.owner_ids).find((ownerId) => markOwners.get(ownerId)?.canonical_name === name);
          const ownerId = markOwner ?? resolved;
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
          contested_classes: [...new Set(known.flatMap((mark) => mark.classifications.map((c) => c.nice_class)))].sort((a, b) => a - b),
          description: record.description,
        };
        if (previous) {
          const { _id: _id, created_at: _created, updated_at: _updated, ...before } = previous;
          if (sameValue(before, content)) {
            outcomes.push('unchanged');
            continue;
          }
        }
        const doc: ProceedingDoc = { _id: id, ...content, created_at: previous?.created_at ?? now, updated_at: now };
        await (previous ? proceedings.replaceOne(doc) : proceedings.insertOne(doc));
        stored.set(id, doc);
        outcomes.push(previous ? 'updated' : 'inserted');
        const before = new Set(previous?.trademark_ids ?? []);
        for (const markId of trademarkIds.filter((markId) => !before.has(markId))) {
          amendments.push({
            trademark_id: markId,
            proceeding_count_delta: 1,
            events: [
              {
                key: `ttab:${record.number}`,
                event_type: MARK_EVENT[record.type_code] ?? 'office_event',
                event_date: record.filed_date,
                office_event_code: null,
                description: record.description,
              },
            ],
            data_date: record.filed_date,
          });
        }
        for (const markId of [...before].filter((markId) => !trademarkIds.includes(markId))) {
          amendments.push({ trademark_id: markId, proceeding_count_delta: -1, data_date: record.filed_date });
        }
      }
      return { proceedings: outcomes, marks: amendments.length === 0 ? [] : await this.marks.amend(amendments) };
    });
  }
}
