/**
 * The trademark index: a mark with its parties denormalized (owner names, countries, tickers,
 * LEIs, entities, attorneys' firms), so a change to an owner or attorney re-indexes their marks.
 */
import type { IndexDocument } from '../../datasources/ports';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type AttorneyDoc, type OwnerDoc, type TrademarkDoc } from '../../domain/records';
import { numberMatchKey } from '../../domain/ids';
import { markKeys, markTextKey } from '../../domain/mark-keys';
import { defineProjection } from './projection';

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * A Vienna code with its ancestors (`01.05.03` → `01`, `01.05`, `01.05.03`), so a filter on a
 * category or division finds the marks coded more specifically within it.
 */
export function viennaCodesWithAncestors(codes: readonly string[]): string[] {
  return unique(codes.flatMap((code) => code.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))));
}

export function trademarkIndexDocument(mark: TrademarkDoc, owners: ReadonlyMap<string, OwnerDoc>, attorneys: ReadonlyMap<string, AttorneyDoc>): IndexDocument {
  const markOwners = mark.owner_ids.map((id) => owners.get(id)).filter((o): o is OwnerDoc => o !== undefined);
  const markAttorneys = mark.attorney_ids.map((id) => attorneys.get(id)).filter((a): a is AttorneyDoc => a !== undefined);
  const companies = markOwners.flatMap((o) => o.companies);
  return {
    id: mark._id,
    mark_text: mark.mark_text,
    mark_keys: markKeys(mark.mark_text),
    mark_text_key: markTextKey(mark.mark_text),
    owner_names: markOwners.map((o) => o.name),
    goods_services_text: mark.classifications.map((c) => c.goods_services_text).join('; '),
    office_code: mark.office_code,
    jurisdiction_code: mark.jurisdiction_code,
    status_primary: mark.status.primary,
    status_stage: mark.status.stage,
    status_reason: mark.status.reason,
    challenge_states: mark.status.challenge_states,
    mark_feature_type: mark.mark_feature_type,
    mark_legal_category: mark.mark_legal_category,
    right_kind: mark.right_kind,
    filing_route: mark.filing_route,
    scope_kind: mark.scope_kind,
    application_number_key: numberMatchKey(mark.application_number),
    registration_number_key: mark.registration_number === null ? null : numberMatchKey(mark.registration_number),
    ir_number: mark.ir_number,
    nice_classes: unique(mark.classifications.map((c) => c.nice_class)),
    vienna_codes: viennaCodesWithAncestors(mark.vienna_codes),
    owner_ids: mark.owner_ids,
    owner_countries: unique(markOwners.map((o) => o.country_code).filter((c): c is string => c !== null)),
    entity_ids: unique(markOwners.map((o) => o.entity_id)),
    attorney_ids: mark.attorney_ids,
    firm_ids: unique(markAttorneys.map((a) => a.firm_id).filter((f): f is string => f !== null)),
    owner_tickers: unique(companies.map((c) => c.ticker).filter((t): t is string => t !== null)),
    owner_leis: unique(companies.map((c) => c.lei).filter((l): l is string => l !== null)),
    owner_publicly_traded: companies.some((c) => c.ticker !== null && c.entity_status === 'ACTIVE'),
    owner_has_lei: companies.some((c) => c.lei !== null),
    has_media: mark.media.length > 0,
    has_proceedings: mark.proceeding_count > 0,
    is_madrid: mark.filing_route === 'madrid' || mark.ir_number !== null,
    is_retracted: mark.is_retracted,
    is_series_mark: mark.is_series_mark,
    filing_date: mark.filing_date,
    registration_date: mark.registration_date,
    expiry_date: mark.expiry_date,
    renewal_due_date: mark.renewal_due_date,
    publication_date: mark.publication_date,
    termination_date: mark.termination_date,
    updated_at: mark.updated_at,
  };
}

export const trademarkProjection = defineProjection<TrademarkDoc>({
  index: TRADEMARK_INDEX,
  source: COLLECTIONS.trademarks,
  async toIndexDocuments(marks, { store }) {
    const [owners, attorneys] = await Promise.all([
      store.collection<OwnerDoc>(COLLECTIONS.owners).findByIds(unique(marks.flatMap((m) => m.owner_ids))),
      store.collection<AttorneyDoc>(COLLECTIONS.attorneys).findByIds(unique(marks.flatMap((m) => m.attorney_ids))),
    ]);
    const ownerMap = new Map(owners.map((o) => [o._id, o]));
    const attorneyMap = new Map(attorneys.map((a) => [a._id, a]));
    return marks.map((m) => trademarkIndexDocument(m, ownerMap, attorneyMap));
  },
  dependents: {
    // A new party has no marks yet; an updated one may have many.
    [COLLECTIONS.owners]: (event) => (event.operation === 'insert' ? null : { owner_ids: event.documentId }),
    [COLLECTIONS.attorneys]: (event) => (event.operation === 'insert' ? null : { attorney_ids: event.documentId }),
  },
});
