/**
 * Change records (spec: "Trademark change record"): what one version of a mark changed, as
 * `changed_fields` with `old_values` and `new_values` keyed by field. The names are the
 * contract's (spec, `GET /v1/trademarks/{id}/changes`): parent fields by their snake_case name,
 * the mark text as `mark_text_primary`, the status split into `status_stage`, `status_primary`,
 * `status_reason`, `challenge_states` and `office_status_code`; child changes by related entity
 * type: `classifications` (their class numbers; their wording apart as `goods_services`), `owners`
 * and `attorneys` (their IDs, in order), `events` (the prosecution events a version added), and
 * `owner_history`. The generator tracks the lifecycle subset of these names; the write path
 * (workers/ingest/mark-writer.ts) tracks every one.
 *
 * Records written before the names followed the contract carry the storage names `mark_text`,
 * `owner_ids` and `attorney_ids` (LEGACY_FIELD_NAMES). They stay as stored and are read under the
 * public names: `publicChange` when one is served, `storedFieldNames` when one is filtered for.
 */
import type { TrademarkChangeDoc, TrademarkDoc } from './records';

export interface FieldChanges {
  changed_fields: string[];
  old_values: Record<string, unknown>;
  new_values: Record<string, unknown>;
}

/** The child change of the prosecution events a version added (old value [], new value the events). */
export const EVENTS_FIELD = 'events';

/** Names that change records written before the contract's names carry, by the public name that replaced each. */
export const LEGACY_FIELD_NAMES: Readonly<Record<string, string>> = Object.freeze({
  mark_text: 'mark_text_primary',
  owner_ids: 'owners',
  attorney_ids: 'attorneys',
});

const isLegacy = (field: string): boolean => Object.hasOwn(LEGACY_FIELD_NAMES, field);

/** The public name of a change-record field, given its public or its legacy name. */
export function publicFieldName(field: string): string {
  return isLegacy(field) ? (LEGACY_FIELD_NAMES[field] as string) : field;
}

/**
 * Every name under which a stored change record may list a field asked for by its public (or
 * legacy) name: the public name first, then its legacy names. `changed_field` filters on all.
 */
export function storedFieldNames(field: string): string[] {
  const name = publicFieldName(field);
  return [name, ...Object.keys(LEGACY_FIELD_NAMES).filter((legacy) => LEGACY_FIELD_NAMES[legacy] === name)];
}

/** `changed_fields` under the public names, in order and each once (the same array when none is legacy). */
export function publicChangedFields(fields: string[]): string[] {
  return fields.some(isLegacy) ? [...new Set(fields.map(publicFieldName))] : fields;
}

/** Values keyed by the public names (the same object when no key is legacy); a public key wins over a legacy one. */
function publicValues(values: Record<string, unknown>): Record<string, unknown> {
  if (!Object.keys(values).some(isLegacy)) return values;
  const renamed: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    const name = publicFieldName(field);
    if (name === field || !Object.hasOwn(values, name)) renamed[name] = value;
  }
  return renamed;
}

