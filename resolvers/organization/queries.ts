/**
 * Query fields of the organization area (scope billing:read): usage (the monthly quota counters of
 * the search and read pools, the same KeyValue counters the limits stage charges, the per-minute
 * limits and the deprecated single rate limit), plan (everything the limits stage applies to the
 * organization, from its plan with any override laid over it) and request logs.
 */
import {
  billingPeriod,
  dailyCap,
  effectivePlan,
  isMeteredPool,
  POOLS,
  quotaChecks,
  WINDOW_MS,
  windowChecks,
  type EffectivePlan,
  type MeteredPool,
  type Pool,
} from '../../domain/plans';
import type { OrganizationDoc } from '../../domain/records';
import { findOrganization } from '../accounts/organizations';
import type { RequestContext } from '../context';
import { requestLogs, type RequestLogArgs } from './request-logs';

/** The caller's organization with its effective plan. */
interface Account {
  organization: OrganizationDoc;
  plan: EffectivePlan;
}

async function callerAccount(ctx: RequestContext): Promise<Account> {
  const organization = await findOrganization(ctx.services.store, ctx.caller.organizationId);
  // Authentication already found it; only a deletion in between gets here.
  if (!organization) throw new Error(`organization ${ctx.caller.organizationId} vanished`);
  return { organization, plan: effectivePlan(organization) };
}

/** Only these pools appear in by_endpoint_type (spec: Usage). */
const REPORTED_POOLS = ['search', 'read'] as const satisfies readonly MeteredPool[];

async function poolUsage(ctx: RequestContext, organization: OrganizationDoc, plan: EffectivePlan, pool: MeteredPool, now: Date) {
  const limit = plan.quotas[pool].monthly;
  const [monthly] = quotaChecks(organization._id, pool, plan, organization.billing_anchor_day, now);
  if (monthly === undefined) return { used: 0, limit };
  const [state] = await ctx.services.kv.peekCounters([monthly], now.getTime());
  return { used: state?.used ?? 0, limit };
}

async function usage(ctx: RequestContext) {
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

/** GET /v1/organization/plan. */
async function plan(ctx: RequestContext) {
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

export const organizationQueryResolvers = {
  usage: (_: unknown, _args: unknown, ctx: RequestContext) => usage(ctx),
  plan: (_: unknown, _args: unknown, ctx: RequestContext) => plan(ctx),
  requestLogs: (_: unknown, args: RequestLogArgs, ctx: RequestContext) => requestLogs(args, ctx),
};
