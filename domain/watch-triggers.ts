/**
 * What a new version of a trademark record means to someone watching it: the trigger of an
 * alert, read from the version's change record (changed_fields with old and new values).
 *
 * One version gives at most one alert per watch, so a version that does several things is named
 * by the most consequential: an opposition or a cancellation needs action now, a registration or
 * a publication opens deadlines, other status moves and events are for the record.
 */
import { daysBetween } from './dates';
import type { AlertTriggerType, TrademarkChangeDoc, TrademarkDoc } from './records';
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
 * How many days after its filing (or designation) a mark the service sees for the first time is
 * still a new filing: offices publish new applications within days to a few months.
 */
export const NEW_FILING_DAYS = 180;

/**
 * The trigger of a first version, `mark` as it left it. Loading an office's back file makes first
 * versions of marks filed decades ago, many of them dead: those are not news. A live mark filed
 * within NEW_FILING_DAYS of the day the service saw it is a `new_filing`; an older one whose
 * opposition period may be running is a `publication` (the window is what a watcher acts on);
 * any other is no alert (a search or a watch preview finds it).
 */
function classifyFirstVersion(change: TrademarkChangeDoc, mark: TrademarkDoc): ClassifiedTrigger | null {
  if (mark.status.primary === 'inactive') return null;
  const seen = change.source_data_date ?? change.created_at.slice(0, 10);
  const filed = [mark.filing_date, mark.designation_date]
    .filter((date): date is string => date !== null)
    .sort()
    .pop();
  if (filed !== undefined && daysBetween(filed, seen) <= NEW_FILING_DAYS) return { type: 'new_filing', event_type: null };
  return PUBLISHED_STAGES.has(mark.status.stage) ? { type: 'publication', event_type: null } : null;
}

/**
 * The trigger of a version, `mark` as that version left it: for a first version see
 * classifyFirstVersion; otherwise the most consequential of what changed; null when nothing a
 * watcher is told about changed (e.g. only an attorney).
 */
export function classifyChange(change: TrademarkChangeDoc, mark: TrademarkDoc): ClassifiedTrigger | null {
  if (change.change_type === 'created' || change.version === 1) return classifyFirstVersion(change, mark);
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
