/**
 * The proceedings index: one document per proceeding, with its parties flattened into names,
 * owner IDs, roles and owner:role pairs. Proceedings copy party names when filed, so no other
 * collection feeds this index.
 */
import type { IndexDocument } from '../../datasources/ports';
import { PROCEEDING_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type ProceedingDoc } from '../../domain/records';
import { defineProjection } from './projection';

const unique = <T>(values: T[]): T[] => [...new Set(values)];

export function proceedingIndexDocument(proceeding: ProceedingDoc): IndexDocument {
  return {
    id: proceeding._id,
    party_names: proceeding.parties.map((p) => p.name),
    proceeding_number: proceeding.proceeding_number,
    proceeding_type: proceeding.proceeding_type,
    status: proceeding.status,
    office_code: proceeding.office_code,
    trademark_ids: proceeding.trademark_ids,
    party_owner_ids: unique(proceeding.parties.map((p) => p.owner_id)),
    party_roles: unique(proceeding.parties.map((p) => p.role)),
    party_owner_roles: unique(proceeding.parties.map((p) => `${p.owner_id}:${p.role}`)),
    contested_classes: unique(proceeding.contested_classes),
    filed_date: proceeding.filed_date,
    decision_date: proceeding.decision_date,
    updated_at: proceeding.updated_at,
  };
}

export const proceedingProjection = defineProjection<ProceedingDoc>({
  index: PROCEEDING_INDEX,
  source: COLLECTIONS.proceedings,
  async toIndexDocuments(proceedings) {
    return proceedings.map(proceedingIndexDocument);
  },
});
