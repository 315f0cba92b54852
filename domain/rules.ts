/**
 * The rule corpus (data/rules.json): deadline rules, opposition rules and the office calendars
 * they roll last days on. Rules are data: a jurisdiction is added by adding objects here, never
 * code. `loadRuleCorpus` validates the parsed JSON once at start and throws `RuleCorpusError`
 * naming the first bad path, so a malformed corpus fails loudly instead of computing wrong dates.
 */
import {
  CALENDAR_COVERAGE,
  HOLIDAY_TYPES,
  isHolidayRule,
  isKnownCalendarId,
  isWeekend,
  type BusinessCalendarSpec,
  type ExtraHoliday,
  type HolidayType,
} from './calendar';
import { isIsoDate, isTimeZone, type IsoDate } from './dates';

export const TRIGGER_FIELDS = [
  'filing_date',
  'registration_date',
  'grant_date',
  'expiry_date',
  'renewal_due_date',
  'designation_date',
  'protection_grant_date',
  'international_registration_date',
  'notice_of_allowance_date',
] as const;
export type TriggerField = (typeof TRIGGER_FIELDS)[number];

/**
 * How far a deadline moves per extension of time already granted, and how many may be granted
 * (the US statement of use: 6 months each, at most 5); the item says how many were
 * (`use_extensions_granted`).
 */
export interface DeadlineExtensions {
  months: number;
  max: number;
}

export const DEADLINE_FILING_ROUTES = ['national', 'regional', 'madrid'] as const;
export type DeadlineFilingRoute = (typeof DEADLINE_FILING_ROUTES)[number];

export const OPPOSITION_FILING_ROUTES = ['domestic', 'madrid_designation'] as const;
export type OppositionFilingRoute = (typeof OPPOSITION_FILING_ROUTES)[number];

export const OPPOSITION_TRIGGER_EVENTS = ['application_publication', 'registration_publication', 'international_designation_publication'] as const;
export type OppositionTriggerEvent = (typeof OPPOSITION_TRIGGER_EVENTS)[number];

export const WINDOW_STARTS_ON = ['date_of_publication', 'day_after'] as const;
export type WindowStartsOn = (typeof WINDOW_STARTS_ON)[number];

/**
 * Triggers that are themselves a due point (the register's expiry date): a rule counted from one
 * may fall due on it (offset 0) and open its window before it. Every other trigger is an event
 * (filing, registration, grant) that a deadline must follow.
 */
export const DUE_POINT_TRIGGERS: readonly TriggerField[] = ['expiry_date', 'renewal_due_date'];

/** Offsets beyond these bounds are data-entry errors, not law (no term runs a century). */
export const MAX_DUE_OFFSET_MONTHS = 1200;
export const MAX_DUE_OFFSET_DAYS = 31;
export const MAX_GRACE_MONTHS = 24;

export interface RuleSource {
  citation: string;
  /** Null when the citation is from own knowledge and no address was found. */
  url: string | null;
}

export interface DeadlineRuleExample {
  trigger_date: IsoDate;
  /**
   * Other input dates of the worked example, beyond the trigger (e.g. the filing date a
   * transitional rule's applicability is judged on); empty when the trigger alone suffices.
   */
  input_dates: Partial<Record<TriggerField, IsoDate>>;
  /** Extensions of time already granted in the example (rules with `extensions`); 0 when not said. */
  extensions_granted: number;
  window_opens: IsoDate | null;
  due_date: IsoDate;
  grace_expiry: IsoDate;
  notes: string | null;
}

