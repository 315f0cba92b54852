/**
 * Opposition windows: when third parties can oppose a published mark, from the opposition rule
 * keyed by office + filing route + trigger event. Pure: the corpus is passed in.
 *
 * Arithmetic (rules.json `notes.opposition_arithmetic`): start = publication (+ offset months);
 * the window opens on the start or the day after; it closes at publication + offset + window
 * months (clamped) or publication + window days. A common extension in months counts from the
 * publication (total period); one in days is added to the nominal close. Only closes roll.
 *
 * Which rule a mark's window runs from (trademark detail, watch diagnostics, alerts) is
 * `oppositionTriggerFor`; the compute endpoint is given the key. Both end in `computeOppositionWindow`.
 */
import { rollLastDay, type LastDay } from './calendar';
import { addDays, addMonths, daysBetween, todayInTimeZone, type IsoDate } from './dates';
import {
  calendarSpecFor,
  normalizeJurisdictionCode,
  normalizeOfficeCode,
  oppositionRuleKey,
  type CommonExtension,
  type OppositionFilingRoute,
  type OppositionRule,
  type OppositionTriggerEvent,
  type RuleCorpus,
  type RuleSource,
  type WindowStartsOn,
} from './rules';

export interface OppositionWindowInput {
  /** ST.3 office code, any case (legacy lowercase codes and EU/WIPO/UK are accepted). */
  office_code: string;
  filing_route: OppositionFilingRoute;
  trigger_event: OppositionTriggerEvent;
  publication_date: IsoDate;
  /** Default: today in the office's time zone (UTC when no rule matches). */
  as_of_date?: IsoDate | null;
}

export type OppositionWindowStatus = 'not_started' | 'open' | 'closed' | 'no_rule';
export type NoRuleReason = 'no_matching_rule' | 'before_applicable_from_date';

export interface OppositionWindow {
  object: 'opposition_window';
  office_code: string;
  /** Null only when no rule matches the office. */
  jurisdiction_code: string | null;
  filing_route: OppositionFilingRoute;
  trigger_event: OppositionTriggerEvent;
  publication_date: IsoDate;
  as_of_date: IsoDate;
  status: OppositionWindowStatus;
  /** Why status is `no_rule`; null otherwise. */
  no_rule_reason: NoRuleReason | null;
  /** First day a notice of opposition can be filed. */
  window_opens: IsoDate | null;
  /** Last day to file without an extension: the nominal close rolled to a business day. */
  window_closes: IsoDate | null;
  /** The close the period arithmetic gives, before the business-day roll. */
  window_closes_nominal: IsoDate | null;
  /** Last day with the rule's common extension (rolled); null when the rule has no fixed one. */
  extended_window_closes: IsoDate | null;
  extended_window_closes_nominal: IsoDate | null;
  /** Days from as_of_date to window_closes; negative once closed; null without a rule. */
  days_remaining: number | null;
  /** The date to docket: window_closes (a real date even for long-closed windows). */
  must_act_by: IsoDate | null;
  /**
   * True when a close date lies outside holiday-calendar coverage or the rule has no calendar,
   * so the business-day roll could not be checked (or was skipped for a long-closed window).
   */
  approximate: boolean;
  window_months: number | null;
  window_days: number | null;
  window_starts_offset_months: number | null;
  window_starts_on: WindowStartsOn | null;
  office_time_zone: string | null;
  holiday_calendar: string | null;
  common_extension: CommonExtension | null;
  applicable_from_date: IsoDate | null;
  verified: boolean | null;
  sources: RuleSource[];
}

/** The public opposition rule (GET /v1/opposition-rules): the corpus rule without its examples. */
export type PublicOppositionRule = Omit<OppositionRule, 'examples'>;

export interface OppositionRuleFilters {
  jurisdictions?: readonly string[];
  /** Office codes, any case. */
  offices?: readonly string[];
  filing_routes?: readonly OppositionFilingRoute[];
  trigger_events?: readonly OppositionTriggerEvent[];
}

const ruleIndexes = new WeakMap<RuleCorpus, Map<string, OppositionRule>>();

export function findOppositionRule(
  corpus: RuleCorpus,
  officeCode: string,
  filingRoute: OppositionFilingRoute,
  triggerEvent: OppositionTriggerEvent,
): OppositionRule | null {
  let index = ruleIndexes.get(corpus);
  if (!index) {
    index = new Map(corpus.opposition_rules.map((rule) => [oppositionRuleKey(rule), rule]));
    ruleIndexes.set(corpus, index);
  }
  return index.get(oppositionRuleKey({ office_code: normalizeOfficeCode(officeCode), filing_route: filingRoute, trigger_event: triggerEvent })) ?? null;
}

/** True when `rule` governs a trigger publication of `date` (`applicable_from_date` inclusive; null: always). */
export function oppositionRuleApplies(rule: OppositionRule, date: IsoDate): boolean {
  return rule.applicable_from_date === null || date >= rule.applicable_from_date;
}

