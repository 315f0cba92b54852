/**
 * The limits stage (spec: Limits), after authentication and before idempotency. For an
 * authenticated route, in order:
 *
 * 1. plan features: a route of a feature outside the plan (route.feature), or of a metered pool
 *    whose monthly quota is 0, is 403 plan_upgrade_required;
 * 2. two sliding 60-second windows, the plan's per-minute limit for the route's pool and the
 *    ceiling of its transport tier, both checked and charged atomically (KeyValue.consumeWindows);
 *    a full window is 429 rate_limited with Retry-After;
 * 3. for metered pools (search, read, check), the monthly and daily quota counters
 *    (KeyValue.consumeCounters); an exhausted one is 429 quota_exceeded and the call does not run.
 *
 * Steps 2 and 3 are sent together (on Redis, node-redis pipelines them into one round trip). When
 * the windows refuse, the quota unit just taken is given back (a charge of -1), so a rate-limited
 * call spends no quota; when the quota refuses, the windows keep the charge (the attempt counts
 * as a request). An admitted call spends one quota unit whatever its outcome.
 *
 * Headers: `RateLimit-Policy` (plan limit first, tier ceiling second; one entry when the two limits
 * are equal) and `RateLimit` (remaining and reset of the binding window: the one with fewer
 * requests left; reset is the seconds until it has room for one more request, 0 when it has room
 * now), omitted on cached reference routes; `X-Quota-*` on metered pools. Public routes (health,
 * the OpenAPI document) and unmatched paths never reach this stage.
 */
import type { CounterState, KeyValue, WindowState } from '../datasources/ports';
import { ApiError } from '../domain/errors';
import { effectivePlan, isMeteredPool, quotaChecks, windowChecks, WINDOW_MS, type EffectivePlan, type MeteredPool } from '../domain/plans';
import type { OrganizationDoc } from '../domain/records';
import type { Feature, Pool, Tier } from '../domain/plans';

/**
 * What one admission charges: a route (one unit), or a group of GraphQL root fields of one pool
 * and tier (one unit per field, so a query of ten searches spends what ten search requests do).
 */
export interface LimitCharge {
  pool: Pool;
  tier: Tier;
  feature?: Feature;
  /** Cached reference routes omit RateLimit-* headers. */
  cachedReference?: boolean;
  /** Requests this admission stands for (default 1). */
  units?: number;
}

export interface LimitDecision {
  headers: Record<string, string>;
  /** The 429 to answer with, or null when the call may run. */
  refusal: ApiError | null;
}

const seconds = (ms: number): number => Math.ceil(Math.max(0, ms) / 1000);

/** 403 plan_upgrade_required for features or pools the plan does not include. */
export function requireFeature(route: Pick<LimitCharge, 'feature' | 'pool'>, plan: EffectivePlan): void {
  if (route.feature !== undefined && !plan.features.includes(route.feature)) {
    throw new ApiError('plan_upgrade_required', `the ${plan.name} plan does not include ${route.feature}; upgrade the plan to use this endpoint`, {
      feature: route.feature,
      plan: plan.name,
    });
  }
  if (isMeteredPool(route.pool) && plan.quotas[route.pool].monthly === 0) {
    throw new ApiError('plan_upgrade_required', `the ${plan.name} plan does not include ${route.pool} calls; upgrade the plan to use this endpoint`, {
      pool: route.pool,
      plan: plan.name,
    });
  }
}

/** The window that binds: fewest requests left, then the longer wait, then the plan's window. */
export function bindingWindow(windows: readonly WindowState[]): WindowState {
  return windows.reduce((binding, window) =>
    window.remaining < binding.remaining || (window.remaining === binding.remaining && window.resetMs > binding.resetMs) ? window : binding,
  );
}

/** The window headers, on every authenticated answer but cached reference routes'. */
export const RATE_LIMIT_HEADER_NAMES = ['RateLimit-Policy', 'RateLimit'] as const;
/** The quota headers, on the answers of metered pools. */
export const QUOTA_HEADER_NAMES = [
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'X-Quota-Daily-Limit',
  'X-Quota-Daily-Remaining',
  'X-Quota-Daily-Reset',
] as const;
/** Every header the limits stage sets on an answer (Retry-After aside, which only a 429 carries). */
export const LIMIT_HEADER_NAMES: readonly string[] = [...RATE_LIMIT_HEADER_NAMES, ...QUOTA_HEADER_NAMES];