export interface DeadlineRule {
  id: string;
  jurisdiction_code: string;
  office_code: string;
  filing_route: DeadlineFilingRoute;
  type: string;
  name: string;
  trigger_field: TriggerField;
  trigger_fallbacks: TriggerField[];
  due_offset_months: number;
  /**
   * Days added to the month offset (negative allowed): -1 where a term "beginning on" the trigger
   * ends the day before the anniversary (HK). Recurrences and window/grace count from the result.
   */
  due_offset_days: number;
  /** null: no opening restriction known (the deadline can be met any time before the due date). */
  window_opens_months_before_due: number | null;
  grace_months: number;
  recurring_every_months: number | null;
  /** null: the due date does not move by extensions the item counts. */
  extensions: DeadlineExtensions | null;
  optional: boolean;
  /**
   * A madrid rule of the international register that every Madrid designation's computation
   * includes, whatever the designated jurisdiction (the WIPO renewal keeps each designation alive).
   */
  covers_all_designations: boolean;
  consequence_if_missed: string;
  applies_to_statuses: string[];
  applicable_from_date: IsoDate | null;
  applicable_until_date: IsoDate | null;
  /**
   * Input fields (first present wins) whose date is compared with applicable_from/until_date;
   * null means the resolved trigger date (CA rules compare the registration date, MX legacy
   * rules the grant date, whatever their trigger).
   */
  applicability_fields: TriggerField[] | null;
  holiday_calendar: string | null;
  sources: RuleSource[];
  verified: boolean;
  notes: string;
  examples: DeadlineRuleExample[];
}

export interface CommonExtension {
  days: number | null;
  months: number | null;
  as_of_right: boolean;
  notes: string;
}

export interface OppositionRuleExample {
  publication_date: IsoDate;
  window_opens: IsoDate;
  window_closes: IsoDate;
  notes: string | null;
}

export interface OppositionRule {
  object: 'opposition_rule';
  jurisdiction_code: string;
  office_code: string;
  filing_route: OppositionFilingRoute;
  trigger_event: OppositionTriggerEvent;
  window_months: number | null;
  window_days: number | null;
  window_starts_offset_months: number | null;
  window_starts_on: WindowStartsOn;
  office_time_zone: string;
  holiday_calendar: string | null;
  common_extension: CommonExtension | null;
  applicable_from_date: IsoDate | null;
  sources: RuleSource[];
  verified: boolean;
  notes: string;
  examples: OppositionRuleExample[];
}

/** How an office's closed days are derived from a date-holidays calendar. */
export interface CalendarDefinition {
  /** The office's IANA zone: decides what "today" is for rules on this calendar. */
  time_zone: string;
  closed_holiday_types: HolidayType[];
  /** Holidays of a closed type during which the office is open, by their date-holidays name. */
  open_holidays: string[];
  /** Closing holidays date-holidays lacks, as date-holidays rules (`09-30 since 2021`) with a name. */
  extra_holidays: ExtraHoliday[];
  /** Closure days recurring every year, `MM-DD`. */
  extra_closed_days: string[];
  /** Weekend days the office works (China's make-up working days), `YYYY-MM-DD`. */
  extra_open_days: IsoDate[];
  /** The last year date-holidays lists all the calendar's holidays for, when before calendar coverage ends; null: through it. */
  holidays_known_through: number | null;
  notes: string;
  sources: RuleSource[];
}

export interface RuleCorpus {
  corpus_version: string;
  notes: Record<string, string>;
  /** Keyed by holiday calendar id (`US`, `DE-BY`); every id a rule names is defined here. */
  calendars: Record<string, CalendarDefinition>;
  deadline_rules: DeadlineRule[];
  opposition_rules: OppositionRule[];
}

export class RuleCorpusError extends Error {
  constructor(path: string, problem: string) {
    super(`rule corpus: ${path}: ${problem}`);
    this.name = 'RuleCorpusError';
  }
}

// ---------------------------------------------------------------------------------------------
// Code normalisation shared by the computations and the rule-list filters.
// ---------------------------------------------------------------------------------------------

