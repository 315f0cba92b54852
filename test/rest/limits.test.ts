import { expect } from 'chai';
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import { createRedisKeyValue } from '../../datasources/redis/key-value';
import type { KeyValue, WindowState } from '../../datasources/ports';
import { type ApiError } from '../../domain/errors';
import { effectivePlan, quotaChecks, windowChecks } from '../../domain/plans';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { bindingWindow, quotaHeaders, quotaRefusal, rateLimitHeaders, rateLimitRefusal, requireFeature } from '../../rest/limits';
import { startTestApp, type TestApp } from '../support/harness';
import { startRedisServer, type TestRedisServer } from '../support/redis-server';
import { startStageApp, testRoute, type StageApp } from '../support/stage-app';

const window = (limit: number, used: number, resetMs: number): WindowState => ({
  key: `w${limit}`,
  limit,
  used,
  remaining: Math.max(0, limit - used),
  resetMs,
});

interface ErrorBody {
  error: { type: string; retryable: boolean; retry_after: number | null; [extra: string]: unknown };
}

describe('limits: pure rules', () => {
  it('RateLimit-Policy lists the plan limit first and the tier ceiling second', () => {
    expect(rateLimitHeaders([window(1_000, 1, 0), window(10_000, 1, 0)])['RateLimit-Policy']).to.equal('1000;w=60, 10000;w=60');
    expect(rateLimitHeaders([window(10_000, 1, 0), window(1_000, 1, 0)])['RateLimit-Policy']).to.equal('10000;w=60, 1000;w=60');
  });

  it('RateLimit-Policy has one entry when the two coincide', () => {
    expect(rateLimitHeaders([window(10_000, 3, 0), window(10_000, 8, 0)])['RateLimit-Policy']).to.equal('10000;w=60');
  });

  it('RateLimit reports the binding window: the fewest remaining, then the longer wait', () => {
    expect(rateLimitHeaders([window(5, 2, 0), window(10, 9, 0)]).RateLimit).to.equal('remaining=1, reset=0');
    expect(rateLimitHeaders([window(5, 5, 1_200), window(10, 10, 30_001)]).RateLimit).to.equal('remaining=0, reset=31');
    expect(bindingWindow([window(5, 5, 1_200), window(10, 10, 900)]).limit).to.equal(5);
  });

  it('rate_limited: retryable, Retry-After the longest wait among the full windows, at least 1 s', () => {
    const error = rateLimitRefusal([window(5, 5, 12_400), window(10, 3, 0)], ['plan', 'tier']);
    expect(error.type).to.equal('rate_limited');
    expect(error.retryable).to.equal(true);
    expect(error.retryAfter).to.equal(13);
    expect(error.detail).to.contain('plan (5 per minute)');
    expect(rateLimitRefusal([window(5, 5, 0), window(3, 3, 200)], ['plan', 'tier']).retryAfter).to.equal(1);
  });

  it('X-Quota-* from the monthly and daily counters', () => {
    const headers = quotaHeaders(
      [
        { key: 'm', limit: 100_000, used: 40, resetsAt: Date.parse('2026-04-15T00:00:00Z') },
        { key: 'd', limit: 10_000, used: 7, resetsAt: Date.parse('2026-03-21T00:00:00Z') },
      ],
      100_000,
    );
    expect(headers).to.deep.equal({
      'X-Quota-Limit': '100000',
      'X-Quota-Remaining': '99960',
      'X-Quota-Reset': '2026-04-15T00:00:00.000Z',
      'X-Quota-Daily-Limit': '10000',
      'X-Quota-Daily-Remaining': '9993',
      'X-Quota-Daily-Reset': '2026-03-21T00:00:00.000Z',
    });
  });

  it('quota_exceeded carries quota_scope, quota_limit, quota_used, quota_resets_at; only daily is retryable', () => {
    const now = Date.parse('2026-03-20T23:00:00Z');
    const daily = quotaRefusal('search', { key: 'd', limit: 10_000, used: 10_000, resetsAt: Date.parse('2026-03-21T00:00:00Z') }, 'daily', now);
    expect(daily.extras).to.deep.equal({ quota_scope: 'daily', quota_limit: 10_000, quota_used: 10_000, quota_resets_at: '2026-03-21T00:00:00.000Z' });
    expect(daily.retryable).to.equal(true);
    expect(daily.retryAfter).to.equal(3_600);
    const monthly = quotaRefusal('read', { key: 'm', limit: 500_000, used: 500_000, resetsAt: Date.parse('2026-04-15T00:00:00Z') }, 'monthly', now);
    expect(monthly.extras.quota_scope).to.equal('monthly');
    expect(monthly.retryable).to.equal(false);
  });

  it('403 plan_upgrade_required for a feature outside the plan, and for a pool the plan excludes', () => {
    const refusal = (run: () => void): ApiError => {
      try {
        run();
      } catch (error) {
        return error as ApiError;
      }
      throw new Error('expected a refusal');
    };
    expect(refusal(() => requireFeature({ feature: 'monitoring', pool: 'monitoring' }, effectivePlan({ plan: 'free' }))).type).to.equal(
      'plan_upgrade_required',
    );
    expect(() => requireFeature({ feature: 'monitoring', pool: 'monitoring' }, effectivePlan({ plan: 'starter' }))).not.to.throw();
    expect(refusal(() => requireFeature({ feature: 'image_search', pool: 'search' }, effectivePlan({ plan: 'pro' }))).extras.feature).to.equal('image_search');
    expect(refusal(() => requireFeature({ pool: 'check' }, effectivePlan({ plan: 'beta', limits_override: { monthly: { check: 0 } } }))).type).to.equal(
      'plan_upgrade_required',
    );
    expect(() => requireFeature({ pool: 'read' }, effectivePlan({ plan: 'free' }))).not.to.throw();
  });
});

