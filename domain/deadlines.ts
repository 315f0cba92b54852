/**
 * Maintenance deadlines (declarations of use, renewals, optional filings) for one mark, from the
 * rule corpus, relative to an as-of date. Pure: the corpus is passed in, nothing is read here.
 *
 * Conventions (rules.json `notes`): the n-th occurrence of a rule is due at trigger +
 * due_offset_months + (n-1) * recurring_every_months, clamped to the month's end, plus
 * due_offset_days (a negative offset counts back from the 1st of the next month instead of a
 * clamped day: see anniversaryOf); window_opens and
 * grace_expiry are counted from that NOMINAL due date; only last days (due date, grace expiry)
 * roll forward to a business day of the rule's calendar, and the reported `due_date` and
 * `grace_expiry` are those rolled last days.
 *
 * A Madrid designation (filing_route madrid) gets the designated jurisdiction's own madrid rules
 * (US §71, PH declarations of actual use) plus every rule marked covers_all_designations (the
 * international renewal at WIPO): all data, no jurisdiction is named here.
 */
import { rollLastDay, type BusinessCalendarSpec } from './calendar';
import { addDays, addMonths, daysBetween, todayInTimeZone, type IsoDate } from './dates';
import {
  calendarSpecFor,
  normalizeJurisdictionCode,
  type DeadlineFilingRoute,
  type DeadlineRule,
  type RuleCorpus,
  TRIGGER_FIELDS,
  type TriggerField,
} from './rules';

/**
 * A deadline whose due date is at most this many days after the as-of date has status
 * `due_soon` (once its window is open) and urgency `upcoming` or `critical`: about a quarter, the
 * usual lead time a docketing team wants to instruct a client and collect use evidence.
 */
export const DUE_SOON_DAYS = 90;

/**
 * A deadline due within this many days has urgency `critical`; a deadline past its due date whose
 * grace period ends within this many days has urgency `overdue`: a month is the least time in
 * which a filing with evidence can still be prepared safely.
 */
export const CRITICAL_DAYS = 30;

/** Statuses of a mark that is gone: no maintenance deadline applies any more. */
export const DEAD_STATUSES: readonly string[] = ['abandoned', 'withdrawn', 'surrendered', 'refused', 'cancelled', 'invalidated', 'expired'];

/**
 * Stages of a registration still in force, matched as `registered` against a rule's
 * applies_to_statuses (one place, so no rule has to list them). pending_cancellation is a
 * registration under a cancellation, revocation or invalidity action (USPTO status 790): it stays
 * on the register until a decision removes it, and an unrenewed or undeclared registration lapses
 * whatever the action's outcome, so its maintenance deadlines keep running. Not the other live
 * stages: opposition_period and pending_opposition are an application opposed before it
 * registers (the USPTO codes and the simulated lifecycles both oppose applications), allowed and
 * pending_issuance are not yet on the register (the corpus lists them as pre-registration stages,
 * see the Philippine 3-year declaration). unknown is read from the item's dates (statusForRules).
 */
const REGISTRATION_IN_FORCE_STAGES: ReadonlySet<string> = new Set(['pending_cancellation']);

function appliesToStatus(rule: DeadlineRule, status: string): boolean {
  if (rule.applies_to_statuses.includes(status)) return true;
  return REGISTRATION_IN_FORCE_STAGES.has(status) && rule.applies_to_statuses.includes('registered');
}

/** Dates only a registration carries: any of them on an item of unknown status reads it as registered. */
const REGISTRATION_DATES: readonly TriggerField[] = TRIGGER_FIELDS.filter((field) => field !== 'filing_date' && field !== 'notice_of_allowance_date');

/**
 * The status the rules are matched against. `unknown` (an office code we do not map, or a client
 * that does not know) is not evidence that the mark is dead, and an empty answer would read as
 * "nothing due" to a docketing tool: it is read from the dates given, as registered when the item
 * has a date only a registration has, as filed otherwise. Missing a deadline costs a right;
 * a deadline listed for a mark that turns out dead costs a look.
 */
function statusForRules(input: DeadlineInput): string {
  const status = input.status ?? 'registered';
  if (status !== 'unknown') return status;
  return REGISTRATION_DATES.some((field) => input[field]) ? 'registered' : 'filed';
}

export type DeadlineStatus = 'future' | 'window_open' | 'due_soon' | 'in_grace' | 'missed';
export type DeadlineUrgency = 'critical' | 'upcoming' | 'routine' | 'overdue' | 'in_grace' | 'missed';