/** What the choice of a mark's opposition rule reads from the mark. */
export interface MarkOppositionFacts {
  /** ST.3 office code, any case. */
  office_code: string;
  filing_route: OppositionFilingRoute;
  /** The record's publication date: its first publication (before registration where the office publishes applications). */
  publication_date: IsoDate | null;
  registration_date: IsoDate | null;
}

/** The rule key and trigger date chosen for a mark: the input of `computeOppositionWindow`. */
export interface MarkOppositionTrigger {
  filing_route: OppositionFilingRoute;
  trigger_event: OppositionTriggerEvent;
  /** The date of the trigger publication; null when that publication has not happened (not published). */
  publication_date: IsoDate | null;
  /**
   * True when the record holds no publication of the registration and its registration_date
   * stands in for it (a registration_publication rule): the office gazettes a registration on
   * or after the day it registers it, so the real window starts no earlier than the one computed.
   */
  estimated: boolean;
}

/**
 * Latest event first: a registered mark is opposed (where the office has such a rule) from the
 * publication of its registration; before that, from the publication of the application or, for
 * a Madrid designation, of the designation.
 */
const TRIGGERS_LATEST_FIRST: readonly OppositionTriggerEvent[] = [
  'registration_publication',
  'international_designation_publication',
  'application_publication',
];

/** The trigger reported for an office without any rule for the route (status no_rule). */
const DEFAULT_TRIGGER: Record<OppositionFilingRoute, OppositionTriggerEvent> = {
  domestic: 'application_publication',
  madrid_designation: 'international_designation_publication',
};

function triggerDateOf(event: OppositionTriggerEvent, mark: MarkOppositionFacts): { date: IsoDate | null; estimated: boolean } {
  if (event !== 'registration_publication') return { date: mark.publication_date, estimated: false };
  const registered = mark.registration_date;
  if (registered === null) return { date: null, estimated: false };
  // A publication on or after the registration is the registration's publication (offices that
  // publish only registrations: DE, CH, TW); an earlier one is the application's (JP publishes
  // both, and the record keeps the first), so the registration date stands in.
  if (mark.publication_date !== null && mark.publication_date >= registered) return { date: mark.publication_date, estimated: false };
  return { date: registered, estimated: true };
}

/**
 * The opposition rule a mark's window runs from, chosen among the office's rules for the mark's
 * route (rules are keyed by office + filing_route + trigger_event; see TRIGGERS_LATEST_FIRST):
 *
 * 1. the latest trigger event that has happened and whose rule applies to its date
 *    (`applicable_from_date`): an office with only a registration_publication rule (JP, CH, DE,
 *    TW; JP for Madrid designations too) gets it once the mark is registered; an office with only
 *    an application_publication (or international_designation_publication) rule gets it once
 *    the mark is published; an office with both gets the registration's rule for a registered
 *    mark, and the application's before registration or when the registration's rule does not
 *    yet apply;
 * 2. else the latest event that has happened (its rule does not apply: no_rule,
 *    before_applicable_from_date);
 * 3. else the office's earliest event, not yet happened (not published);
 * 4. an office without a rule for the route: application_publication (Madrid:
 *    international_designation_publication) from the publication date, status no_rule.
 *
 * Trademark detail, watch diagnostics and alerts choose through this; POST
 * /v1/opposition-windows/compute is given the key and the date, and both end in
 * `computeOppositionWindow`, so detail equals compute for the returned key and date.
 */
export function oppositionTriggerFor(corpus: RuleCorpus, mark: MarkOppositionFacts): MarkOppositionTrigger {
  const route = mark.filing_route;
  let happened: MarkOppositionTrigger | null = null;
  let earliest: OppositionTriggerEvent | null = null;
  for (const event of TRIGGERS_LATEST_FIRST) {
    const rule = findOppositionRule(corpus, mark.office_code, route, event);
    if (rule === null) continue;
    earliest = event;
    const { date, estimated } = triggerDateOf(event, mark);
    if (date === null) continue;
    const trigger = { filing_route: route, trigger_event: event, publication_date: date, estimated };
    if (oppositionRuleApplies(rule, date)) return trigger;
    happened ??= trigger;
  }
  if (happened !== null) return happened;
  if (earliest !== null) return { filing_route: route, trigger_event: earliest, publication_date: null, estimated: false };
  return { filing_route: route, trigger_event: DEFAULT_TRIGGER[route], publication_date: mark.publication_date, estimated: false };
}

/** The nominal (un-rolled) window of a rule for a publication date. */
export interface NominalOppositionWindow {
  window_opens: IsoDate;
  window_closes: IsoDate;
  extended_window_closes: IsoDate | null;
}

