/**
 * GET /v1/organization/usage: the monthly quota counters of the search and read pools (the same
 * KeyValue counters the limits stage charges), the per-minute limits, and the deprecated single
 * rate limit (the search limit, with the instant its window next has room).
 */
import { billingPeriod, quotaChecks, windowChecks, type EffectivePlan, type MeteredPool } from '../../domain/plans';
import type { OrganizationDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { callerAccount } from './account';

/** Only these pools appear in by_endpoint_type (spec: Usage). */
const REPORTED_POOLS = ['search', 'read'] as const satisfies readonly MeteredPool[];

async function poolUsage(ctx: RequestContext, organization: OrganizationDoc, plan: EffectivePlan, pool: MeteredPool, now: Date) {
  const limit = plan.quotas[pool].monthly;
  const [monthly] = quotaChecks(organization._id, pool, plan, organization.billing_anchor_day, now);
  if (monthly === undefined) return { used: 0, limit };
  const [state] = await ctx.services.kv.peekCounters([monthly], now.getTime());
  return { used: state?.used ?? 0, limit };
}

export async function usage(ctx: RequestContext) {
  const { organization, plan } = await callerAccount(ctx);
  // Wall clock: quota counters expire by it on every KeyValue adapter.
  const now = new Date();
  const period = billingPeriod(organization.billing_anchor_day, now);
  const [search, read] = await Promise.all(REPORTED_POOLS.map((pool) => poolUsage(ctx, organization, plan, pool, now)));
  const [searchWindow] = await ctx.services.kv.peekWindows(windowChecks(organization._id, 'search', 'search', plan), now.getTime());
  return {
    object: 'usage',
    billing_period: { start: period.start.toISOString(), end: period.end.toISOString() },
    by_endpoint_type: { search, read },
    rate_limits: { ...plan.perMinute },
    rate_limit: { limit: plan.perMinute.search, resets_at: new Date(now.getTime() + (searchWindow?.resetMs ?? 0)).toISOString() },
  };
}
