/**
 * Response shapes of the organization usage, plan and request-log endpoints.
 */
import { arrayOf, bool, constant, int, nullableInt, nullableStr, num, object, str, timestamp, type JsonSchema, named } from './json-schema';

const billingPeriodSchema = named(
  'BillingPeriod',
  object(
    {
      start: timestamp('Start of the period (inclusive): UTC midnight of the anchor day.'),
      end: timestamp('End (exclusive): the next anchor day, when monthly quotas reset.'),
    },
    'The current billing period.',
  ),
);

const poolUsageSchema = object({
  used: int('Calls counted against the monthly quota in this billing period.'),
  limit: nullableInt('The monthly quota; null: unlimited; 0: not allowed on the plan.'),
});

const perPool = (schema: (pool: string) => JsonSchema, pools: readonly string[]): Record<string, JsonSchema> =>
  Object.fromEntries(pools.map((pool) => [pool, schema(pool)]));

export const usageSchema: JsonSchema = named(
  'Usage',
  object({
    object: constant('usage'),
    billing_period: billingPeriodSchema,
    by_endpoint_type: object(
      perPool(() => poolUsageSchema, ['search', 'read']),
      'Monthly usage per metered pool; only search and read appear.',
    ),
    rate_limits: object(
      perPool((pool) => int(`Requests per minute on ${pool} endpoints.`), ['search', 'read', 'monitoring', 'utility', 'reference', 'check']),
      "Per-minute limits of the plan by endpoint type: the contract's six (the image_search pool's is in GET /v1/organization/plan).",
    ),
    rate_limit: {
      ...object({ limit: int('The search per-minute limit.'), resets_at: timestamp('When the search window next has room (now when it has room).') }),
      deprecated: true,
      description: 'Deprecated: use rate_limits or the RateLimit headers.',
    },
  }),
);

const planPoolSchema = object({
  per_minute: int('Per-minute limit (sliding 60-second window).'),
  monthly_quota: nullableInt('Calls per billing period; null: unmetered; 0: not allowed on the plan.'),
  daily_quota: nullableInt('Calls per UTC day: 10 % of the monthly quota, rounded down; null: unmetered.'),
  overage: bool('True when calls beyond the monthly quota are billed as overage instead of refused (the daily quota still refuses).'),
});

export const planSchema: JsonSchema = named(
  'Plan',
  object({
    object: constant('plan'),
    name: { type: 'string', enum: ['beta', 'free', 'starter', 'pro', 'enterprise'] },
    billing_anchor_day: int('Day of month (1 to 28) on which monthly quotas reset, at UTC midnight.'),
    billing_period: billingPeriodSchema,
    window_seconds: int('Length of the sliding rate-limit windows (60).'),
    pools: object(
      perPool(() => planPoolSchema, ['search', 'read', 'check', 'monitoring', 'reference', 'utility', 'image_search']),
      'Limits per endpoint type (pool).',
    ),
    tier_ceilings: object(
      {
        reads: int('All GET requests.'),
        search: int('Trademark search and suggest endpoints.'),
        writes: int('POST, PATCH, DELETE outside the search tier.'),
        mcp: int('The MCP endpoint.'),
      },
      'Transport-tier ceilings per minute; each request counts against one, besides its pool.',
    ),
    features: arrayOf(
      { type: 'string', enum: ['monitoring', 'events', 'image_search'] },
      'Plan-gated features included; routes of other features answer 403 plan_upgrade_required.',
    ),
  }),
);

export const requestLogSchema: JsonSchema = named(
  'RequestLog',
  object({
    id: str('The request_id of the logged request (req_...).'),
    object: constant('request_log'),
    method: str('HTTP method.'),
    route: str('Route template, for example /v1/trademarks/:id.'),
    status_code: int('HTTP status of the response.'),
    error_type: nullableStr('error.type of an error response; null on success.'),
    error_detail: nullableStr('error.detail of an error response; null on success.'),
    duration_ms: num('Time from receiving the request to sending the response.'),
    occurred_at: timestamp('When the request was received.'),
    api_key_id: nullableStr('Key that made the request (key_...); null for OAuth (MCP) sessions.'),
  }),
);
