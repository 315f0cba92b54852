/**
 * Response shapes of the deadline area: deadline computations, opposition-window computations,
 * and the two rule lists of the corpus.
 */
import { CALENDAR_COVERAGE } from '../../domain/calendar';
import { CRITICAL_DAYS, DUE_SOON_DAYS } from '../../domain/deadlines';
import { DEADLINE_FILING_ROUTES, OPPOSITION_FILING_ROUTES, OPPOSITION_TRIGGER_EVENTS, TRIGGER_FIELDS, WINDOW_STARTS_ON } from '../../domain/rules';
import { arrayOf, bool, constant, date, int, nullableBool, nullableDate, nullableInt, nullableStr, object, str, type JsonSchema, named } from './json-schema';

const oneOf = (values: readonly string[], description?: string): JsonSchema => ({ type: 'string', enum: values, ...(description ? { description } : {}) });
const nullableOneOf = (values: readonly string[], description?: string): JsonSchema => ({
  type: ['string', 'null'],
  enum: [...values, null],
  ...(description ? { description } : {}),
});

const ruleSourceSchema = named('RuleSource', object({ citation: str(), url: nullableStr('Null when no public address was found for the citation.') }));

const commonExtensionSchema = named(
  'CommonExtension',
  object(
    {
      days: nullableInt(),
      months: nullableInt('Counted from the publication as a total period (window_months rules), otherwise added to the nominal close.'),
      as_of_right: bool('True when the extension is granted on request without showing cause.'),
      notes: str(),
    },
    'The extension offices commonly grant, or null when there is no fixed one.',
    true,
  ),
);

/** When a computed last day is approximate: the holiday data it rests on is not known to be complete. */
const APPROXIMATE_WHEN =
  `lies outside holiday-calendar coverage (${CALENDAR_COVERAGE.firstYear}-${CALENDAR_COVERAGE.lastYear}, or fewer years where the holiday data of an office's calendar runs out sooner, such as the lunar holidays of TH, SG and ID: holidays_known_through in the rule corpus's calendars), ` +
  'or was rolled past a weekend day of a year whose worked weekend days are not yet announced (CN: the State Council sets its make-up working days each year, and the rule corpus lists the years announced)';

export const computedDeadlineSchema: JsonSchema = named(
  'ComputedDeadline',
  object({
    type: str('For example declaration_of_use, renewal, incontestability.'),
    name: str(),
    jurisdiction_code: str(),
    trigger_date: date('The input date the deadline is counted from.'),
    trigger_field: oneOf(TRIGGER_FIELDS, 'The input field used (the rule trigger or its first present fallback).'),
    window_opens: nullableDate('First day to file, counted from the nominal (unadjusted) due date; null when filing may happen any time before.'),
    due_date: date('Last day without surcharge, rolled forward to a business day of the office.'),
    grace_expiry: date('Last day of the grace period (counted from the nominal due date), rolled forward to a business day.'),
    status: oneOf(
      ['future', 'window_open', 'due_soon', 'in_grace', 'missed'],
      `due_soon: the window is open and the due date at most ${DUE_SOON_DAYS} days after as_of_date.`,
    ),
    days_until_due: int('Days from as_of_date to due_date; negative once past.'),
    days_until_grace_expiry: int(),
    urgency: oneOf(
      ['critical', 'upcoming', 'routine', 'overdue', 'in_grace', 'missed'],
      `critical: due within ${CRITICAL_DAYS} days; upcoming: within ${DUE_SOON_DAYS}; overdue: in grace with at most ${CRITICAL_DAYS} days left.`,
    ),
    consequence_if_missed: str(
      'For example cancellation, expiration; none when missing it loses nothing the mark holds (US Section 15: a declaration can be filed within a year after any later five-year period of continuous use).',
    ),
    recurring: bool(),
    optional: bool('Optional filings such as incontestability declarations.'),
    approximate: bool(
      `True when due_date or grace_expiry ${APPROXIMATE_WHEN}; a date outside coverage was rolled on holidays predicted by rule (a later holiday or closure may move it), or, long past, not rolled.`,
    ),
  }),
);

export const deadlineComputationSchema: JsonSchema = named(
  'DeadlineComputation',
  object(
    {
      object: constant('deadline_computation'),
      jurisdiction_code: str('Normalized uppercase code (EM → EU, WIPO → WO, UK → GB).'),
      filing_route: oneOf(
        DEADLINE_FILING_ROUTES,
        "The rules used: the item's route, with national and regional both read as the office's own register (EU: regional).",
      ),
      supported: bool('False when the corpus has no rules for the jurisdiction.'),
      unsupported_reason: nullableOneOf(['unsupported_jurisdiction']),
      deadlines: arrayOf(computedDeadlineSchema, 'Ordered by due_date. Empty for dead statuses (supported stays true).'),
      missing_trigger_fields: arrayOf(
        oneOf(TRIGGER_FIELDS),
        "The input dates this item's rules count from that it lacks (each rule's trigger field, when neither it nor a fallback was given), e.g. filing_date for an EU item with only registration_date. Empty when every rule found its date: an empty deadlines list is then none due, not uncomputable.",
      ),
    },
    'Maintenance deadlines of one input item.',
  ),
);

/** The rule members an opposition-window computation echoes from its rule. */
const oppositionRuleTerms = {
  window_months: nullableInt(),
  window_days: nullableInt(),
  window_starts_offset_months: nullableInt('Months after publication at which the window starts (null: at publication).'),
};