/** Alternative spellings clients use for a corpus jurisdiction code. */
const JURISDICTION_ALIASES: Readonly<Record<string, string>> = { EM: 'EU', WIPO: 'WO', UK: 'GB' };
/** Alternative spellings for an ST.3 office code (lowercase legacy codes are handled by case). */
const OFFICE_ALIASES: Readonly<Record<string, string>> = { EU: 'EM', EUIPO: 'EM', WIPO: 'WO', UK: 'GB' };

export function normalizeJurisdictionCode(code: string): string {
  const upper = code.trim().toUpperCase();
  return JURISDICTION_ALIASES[upper] ?? upper;
}

export function normalizeOfficeCode(code: string): string {
  const upper = code.trim().toUpperCase();
  return OFFICE_ALIASES[upper] ?? upper;
}

const calendarSpecs = new WeakMap<RuleCorpus, Map<string, BusinessCalendarSpec>>();

/** The calendar spec for `calendar.ts`, from the corpus's definition of `id` (one object per id). */
export function calendarSpecFor(corpus: RuleCorpus, id: string): BusinessCalendarSpec {
  let specs = calendarSpecs.get(corpus);
  if (!specs) {
    specs = new Map();
    calendarSpecs.set(corpus, specs);
  }
  let spec = specs.get(id);
  if (!spec) {
    const definition = corpus.calendars[id];
    spec = definition
      ? {
          id,
          closedHolidayTypes: definition.closed_holiday_types,
          openHolidays: definition.open_holidays,
          extraHolidays: definition.extra_holidays,
          extraClosedDays: definition.extra_closed_days,
          extraOpenDays: definition.extra_open_days,
          // Absent rather than undefined where unset: the spec is compared as JSON (data/closed-days.json).
          ...(definition.holidays_known_through === null ? {} : { holidaysKnownThrough: definition.holidays_known_through }),
        }
      : { id };
    specs.set(id, spec);
  }
  return spec;
}

// ---------------------------------------------------------------------------------------------
// Validation. Each reader checks one field and returns it typed, or throws with its path.
// ---------------------------------------------------------------------------------------------

type JsonObject = Record<string, unknown>;

function objectAt(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new RuleCorpusError(path, 'must be an object');
  return value as JsonObject;
}

function arrayAt(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new RuleCorpusError(path, 'must be an array');
  return value;
}

function stringValue(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new RuleCorpusError(path, 'must be a non-empty string');
  return value;
}

function stringAt(obj: JsonObject, key: string, path: string): string {
  return stringValue(obj[key], `${path}.${key}`);
}

function optionalStringAt(obj: JsonObject, key: string, path: string): string | null {
  return obj[key] === undefined || obj[key] === null ? null : stringAt(obj, key, path);
}

function booleanAt(obj: JsonObject, key: string, path: string): boolean {
  const value = obj[key];
  if (typeof value !== 'boolean') throw new RuleCorpusError(`${path}.${key}`, 'must be a boolean');
  return value;
}

function countAt(obj: JsonObject, key: string, path: string): number {
  const value = obj[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new RuleCorpusError(`${path}.${key}`, 'must be a non-negative integer');
  }
  return value;
}

function integerAt(obj: JsonObject, key: string, path: string, bound: number): number {
  const value = obj[key] ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > bound) {
    throw new RuleCorpusError(`${path}.${key}`, `must be an integer from -${bound} to ${bound}`);
  }
  return value;
}

function optionalCountAt(obj: JsonObject, key: string, path: string): number | null {
  return obj[key] === undefined || obj[key] === null ? null : countAt(obj, key, path);
}

function positiveCountAt(obj: JsonObject, key: string, path: string): number | null {
  const value = optionalCountAt(obj, key, path);
  if (value === 0) throw new RuleCorpusError(`${path}.${key}`, 'must be positive or null');
  return value;
}

function dateAt(obj: JsonObject, key: string, path: string): IsoDate {
  const value = obj[key];
  if (!isIsoDate(value)) throw new RuleCorpusError(`${path}.${key}`, 'must be a YYYY-MM-DD date');
  return value;
}