/** A stored change record under the public names: the record itself when it already uses them. */
export function publicChange<T extends { changed_fields: string[]; old_values: Record<string, unknown> | null; new_values: Record<string, unknown> }>(
  change: T,
): T {
  const changedFields = publicChangedFields(change.changed_fields);
  const oldValues = change.old_values === null ? null : publicValues(change.old_values);
  const newValues = publicValues(change.new_values);
  if (changedFields === change.changed_fields && oldValues === change.old_values && newValues === change.new_values) return change;
  return { ...change, changed_fields: changedFields, old_values: oldValues, new_values: newValues };
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

/** What a change record keeps of a prosecution event it lists under `events`. */
export interface EventChange {
  event_type: string;
  event_date: string;
  office_event_code: string | null;
}

/** Adds the prosecution events a version added as its `events` child change (nothing when it added none). */
export function addEvents(changes: FieldChanges, events: readonly EventChange[]): void {
  if (events.length === 0) return;
  changes.changed_fields.push(EVENTS_FIELD);
  changes.old_values[EVENTS_FIELD] = [];
  changes.new_values[EVENTS_FIELD] = events.map(({ event_type, event_date, office_event_code }) => ({ event_type, event_date, office_event_code }));
}

/** Every tracked field of a stored record, by its change-record (public) name; events are added by the write path. */
export function trackedValues(doc: TrademarkDoc): Record<string, unknown> {
  return {
    status_stage: doc.status.stage,
    status_primary: doc.status.primary,
    status_reason: doc.status.reason,
    challenge_states: doc.status.challenge_states,
    office_status_code: doc.status.office_status?.code ?? null,
    mark_text_primary: doc.mark_text,
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
    owners: doc.owner_ids,
    attorneys: doc.attorney_ids,
    owner_history: doc.owner_history ?? [],
    proceeding_count: doc.proceeding_count,
  };
}

/** Tracked fields stored under the same name on the record as in change records. */
const SAME_NAME_FIELDS = [
  'registration_number',
  'ir_number',
  'filing_date',
  'priority_date',
  'publication_date',
  'registration_date',
  'expiry_date',
  'renewal_due_date',
  'termination_date',
  'international_registration_date',
  'designation_date',
  'jurisdiction_code',
  'filing_route',
  'scope_kind',
  'mark_feature_type',
  'mark_legal_category',
  'right_kind',
  'is_series_mark',
  'series_id',
  'is_retracted',
  'vienna_codes',
  'owner_history',
  'proceeding_count',
] as const satisfies ReadonlyArray<keyof TrademarkDoc>;

/**
 * `doc` with the tracked values of a change record (public or legacy names) written back, the
 * inverse of `trackedValues`. What a change record cannot restore stays as in `doc`: media items
 * removed since (only their IDs are recorded), the wording of a class the values do not list.
 */
function withTrackedValues(doc: TrademarkDoc, recorded: Record<string, unknown>): TrademarkDoc {
  const values = publicValues(recorded);
  const has = (field: string) => Object.hasOwn(values, field);
  const restored: TrademarkDoc = { ...doc, status: { ...doc.status } };
  for (const field of SAME_NAME_FIELDS) if (has(field)) (restored as unknown as Record<string, unknown>)[field] = values[field];
  if (has('mark_text_primary')) restored.mark_text = values.mark_text_primary as string;
  if (has('owners')) restored.owner_ids = values.owners as string[];
  if (has('attorneys')) restored.attorney_ids = values.attorneys as string[];
  if (has('status_stage')) restored.status.stage = values.status_stage as TrademarkDoc['status']['stage'];
  if (has('status_primary')) restored.status.primary = values.status_primary as TrademarkDoc['status']['primary'];
  if (has('status_reason')) restored.status.reason = values.status_reason as TrademarkDoc['status']['reason'];
  if (has('challenge_states')) restored.status.challenge_states = values.challenge_states as TrademarkDoc['status']['challenge_states'];
  if (has('office_status_code')) {
    const code = values.office_status_code as string | null;
    restored.status.office_status =
      code === null ? null : { code, description: doc.status.office_status?.code === code ? doc.status.office_status.description : null };
  }
  if (has('media')) restored.media = doc.media.filter((item) => (values.media as string[]).includes(item.id));
  if (has('goods_services')) {
    restored.classifications = (values.goods_services as TrademarkDoc['classifications']).map((c) => ({ ...c }));
  } else if (has('classifications')) {
    const classes = values.classifications as number[];
    restored.classifications = classes.map(
      (nice_class) => doc.classifications.find((c) => c.nice_class === nice_class) ?? { nice_class, goods_services_text: '', nice_edition: null },
    );
  }
  return restored;
}

/**
 * The record as it stood at `version`, from the record now and the change records of the versions
 * after it (any order; each one's `old_values` are what it replaced). Whoever evaluates a change
 * after the mark has moved on (a watch evaluator catching up) sees the version the change made.
 */
export function recordAtVersion(
  current: TrademarkDoc,
  version: number,
  laterChanges: ReadonlyArray<Pick<TrademarkChangeDoc, 'version' | 'old_values'>>,
): TrademarkDoc {
  if (current.version <= version) return current;
  const newestFirst = laterChanges.filter((change) => change.version > version).sort((a, b) => b.version - a.version);
  let doc = current;
  for (const change of newestFirst) if (change.old_values !== null) doc = withTrackedValues(doc, change.old_values);
  return { ...doc, version };
}