/** Fires `count` requests at once and returns their statuses. */
async function burst(count: number, send: () => Promise<Response>): Promise<number[]> {
  const responses = await Promise.all(Array.from({ length: count }, send));
  await Promise.all(responses.map((response) => response.arrayBuffer()));
  return responses.map((response) => response.status);
}

const count = (statuses: readonly number[], status: number) => statuses.filter((s) => s === status).length;

function describeStages(label: string, openKv: () => Promise<KeyValue>): void {
  describe(`limits stage over HTTP (${label})`, () => {
    let stage: StageApp;
    let freeStage: StageApp;
    let kv: KeyValue;
    let executions = 0;

    before(async () => {
      kv = await openKv();
      const counted = async () => {
        executions += 1;
        return { object: 'test' };
      };
      const routes = [
        testRoute({ id: 'readThing', path: '/v1/things/:id', pool: 'read', tier: 'reads' }, counted),
        testRoute({ id: 'searchThings', path: '/v1/things', pool: 'search', tier: 'search' }, counted),
        testRoute({ id: 'batchThings', method: 'POST', path: '/v1/things/batch', pool: 'check', tier: 'writes', idempotency: 'exempt', body: [] }, counted),
        testRoute({ id: 'offices', path: '/v1/offices', pool: 'reference', tier: 'reads', cachedReference: true }),
        testRoute({ id: 'usage', path: '/v1/organization/usage', pool: 'utility', tier: 'reads' }),
        testRoute({ id: 'watches', path: '/v1/watches', pool: 'monitoring', tier: 'reads', feature: 'monitoring' }),
        testRoute({ id: 'live', path: '/v1/health', scope: 'public', pool: 'utility', tier: 'reads' }),
      ];
      const limitsOverride = { per_minute: { read: 5, reference: 2, utility: 3, check: 50 }, monthly: { search: 30 }, tier_ceilings: { writes: 3 } };
      stage = await startStageApp({ kv, routes, limitsOverride, billingAnchorDay: 1 });
      freeStage = await startStageApp({ kv, routes, plan: 'free' });
    });

    after(async () => {
      await stage?.close();
      await freeStage?.close();
      await kv?.close();
    });

    beforeEach(() => {
      executions = 0;
    });

    it('exactly L of N parallel requests pass a per-minute limit of L; the rest get 429 rate_limited with Retry-After', async () => {
      const statuses = await burst(12, () => stage.send('GET', '/v1/things/a'));
      expect(count(statuses, 200)).to.equal(5);
      expect(count(statuses, 429)).to.equal(7);
      expect(executions).to.equal(5);
      const refused = await stage.send('GET', '/v1/things/a');
      const body = (await refused.json()) as ErrorBody;
      expect(refused.status).to.equal(429);
      expect(body.error.type).to.equal('rate_limited');
      expect(body.error.retryable).to.equal(true);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 60);
      expect(body.error.retry_after).to.equal(retryAfter);
      expect(refused.headers.get('ratelimit-policy')).to.equal('5;w=60, 10000;w=60');
      expect(refused.headers.get('ratelimit')).to.equal(`remaining=0, reset=${retryAfter}`);
    });

    it('other organizations have their own windows', async () => {
      const other = await stage.send('GET', '/v1/things/a', { key: stage.otherKey });
      expect(other.status).to.equal(200);
      expect(other.headers.get('ratelimit-policy')).to.equal('10000;w=60');
      expect(other.headers.get('ratelimit')).to.equal('remaining=9999, reset=0');
    });

    it('a rate-limited call spends no quota', async () => {
      // The search pool's plan window is 1,000 per minute, so drive the tier ceiling instead: writes 3.
      const statuses = await burst(6, () => stage.send('POST', '/v1/things/batch', { body: {} }));
      expect(count(statuses, 200)).to.equal(3);
      const plan = effectivePlan({ plan: 'beta', limits_override: { monthly: { search: 30 } } });
      const [monthly, daily] = await kv.peekCounters(quotaChecks(stage.organizationId, 'check', plan, 1, new Date()), Date.now());
      expect(monthly?.used).to.equal(3);
      expect(daily?.used).to.equal(3);
    });

    it('the tier ceiling binds when it is the lower one (batch-like POST: check pool, writes tier)', async () => {
      const response = await stage.send('POST', '/v1/things/batch', { body: {} });
      expect(response.status).to.equal(429);
      expect(response.headers.get('ratelimit-policy')).to.equal('50;w=60, 3;w=60');
      expect(response.headers.get('ratelimit')).to.match(/^remaining=0, reset=\d+$/);
    });

    it('metered pools send X-Quota-*; the daily sub-cap (10 % of the monthly quota) refuses with quota_exceeded and the call does not run', async () => {
      const first = await stage.send('GET', '/v1/things');
      expect(first.status).to.equal(200);
      const midnight = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1)).toISOString();
      expect(first.headers.get('x-quota-limit')).to.equal('30');
      expect(first.headers.get('x-quota-remaining')).to.equal('29');
      expect(first.headers.get('x-quota-daily-limit')).to.equal('3');
      expect(first.headers.get('x-quota-daily-remaining')).to.equal('2');
      expect(first.headers.get('x-quota-daily-reset')).to.equal(midnight);
      expect(first.headers.get('ratelimit-policy')).to.equal('1000;w=60, 10000;w=60');
      await stage.send('GET', '/v1/things');
      await stage.send('GET', '/v1/things');
      executions = 0;
      const refused = await stage.send('GET', '/v1/things');
      const body = (await refused.json()) as ErrorBody;
      expect(refused.status).to.equal(429);
      expect(body.error.type).to.equal('quota_exceeded');
      expect(body.error.quota_scope).to.equal('daily');
      expect(body.error.quota_limit).to.equal(3);
      expect(body.error.quota_used).to.equal(3);
      expect(body.error.quota_resets_at).to.equal(midnight);
      expect(body.error.retryable).to.equal(true);
      expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
      expect(executions).to.equal(0);
    });

    it('an exhausted monthly quota refuses with quota_scope monthly (not retryable)', async () => {
      const [monthly] = quotaChecks(stage.otherOrganizationId, 'read', effectivePlan({ plan: 'beta' }), 1, new Date());
      if (monthly === undefined) throw new Error('read is metered on beta');
      const { used } = (await kv.peekCounters([monthly], Date.now()))[0] as { used: number };
      await kv.consumeCounters([{ ...monthly, limit: null }], 500_000 - used, Date.now());
      const response = await stage.send('GET', '/v1/things/b', { key: stage.otherKey });
      const body = (await response.json()) as ErrorBody;
      expect(response.status, JSON.stringify(body)).to.equal(429);
      expect(body.error.type).to.equal('quota_exceeded');
      expect(body.error.quota_scope).to.equal('monthly');
      expect(body.error.quota_limit).to.equal(500_000);
      expect(body.error.quota_used).to.equal(500_000);
      expect(body.error.retryable).to.equal(false);
      expect(body.error.quota_resets_at).to.equal(new Date(monthly.resetsAt).toISOString());
      expect(response.headers.get('x-quota-remaining')).to.equal('0');
      expect(executions).to.equal(0);
    });

    it('cached reference routes omit RateLimit-* (and unmetered pools omit X-Quota-*) but are still limited', async () => {
      const first = await stage.send('GET', '/v1/offices');
      expect(first.status).to.equal(200);
      for (const name of ['ratelimit', 'ratelimit-policy', 'x-quota-limit', 'x-quota-daily-limit']) expect(first.headers.get(name), name).to.equal(null);
      await stage.send('GET', '/v1/offices');
      const third = await stage.send('GET', '/v1/offices');
      expect(third.status).to.equal(429);
      expect(third.headers.get('retry-after')).to.match(/^\d+$/);
      expect(third.headers.get('ratelimit')).to.equal(null);
    });

    it('unmetered pools send RateLimit-* but no X-Quota-*', async () => {
      const response = await stage.send('GET', '/v1/organization/usage');
      expect(response.headers.get('ratelimit-policy')).to.equal('3;w=60, 10000;w=60');
      expect(response.headers.get('x-quota-limit')).to.equal(null);
    });

    it('public routes are outside every limit and unmatched routes spend nothing', async () => {
      const statuses = await burst(8, () => fetch(`${stage.baseUrl}/v1/health`));
      expect(statuses.every((s) => s === 200)).to.equal(true);
      const live = await fetch(`${stage.baseUrl}/v1/health`);
      expect(live.headers.get('ratelimit')).to.equal(null);
      const before = await kv.peekWindows(windowChecks(stage.organizationId, 'utility', 'reads', effectivePlan({ plan: 'beta' })), Date.now());
      const missing = await stage.send('GET', '/v1/no-such-route');
      expect(missing.status).to.equal(404);
      for (const name of ['ratelimit', 'x-quota-limit']) expect(missing.headers.get(name)).to.equal(null);
      const after = await kv.peekWindows(windowChecks(stage.organizationId, 'utility', 'reads', effectivePlan({ plan: 'beta' })), Date.now());
      expect(after.map((w) => w.used)).to.deep.equal(before.map((w) => w.used));
    });

    it('403 plan_upgrade_required for a feature outside the plan, before anything is charged', async () => {
      const refused = await freeStage.send('GET', '/v1/watches');
      const body = (await refused.json()) as ErrorBody;
      expect(refused.status).to.equal(403);
      expect(body.error.type).to.equal('plan_upgrade_required');
      expect((await stage.send('GET', '/v1/watches')).status).to.equal(200);
    });
  });
}

