/**
 * Plans: what each plan allows per minute, per month and per day, and which features it includes
 * (spec: Limits). Pure data and pure functions; the REST limits stage and the usage resolvers read
 * them.
 *
 * From the spec: the beta table (monthly quota, 10 % daily sub-cap, per-minute limit per pool), the
 * transport-tier ceilings, and the provisional post-beta per-minute limits (read, search,
 * monitoring, "other" = check, reference, utility): free 60, starter 300, pro 1,000,
 * enterprise 5,000.
 *
 * Decided here, because the spec leaves them open (also published in the OpenAPI descriptions of
 * GET /v1/organization/plan and /usage):
 * - post-beta monthly quotas (search / read / check): free 1,000 / 5,000 / 1,000; starter 25,000 /
 *   100,000 / 25,000; pro 250,000 / 1,000,000 / 250,000; enterprise 2,500,000 / 10,000,000 /
 *   2,500,000 with monthly overage allowed (the monthly counter is counted but never refuses; the
 *   daily sub-cap still applies, as the spec requires for every plan);
 * - the daily sub-cap is 10 % of the monthly quota on every plan, rounded down;
 * - features: `monitoring` (portfolios, watches, saved searches, alerts, webhooks), `events` (the
 *   event feed) and `image_search`. beta: monitoring, events; free: none; starter: monitoring;
 *   pro: monitoring, events; enterprise: all three;
 * - the `image_search` pool (image search, beta) is unmetered like monitoring, with the plan's
 *   per-minute limit (beta: 100); its route also needs the `image_search` feature;
 * - a pool whose monthly quota is 0 is "not allowed on the plan": its routes answer 403
 *   plan_upgrade_required (the usage response reports `limit: 0`).
 */

export type PlanName = 'beta' | 'free' | 'starter' | 'pro' | 'enterprise';

/** Monthly quota pools (spec: Limits). */
export const POOLS = ['search', 'read', 'check', 'monitoring', 'reference', 'utility', 'image_search'] as const;
export type Pool = (typeof POOLS)[number];

/** Pools counted against a monthly quota; the others are unmetered. */
export const METERED_POOLS = ['search', 'read', 'check'] as const satisfies readonly Pool[];
export type MeteredPool = (typeof METERED_POOLS)[number];

/** Transport-tier ceilings (spec: Per-minute windows). */
export const TIERS = ['reads', 'search', 'writes', 'mcp'] as const;
export type Tier = (typeof TIERS)[number];

export const FEATURES = ['monitoring', 'events', 'image_search'] as const;
export type Feature = (typeof FEATURES)[number];

/** Both per-minute limits are sliding 60-second windows. */
export const WINDOW_MS = 60_000;
/** The daily sub-cap as a share of the monthly quota. */
export const DAILY_SHARE = 0.1;

export const TIER_CEILINGS: Readonly<Record<Tier, number>> = { reads: 10_000, search: 10_000, writes: 1_000, mcp: 1_000 };

export interface PoolQuota {
  /** Requests per billing period; null: unmetered. 0: the pool is not allowed on the plan. */
  monthly: number | null;
  /** True when the monthly counter only counts (overage billed); the daily sub-cap still refuses. */
  overage: boolean;
}

export interface Plan {
  name: PlanName;
  perMinute: Readonly<Record<Pool, number>>;
  quotas: Readonly<Record<MeteredPool, PoolQuota>>;
  features: readonly Feature[];
}

const quota = (monthly: number, overage = false): PoolQuota => ({ monthly, overage });
const perMinuteOf = (read: number, search: number, monitoring: number, other: number): Record<Pool, number> => ({
  search,
  read,
  check: other,
  monitoring,
  reference: other,
  utility: other,
  image_search: other,
});

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  beta: {
    name: 'beta',
    perMinute: { search: 1_000, read: 10_000, check: 1_000, monitoring: 100, reference: 1_000, utility: 1_000, image_search: 100 },
    quotas: { search: quota(100_000), read: quota(500_000), check: quota(500_000) },
    features: ['monitoring', 'events'],
  },
  free: {
    name: 'free',
    perMinute: perMinuteOf(60, 60, 60, 60),
    quotas: { search: quota(1_000), read: quota(5_000), check: quota(1_000) },
    features: [],
  },
  starter: {
    name: 'starter',
    perMinute: perMinuteOf(300, 300, 300, 300),
    quotas: { search: quota(25_000), read: quota(100_000), check: quota(25_000) },
    features: ['monitoring'],
  },
  pro: {
    name: 'pro',
    perMinute: perMinuteOf(1_000, 1_000, 1_000, 1_000),
    quotas: { search: quota(250_000), read: quota(1_000_000), check: quota(250_000) },
    features: ['monitoring', 'events'],
  },
  enterprise: {
    name: 'enterprise',
    perMinute: perMinuteOf(5_000, 5_000, 5_000, 5_000),
    quotas: { search: quota(2_500_000, true), read: quota(10_000_000, true), check: quota(2_500_000, true) },
    features: ['monitoring', 'events', 'image_search'],
  },
};