export const oppositionWindowComputationSchema: JsonSchema = named(
  'OppositionWindowComputation',
  object(
    {
      object: constant('opposition_window_computation'),
      office_code: str('Normalized uppercase ST.3 code.'),
      jurisdiction_code: nullableStr('Null when no rule matches.'),
      filing_route: oneOf(OPPOSITION_FILING_ROUTES),
      trigger_event: oneOf(OPPOSITION_TRIGGER_EVENTS),
      publication_date: date(),
      as_of_date: date('The given as_of_date, or today in the office time zone.'),
      status: oneOf(['not_started', 'open', 'closed', 'no_rule']),
      no_rule_reason: nullableOneOf(['no_matching_rule', 'before_applicable_from_date']),
      window_opens: nullableDate('First day a notice of opposition can be filed.'),
      window_closes: nullableDate('Last day without extension: the nominal close rolled forward to a business day.'),
      window_closes_nominal: nullableDate('The close the period arithmetic gives, before the roll.'),
      extended_window_closes: nullableDate('Last day with the common extension (rolled); null without a fixed one.'),
      extended_window_closes_nominal: nullableDate(),
      days_remaining: nullableInt('Days from as_of_date to window_closes; negative once closed.'),
      must_act_by: nullableDate('The date to docket (window_closes); a real date even for long-closed windows.'),
      approximate: bool(`True when a close ${APPROXIMATE_WHEN}, or its roll was skipped for a long-closed window.`),
      ...oppositionRuleTerms,
      window_starts_on: nullableOneOf(WINDOW_STARTS_ON),
      office_time_zone: nullableStr(),
      holiday_calendar: nullableStr(),
      common_extension: commonExtensionSchema,
      applicable_from_date: nullableDate(),
      verified: nullableBool('Whether the rule was confirmed against its sources; null without a rule.'),
      sources: arrayOf(ruleSourceSchema),
    },
    'The opposition window of one input item, with the terms of the rule it was computed from.',
  ),
);

export const oppositionRuleSchema: JsonSchema = named(
  'OppositionRule',
  object(
    {
      object: constant('opposition_rule'),
      jurisdiction_code: str('Uppercase ISO-2 (EU, WO for WIPO).'),
      office_code: str('Uppercase ST.3.'),
      filing_route: oneOf(OPPOSITION_FILING_ROUTES),
      trigger_event: oneOf(OPPOSITION_TRIGGER_EVENTS),
      ...oppositionRuleTerms,
      window_starts_on: oneOf(WINDOW_STARTS_ON),
      office_time_zone: str('IANA zone; decides what "today" is at the office.'),
      holiday_calendar: nullableStr('date-holidays calendar used to roll a close date.'),
      common_extension: commonExtensionSchema,
      applicable_from_date: nullableDate('Null: always applies.'),
      sources: arrayOf(ruleSourceSchema),
      verified: bool(),
      notes: str(),
    },
    'An opposition rule, identified by office_code + filing_route + trigger_event.',
  ),
);

export const deadlineRuleSchema: JsonSchema = named(
  'DeadlineRule',
  object(
    {
      object: constant('deadline_rule'),
      id: str('Stable rule ID, for example US.national.section8_6yr.'),
      jurisdiction_code: str(),
      office_code: str(),
      filing_route: oneOf(DEADLINE_FILING_ROUTES),
      type: str(),
      name: str(),
      trigger_field: oneOf(TRIGGER_FIELDS),
      trigger_fallbacks: arrayOf(oneOf(TRIGGER_FIELDS), 'Fields tried in order when trigger_field is absent.'),
      due_offset_months: int('Months from the trigger to the (first) nominal due date.'),
      due_offset_days: int('Days added after the month offset; -1 where a term beginning on the trigger ends the day before the anniversary.'),
      window_opens_months_before_due: nullableInt('Null: no opening restriction.'),
      grace_months: int('Months after the nominal due date.'),
      recurring_every_months: nullableInt(),
      extensions: object(
        { months: int('Months the due date moves per extension granted.'), max: int('Extensions that may be granted.') },
        "How far the due date moves per extension of time already granted (the item's use_extensions_granted); null: not extended by a count.",
        true,
      ),
      optional: bool(),
      covers_all_designations: bool('True for an international-register rule (WIPO renewal) that every Madrid designation computation includes.'),
      consequence_if_missed: str(),
      applies_to_statuses: arrayOf(str()),
      applicable_from_date: nullableDate(),
      applicable_until_date: nullableDate(),
      applicability_fields: {
        type: ['array', 'null'],
        items: oneOf(TRIGGER_FIELDS),
        description: 'Input fields compared with the applicability dates; null: the trigger date.',
      },
      holiday_calendar: nullableStr(),
      sources: arrayOf(ruleSourceSchema),
      verified: bool('False when the rule could not be confirmed against its sources; kept, but weigh it accordingly.'),
      notes: str(),
      examples: arrayOf(
        object({
          trigger_date: date(),
          input_dates: arrayOf(
            object({ field: oneOf(TRIGGER_FIELDS), date: date() }),
            'Other input dates of the example beyond the trigger (for example the date a transitional rule is judged on).',
          ),
          extensions_granted: int('Extensions of time already granted in the example (0 unless the rule has extensions).'),
          window_opens: nullableDate(),
          due_date: date(),
          grace_expiry: date(),
          notes: nullableStr(),
        }),
        'Worked examples (each is a test case of the computation).',
      ),
    },
    'A maintenance deadline rule of the corpus.',
  ),
);
