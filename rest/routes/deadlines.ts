/**
 * Route-table entries of the deadline area: the two stateless compute batches and the rule
 * corpus behind them (GET /v1/deadline-rules, GET /v1/opposition-rules).
 */
import { OFFICE_YEARS_TEXT } from '../../domain/dates';
import { CRITICAL_DAYS, DUE_SOON_DAYS } from '../../domain/deadlines';
import { STATUS_STAGES } from '../../domain/records';
import { DEADLINE_FILING_ROUTES, OPPOSITION_FILING_ROUTES, OPPOSITION_TRIGGER_EVENTS, TRIGGER_FIELDS, type TriggerField } from '../../domain/rules';
import { DEADLINE_TYPES, MAX_HORIZON_YEARS, MAX_USE_EXTENSIONS, ruleCorpus } from '../../resolvers/deadlines/corpus';
import { DEFAULT_HORIZON_YEARS, MAX_COMPUTE_ITEMS, MAX_MAINTENANCE_FILINGS } from '../../resolvers/deadlines/queries';
import type { ParamSpec } from '../params';
import type { OperationRoute, RouteDef } from '../route';
import { computeDeadlinesExample } from '../schemas/examples';
import { deadlineComputationSchema, deadlineRuleSchema, oppositionRuleSchema, oppositionWindowComputationSchema } from '../schemas/deadlines';

/** What a trigger date is, where its name does not say it. */
const TRIGGER_FIELD_NOTES: Partial<Record<TriggerField, string>> = {
  notice_of_allowance_date: 'US intent-to-use applications (status allowed): the date the notice of allowance issued, from which the statement of use is due',
};

/** Item statuses of a deadline computation: the same values as a trademark's status.stage. */
const DEADLINE_ITEM_STATUSES = STATUS_STAGES;

const codeKind = (what: string) =>
  ({ type: 'string', maxLength: 4, pattern: /^[A-Za-z]{2,4}$/, patternRule: `must be ${what} of 2 to 4 letters`, uppercase: true }) as const;

const deadlineItemFields: readonly ParamSpec[] = [
  {
    name: 'jurisdiction',
    kind: codeKind('a jurisdiction code'),
    required: true,
    description: 'Jurisdiction code, for example US, EU, WIPO; normalized to uppercase (EM → EU, WIPO → WO, UK → GB).',
  },
  {
    name: 'filing_route',
    kind: { type: 'enum', values: DEADLINE_FILING_ROUTES },
    description:
      "national (default), regional or madrid. national and regional both mean the office's own register, so either takes the rules the jurisdiction has (EU: regional); the computation's filing_route says which were used. WO's own register is the international register, so any route reads its madrid rules and filing_route is madrid.",
  },
  {
    name: 'status',
    kind: { type: 'enum', values: DEADLINE_ITEM_STATUSES },
    description:
      'Mark status, default registered. Dead statuses give supported: true with no deadlines. unknown is read from the dates given: as registered when the item has a date only a registration has (any but filing_date and notice_of_allowance_date), as filed otherwise (an unknown status is not a dead mark).',
  },
  ...TRIGGER_FIELDS.map((field): ParamSpec => ({
    name: field,
    kind: { type: 'date' },
    nullable: true,
    description: `${TRIGGER_FIELD_NOTES[field] ?? field.replace(/_/g, ' ')}, YYYY-MM-DD or null; ${OFFICE_YEARS_TEXT}.`,
  })),
  {
    name: 'use_extensions_granted',
    kind: { type: 'integer', min: 0, max: MAX_USE_EXTENSIONS },
    nullable: true,
    description: `US statement of use: extensions of time already granted (0 to ${MAX_USE_EXTENSIONS}, default 0); each moves its due date six months on from the notice of allowance.`,
  },
  {
    name: 'maintenance_filings',
    kind: {
      type: 'objects',
      minItems: 0,
      batchLimit: MAX_MAINTENANCE_FILINGS,
      nested: true,
      fields: [
        { name: 'type', kind: { type: 'enum', values: DEADLINE_TYPES }, required: true, description: 'The deadline type the filing meets.' },
        { name: 'filed_date', kind: { type: 'date' }, required: true, description: `Date filed (or accepted), YYYY-MM-DD; ${OFFICE_YEARS_TEXT}.` },
      ],
    },
    nullable: true,
    description: `Renewals, declarations and other maintenance filings on record (0 to ${MAX_MAINTENANCE_FILINGS}, from the mark's history). A filing meets the deadline of its type whose window it falls in, from the window's opening to the next occurrence's (for a rule without a window, from one grace expiry to the next), and a deadline met is not listed: a renewal recorded on 2026-11-20 meets the renewal due 2026-11-17 and leaves the next one, due ten years on. Portfolio deadlines read them from each mark's history: renewal_filed and renewed meet a renewal, declaration_of_use_filed and declaration_of_use_accepted a declaration_of_use.`,
  },
];