/**
 * Replaces single figures of an organization's plan: per-minute limits by pool, monthly quotas by
 * metered pool (null: unmetered; the daily sub-cap stays 10 %), tier ceilings.
 */
export interface LimitsOverride {
  per_minute?: Partial<Record<Pool, number>>;
  monthly?: Partial<Record<MeteredPool, number | null>>;
  tier_ceilings?: Partial<Record<Tier, number>>;
}

/** What an organization record says about its plan. */
export interface PlanHolder {
  plan: PlanName;
  limits_override?: LimitsOverride;
}

/** What applies to one organization: its plan with its `limits_override` laid over it. */
export interface EffectivePlan extends Plan {
  tierCeilings: Readonly<Record<Tier, number>>;
}

export function isMeteredPool(pool: Pool): pool is MeteredPool {
  return (METERED_POOLS as readonly Pool[]).includes(pool);
}

/** Organization records are read-only once loaded (auth keeps one for a few seconds), so their plans are kept with them. */
const effectivePlans = new WeakMap<PlanHolder, EffectivePlan>();

export function effectivePlan(organization: PlanHolder): EffectivePlan {
  let effective = effectivePlans.get(organization);
  if (!effective) {
    effective = planWithOverride(organization);
    effectivePlans.set(organization, effective);
  }
  return effective;
}

function planWithOverride(organization: PlanHolder): EffectivePlan {
  const plan = PLANS[organization.plan];
  const override: LimitsOverride = organization.limits_override ?? {};
  const quotas = { ...plan.quotas };
  for (const pool of METERED_POOLS) {
    const monthly = override.monthly?.[pool];
    if (monthly !== undefined) quotas[pool] = { ...quotas[pool], monthly };
  }
  return {
    ...plan,
    perMinute: { ...plan.perMinute, ...override.per_minute },
    quotas,
    tierCeilings: { ...TIER_CEILINGS, ...override.tier_ceilings },
  };
}

/** The daily sub-cap of a monthly quota: 10 % rounded down; null (unmetered) stays null. */
export function dailyCap(monthly: number | null): number | null {
  return monthly === null ? null : Math.floor(monthly * DAILY_SHARE);
}

export interface BillingPeriod {
  /** Inclusive, UTC midnight of the anchor day. */
  start: Date;
  /** Exclusive: the next anchor day, when the monthly quota resets. */
  end: Date;
}

/**
 * The billing period containing `now`: from the latest anchor day (UTC midnight) at or before it to
 * the next one. Anchor days are 1..28, so every month has one.
 */
export function billingPeriod(anchorDay: number, now: Date): BillingPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const startMonth = now.getUTCDate() >= anchorDay ? month : month - 1;
  return { start: new Date(Date.UTC(year, startMonth, anchorDay)), end: new Date(Date.UTC(year, startMonth + 1, anchorDay)) };
}

/** The next UTC midnight after `now` (when the daily sub-cap resets). */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** The UTC day of `now` as YYYY-MM-DD (names the daily counter). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------
// KeyValue entries behind the limits, shared by the REST limits stage and the usage resolvers.
// Every key is per organization: all keys of an organization share one window and one quota.
// ---------------------------------------------------------------------------------------------

/** The two sliding windows of a request: the plan's limit for the pool, then the tier ceiling. */
/** A sliding window to check and charge (the KeyValue port's WindowCheck). */
export interface RateWindow {
  key: string;
  limit: number;
  windowMs: number;
}

/** A quota counter to check and charge (the KeyValue port's CounterCheck). */
export interface QuotaCounter {
  key: string;
  /** null: unlimited (counted, never refused). */
  limit: number | null;
  resetsAt: number;
}

export function windowChecks(organizationId: string, pool: Pool, tier: Tier, plan: EffectivePlan): RateWindow[] {
  return [
    { key: `rl:${organizationId}:pool:${pool}`, limit: plan.perMinute[pool], windowMs: WINDOW_MS },
    { key: `rl:${organizationId}:tier:${tier}`, limit: plan.tierCeilings[tier], windowMs: WINDOW_MS },
  ];
}

/**
 * The quota counters of a metered pool: monthly (named by its period's start, resetting at the
 * next anchor day) then daily (named by the UTC day, resetting at UTC midnight). Empty when the
 * pool is unmetered for this organization. With overage the monthly counter only counts.
 */
export function quotaChecks(organizationId: string, pool: MeteredPool, plan: EffectivePlan, anchorDay: number, now: Date): QuotaCounter[] {
  const { monthly, overage } = plan.quotas[pool];
  if (monthly === null) return [];
  const period = billingPeriod(anchorDay, now);
  return [
    { key: `quota:${organizationId}:${pool}:m:${utcDay(period.start)}`, limit: overage ? null : monthly, resetsAt: period.end.getTime() },
    { key: `quota:${organizationId}:${pool}:d:${utcDay(now)}`, limit: dailyCap(monthly), resetsAt: nextUtcMidnight(now).getTime() },
  ];
}
