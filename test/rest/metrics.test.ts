/**
 * GET /metrics (issue 19): scraped as Prometheus would and parsed with a Prometheus text-format
 * parser; what a dashboard needs is there (requests and latency per route and status, limit
 * refusals, worker backlogs, the webhook queue), and production keeps it closed.
 */
import { expect } from 'chai';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { startTestApp, type TestApp } from '../support/harness';

async function scrapeText(app: TestApp, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${app.baseUrl}/metrics`, { headers });
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

const scrape = async (app: TestApp, headers: Record<string, string> = {}): Promise<MetricFamily[]> => parsePrometheusTextFormat(await scrapeText(app, headers));

const family = (families: MetricFamily[], name: string): MetricFamily => {
  const found = families.find((candidate) => candidate.name === name);
  expect(found, name).to.not.equal(undefined);
  return found as MetricFamily;
};

describe('rest/metrics: GET /metrics in development', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 30, servers: 1, organization: { limitsOverride: { per_minute: { search: 2 } } } });
  });
  after(async () => app.close());

  it('counts requests and their latency per route template, method and status', async () => {
    await app.get('/v1/offices');
    await app.get('/v1/offices');
    await app.get('/v1/offices', null);
    await app.get('/v1/no-such-thing');
    const families = await scrape(app);
    const requests = family(families, 'marque_http_requests_total');
    expect(requests.type).to.equal('COUNTER');
    const count = (route: string, status: string) =>
      Number(requests.metrics.find((m) => m.labels?.route === route && m.labels?.method === 'GET' && m.labels?.status === status)?.value ?? 0);
    expect(count('/v1/offices', '200')).to.equal(2);
    expect(count('/v1/offices', '401')).to.equal(1);
    expect(count('unmatched', '404')).to.equal(1);
    expect(family(families, 'marque_http_request_duration_seconds').type).to.equal('HISTOGRAM');
    // The parser keeps a histogram's buckets but not its labels, count and sum: read those lines as written.
    const text = await scrapeText(app);
    const line = (suffix: string) =>
      new RegExp(`^marque_http_request_duration_seconds_${suffix}\\{route="/v1/offices",method="GET",status="200"\\} (\\S+)$`, 'm').exec(text)?.[1];
    expect(line('count')).to.equal('2');
    expect(Number(line('sum'))).to.be.greaterThan(0);
  });

  it('counts limit refusals by pool and type', async () => {
    for (let i = 0; i < 3; i++) await app.get('/v1/trademarks?limit=1');
    const refusals = family(await scrape(app), 'marque_limit_refusals_total');
    expect(refusals.metrics.find((m) => m.labels?.pool === 'search' && m.labels?.type === 'rate_limited')?.value).to.equal('1');
  });

  it('reports each worker’s backlog and lag behind the change feed, and the webhook queue', async () => {
    const families = await scrape(app);
    const backlog = family(families, 'marque_worker_backlog_entries');
    expect(backlog.metrics.map((m) => m.labels?.worker).sort()).to.deep.equal(['indexer', 'watches', 'webhooks']);
    // Nothing has been written since the workers' checkpoints were set: every backlog is empty.
    expect(backlog.metrics.every((m) => m.value === '0')).to.equal(true);
    expect(family(families, 'marque_worker_lag_seconds').metrics).to.have.length(3);
    expect(family(families, 'marque_webhook_deliveries_pending').metrics[0]?.value).to.equal('0');
    expect(families.some((candidate) => candidate.name === 'marque_process_cpu_user_seconds_total')).to.equal(true);
  });

  it('names the process running each worker (its lease holder), and none for a worker nobody runs', async () => {
    // This app runs no workers; another process (here, its lease) runs the indexer.
    expect(await app.adapters.kv.holdLease('worker-lease:indexer', 'worker-host/4242/0a1b2c3d', 60_000)).to.equal(true);
    const holders = family(await scrape(app), 'marque_worker_holder').metrics;
    expect(holders.map((m) => ({ ...m.labels, value: m.value }))).to.deep.equal([{ worker: 'indexer', holder: 'worker-host/4242/0a1b2c3d', value: '1' }]);
    await app.adapters.kv.releaseLease('worker-lease:indexer', 'worker-host/4242/0a1b2c3d');
    expect(family(await scrape(app), 'marque_worker_holder').metrics).to.deep.equal([]);
  });
});

describe('rest/metrics: GET /metrics in production', function () {
  this.timeout(60_000);

  it('is off without MARQUE_METRICS_TOKEN', async () => {
    const app = await startTestApp({ marks: 10, webhooks: { environment: 'production' } });
    try {
      expect((await fetch(`${app.baseUrl}/metrics`)).status).to.equal(404);
    } finally {
      await app.close();
    }
  });

  it('with a token, answers only the bearer of that token', async () => {
    const app = await startTestApp({ marks: 10, webhooks: { environment: 'production' }, metricsToken: 'scrape-secret-1' });
    try {
      expect((await fetch(`${app.baseUrl}/metrics`)).status).to.equal(401);
      expect((await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: 'Bearer scrape-secret-2' } })).status).to.equal(401);
      expect(family(await scrape(app, { authorization: 'Bearer scrape-secret-1' }), 'marque_http_requests_total').type).to.equal('COUNTER');
    } finally {
      await app.close();
    }
  });
});