export type DeadlineInputDates = Partial<Record<TriggerField, IsoDate | null>>;

export interface DeadlineInput extends DeadlineInputDates {
  /** Jurisdiction code, any case; aliases EM, WIPO and UK are accepted. */
  jurisdiction: string;
  /**
   * Default national: the jurisdiction's own register, which regional means too (national rules,
   * or regional ones for EU, the international register's madrid rules for WO); see resolveRoute.
   */
  filing_route?: DeadlineFilingRoute | null;
  /** Mark status (deadline-compute status values); default `registered`. */
  status?: string | null;
  /** Extensions of time already granted for a rule with `extensions` (the US statement of use); default 0. */
  use_extensions_granted?: number | null;
  /** Filings already made (or accepted) that meet deadlines of their type: see metBy. */
  maintenance_filings?: readonly MaintenanceFiling[] | null;
}

/** A renewal, declaration or other maintenance filing on record, of a deadline type of the corpus. */
export interface MaintenanceFiling {
  type: string;
  filed_date: IsoDate;
}

export interface DeadlineOptions {
  /** Default: today in the time zone of the jurisdiction's office (its calendar's zone). */
  asOfDate?: IsoDate;
  /** The instant "today" is taken from when asOfDate is absent; default the current time. */
  now?: Date;
  /** Only occurrences due within this many years after the as-of date are listed. */
  horizonYears: number;
  includeOptional: boolean;
  /** Include deadlines whose grace period has ended (for a recurring rule, only the latest). */
  includeMissed: boolean;
}

export interface ComputedDeadline {
  type: string;
  name: string;
  jurisdiction_code: string;
  trigger_date: IsoDate;
  trigger_field: TriggerField;
  window_opens: IsoDate | null;
  due_date: IsoDate;
  grace_expiry: IsoDate;
  status: DeadlineStatus;
  days_until_due: number;
  days_until_grace_expiry: number;
  urgency: DeadlineUrgency;
  consequence_if_missed: string;
  recurring: boolean;
  optional: boolean;
  /** Its due date or grace expiry rests on holiday data not known to be complete (calendar.ts RollResult.covered), or its roll was skipped. */
  approximate: boolean;
}

export interface DeadlineComputation {
  object: 'deadline_computation';
  jurisdiction_code: string;
  filing_route: DeadlineFilingRoute;
  supported: boolean;
  unsupported_reason: 'unsupported_jurisdiction' | null;
  deadlines: ComputedDeadline[];
  /**
   * The dates rules of this item count from that it lacks (each rule's trigger field, when neither
   * it nor a fallback is given): an empty `deadlines` then means "not computable", not "none due".
   */
  missing_trigger_fields: TriggerField[];
}

/** The nominal (un-rolled) dates of the n-th occurrence (n >= 1) of a rule for a trigger date. */
export interface NominalOccurrence {
  window_opens: IsoDate | null;
  due_date: IsoDate;
  grace_expiry: IsoDate;
}

/**
 * The date `months` after the trigger. A day the target month lacks (29 February in a common
 * year, the 31st of a 30-day month) is clamped to the month's last day, the corpus convention for
 * a term that ends ON its anniversary. A negative `dueOffsetDays` marks a term "beginning on" the
 * trigger that ends the day before its anniversary (HK, TW): such a term with no corresponding
 * day ends on the last day of that month (Taiwan Civil Code art. 121(2)), so its anniversary is
 * the 1st of the next month. Clamping first would count the offset back from the last day itself
 * and end a term begun on 29 February one day early (27 instead of 28 February).
 */
function anniversaryOf(triggerDate: IsoDate, months: number, dueOffsetDays: number): IsoDate {
  const clamped = addMonths(triggerDate, months);
  // addMonths changes the day of the month only when it clamps a missing one.
  const dayMissing = clamped.slice(8) !== triggerDate.slice(8);
  return dueOffsetDays < 0 && dayMissing ? addDays(clamped, 1) : clamped;
}

export function nominalOccurrence(rule: DeadlineRule, triggerDate: IsoDate, occurrence: number, extensionsGranted = 0): NominalOccurrence {
  const extended = rule.extensions === null ? 0 : Math.min(extensionsGranted, rule.extensions.max) * rule.extensions.months;
  const months = rule.due_offset_months + extended + (occurrence - 1) * (rule.recurring_every_months ?? 0);
  const anniversary = anniversaryOf(triggerDate, months, rule.due_offset_days);
  const dueDate = rule.due_offset_days === 0 ? anniversary : addDays(anniversary, rule.due_offset_days);
  return {
    window_opens: rule.window_opens_months_before_due === null ? null : addMonths(dueDate, -rule.window_opens_months_before_due),
    due_date: dueDate,
    grace_expiry: addMonths(dueDate, rule.grace_months),
  };
}