const oppositionItemFields: readonly ParamSpec[] = [
  { name: 'office', kind: codeKind('an office code'), required: true, description: 'ST.3 office code; legacy lowercase codes accepted.' },
  { name: 'filing_route', kind: { type: 'enum', values: OPPOSITION_FILING_ROUTES }, required: true, description: 'domestic or madrid_designation.' },
  { name: 'trigger_event', kind: { type: 'enum', values: OPPOSITION_TRIGGER_EVENTS }, required: true, description: 'The publication the window runs from.' },
  { name: 'publication_date', kind: { type: 'date' }, required: true, description: `Publication date, YYYY-MM-DD; ${OFFICE_YEARS_TEXT}.` },
];

const itemsParam = (fields: readonly ParamSpec[], what: string): ParamSpec => ({
  name: 'items',
  kind: { type: 'objects', fields, batchLimit: MAX_COMPUTE_ITEMS },
  required: true,
  description: `${what}, 1 to ${MAX_COMPUTE_ITEMS}; data[i] answers items[i]. More than ${MAX_COMPUTE_ITEMS} is 422 batch_too_large with item_count and item_count_limit.`,
});

const asOfDateParam = (today: string): ParamSpec => ({
  name: 'as_of_date',
  kind: { type: 'date' },
  description: `Date statuses are computed against, YYYY-MM-DD, ${OFFICE_YEARS_TEXT}; default ${today}.`,
});

const conventions = `Date conventions (from the rule corpus): ${ruleCorpus.notes.date_arithmetic} ${ruleCorpus.notes.business_day_roll}`;
const computeNote = `Stores nothing: no Idempotency-Key is needed and repeating a request is safe (idempotency exempt, like a read), though as a POST it counts against the writes tier. Reference pool.`;

/** Members both compute batches share: stateless POSTs with a list envelope, 400 and 422. */
const computeRouteBase = {
  kind: 'operation',
  method: 'POST',
  tag: 'Deadlines',
  scope: 'trademarks:read',
  pool: 'reference',
  tier: 'writes',
  idempotency: 'exempt',
  pathParams: [],
  query: [],
  successStatus: 200,
  envelope: 'list',
  errors: [400, 422],
  variables: ({ body }) => ({ ...body }),
} as const satisfies Partial<OperationRoute>;

