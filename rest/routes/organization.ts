/**
 * Route-table entries of the organization's usage, plan and request log (scope billing:read,
 * utility pool: rate-limited, never metered).
 */
import { PLANS } from '../../domain/plans';
import { REQUEST_LOG_RETENTION_DAYS } from '../../domain/retention';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { planSchema, requestLogSchema, usageSchema } from '../schemas/organization';
import { countedPageParams } from './paging-params';

const base = {
  kind: 'operation',
  method: 'GET',
  tag: 'Organization',
  scope: 'billing:read',
  pool: 'utility',
  tier: 'reads',
  idempotency: 'none',
  pathParams: [],
  successStatus: 200,
} as const;

const fmt = (n: number | null): string => (n === null ? 'unmetered' : n.toLocaleString('en-US'));

/** The plan table in words, for the descriptions (domain/plans.ts is the source). */
const planTable = Object.values(PLANS)
  .map((plan) => {
    const quotas = (['search', 'read', 'check'] as const)
      .map((pool) => `${pool} ${fmt(plan.quotas[pool].monthly)}${plan.quotas[pool].overage ? ' (overage billed)' : ''}`)
      .join(', ');
    const perMinute = `search ${plan.perMinute.search}, read ${plan.perMinute.read}, monitoring ${plan.perMinute.monitoring}, other ${plan.perMinute.utility}`;
    return `${plan.name}: monthly ${quotas}; per minute ${perMinute}; features ${plan.features.join(', ') || 'none'}.`;
  })
  .join(' ');

const limitsNote =
  `Quotas: monthly per pool, resetting at UTC midnight of the billing anchor day; a daily sub-cap of 10 % of the monthly quota resets at UTC midnight on every plan (even with overage). ` +
  `Per-minute: two sliding 60-second windows per request, the plan limit of the pool and the transport-tier ceiling (reads 10,000, search 10,000, writes 1,000, mcp 1,000); all keys of an organization share them. ` +
  `Plans: ${planTable} Beta figures are the spec's; post-beta per-minute limits are the spec's provisional ones; post-beta quotas and features are Marque's.`;

const logQuery: readonly ParamSpec[] = [
  {
    name: 'status',
    kind: { type: 'string', maxLength: 3, pattern: /^(?:[1-5]xx|[1-5]\d\d)$/, patternRule: 'must be a status code such as 404 or a class such as 4xx' },
    description: 'Exact status (404) or class (2xx, 4xx, 5xx).',
  },
  {
    name: 'route',
    kind: { type: 'string', maxLength: 200, pattern: /^\/[A-Za-z0-9_\-/:{}.]*$/, patternRule: 'must be a route template such as /v1/trademarks/:id' },
    description: 'Route template, for example /v1/trademarks/:id (or /v1/trademarks/{id}).',
  },
  { name: 'method', kind: { type: 'enum', values: ['GET', 'POST', 'PATCH', 'DELETE'], caseInsensitive: true }, description: 'HTTP method.' },
  { name: 'occurred_at_gte', kind: { type: 'timestamp' }, description: 'Requests received at or after this ISO 8601 timestamp.' },
  { name: 'occurred_at_lt', kind: { type: 'timestamp' }, description: 'Requests received before this ISO 8601 timestamp; must be after occurred_at_gte.' },
  ...countedPageParams,
];

export const organizationRoutes: readonly RouteDef[] = [
  {
    ...base,
    id: 'getUsage',
    mcpTool: 'get_usage_summary',
    path: '/v1/organization/usage',
    operation: 'GetUsage',
    summary: 'Usage of the organization',
    description:
      'Calls counted in the current billing period per metered pool (by_endpoint_type: search and read; limit null means unlimited, 0 not allowed on the plan), the per-minute limits per endpoint type (rate_limits), and the deprecated rate_limit (the search per-minute limit; resets_at is when its window next has room). ' +
      `Counts come from the same counters the quota check charges: every admitted call of a metered pool counts, whatever its outcome; 429s and unmatched paths do not. ${limitsNote}`,
    query: [],
    envelope: 'single',
    response: usageSchema,
    errors: [],
    variables: () => ({}),
  },
  {
    ...base,
    id: 'getPlan',
    contract: 'named-without-detail',
    mcpTool: 'get_account',
    path: '/v1/organization/plan',
    operation: 'GetPlan',
    summary: 'Plan of the organization',
    description: `The plan in force for the organization: per pool the per-minute limit, monthly and daily quotas and overage; the tier ceilings; the plan-gated features; the billing anchor day and current period. Contract-specific exceptions are included. ${limitsNote}`,
    query: [],
    envelope: 'single',
    response: planSchema,
    errors: [],
    variables: () => ({}),
  },
  {
    ...base,
    id: 'listRequestLogs',
    contract: 'named-without-detail',
    mcpTool: 'get_usage',
    path: '/v1/organization/logs',
    operation: 'ListRequestLogs',
    summary: 'Request log of the organization',
    description:
      `Every authenticated request of the organization's keys and OAuth sessions, newest first, one row per request: id (the request_id), method, route template, status_code, error_type and error_detail (null on success), duration_ms, occurred_at, api_key_id. ` +
      `Rows appear a few tens of milliseconds after their response and are kept ${REQUEST_LOG_RETENTION_DAYS} days (about four months). Requests refused with 401 (no organization known) and unmatched paths are not logged. Filters combine with AND; cursors are bound to them.`,
    query: logQuery,
    envelope: 'list',
    response: requestLogSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
];