/** A rule with what every computation of it looks up, resolved once per corpus. */
interface PreparedRule {
  rule: DeadlineRule;
  /** The trigger field, then its fallbacks. */
  triggerFields: readonly TriggerField[];
  calendar: BusinessCalendarSpec | null;
}

interface JurisdictionRules {
  rules: DeadlineRule[];
  timeZone: string;
  routes: Set<DeadlineFilingRoute>;
  /** The rules of one computation per route, filled on first use (see rulesFor). */
  byRoute: Map<DeadlineFilingRoute, readonly PreparedRule[]>;
}

interface CorpusIndex {
  byJurisdiction: Map<string, JurisdictionRules>;
  /** Rules every Madrid designation gets (covers_all_designations), in corpus order. */
  designationWide: DeadlineRule[];
  prepared: Map<DeadlineRule, PreparedRule>;
}

/** Rules grouped by jurisdiction and route, built once per corpus object. */
const corpusIndexes = new WeakMap<RuleCorpus, CorpusIndex>();

function corpusIndex(corpus: RuleCorpus): CorpusIndex {
  let index = corpusIndexes.get(corpus);
  if (!index) {
    const prepared = new Map(
      corpus.deadline_rules.map((rule) => [
        rule,
        {
          rule,
          triggerFields: [rule.trigger_field, ...rule.trigger_fallbacks],
          calendar: rule.holiday_calendar === null ? null : calendarSpecFor(corpus, rule.holiday_calendar),
        },
      ]),
    );
    index = { byJurisdiction: new Map(), designationWide: corpus.deadline_rules.filter((rule) => rule.covers_all_designations), prepared };
    for (const rule of corpus.deadline_rules) {
      const code = normalizeJurisdictionCode(rule.jurisdiction_code);
      const entry: JurisdictionRules = index.byJurisdiction.get(code) ?? {
        rules: [],
        timeZone: officeTimeZone(corpus, rule),
        routes: new Set(),
        byRoute: new Map(),
      };
      entry.rules.push(rule);
      entry.routes.add(rule.filing_route);
      index.byJurisdiction.set(code, entry);
    }
    corpusIndexes.set(corpus, index);
  }
  return index;
}

/** The rules of one computation: the jurisdiction's rules on the route, plus the designation-wide ones. */
function rulesFor(index: CorpusIndex, entry: JurisdictionRules, route: DeadlineFilingRoute): readonly PreparedRule[] {
  let rules = entry.byRoute.get(route);
  if (!rules) {
    const own = entry.rules.filter((rule) => rule.filing_route === route);
    const all = route === 'madrid' ? [...own, ...index.designationWide.filter((rule) => !own.includes(rule))] : own;
    rules = all.map((rule) => index.prepared.get(rule)!);
    entry.byRoute.set(route, rules);
  }
  return rules;
}

function officeTimeZone(corpus: RuleCorpus, rule: DeadlineRule): string {
  const calendarZone = rule.holiday_calendar === null ? undefined : corpus.calendars[rule.holiday_calendar]?.time_zone;
  const oppositionZone = corpus.opposition_rules.find((o) => o.jurisdiction_code === rule.jurisdiction_code)?.office_time_zone;
  return calendarZone ?? oppositionZone ?? 'UTC';
}

/**
 * The route of the jurisdiction's own register. National and regional both mean that register
 * (the contract's default is national): a jurisdiction has rules for one of them (EU is
 * regional), so either picks those. WO's own register is the international register, whose rules
 * are the madrid ones every designation shares (covers_all_designations), so a WO item reads
 * those whatever its route; otherwise a national WO item would get no renewal at all. A
 * jurisdiction with designation rules alone has no own register: null.
 */
function ownRegisterRoute(entry: JurisdictionRules): DeadlineFilingRoute | null {
  if (entry.routes.has('national')) return 'national';
  if (entry.routes.has('regional')) return 'regional';
  return entry.rules.some((rule) => rule.covers_all_designations) ? 'madrid' : null;
}

/** The route whose rules are used, which the computation reports as its filing_route. */
function resolveRoute(entry: JurisdictionRules, requested: DeadlineFilingRoute | null | undefined): DeadlineFilingRoute {
  if (requested === 'madrid') return 'madrid';
  return ownRegisterRoute(entry) ?? requested ?? 'national';
}

