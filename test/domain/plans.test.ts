import { expect } from 'chai';
import { billingPeriod, dailyCap, effectivePlan, nextUtcMidnight, PLANS, quotaChecks, TIER_CEILINGS, windowChecks } from '../../domain/plans';

const at = (iso: string) => new Date(iso);

describe('plans: tables from the spec', () => {
  it('beta: monthly quota, daily sub-cap and per-minute limit per pool (spec: Monthly quota pools)', () => {
    const beta = PLANS.beta;
    expect(beta.quotas.search.monthly).to.equal(100_000);
    expect(beta.quotas.read.monthly).to.equal(500_000);
    expect(beta.quotas.check.monthly).to.equal(500_000);
    expect(dailyCap(beta.quotas.search.monthly)).to.equal(10_000);
    expect(dailyCap(beta.quotas.read.monthly)).to.equal(50_000);
    expect(dailyCap(beta.quotas.check.monthly)).to.equal(50_000);
    expect(beta.perMinute).to.deep.equal({ search: 1_000, read: 10_000, check: 1_000, monitoring: 100, reference: 1_000, utility: 1_000, image_search: 100 });
  });

  it('tier ceilings (spec: Per-minute windows)', () => {
    expect(TIER_CEILINGS).to.deep.equal({ reads: 10_000, search: 10_000, writes: 1_000, mcp: 1_000 });
  });

  it('post-beta per-minute limits: free 60, starter 300, pro 1,000, enterprise 5,000 on every pool', () => {
    const expected = { free: 60, starter: 300, pro: 1_000, enterprise: 5_000 } as const;
    for (const [name, limit] of Object.entries(expected)) {
      const plan = PLANS[name as keyof typeof expected];
      expect(Object.values(plan.perMinute), name).to.deep.equal([limit, limit, limit, limit, limit, limit, limit]);
    }
  });

  it('the daily sub-cap is 10 % of the monthly quota, rounded down; unmetered stays unmetered', () => {
    expect(dailyCap(1_000)).to.equal(100);
    expect(dailyCap(25)).to.equal(2);
    expect(dailyCap(null)).to.equal(null);
  });
});

describe('plans: per-organization overrides', () => {
  it('replaces only the figures given', () => {
    const plan = effectivePlan({
      plan: 'beta',
      limits_override: { per_minute: { read: 5 }, monthly: { search: 20, check: null }, tier_ceilings: { writes: 3 } },
    });
    expect(plan.perMinute.read).to.equal(5);
    expect(plan.perMinute.search).to.equal(1_000);
    expect(plan.quotas.search).to.deep.equal({ monthly: 20, overage: false });
    expect(plan.quotas.check.monthly).to.equal(null);
    expect(plan.quotas.read.monthly).to.equal(500_000);
    expect(plan.tierCeilings).to.deep.equal({ reads: 10_000, search: 10_000, writes: 3, mcp: 1_000 });
  });

  it('without an override the plan applies as is', () => {
    const plan = effectivePlan({ plan: 'free' });
    expect(plan.perMinute).to.deep.equal(PLANS.free.perMinute);
    expect(plan.tierCeilings).to.deep.equal(TIER_CEILINGS);
  });
});

describe('plans: billing periods and resets', () => {
  it('the period runs from the latest anchor day at UTC midnight to the next one', () => {
    expect(billingPeriod(15, at('2026-03-20T10:00:00Z'))).to.deep.equal({ start: at('2026-03-15T00:00:00Z'), end: at('2026-04-15T00:00:00Z') });
    expect(billingPeriod(15, at('2026-03-10T10:00:00Z'))).to.deep.equal({ start: at('2026-02-15T00:00:00Z'), end: at('2026-03-15T00:00:00Z') });
    expect(billingPeriod(15, at('2026-03-15T00:00:00Z'))).to.deep.equal({ start: at('2026-03-15T00:00:00Z'), end: at('2026-04-15T00:00:00Z') });
    expect(billingPeriod(15, at('2026-03-14T23:59:59.999Z'))).to.deep.equal({ start: at('2026-02-15T00:00:00Z'), end: at('2026-03-15T00:00:00Z') });
  });

  it('crosses year ends in both directions', () => {
    expect(billingPeriod(10, at('2026-01-05T00:00:00Z'))).to.deep.equal({ start: at('2025-12-10T00:00:00Z'), end: at('2026-01-10T00:00:00Z') });
    expect(billingPeriod(28, at('2025-12-30T00:00:00Z'))).to.deep.equal({ start: at('2025-12-28T00:00:00Z'), end: at('2026-01-28T00:00:00Z') });
    expect(billingPeriod(1, at('2026-02-28T12:00:00Z'))).to.deep.equal({ start: at('2026-02-01T00:00:00Z'), end: at('2026-03-01T00:00:00Z') });
  });

  it('the daily sub-cap resets at the next UTC midnight', () => {
    expect(nextUtcMidnight(at('2026-03-20T23:59:59.999Z'))).to.deep.equal(at('2026-03-21T00:00:00Z'));
    expect(nextUtcMidnight(at('2026-03-21T00:00:00Z'))).to.deep.equal(at('2026-03-22T00:00:00Z'));
    expect(nextUtcMidnight(at('2026-12-31T12:00:00Z'))).to.deep.equal(at('2027-01-01T00:00:00Z'));
  });
});

describe('plans: limit keys', () => {
  const beta = effectivePlan({ plan: 'beta' });

  it('two windows per request, plan then tier, keyed by organization only (all keys share them)', () => {
    expect(windowChecks('org_a', 'read', 'writes', beta)).to.deep.equal([
      { key: 'rl:org_a:pool:read', limit: 10_000, windowMs: 60_000 },
      { key: 'rl:org_a:tier:writes', limit: 1_000, windowMs: 60_000 },
    ]);
  });

  it('monthly and daily counters with their limits and reset instants', () => {
    const checks = quotaChecks('org_a', 'search', beta, 15, at('2026-03-20T10:00:00Z'));
    expect(checks).to.deep.equal([
      { key: 'quota:org_a:search:m:2026-03-15', limit: 100_000, resetsAt: Date.parse('2026-04-15T00:00:00Z') },
      { key: 'quota:org_a:search:d:2026-03-20', limit: 10_000, resetsAt: Date.parse('2026-03-21T00:00:00Z') },
    ]);
  });

  it('with monthly overage (enterprise) the monthly counter only counts; the daily sub-cap still refuses', () => {
    const [monthly, daily] = quotaChecks('org_e', 'read', effectivePlan({ plan: 'enterprise' }), 1, at('2026-03-20T10:00:00Z'));
    expect(monthly?.limit).to.equal(null);
    expect(daily?.limit).to.equal(1_000_000);
  });

  it('an unmetered override yields no counters', () => {
    expect(quotaChecks('org_a', 'check', effectivePlan({ plan: 'beta', limits_override: { monthly: { check: null } } }), 1, new Date())).to.deep.equal([]);
  });
});
