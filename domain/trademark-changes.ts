/**
 * Change records (spec: "Trademark change record"): what one version of a mark changed, as
 * `changed_fields` with `old_values` and `new_values` keyed by field. Field names are the record's
 * snake_case names, with the status split into `status_stage`, `status_primary`, `status_reason`,
 * `challenge_states` and `office_status_code`, classifications as their class numbers
 * (`classifications`) and their wording apart (`goods_services`), and parties by ID (`owner_ids`,
 * `attorney_ids`, `owner_history`). The generator tracks the lifecycle subset of these names; the
 * write path (workers/ingest/mark-writer.ts) tracks every one.
 */
import type { TrademarkDoc } from './records';

export interface FieldChanges {
  changed_fields: string[];
  old_values: Record<string, unknown>;
  new_values: Record<string, unknown>;
}

/** Structural equality of JSON values (objects compared key by key, arrays in order). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((value, i) => sameValue(value, b[i]));
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  return aKeys.length === Object.keys(b).length && aKeys.every((key) => key in bRecord && sameValue((a as Record<string, unknown>)[key], bRecord[key]));
}

/** The fields whose values differ between two snapshots of the same tracked fields, in `after`'s order. */
export function diffValues<T extends object>(before: T, after: T): FieldChanges {
  const changes: FieldChanges = { changed_fields: [], old_values: {}, new_values: {} };
  const previous = before as Record<string, unknown>;
  for (const [field, value] of Object.entries(after)) {
    if (sameValue(previous[field], value)) continue;
    changes.changed_fields.push(field);
    changes.old_values[field] = previous[field] ?? null;
    changes.new_values[field] = value;
  }
  return changes;
}

/** Every tracked field of a stored record, by its change-record name. */
export function trackedValues(doc: TrademarkDoc): Record<string, unknown> {
  return {
    status_stage: doc.status.stage,
    status_primary: doc.status.primary,
    status_reason: doc.status.reason,
    challenge_states: doc.status.challenge_states,
    office_status_code: doc.status.office_status?.code ?? null,
    mark_text: doc.mark_text,
    registration_number: doc.registration_number,
    ir_number: doc.ir_number,
    filing_date: doc.filing_date,
    priority_date: doc.priority_date,
    publication_date: doc.publication_date,
    registration_date: doc.registration_date,
    expiry_date: doc.expiry_date,
    renewal_due_date: doc.renewal_due_date,
    termination_date: doc.termination_date,
    international_registration_date: doc.international_registration_date,
    designation_date: doc.designation_date,
    jurisdiction_code: doc.jurisdiction_code,
    filing_route: doc.filing_route,
    scope_kind: doc.scope_kind,
    mark_feature_type: doc.mark_feature_type,
    mark_legal_category: doc.mark_legal_category,
    right_kind: doc.right_kind,
    is_series_mark: doc.is_series_mark,
    series_id: doc.series_id,
    is_retracted: doc.is_retracted,
    vienna_codes: doc.vienna_codes,
    media: doc.media.map((item) => item.id),
    classifications: doc.classifications.map((c) => c.nice_class),
    goods_services: doc.classifications.map((c) => ({ nice_class: c.nice_class, goods_services_text: c.goods_services_text, nice_edition: c.nice_edition })),
    owner_ids: doc.owner_ids,
    attorney_ids: doc.attorney_ids,
    owner_history: doc.owner_history ?? [],
    proceeding_count: doc.proceeding_count,
  };
}