function firstPresent(input: DeadlineInputDates, fields: readonly TriggerField[]): { field: TriggerField; date: IsoDate } | null {
  for (const field of fields) {
    const date = input[field];
    if (date) return { field, date };
  }
  return null;
}

function isApplicable(rule: DeadlineRule, input: DeadlineInputDates, triggerDate: IsoDate): boolean {
  if (rule.applicable_from_date === null && rule.applicable_until_date === null) return true;
  const comparisonDate = rule.applicability_fields === null ? triggerDate : firstPresent(input, rule.applicability_fields)?.date;
  if (comparisonDate === undefined) return false;
  if (rule.applicable_from_date !== null && comparisonDate < rule.applicable_from_date) return false;
  return rule.applicable_until_date === null || comparisonDate <= rule.applicable_until_date;
}

function statusOf(asOf: IsoDate, windowOpens: IsoDate | null, dueDate: IsoDate, graceExpiry: IsoDate, daysUntilDue: number): DeadlineStatus {
  if (asOf > graceExpiry) return 'missed';
  if (asOf > dueDate) return 'in_grace';
  if (windowOpens !== null && asOf < windowOpens) return 'future';
  return daysUntilDue <= DUE_SOON_DAYS ? 'due_soon' : 'window_open';
}

function urgencyOf(status: DeadlineStatus, daysUntilDue: number, daysUntilGraceExpiry: number): DeadlineUrgency {
  if (status === 'missed') return 'missed';
  if (status === 'in_grace') return daysUntilGraceExpiry <= CRITICAL_DAYS ? 'overdue' : 'in_grace';
  if (daysUntilDue <= CRITICAL_DAYS) return 'critical';
  return daysUntilDue <= DUE_SOON_DAYS ? 'upcoming' : 'routine';
}

/**
 * Whether a filing on record meets an occurrence: one of its type dated from the occurrence's
 * window opening and, for a recurring rule, before the next occurrence's window opens (for a rule
 * without a window: after the previous occurrence's grace period, or from the trigger for the
 * first, to the last day of its own). A filing is never earlier than its window (offices refuse
 * premature ones), but its acceptance may come after the grace period, which is why the next
 * window, not the grace expiry, bounds it. A deadline met is not listed, so a docketing tool does
 * not docket a renewal the office has recorded.
 */
function metBy(filedDates: readonly IsoDate[], opens: IsoDate, closes: IsoDate | null): boolean {
  return filedDates.some((date) => date >= opens && (closes === null || date < closes));
}

const NO_FILINGS: readonly IsoDate[] = [];

const filedDatesOf = (filings: readonly MaintenanceFiling[], type: string): IsoDate[] =>
  filings.filter((filing) => filing.type === type).map((filing) => filing.filed_date);

/** Guards against a pathological corpus entry; 100 occurrences of a 10-year rule span 1,000 years. */
const MAX_OCCURRENCES = 100;

function deadlinesForRule(
  { rule, calendar }: PreparedRule,
  trigger: { field: TriggerField; date: IsoDate },
  asOf: IsoDate,
  horizonEnd: IsoDate,
  includeMissed: boolean,
  extensionsGranted: number,
  filedDates: readonly IsoDate[],
): ComputedDeadline[] {
  const recurring = rule.recurring_every_months !== null;
  const live: ComputedDeadline[] = [];
  let latestMissed: ComputedDeadline | null = null;
  let previousGrace: IsoDate | null = null;
  for (let occurrence = 1; occurrence <= (recurring ? MAX_OCCURRENCES : 1); occurrence += 1) {
    const nominal = nominalOccurrence(rule, trigger.date, occurrence, extensionsGranted);
    if (nominal.due_date > horizonEnd) break;
    const due = rollLastDay(nominal.due_date, calendar, asOf);
    const grace = rollLastDay(nominal.grace_expiry, calendar, asOf);
    if (filedDates.length > 0) {
      const opens = nominal.window_opens ?? (previousGrace === null ? trigger.date : addDays(previousGrace, 1));
      previousGrace = grace.date;
      // The next occurrence opens at its window, or without one the day after this one's grace ends.
      const closes = recurring ? (nominalOccurrence(rule, trigger.date, occurrence + 1, extensionsGranted).window_opens ?? addDays(grace.date, 1)) : null;
      if (metBy(filedDates, opens, closes)) continue;
    }
    const [dueDate, graceExpiry] = [due.date, grace.date];
    const daysUntilDue = daysBetween(asOf, dueDate);
    const daysUntilGraceExpiry = daysBetween(asOf, graceExpiry);
    const status = statusOf(asOf, nominal.window_opens, dueDate, graceExpiry, daysUntilDue);
    const deadline: ComputedDeadline = {
      type: rule.type,
      name: rule.name,
      jurisdiction_code: rule.jurisdiction_code,
      trigger_date: trigger.date,
      trigger_field: trigger.field,
      window_opens: nominal.window_opens,
      due_date: dueDate,
      grace_expiry: graceExpiry,
      status,
      days_until_due: daysUntilDue,
      days_until_grace_expiry: daysUntilGraceExpiry,
      urgency: urgencyOf(status, daysUntilDue, daysUntilGraceExpiry),
      consequence_if_missed: rule.consequence_if_missed,
      recurring,
      optional: rule.optional,
      approximate: !due.covered || !grace.covered,
    };
    if (status === 'missed') latestMissed = deadline;
    else live.push(deadline);
  }
  return includeMissed && latestMissed !== null ? [latestMissed, ...live] : live;
}