describeStages('embedded', async () => createEmbeddedKeyValue({ path: ':memory:' }));

describe('limits on real routes over the Redis KeyValue', function () {
  let redis: TestRedisServer | null;
  let app: TestApp;
  let markId: string;

  before(async function () {
    redis = await startRedisServer();
    if (redis === null) throw new Error('these tests need redis-server on PATH or REDIS_URL');
    const kv = await createRedisKeyValue({ url: redis.url, keyPrefix: `limits-test:${process.pid}:` });
    app = await startTestApp({ marks: 30, kv, organization: { limitsOverride: { per_minute: { read: 7 } } } });
    markId = ((await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({})) as TrademarkDoc)._id;
  });

  after(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('exactly L of N parallel requests on GET /v1/trademarks/:id pass a limit of L', async () => {
    const statuses = await burst(20, () => app.get(`/v1/trademarks/${markId}`));
    expect(count(statuses, 200), statuses.join()).to.equal(7);
    expect(count(statuses, 429)).to.equal(13);
  });

  it('all keys of an organization share its window', async () => {
    const legacy = await app.get(`/v1/trademarks/${markId}`, app.keys.legacy);
    expect(legacy.status).to.equal(429);
    expect(legacy.headers.get('ratelimit-policy')).to.equal('7;w=60, 10000;w=60');
    expect((await app.get(`/v1/trademarks/${markId}`, app.keys.otherOrg)).status).to.equal(200);
  });

  it('Redis down: limited routes answer 503 service_unavailable (retryable, retry_after) and /health/ready is degraded; both recover', async function () {
    this.timeout(20_000);
    if (redis === null) throw new Error('no redis');
    await redis.kill();
    const down = await app.get(`/v1/trademarks/${markId}`, app.keys.otherOrg);
    const body = (await down.json()) as ErrorBody;
    expect(down.status).to.equal(503);
    expect(body.error.type).to.equal('service_unavailable');
    expect(body.error.retryable).to.equal(true);
    expect(body.error.retry_after).to.be.a('number').above(0);
    expect(down.headers.get('retry-after'), 'spec: Retry-After only on 429').to.equal(null);
    const ready = await app.get('/health/ready', null);
    expect(ready.status).to.equal(200);
    expect(((await ready.json()) as { status: string }).status).to.equal('degraded');
    expect((await app.get('/v1/health', null)).status).to.equal(200);

    await redis.restart();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await app.get(`/v1/trademarks/${markId}`, app.keys.otherOrg)).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).to.equal(200);
    expect(((await (await app.get('/health/ready', null)).json()) as { status: string }).status).to.equal('ok');
  });
});

let redisForStages: TestRedisServer | null = null;
describeStages('redis', async () => {
  redisForStages = await startRedisServer();
  if (redisForStages === null) throw new Error('these tests need redis-server on PATH or REDIS_URL');
  return createRedisKeyValue({ url: redisForStages.url, keyPrefix: `stages-test:${process.pid}:` });
});
after(async () => {
  await redisForStages?.stop();
});
