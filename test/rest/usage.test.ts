import { expect } from 'chai';
import { COLLECTIONS, type ApiKeyDoc, type RequestLogDoc, type TrademarkDoc } from '../../domain/records';
import { hashApiKey } from '../../resolvers/accounts/api-keys';
import { requestLogFilter, routeTemplate, statusCondition } from '../../resolvers/organization/request-logs';
import { REQUEST_LOG_RETENTION_DAYS, retentionCutoff } from '../../domain/retention';
import { requestLogRow, type Exchange } from '../../rest/metering';
import { startTestApp, type TestApp } from '../support/harness';
import { requestLogAt } from '../support/request-log-row';

interface LogRow {
  id: string;
  object: string;
  method: string;
  route: string;
  status_code: number;
  error_type: string | null;
  error_detail: string | null;
  duration_ms: number;
  occurred_at: string;
  api_key_id: string | null;
}

interface LogPage {
  object: string;
  data: LogRow[];
  has_more: boolean;
  pagination: { cursor: string | null };
  request_id: string;
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T;
  expect(response.status, JSON.stringify(body)).to.be.lessThan(300);
  return body;
}

describe('request log: pure pieces', () => {
  it('maps an exchange to a row keyed by request_id', () => {
    const exchange: Exchange = {
      requestId: 'req_1',
      organizationId: 'org_1',
      apiKeyId: 'key_1',
      routePath: '/v1/trademarks/:id',
      method: 'GET',
      startedAt: new Date('2026-03-01T10:00:00.000Z'),
      error: { type: 'not_found', detail: 'x'.repeat(1500) },
    };
    const row = requestLogRow(exchange, 404, 3.14159);
    expect(row).to.deep.include({
      _id: 'req_1',
      organization_id: 'org_1',
      api_key_id: 'key_1',
      route: '/v1/trademarks/:id',
      method: 'GET',
      status_code: 404,
      error_type: 'not_found',
      duration_ms: 3.142,
      occurred_at: '2026-03-01T10:00:00.000Z',
    });
    expect(row.error_detail).to.have.length(1000);
    expect(requestLogRow({ ...exchange, error: null }, 200, 1).error_type).to.equal(null);
  });

  it('retention is 122 days back', () => {
    expect(retentionCutoff(new Date('2026-06-01T00:00:00Z'), REQUEST_LOG_RETENTION_DAYS)).to.equal('2026-01-30T00:00:00.000Z');
  });

  it('status filters: exact codes and classes', () => {
    expect(statusCondition('404')).to.equal(404);
    expect(statusCondition('4xx')).to.deep.equal({ $gte: 400, $lt: 500 });
    expect(() => statusCondition('6xx')).to.throw('status');
    expect(() => statusCondition('40')).to.throw('status');
  });

  it('route filters accept both template styles; time ranges must be ordered', () => {
    expect(routeTemplate('/v1/trademarks/{id}/changes')).to.equal('/v1/trademarks/:id/changes');
    expect(requestLogFilter('org_1', { route: '/v1/x/{id}', occurred_at_gte: '2026-01-01', occurred_at_lt: '2026-02-01T00:00:00+01:00' })).to.deep.equal({
      organization_id: 'org_1',
      route: '/v1/x/:id',
      occurred_at: { $gte: '2026-01-01T00:00:00.000Z', $lt: '2026-01-31T23:00:00.000Z' },
    });
    expect(() => requestLogFilter('org_1', { occurred_at_gte: '2026-02-01', occurred_at_lt: '2026-01-01' })).to.throw('occurred_at_gte');
  });
});