export function nominalOppositionWindow(rule: OppositionRule, publicationDate: IsoDate): NominalOppositionWindow {
  const offsetMonths = rule.window_starts_offset_months ?? 0;
  const start = addMonths(publicationDate, offsetMonths);
  const windowCloses =
    rule.window_months !== null ? addMonths(publicationDate, offsetMonths + rule.window_months) : addDays(publicationDate, rule.window_days ?? 0);
  const extension = rule.common_extension;
  const extendedCloses =
    extension?.months != null
      ? rule.window_months !== null
        ? addMonths(publicationDate, offsetMonths + rule.window_months + extension.months)
        : addMonths(windowCloses, extension.months)
      : extension?.days != null
        ? addDays(windowCloses, extension.days)
        : null;
  return {
    window_opens: rule.window_starts_on === 'day_after' ? addDays(start, 1) : start,
    window_closes: windowCloses,
    extended_window_closes: extendedCloses,
  };
}

function ruleFields(rule: OppositionRule | null) {
  return {
    window_months: rule?.window_months ?? null,
    window_days: rule?.window_days ?? null,
    window_starts_offset_months: rule?.window_starts_offset_months ?? null,
    window_starts_on: rule?.window_starts_on ?? null,
    office_time_zone: rule?.office_time_zone ?? null,
    holiday_calendar: rule?.holiday_calendar ?? null,
    common_extension: rule?.common_extension ?? null,
    applicable_from_date: rule?.applicable_from_date ?? null,
    verified: rule?.verified ?? null,
    sources: rule?.sources ?? [],
  };
}

function statusOf(asOf: IsoDate, opens: IsoDate, closes: IsoDate): OppositionWindowStatus {
  if (asOf < opens) return 'not_started';
  return asOf <= closes ? 'open' : 'closed';
}

export function computeOppositionWindow(corpus: RuleCorpus, input: OppositionWindowInput, now: Date = new Date()): OppositionWindow {
  const officeCode = normalizeOfficeCode(input.office_code);
  const rule = findOppositionRule(corpus, officeCode, input.filing_route, input.trigger_event);
  const asOf = input.as_of_date ?? todayInTimeZone(rule?.office_time_zone ?? 'UTC', now);
  const base = {
    object: 'opposition_window' as const,
    office_code: officeCode,
    jurisdiction_code: rule ? rule.jurisdiction_code : null,
    filing_route: input.filing_route,
    trigger_event: input.trigger_event,
    publication_date: input.publication_date,
    as_of_date: asOf,
  };
  const applies = rule !== null && oppositionRuleApplies(rule, input.publication_date);
  if (!applies) {
    return {
      ...base,
      status: 'no_rule',
      no_rule_reason: rule === null ? 'no_matching_rule' : 'before_applicable_from_date',
      window_opens: null,
      window_closes: null,
      window_closes_nominal: null,
      extended_window_closes: null,
      extended_window_closes_nominal: null,
      days_remaining: null,
      must_act_by: null,
      approximate: false,
      ...ruleFields(rule),
    };
  }
  const nominal = nominalOppositionWindow(rule, input.publication_date);
  const calendar = rule.holiday_calendar === null ? null : calendarSpecFor(corpus, rule.holiday_calendar);
  const close = rollLastDay(nominal.window_closes, calendar, asOf);
  const extendedClose: LastDay | null = nominal.extended_window_closes === null ? null : rollLastDay(nominal.extended_window_closes, calendar, asOf);
  return {
    ...base,
    status: statusOf(asOf, nominal.window_opens, close.date),
    no_rule_reason: null,
    window_opens: nominal.window_opens,
    window_closes: close.date,
    window_closes_nominal: close.nominal,
    extended_window_closes: extendedClose?.date ?? null,
    extended_window_closes_nominal: extendedClose?.nominal ?? null,
    days_remaining: daysBetween(asOf, close.date),
    must_act_by: close.date,
    approximate: !close.covered || (extendedClose !== null && !extendedClose.covered),
    ...ruleFields(rule),
  };
}

export function toPublicOppositionRule(rule: OppositionRule): PublicOppositionRule {
  const { examples: _examples, ...publicRule } = rule;
  return publicRule;
}

/** Rules matching every given filter (each a list, OR within it); corpus order. */
export function findOppositionRules(corpus: RuleCorpus, filters: OppositionRuleFilters): PublicOppositionRule[] {
  const jurisdictions = filters.jurisdictions && new Set(filters.jurisdictions.map(normalizeJurisdictionCode));
  const offices = filters.offices && new Set(filters.offices.map(normalizeOfficeCode));
  const routes = filters.filing_routes && new Set<string>(filters.filing_routes);
  const events = filters.trigger_events && new Set<string>(filters.trigger_events);
  return corpus.opposition_rules
    .filter(
      (rule) =>
        (!jurisdictions || jurisdictions.has(normalizeJurisdictionCode(rule.jurisdiction_code))) &&
        (!offices || offices.has(rule.office_code)) &&
        (!routes || routes.has(rule.filing_route)) &&
        (!events || events.has(rule.trigger_event)),
    )
    .map(toPublicOppositionRule);
}
