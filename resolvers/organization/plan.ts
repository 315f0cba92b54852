/**
 * GET /v1/organization/plan: everything the limits stage applies to the organization, from its
 * plan (domain/plans.ts) with any per-organization override laid over it.
 */
import { billingPeriod, dailyCap, isMeteredPool, POOLS, WINDOW_MS, type Pool } from '../../domain/plans';
import type { RequestContext } from '../context';
import { callerAccount } from './account';

export async function plan(ctx: RequestContext) {
  const { organization, plan: effective } = await callerAccount(ctx);
  const period = billingPeriod(organization.billing_anchor_day, new Date());
  const pool = (name: Pool) => {
    const quota = isMeteredPool(name) ? effective.quotas[name] : { monthly: null, overage: false };
    return { per_minute: effective.perMinute[name], monthly_quota: quota.monthly, daily_quota: dailyCap(quota.monthly), overage: quota.overage };
  };
  return {
    object: 'plan',
    name: effective.name,
    billing_anchor_day: organization.billing_anchor_day,
    billing_period: { start: period.start.toISOString(), end: period.end.toISOString() },
    window_seconds: WINDOW_MS / 1000,
    pools: Object.fromEntries(POOLS.map((name) => [name, pool(name)])),
    tier_ceilings: { ...effective.tierCeilings },
    features: [...effective.features],
  };
}