export const deadlineRoutes: readonly RouteDef[] = [
  {
    ...computeRouteBase,
    id: 'computeDeadlines',
    mcpTool: 'compute_deadlines',
    path: '/v1/deadlines/compute',
    operation: 'ComputeDeadlines',
    summary: 'Compute maintenance deadlines',
    description:
      `Declarations of use, renewals (recurring up to horizon_years ahead), optional filings and grace periods for up to ${MAX_COMPUTE_ITEMS} marks, in input order; has_more is always false and pagination.cursor null. ` +
      `Statuses relative to as_of_date: future (window not open), window_open, due_soon (window open and due within ${DUE_SOON_DAYS} days), in_grace, missed. ` +
      `Urgency: critical (due within ${CRITICAL_DAYS} days), upcoming (within ${DUE_SOON_DAYS}), routine, overdue (in grace with at most ${CRITICAL_DAYS} days left), in_grace, missed. ` +
      `Unsupported jurisdictions give supported: false, unsupported_reason unsupported_jurisdiction. ${conventions} ${computeNote}`,
    body: [
      itemsParam(deadlineItemFields, 'Marks to compute'),
      asOfDateParam("today in each jurisdiction's office time zone"),
      {
        name: 'horizon_years',
        kind: { type: 'integer', min: 1, max: MAX_HORIZON_YEARS },
        default: DEFAULT_HORIZON_YEARS,
        description: `Only deadlines due within this many years after as_of_date, 1 to ${MAX_HORIZON_YEARS}.`,
      },
      { name: 'include_optional', kind: { type: 'boolean' }, default: true, description: 'Include optional deadlines such as incontestability filings.' },
      {
        name: 'include_missed',
        kind: { type: 'boolean' },
        default: false,
        description: 'Include deadlines already past grace (for a recurring rule, the latest one).',
      },
    ],
    response: deadlineComputationSchema,
    examples: computeDeadlinesExample,
  },
  {
    ...computeRouteBase,
    id: 'computeOppositionWindows',
    mcpTool: 'compute_opposition_windows',
    contract: 'named-without-detail',
    path: '/v1/opposition-windows/compute',
    operation: 'ComputeOppositionWindows',
    summary: 'Compute opposition windows',
    description:
      `Opposition windows for up to ${MAX_COMPUTE_ITEMS} publications, in input order, from the rule keyed by office + filing_route + trigger_event (GET /v1/opposition-rules); has_more is always false. ` +
      `No matching rule (or a publication before the rule's applicable_from_date) gives status no_rule with no_rule_reason. Long-closed windows are computed too (status closed, must_act_by a real date, approximate when outside calendar coverage). ` +
      `Arithmetic (from the rule corpus): ${ruleCorpus.notes.opposition_arithmetic} ${computeNote}`,
    body: [itemsParam(oppositionItemFields, 'Publications to compute'), asOfDateParam("today in each office's time zone")],
    response: oppositionWindowComputationSchema,
  },
  {
    kind: 'operation',
    id: 'listOppositionRules',
    mcpTool: 'list_opposition_rules',
    method: 'GET',
    path: '/v1/opposition-rules',
    operation: 'ListOppositionRules',
    summary: 'List opposition rules',
    description:
      'Every matching rule in one page (has_more false, pagination.cursor null). Filters combine with AND, list values with OR. ' +
      'Publicly cacheable: the body carries no request_id (the Request-Id header still does), responses have Cache-Control: public, max-age=3600 and a strong ETag; send If-None-Match to get 304 when unchanged.',
    tag: 'Deadlines',
    scope: 'trademarks:read',
    pool: 'reference',
    tier: 'reads',
    idempotency: 'none',
    publicCache: { maxAgeSeconds: 3600 },
    pathParams: [],
    query: [
      { name: 'jurisdiction', kind: codeKind('a jurisdiction code'), array: true, maxItems: 100, description: 'Uppercase ISO-2 jurisdiction codes (EU, WO).' },
      {
        name: 'office',
        kind: codeKind('an office code'),
        array: true,
        maxItems: 100,
        description: 'Uppercase ST.3 office codes; legacy lowercase codes are permanent aliases.',
      },
      { name: 'filing_route', kind: { type: 'enum', values: OPPOSITION_FILING_ROUTES }, array: true, description: 'domestic, madrid_designation.' },
      {
        name: 'trigger_event',
        kind: { type: 'enum', values: OPPOSITION_TRIGGER_EVENTS },
        array: true,
        description: 'application_publication, registration_publication, international_designation_publication.',
      },
    ],
    successStatus: 200,
    envelope: 'list_public',
    response: oppositionRuleSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    kind: 'operation',
    id: 'listDeadlineRules',
    mcpTool: 'list_deadline_rules',
    contract: 'named-without-detail',
    method: 'GET',
    path: '/v1/deadline-rules',
    operation: 'ListDeadlineRules',
    summary: 'List deadline rules',
    description:
      'The maintenance deadline rules behind POST /v1/deadlines/compute, with citations and worked examples, in one page (has_more false). ' +
      `Unverified rules are kept and marked verified: false. ${conventions}`,
    tag: 'Deadlines',
    scope: 'trademarks:read',
    pool: 'reference',
    tier: 'reads',
    idempotency: 'none',
    pathParams: [],
    query: [
      {
        name: 'jurisdiction',
        kind: codeKind('a jurisdiction code'),
        array: true,
        maxItems: 100,
        description: 'Jurisdiction codes (EU, WO; aliases EM, WIPO, UK accepted).',
      },
    ],
    successStatus: 200,
    envelope: 'list',
    response: deadlineRuleSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
];