/** `RateLimit-Policy` and `RateLimit` for the plan window and the tier window, in that order. */
export function rateLimitHeaders(windows: readonly WindowState[]): Record<(typeof RATE_LIMIT_HEADER_NAMES)[number], string> {
  const limits = [...new Set(windows.map((window) => window.limit))];
  const binding = bindingWindow(windows);
  return {
    'RateLimit-Policy': limits.map((limit) => `${limit};w=${WINDOW_MS / 1000}`).join(', '),
    RateLimit: `remaining=${binding.remaining}, reset=${seconds(binding.resetMs)}`,
  };
}

/** 429 rate_limited; retry after the longest wait among the full windows (at least 1 s). */
export function rateLimitRefusal(windows: readonly WindowState[], labels: readonly string[], units = 1): ApiError {
  const full = windows.map((window, index) => ({ window, label: labels[index] ?? 'limit' })).filter(({ window }) => window.used + units > window.limit);
  const retryAfter = Math.max(1, ...full.map(({ window }) => seconds(window.resetMs)));
  const named = full.map(({ window, label }) => `${label} (${window.limit} per minute)`).join(' and ');
  return new ApiError('rate_limited', `the ${named} is used up; retry in ${retryAfter} s`, {}, retryAfter);
}

/** `X-Quota-*` from the monthly and daily counters (monthly limit: the included quota). */
export function quotaHeaders(
  counters: readonly CounterState[],
  monthlyQuota: number,
): Record<(typeof QUOTA_HEADER_NAMES)[number], string> | Record<string, never> {
  const [monthly, daily] = counters;
  if (monthly === undefined || daily === undefined) return {};
  const dailyLimit = daily.limit ?? 0;
  return {
    'X-Quota-Limit': String(monthlyQuota),
    'X-Quota-Remaining': String(Math.max(0, monthlyQuota - monthly.used)),
    'X-Quota-Reset': new Date(monthly.resetsAt).toISOString(),
    'X-Quota-Daily-Limit': String(dailyLimit),
    'X-Quota-Daily-Remaining': String(Math.max(0, dailyLimit - daily.used)),
    'X-Quota-Daily-Reset': new Date(daily.resetsAt).toISOString(),
  };
}

/** 429 quota_exceeded for the refusing counter (0: monthly, 1: daily). */
export function quotaRefusal(pool: MeteredPool, counter: CounterState, scope: 'monthly' | 'daily', nowMs: number): ApiError {
  const resetsAt = new Date(counter.resetsAt).toISOString();
  return new ApiError(
    'quota_exceeded',
    `the ${scope} ${pool} quota of ${counter.limit} calls is used up; it resets at ${resetsAt}`,
    { quota_scope: scope, quota_limit: counter.limit, quota_used: counter.used, quota_resets_at: resetsAt },
    seconds(counter.resetsAt - nowMs),
  );
}

export class Limiter {
  constructor(
    private readonly kv: KeyValue,
    /** Wall clock in epoch ms; quota counters expire by it on every adapter. */
    private readonly clock: () => number = Date.now,
  ) {}

  async admit(charge: LimitCharge, organization: OrganizationDoc): Promise<LimitDecision> {
    const plan = effectivePlan(organization);
    requireFeature(charge, plan);
    const units = charge.units ?? 1;
    const nowMs = this.clock();
    const windows = windowChecks(organization._id, charge.pool, charge.tier, plan);
    const counters = isMeteredPool(charge.pool) ? quotaChecks(organization._id, charge.pool, plan, organization.billing_anchor_day, new Date(nowMs)) : [];
    const [windowDecision, counterDecision] = await Promise.all([
      this.kv.consumeWindows(windows, units, nowMs),
      counters.length > 0 ? this.kv.consumeCounters(counters, units, nowMs) : null,
    ]);
    const headers = charge.cachedReference ? {} : rateLimitHeaders(windowDecision.windows);
    if (!windowDecision.allowed) {
      if (counterDecision?.allowed) await this.kv.consumeCounters(counters, -units, nowMs);
      const labels = [`${charge.pool} limit of the ${plan.name} plan`, `${charge.tier} tier ceiling`];
      return { headers, refusal: rateLimitRefusal(windowDecision.windows, labels, units) };
    }
    if (counterDecision === null || !isMeteredPool(charge.pool)) return { headers, refusal: null };
    Object.assign(headers, quotaHeaders(counterDecision.counters, plan.quotas[charge.pool].monthly ?? 0));
    if (counterDecision.allowed) return { headers, refusal: null };
    const refused = counterDecision.counters[counterDecision.refusedIndex] as CounterState;
    return { headers, refusal: quotaRefusal(charge.pool, refused, counterDecision.refusedIndex === 0 ? 'monthly' : 'daily', nowMs) };
  }
}