describe('organization usage, plan and logs (HTTP)', function () {
  let app: TestApp;
  let markId: string;
  let fullKeyId: string;
  const today = new Date();
  const anchorDay = 1;
  const periodStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).toISOString();
  const periodEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1)).toISOString();

  before(async function () {
    this.timeout(60_000);
    app = await startTestApp({ marks: 30, organization: { billingAnchorDay: anchorDay, limitsOverride: { monthly: { search: 2_000 } } } });
    markId = ((await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({})) as TrademarkDoc)._id;
    fullKeyId = ((await app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({ secret_hash: hashApiKey(app.keys.full) })) as ApiKeyDoc)._id;
  });

  after(async () => {
    await app?.close();
  });

  it('usage counts admitted calls per metered pool, shared by every key of the organization', async () => {
    for (let i = 0; i < 3; i += 1) expect((await app.get(`/v1/trademarks/${markId}`)).status).to.equal(200);
    expect((await app.get(`/v1/trademarks/${markId}`, app.keys.legacy)).status).to.equal(200);
    expect((await app.get('/v1/trademarks?offices=US')).status).to.equal(200);
    expect((await app.get(`/v1/trademarks/${markId}`, app.keys.otherOrg)).status).to.equal(200);

    const response = await app.get('/v1/organization/usage', app.keys.billingOnly);
    const usage = await json<Record<string, unknown>>(response);
    expect(usage).to.deep.equal({
      object: 'usage',
      billing_period: { start: periodStart, end: periodEnd },
      by_endpoint_type: { search: { used: 1, limit: 2_000 }, read: { used: 4, limit: 500_000 } },
      // Spec (Usage): rate_limits maps search, read, monitoring, utility, reference, check.
      rate_limits: { search: 1_000, read: 10_000, monitoring: 100, utility: 1_000, reference: 1_000, check: 1_000 },
      rate_limit: { limit: 1_000, resets_at: (usage.rate_limit as { resets_at: string }).resets_at },
      request_id: usage.request_id,
    });
    expect(Date.parse((usage.rate_limit as { resets_at: string }).resets_at)).to.be.closeTo(Date.now(), 5_000);
    expect(response.headers.get('ratelimit-policy')).to.equal('1000;w=60, 10000;w=60');
    expect(response.headers.get('x-quota-limit'), 'utility is unmetered').to.equal(null);
  });

  it('usage, plan and logs need billing:read', async () => {
    for (const path of ['/v1/organization/usage', '/v1/organization/plan', '/v1/organization/logs']) {
      const response = await app.get(path, app.keys.legacy);
      expect(response.status, path).to.equal(403);
      expect(((await response.json()) as { error: { detail: string } }).error.detail).to.contain('billing:read');
    }
  });

  it('plan: per-pool limits and quotas, tier ceilings, features, anchor day; overrides included', async () => {
    const plan = await json<Record<string, unknown>>(await app.get('/v1/organization/plan'));
    expect(plan).to.deep.include({
      object: 'plan',
      name: 'beta',
      billing_anchor_day: 1,
      billing_period: { start: periodStart, end: periodEnd },
      window_seconds: 60,
      tier_ceilings: { reads: 10_000, search: 10_000, writes: 1_000, mcp: 1_000 },
      features: ['monitoring', 'events'],
    });
    expect(plan.pools).to.deep.equal({
      search: { per_minute: 1_000, monthly_quota: 2_000, daily_quota: 200, overage: false },
      read: { per_minute: 10_000, monthly_quota: 500_000, daily_quota: 50_000, overage: false },
      check: { per_minute: 1_000, monthly_quota: 500_000, daily_quota: 50_000, overage: false },
      monitoring: { per_minute: 100, monthly_quota: null, daily_quota: null, overage: false },
      reference: { per_minute: 1_000, monthly_quota: null, daily_quota: null, overage: false },
      utility: { per_minute: 1_000, monthly_quota: null, daily_quota: null, overage: false },
      image_search: { per_minute: 100, monthly_quota: null, daily_quota: null, overage: false },
    });
  });

  describe('request logs', () => {
    let missingRequestId: string;
    const startedAt = new Date().toISOString();

    before(async () => {
      const missing = await app.get('/v1/trademarks/tm_0000000000000000000000');
      missingRequestId = ((await missing.json()) as { request_id: string }).request_id;
      await app.get(`/v1/trademarks/${markId}`, null);
      await app.get('/v1/no-such-route');
      await app.get('/health/ready', null);
      await app.flushRequestLogs();
    });

    const logs = async (query = '', key = app.keys.full): Promise<LogPage> => json<LogPage>(await app.get(`/v1/organization/logs${query}`, key));

    it('one row per business request, newest first, with route template, status, error, duration and key', async () => {
      const page = await logs('?limit=100');
      expect(page.object).to.equal('list');
      const times = page.data.map((row) => row.occurred_at);
      expect(times).to.deep.equal([...times].sort().reverse());
      const failed = page.data.find((row) => row.id === missingRequestId);
      expect(failed).to.include({
        object: 'request_log',
        method: 'GET',
        route: '/v1/trademarks/:id',
        status_code: 404,
        error_type: 'not_found',
        api_key_id: fullKeyId,
      });
      expect(failed?.error_detail).to.contain('does not exist');
      expect(failed?.duration_ms).to.be.a('number').at.least(0);
      const reads = page.data.filter((row) => row.route === '/v1/trademarks/:id' && row.status_code === 200);
      expect(reads).to.have.length(4);
      expect(reads.every((row) => row.error_type === null && row.error_detail === null)).to.equal(true);
    });

    it('401s, unmatched paths, health and other organizations are not in the log', async () => {
      const page = await logs('?limit=100');
      expect(page.data.some((row) => row.status_code === 401)).to.equal(false);
      expect(page.data.some((row) => row.route.includes('no-such-route') || row.route.includes('health'))).to.equal(false);
      const other = await logs('?limit=100', app.keys.otherOrg);
      expect(other.data.map((row) => row.route)).to.deep.equal(['/v1/trademarks/:id']);
    });

    it('filters by status (exact or class), route template, method and time range', async () => {
      expect((await logs('?status=404')).data.map((row) => row.id)).to.deep.equal([missingRequestId]);
      expect((await logs('?status=4xx')).data.map((row) => row.id)).to.include(missingRequestId);
      expect((await logs('?status=2xx&limit=100')).data.every((row) => row.status_code >= 200 && row.status_code < 300)).to.equal(true);
      const byRoute = await logs(`?route=${encodeURIComponent('/v1/trademarks/{id}')}&limit=100`);
      expect(byRoute.data).to.have.length(5);
      expect((await logs('?method=post')).data).to.have.length(0);
      expect((await logs(`?occurred_at_gte=${encodeURIComponent(startedAt)}&limit=100`)).data.map((row) => row.id)).to.include(missingRequestId);
      expect((await logs(`?occurred_at_lt=${encodeURIComponent(startedAt)}&limit=100`)).data.map((row) => row.id)).not.to.include(missingRequestId);
    });

    it('pages through every row with cursors, without gaps or duplicates', async () => {
      // These list requests are logged too; bound the range so the expected set stays fixed.
      const until = `&occurred_at_lt=${encodeURIComponent(new Date().toISOString())}`;
      await new Promise((resolve) => setTimeout(resolve, 5));
      // Rows are written in batches after their responses; write the pending ones before reading.
      await app.flushRequestLogs();
      const all = (await logs(`?limit=100${until}`)).data.map((row) => row.id);
      expect(all.length).to.be.greaterThan(4);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: LogPage = await logs(`?limit=2${until}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        seen.push(...page.data.map((row) => row.id));
        cursor = page.pagination.cursor;
        expect(page.has_more).to.equal(cursor !== null);
      } while (cursor !== null);
      expect(seen).to.deep.equal(all);
    });

    it('400 for a bad status, a reversed range or a cursor of other filters', async () => {
      for (const query of ['?status=4x', '?status=600', `?occurred_at_gte=2026-02-01&occurred_at_lt=2026-01-01`, '?limit=101']) {
        expect((await app.get(`/v1/organization/logs${query}`)).status, query).to.equal(400);
      }
      const first = await logs('?limit=1');
      const cursor = first.pagination.cursor as string;
      expect((await app.get(`/v1/organization/logs?limit=1&status=2xx&cursor=${encodeURIComponent(cursor)}`)).status).to.equal(400);
    });

    it('the retention worker deletes rows past retention and keeps the rest', async () => {
      const rows = app.adapters.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs);
      const old = requestLogAt('req_old', app.organizationId, new Date(Date.now() - 130 * 24 * 60 * 60 * 1000));
      await rows.insertOne(old);
      const before = await rows.countDocuments({});
      expect((await app.server.retention.run()).requestLogs).to.equal(1);
      expect(await rows.countDocuments({})).to.equal(before - 1);
      expect(await rows.findOne({ _id: 'req_old' })).to.equal(null);
    });
  });
});
