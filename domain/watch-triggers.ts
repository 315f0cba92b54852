/**
 * What a new version of a trademark record means to someone watching it: the trigger of an
 * alert, read from the version's change record (changed_fields with old and new values).
 *
 * One version gives at most one alert per watch, so a version that does several things is named
 * by the most consequential: an opposition or a cancellation needs action now, a registration or
 * a publication opens deadlines, other status moves and events are for the record.
 */
import type { AlertTriggerType, TrademarkChangeDoc } from './records';
import { EVENTS_FIELD, publicFieldName } from './trademark-changes';

export interface ClassifiedTrigger {
  type: AlertTriggerType;
  /** The event type code behind `opposition_filed`, `cancellation` or `event`, when one was added. */
  event_type: string | null;
}

const CANCELLED_STAGES = new Set(['cancelled', 'invalidated', 'surrendered']);
const CANCELLATION_EVENTS = new Set(['cancellation_requested', 'cancelled']);
const PUBLISHED_STAGES = new Set(['published', 'opposition_period']);

/**
 * Fields whose change on an existing mark makes it news to a filter or similarity watch, by their
 * public change-record names (a record stored under the legacy names is read under these).
 */
export const MATCH_RELEVANT_FIELDS: ReadonlySet<string> = new Set([
  'mark_text_primary',
  'classifications',
  'goods_services',
  'owners',
  'status_stage',
  'status_primary',
  'publication_date',
  'registration_date',
  'vienna_codes',
]);

function addedEventTypes(change: TrademarkChangeDoc): string[] {
  const events = change.new_values[EVENTS_FIELD];
  if (!Array.isArray(events)) return [];
  return events.map((event: unknown) => (event as { event_type?: unknown }).event_type).filter((type): type is string => typeof type === 'string');
}

function added(change: TrademarkChangeDoc, field: string, value: string): boolean {
  const before = change.old_values?.[field];
  const after = change.new_values[field];
  return Array.isArray(after) && after.includes(value) && !(Array.isArray(before) && before.includes(value));
}

/**
 * The trigger of a version: `new_filing` for a first version; otherwise the most consequential
 * of what changed; null when nothing a watcher is told about changed (e.g. only an attorney).
 */
export function classifyChange(change: TrademarkChangeDoc): ClassifiedTrigger | null {
  if (change.change_type === 'created' || change.version === 1) return { type: 'new_filing', event_type: null };
  const changed = new Set(change.changed_fields.map(publicFieldName));
  const events = addedEventTypes(change);
  const stage = changed.has('status_stage') ? String(change.new_values.status_stage) : null;

  if (events.includes('opposition_filed') || added(change, 'challenge_states', 'opposition_pending')) {
    return { type: 'opposition_filed', event_type: events.includes('opposition_filed') ? 'opposition_filed' : null };
  }
  const cancellationEvent = events.find((type) => CANCELLATION_EVENTS.has(type)) ?? null;
  if ((stage !== null && CANCELLED_STAGES.has(stage)) || cancellationEvent !== null || added(change, 'challenge_states', 'cancellation_pending')) {
    return { type: 'cancellation', event_type: cancellationEvent };
  }
  if (stage === 'registered' || (changed.has('registration_date') && change.new_values.registration_date)) return { type: 'registration', event_type: null };
  if ((stage !== null && PUBLISHED_STAGES.has(stage)) || (changed.has('publication_date') && change.new_values.publication_date)) {
    return { type: 'publication', event_type: null };
  }
  if (changed.has('status_stage') || changed.has('status_primary') || changed.has('status_reason')) return { type: 'status_change', event_type: null };
  if (events.length > 0) return { type: 'event', event_type: events[events.length - 1] ?? null };
  if ([...changed].some((field) => MATCH_RELEVANT_FIELDS.has(field))) return { type: 'mark_change', event_type: null };
  return null;
}

/**
 * Whether a filter or similarity watch hears of this version: a new filing, or a change to what
 * decides a match or its urgency (text, classes, owner, status, publication). A mark that merely
 * gains an attorney is not news to someone watching for conflicting marks.
 */
export function isMatchRelevant(change: TrademarkChangeDoc): boolean {
  return change.change_type === 'created' || change.version === 1 || change.changed_fields.some((field) => MATCH_RELEVANT_FIELDS.has(publicFieldName(field)));
}