function byDueDate(a: ComputedDeadline, b: ComputedDeadline): number {
  return a.due_date < b.due_date ? -1 : a.due_date > b.due_date ? 1 : 0;
}

interface AsOfDates {
  asOf: IsoDate;
  horizonEnd: IsoDate;
}

/** The as-of date and horizon end per office time zone, worked out once per batch. */
function asOfDates(options: DeadlineOptions): (timeZone: string) => AsOfDates {
  const byZone = new Map<string, AsOfDates>();
  return (timeZone) => {
    let dates = byZone.get(timeZone);
    if (!dates) {
      const asOf = options.asOfDate ?? todayInTimeZone(timeZone, options.now);
      dates = { asOf, horizonEnd: addMonths(asOf, 12 * options.horizonYears) };
      byZone.set(timeZone, dates);
    }
    return dates;
  };
}

export function computeDeadlines(
  corpus: RuleCorpus,
  input: DeadlineInput,
  options: DeadlineOptions,
  datesIn: (timeZone: string) => AsOfDates = asOfDates(options),
): DeadlineComputation {
  const jurisdictionCode = normalizeJurisdictionCode(input.jurisdiction);
  const index = corpusIndex(corpus);
  const entry = index.byJurisdiction.get(jurisdictionCode);
  if (!entry) {
    return {
      object: 'deadline_computation',
      jurisdiction_code: jurisdictionCode,
      filing_route: input.filing_route ?? 'national',
      supported: false,
      unsupported_reason: 'unsupported_jurisdiction',
      deadlines: [],
      missing_trigger_fields: [],
    };
  }
  const route = resolveRoute(entry, input.filing_route);
  const computation: DeadlineComputation = {
    object: 'deadline_computation',
    jurisdiction_code: jurisdictionCode,
    filing_route: route,
    supported: true,
    unsupported_reason: null,
    deadlines: [],
    missing_trigger_fields: [],
  };
  const status = statusForRules(input);
  if (DEAD_STATUSES.includes(status)) return computation;

  const { asOf, horizonEnd } = datesIn(entry.timeZone);
  for (const prepared of rulesFor(index, entry, route)) {
    const { rule } = prepared;
    if (!appliesToStatus(rule, status)) continue;
    if (rule.optional && !options.includeOptional) continue;
    const trigger = firstPresent(input, prepared.triggerFields);
    if (trigger === null) {
      if (!computation.missing_trigger_fields.includes(rule.trigger_field)) computation.missing_trigger_fields.push(rule.trigger_field);
      continue;
    }
    if (!isApplicable(rule, input, trigger.date)) continue;
    const filedDates = input.maintenance_filings?.length ? filedDatesOf(input.maintenance_filings, rule.type) : NO_FILINGS;
    computation.deadlines.push(...deadlinesForRule(prepared, trigger, asOf, horizonEnd, options.includeMissed, input.use_extensions_granted ?? 0, filedDates));
  }
  computation.deadlines.sort(byDueDate);
  return computation;
}

/** One computation per item, in input order (the POST /v1/deadlines/compute body). */
export function computeDeadlinesBatch(corpus: RuleCorpus, items: readonly DeadlineInput[], options: DeadlineOptions): DeadlineComputation[] {
  const datesIn = asOfDates(options);
  return items.map((item) => computeDeadlines(corpus, item, options, datesIn));
}