function optionalDateAt(obj: JsonObject, key: string, path: string): IsoDate | null {
  return obj[key] === undefined || obj[key] === null ? null : dateAt(obj, key, path);
}

function enumValue<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new RuleCorpusError(path, `must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function enumAt<T extends string>(obj: JsonObject, key: string, allowed: readonly T[], path: string): T {
  return enumValue(obj[key], allowed, `${path}.${key}`);
}

function listAt<T>(obj: JsonObject, key: string, path: string, read: (item: unknown, itemPath: string) => T): T[] {
  return arrayAt(obj[key], `${path}.${key}`).map((item, index) => read(item, `${path}.${key}[${index}]`));
}

function enumListAt<T extends string>(obj: JsonObject, key: string, allowed: readonly T[], path: string): T[] {
  return listAt(obj, key, path, (item, itemPath) => enumValue(item, allowed, itemPath));
}

function stringListAt(obj: JsonObject, key: string, path: string): string[] {
  return listAt(obj, key, path, stringValue);
}

function sourcesAt(obj: JsonObject, key: string, path: string, required: boolean): RuleSource[] {
  if (!required && obj[key] === undefined) return [];
  const sources = listAt(obj, key, path, (item, itemPath) => {
    const source = objectAt(item, itemPath);
    return { citation: stringAt(source, 'citation', itemPath), url: optionalStringAt(source, 'url', itemPath) };
  });
  if (required && sources.length === 0) throw new RuleCorpusError(`${path}.${key}`, 'must cite at least one source');
  if (required && sources.every((source) => source.url === null)) throw new RuleCorpusError(`${path}.${key}`, 'must give a URL for at least one source');
  return sources;
}

function calendarIdAt(obj: JsonObject, path: string, calendars: Record<string, CalendarDefinition>): string | null {
  const id = optionalStringAt(obj, 'holiday_calendar', path);
  if (id !== null && !calendars[id]) throw new RuleCorpusError(`${path}.holiday_calendar`, `${id} is not defined under calendars`);
  return id;
}

const MONTH_DAY_PATTERN = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

function extraHolidaysAt(obj: JsonObject, path: string): ExtraHoliday[] {
  return listAt(obj, 'extra_holidays', path, (item, itemPath) => {
    const holiday = objectAt(item, itemPath);
    const rule = stringAt(holiday, 'rule', itemPath);
    if (!isHolidayRule(rule)) throw new RuleCorpusError(`${itemPath}.rule`, `date-holidays cannot read '${rule}'`);
    return { rule, name: stringAt(holiday, 'name', itemPath) };
  });
}

function knownThroughAt(obj: JsonObject, path: string): number | null {
  const year = obj['holidays_known_through'];
  if (year === undefined || year === null) return null;
  if (!Number.isInteger(year) || (year as number) < CALENDAR_COVERAGE.firstYear || (year as number) >= CALENDAR_COVERAGE.lastYear)
    throw new RuleCorpusError(
      `${path}.holidays_known_through`,
      `must be a year from ${CALENDAR_COVERAGE.firstYear} to ${CALENDAR_COVERAGE.lastYear - 1} (coverage ends ${CALENDAR_COVERAGE.lastYear} anyway)`,
    );
  return year as number;
}

function readCalendar(id: string, value: unknown): CalendarDefinition {
  const path = `calendars.${id}`;
  if (!isKnownCalendarId(id)) throw new RuleCorpusError(path, 'date-holidays does not know this calendar id');
  const obj = objectAt(value, path);
  const timeZone = stringAt(obj, 'time_zone', path);
  if (!isTimeZone(timeZone)) throw new RuleCorpusError(`${path}.time_zone`, `unknown time zone ${timeZone}`);
  const extraClosedDays = stringListAt(obj, 'extra_closed_days', path);
  for (const monthDay of extraClosedDays) {
    if (!MONTH_DAY_PATTERN.test(monthDay)) throw new RuleCorpusError(`${path}.extra_closed_days`, `${monthDay} is not MM-DD`);
  }
  const extraOpenDays = obj['extra_open_days'] === undefined ? [] : stringListAt(obj, 'extra_open_days', path);
  for (const day of extraOpenDays) {
    if (!isIsoDate(day) || !isWeekend(day)) throw new RuleCorpusError(`${path}.extra_open_days`, `${day} is not the YYYY-MM-DD of a Saturday or Sunday`);
  }
  return {
    time_zone: timeZone,
    closed_holiday_types: enumListAt(obj, 'closed_holiday_types', HOLIDAY_TYPES, path),
    open_holidays: obj['open_holidays'] === undefined ? [] : stringListAt(obj, 'open_holidays', path),
    extra_holidays: obj['extra_holidays'] === undefined ? [] : extraHolidaysAt(obj, path),
    extra_closed_days: extraClosedDays,
    extra_open_days: extraOpenDays,
    holidays_known_through: knownThroughAt(obj, path),
    notes: optionalStringAt(obj, 'notes', path) ?? '',
    sources: sourcesAt(obj, 'sources', path, false),
  };
}

function readInputDates(value: unknown, path: string): Partial<Record<TriggerField, IsoDate>> {
  if (value === undefined || value === null) return {};
  const obj = objectAt(value, path);
  const dates: Partial<Record<TriggerField, IsoDate>> = {};
  for (const key of Object.keys(obj)) dates[enumValue(key, TRIGGER_FIELDS, `${path}.${key}`)] = dateAt(obj, key, path);
  return dates;
}

function readDeadlineExample(value: unknown, path: string): DeadlineRuleExample {
  const obj = objectAt(value, path);
  return {
    trigger_date: dateAt(obj, 'trigger_date', path),
    input_dates: readInputDates(obj.input_dates, `${path}.input_dates`),
    extensions_granted: optionalCountAt(obj, 'extensions_granted', path) ?? 0,
    window_opens: optionalDateAt(obj, 'window_opens', path),
    due_date: dateAt(obj, 'due_date', path),
    grace_expiry: dateAt(obj, 'grace_expiry', path),
    notes: optionalStringAt(obj, 'notes', path),
  };
}

/**
 * Offsets no law can have: beyond the bounds above; a deadline on or before the event that
 * triggers it; a window opening before that event. Rules counted from a due point (expiry date)
 * may fall due on it and open before it.
 */
function checkOffsets(rule: DeadlineRule, path: string): void {
  if (rule.due_offset_months > MAX_DUE_OFFSET_MONTHS)
    throw new RuleCorpusError(`${path}.due_offset_months`, `impossible offset: more than ${MAX_DUE_OFFSET_MONTHS} months`);
  if (rule.grace_months > MAX_GRACE_MONTHS) throw new RuleCorpusError(`${path}.grace_months`, `impossible grace: more than ${MAX_GRACE_MONTHS} months`);
  if (rule.recurring_every_months !== null && rule.recurring_every_months > MAX_DUE_OFFSET_MONTHS) {
    throw new RuleCorpusError(`${path}.recurring_every_months`, `impossible recurrence: more than ${MAX_DUE_OFFSET_MONTHS} months`);
  }
  const triggers = [rule.trigger_field, ...rule.trigger_fallbacks];
  if (triggers.some((field) => DUE_POINT_TRIGGERS.includes(field))) return;
  if (rule.due_offset_months === 0 && rule.due_offset_days <= 0) {
    throw new RuleCorpusError(`${path}.due_offset_months`, `impossible offset: due on or before its trigger ${rule.trigger_field}`);
  }
  if (rule.window_opens_months_before_due !== null && rule.window_opens_months_before_due > rule.due_offset_months) {
    throw new RuleCorpusError(`${path}.window_opens_months_before_due`, `impossible offset: the window would open before its trigger ${rule.trigger_field}`);
  }
}

function readDeadlineRule(value: unknown, path: string, calendars: Record<string, CalendarDefinition>): DeadlineRule {
  const obj = objectAt(value, path);
  const applicabilityFields =
    obj.applicability_fields === undefined || obj.applicability_fields === null ? null : enumListAt(obj, 'applicability_fields', TRIGGER_FIELDS, path);
  const rule: DeadlineRule = {
    id: stringAt(obj, 'id', path),
    jurisdiction_code: stringAt(obj, 'jurisdiction_code', path),
    office_code: stringAt(obj, 'office_code', path),
    filing_route: enumAt(obj, 'filing_route', DEADLINE_FILING_ROUTES, path),
    type: stringAt(obj, 'type', path),
    name: stringAt(obj, 'name', path),
    trigger_field: enumAt(obj, 'trigger_field', TRIGGER_FIELDS, path),
    trigger_fallbacks: enumListAt(obj, 'trigger_fallbacks', TRIGGER_FIELDS, path),
    due_offset_months: countAt(obj, 'due_offset_months', path),
    due_offset_days: integerAt(obj, 'due_offset_days', path, MAX_DUE_OFFSET_DAYS),
    window_opens_months_before_due: optionalCountAt(obj, 'window_opens_months_before_due', path),
    grace_months: countAt(obj, 'grace_months', path),
    recurring_every_months: positiveCountAt(obj, 'recurring_every_months', path),
    extensions: readExtensions(obj.extensions, `${path}.extensions`),
    optional: booleanAt(obj, 'optional', path),
    covers_all_designations: obj.covers_all_designations === undefined ? false : booleanAt(obj, 'covers_all_designations', path),
    consequence_if_missed: stringAt(obj, 'consequence_if_missed', path),
    applies_to_statuses: stringListAt(obj, 'applies_to_statuses', path),
    applicable_from_date: optionalDateAt(obj, 'applicable_from_date', path),
    applicable_until_date: optionalDateAt(obj, 'applicable_until_date', path),
    applicability_fields: applicabilityFields,
    holiday_calendar: calendarIdAt(obj, path, calendars),
    sources: sourcesAt(obj, 'sources', path, true),
    verified: booleanAt(obj, 'verified', path),
    notes: optionalStringAt(obj, 'notes', path) ?? '',
    examples: obj.examples === undefined ? [] : listAt(obj, 'examples', path, readDeadlineExample),
  };
  checkOffsets(rule, path);
  if (rule.covers_all_designations && rule.filing_route !== 'madrid') {
    throw new RuleCorpusError(`${path}.covers_all_designations`, 'only a madrid rule can cover all designations');
  }
  if (rule.extensions !== null && rule.recurring_every_months !== null) {
    throw new RuleCorpusError(`${path}.extensions`, 'a recurring rule cannot be extended by a count of extensions');
  }
  return rule;
}

function readExtensions(value: unknown, path: string): DeadlineExtensions | null {
  if (value === null || value === undefined) return null;
  const obj = objectAt(value, path);
  const months = positiveCountAt(obj, 'months', path);
  const max = positiveCountAt(obj, 'max', path);
  if (months === null || max === null) throw new RuleCorpusError(path, 'needs months and max, both positive');
  return { months, max };
}

function readCommonExtension(value: unknown, path: string): CommonExtension | null {
  if (value === null || value === undefined) return null;
  const obj = objectAt(value, path);
  return {
    days: positiveCountAt(obj, 'days', path),
    months: positiveCountAt(obj, 'months', path),
    as_of_right: booleanAt(obj, 'as_of_right', path),
    notes: optionalStringAt(obj, 'notes', path) ?? '',
  };
}

function readOppositionExample(value: unknown, path: string): OppositionRuleExample {
  const obj = objectAt(value, path);
  return {
    publication_date: dateAt(obj, 'publication_date', path),
    window_opens: dateAt(obj, 'window_opens', path),
    window_closes: dateAt(obj, 'window_closes', path),
    notes: optionalStringAt(obj, 'notes', path),
  };
}

function readOppositionRule(value: unknown, path: string, calendars: Record<string, CalendarDefinition>): OppositionRule {
  const obj = objectAt(value, path);
  const windowMonths = positiveCountAt(obj, 'window_months', path);
  const windowDays = positiveCountAt(obj, 'window_days', path);
  if ((windowMonths === null) === (windowDays === null)) throw new RuleCorpusError(path, 'exactly one of window_months and window_days must be set');
  const timeZone = stringAt(obj, 'office_time_zone', path);
  if (!isTimeZone(timeZone)) throw new RuleCorpusError(`${path}.office_time_zone`, `unknown time zone ${timeZone}`);
  return {
    object: 'opposition_rule',
    jurisdiction_code: stringAt(obj, 'jurisdiction_code', path),
    office_code: stringAt(obj, 'office_code', path),
    filing_route: enumAt(obj, 'filing_route', OPPOSITION_FILING_ROUTES, path),
    trigger_event: enumAt(obj, 'trigger_event', OPPOSITION_TRIGGER_EVENTS, path),
    window_months: windowMonths,
    window_days: windowDays,
    window_starts_offset_months: positiveCountAt(obj, 'window_starts_offset_months', path),
    window_starts_on: enumAt(obj, 'window_starts_on', WINDOW_STARTS_ON, path),
    office_time_zone: timeZone,
    holiday_calendar: calendarIdAt(obj, path, calendars),
    common_extension: readCommonExtension(obj.common_extension, `${path}.common_extension`),
    applicable_from_date: optionalDateAt(obj, 'applicable_from_date', path),
    sources: sourcesAt(obj, 'sources', path, true),
    verified: booleanAt(obj, 'verified', path),
    notes: optionalStringAt(obj, 'notes', path) ?? '',
    examples: obj.examples === undefined ? [] : listAt(obj, 'examples', path, readOppositionExample),
  };
}

function requireUnique(keys: string[], path: string): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) throw new RuleCorpusError(path, `duplicate rule ${key}`);
    seen.add(key);
  }
}

export function oppositionRuleKey(rule: Pick<OppositionRule, 'office_code' | 'filing_route' | 'trigger_event'>): string {
  return `${rule.office_code}|${rule.filing_route}|${rule.trigger_event}`;
}

/** Validates parsed rules.json and returns it typed; throws RuleCorpusError on the first problem. */
export function loadRuleCorpus(json: unknown): RuleCorpus {
  const root = objectAt(json, '$');
  const notesObject = objectAt(root.notes ?? {}, 'notes');
  const notes: Record<string, string> = {};
  for (const key of Object.keys(notesObject)) notes[key] = stringAt(notesObject, key, 'notes');

  const calendarsObject = objectAt(root.calendars ?? {}, 'calendars');
  const calendars: Record<string, CalendarDefinition> = {};
  for (const id of Object.keys(calendarsObject)) calendars[id] = readCalendar(id, calendarsObject[id]);

  const deadlineRules = arrayAt(root.deadline_rules, 'deadline_rules').map((rule, index) => readDeadlineRule(rule, `deadline_rules[${index}]`, calendars));
  const oppositionRules = arrayAt(root.opposition_rules, 'opposition_rules').map((rule, index) =>
    readOppositionRule(rule, `opposition_rules[${index}]`, calendars),
  );
  requireUnique(
    deadlineRules.map((rule) => rule.id),
    'deadline_rules',
  );
  requireUnique(oppositionRules.map(oppositionRuleKey), 'opposition_rules');

  return {
    corpus_version: stringAt(root, 'corpus_version', '$'),
    notes,
    calendars,
    deadline_rules: deadlineRules,
    opposition_rules: oppositionRules,
  };
}
