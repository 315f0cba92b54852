import { expect } from 'chai';
import { COLLECTIONS, type ApiKeyDoc, type TrademarkDoc } from '../../domain/records';
import { hashApiKey } from '../../resolvers/accounts/api-keys';
import { beforeShared, type TestApp } from '../support/harness';
import { fails as errorOf } from '../support/http';
import { rawRequest, type RawExchange } from '../support/raw-http';

describe('REST: authentication and scopes', function () {
  let app: TestApp;
  let markId: string;

  beforeShared((fixture) => {
    app = fixture.app;
  });
  before(async () => {
    markId = ((await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({})) as TrademarkDoc)._id;
  });

  it('401 without an Authorization header', async () => {
    const body = await errorOf(await app.get(`/v1/trademarks/${markId}`, null), 401, 'unauthorized');
    expect(body.error.detail).to.contain('Authorization header missing');
  });

  it('401 for a key with the wrong prefix or shape, before any lookup', async () => {
    app.storeCalls.clear();
    await errorOf(await app.get(`/v1/trademarks/${markId}`, `sk_${'a'.repeat(48)}`), 401, 'unauthorized');
    await errorOf(await app.get(`/v1/trademarks/${markId}`, 'mq_short'), 401, 'unauthorized');
    expect(app.storeCalls.get('api_keys.findOne') ?? 0).to.equal(0);
  });

  it('401 for a well-formed key that does not exist', async () => {
    await errorOf(await app.get(`/v1/trademarks/${markId}`, `mq_${'0'.repeat(48)}`), 401, 'unauthorized');
  });

  it('reads credentials only from Authorization, never from cookies or the query string', async () => {
    await errorOf(await app.get(`/v1/trademarks/${markId}`, null, { cookie: `api_key=${app.keys.full}` }), 401, 'unauthorized');
    await errorOf(await app.get(`/v1/trademarks/${markId}?api_key=${app.keys.full}`, null), 401, 'unauthorized');
  });

  it('403 forbidden for a valid key without trademarks:read, naming the scope', async () => {
    const body = await errorOf(await app.get(`/v1/trademarks/${markId}`, app.keys.billingOnly), 403, 'forbidden');
    expect(body.error.detail).to.contain('trademarks:read');
  });

  it('honours the legacy search:read scope as read access', async () => {
    expect((await app.get(`/v1/trademarks/${markId}`, app.keys.legacy)).status).to.equal(200);
  });

  it('401 for revoked and for expired keys', async () => {
    const keys = app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys);
    const { createApiKey } = await import('../../resolvers/accounts/api-keys');
    const org = ((await keys.findOne({ secret_hash: hashApiKey(app.keys.full) })) as ApiKeyDoc).organization_id;
    const revoked = await createApiKey(app.adapters.store, { organizationId: org, name: 'to revoke', scopes: ['trademarks:read'] });
    expect((await app.get(`/v1/trademarks/${markId}`, revoked.secret)).status).to.equal(200);
    await keys.updateOne({ _id: revoked.key._id }, { $set: { revoked_at: new Date().toISOString() } });
    const body = await errorOf(await app.get(`/v1/trademarks/${markId}`, revoked.secret), 401, 'unauthorized');
    expect(body.error.detail).to.contain('revoked');
    const expired = await createApiKey(app.adapters.store, {
      organizationId: org,
      name: 'expired',
      scopes: ['trademarks:read'],
      expiresAt: '2020-01-01T00:00:00.000Z',
    });
    expect((await errorOf(await app.get(`/v1/trademarks/${markId}`, expired.secret), 401, 'unauthorized')).error.detail).to.contain('expired');
  });
});

describe('REST: envelopes, errors, CORS, health and discovery', function () {
  let app: TestApp;

  beforeShared((fixture) => {
    app = fixture.app;
  });

  it('carries the whole error envelope with request_id in body and header', async () => {
    const response = await app.get('/v1/trademarks?limit=0');
    const body = await errorOf(response, 400, 'validation_error');
    expect(Object.keys(body.error)).to.include.members(['type', 'title', 'status', 'detail', 'instance', 'suggestion', 'retryable', 'retry_after']);
    expect(body.error.instance).to.equal('/v1/trademarks');
    expect(body.error.retryable).to.equal(false);
    expect(body.error.retry_after).to.equal(null);
    expect(String(body.error.suggestion)).not.to.contain('feedback');
    expect(response.headers.get('request-id')).to.equal(body.request_id);
  });

  it('404 not_found with the error envelope for an unmatched route', async () => {
    const body = await errorOf(await app.get('/v1/no-such-thing'), 404, 'not_found');
    expect(body.request_id).to.match(/^req_/);
    await errorOf(await app.get('/v2/trademarks'), 404, 'not_found');
  });

  it('sends Access-Control-Allow-Origin: * and answers preflight requests', async () => {
    const response = await app.get('/v1/health', null);
    expect(response.headers.get('access-control-allow-origin')).to.equal('*');
    const preflight = await fetch(`${app.baseUrl}/v1/trademarks`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-headers')).to.contain('Authorization');
  });

  it('lets a browser read every limit header an answer carries (Access-Control-Expose-Headers)', async () => {
    // A metered search: RateLimit-* and X-Quota-* both.
    const response = await app.get('/v1/trademarks?q=alpha');
    expect(response.status).to.equal(200);
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());
    const limitHeaders = [...response.headers.keys()].filter((name) => name.startsWith('ratelimit') || name.startsWith('x-quota-'));
    expect(limitHeaders).to.include.members(['ratelimit', 'ratelimit-policy', 'x-quota-limit', 'x-quota-daily-reset']);
    expect(exposed).to.include.members([...limitHeaders, 'request-id', 'retry-after', 'idempotent-replayed']);
  });

  it('serves liveness without a key', async () => {
    for (const path of ['/v1/health', '/health/live']) {
      const response = await app.get(path, null);
      expect(response.status).to.equal(200);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.status).to.equal('ok');
      expect(body.request_id).to.match(/^req_/);
    }
  });

  it('reports readiness with a probe per dependency', async () => {
    const response = await app.get('/health/ready', null);
    expect(response.status).to.equal(200);
    const body = (await response.json()) as {
      status: string;
      service: string;
      uptime_ms: number;
      dependencies: Record<string, { status: string; latency_ms?: number }>;
    };
    expect(body.status).to.equal('ok');
    expect(body.service).to.equal('core-api');
    expect(body.uptime_ms).to.be.a('number');
    expect(Object.keys(body.dependencies).sort()).to.deep.equal(['cache', 'database', 'search_index']);
    for (const dependency of Object.values(body.dependencies)) {
      expect(dependency.status).to.equal('ok');
      expect(dependency.latency_ms).to.be.a('number');
    }
  });

  it('publishes an OpenAPI document generated from the route table', async () => {
    const response = await app.get('/v1/openapi.json', null);
    expect(response.status).to.equal(200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string; parameters: Array<{ name: string }> }>>;
    };
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.paths['/v1/trademarks']?.get?.operationId).to.equal('searchTrademarks');
    expect(doc.paths['/v1/trademarks']?.post).to.be.an('object');
    expect(doc.paths['/v1/trademarks/{id}']?.get?.operationId).to.equal('getTrademark');
    expect(doc.paths['/v1/trademarks/batch']?.post).to.be.an('object');
    const names = doc.paths['/v1/trademarks']?.get?.parameters.map((p) => p.name) ?? [];
    expect(names).to.include.members(['status_primary', 'filing_date_gte', 'updated_at_lt', 'owner_publicly_traded', 'include_total', 'cursor']);
  });

  it('serves the same schema over /graphql behind the same key', async () => {
    const mark = (await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({})) as TrademarkDoc;
    const query = JSON.stringify({ query: `{ trademark(id: "${mark._id}") { id mark_text owners { id } } }` });
    const denied = await fetch(`${app.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: query });
    expect(denied.status).to.equal(401);
    const response = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.full}` },
      body: query,
    });
    const body = (await response.json()) as { data: { trademark: { id: string; mark_text: string } } };
    expect(body.data.trademark).to.include({ id: mark._id, mark_text: mark.mark_text });
  });
});

describe('REST: requests the router or Node refuse still get the catalog envelope (finding 6)', function () {
  let app: TestApp;
  beforeShared((fixture) => {
    app = fixture.app;
  });

  const envelopeOf = (exchange: RawExchange) => {
    const body = JSON.parse(exchange.body) as { error: { type: string; detail: string; parameter?: string }; request_id: string };
    expect(body.request_id).to.match(/^req_/);
    expect(exchange.headers['request-id']).to.equal(body.request_id);
    return body.error;
  };

  it('400 validation_error for a path with malformed percent-encoding', async () => {
    const exchange = await rawRequest(app.directUrl, `GET /v1/trademarks/%E0%A4%A HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.keys.full}\r\n\r\n`);
    expect(exchange.status).to.equal(400);
    expect(envelopeOf(exchange)).to.include({ type: 'validation_error', parameter: 'path' });
  });

  it('400 validation_error for a path segment longer than 200 characters', async () => {
    const exchange = await rawRequest(
      app.directUrl,
      `GET /v1/trademarks/tm_${'a'.repeat(250)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.keys.full}\r\n\r\n`,
    );
    expect(exchange.status).to.equal(400);
    expect(envelopeOf(exchange).detail).to.equal('path: a path segment may be at most 200 characters');
  });

  it('400 for headers over 16 KB, then Connection: close and a graceful end, so a keep-alive client carries on', async () => {
    const big = `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`;
    const exchange = await rawRequest(app.directUrl, big);
    expect(exchange.status).to.equal(400);
    expect(exchange.headers.connection).to.equal('close');
    expect(exchange.reset).to.equal(false);
    expect(envelopeOf(exchange)).to.include({ type: 'validation_error', parameter: 'headers' });
    // A client that keeps connections alive meets no ECONNRESET on its next, valid request.
    const refused = await fetch(`${app.directUrl}/v1/health`, { headers: { 'x-big': 'a'.repeat(17_000) } });
    expect(refused.status).to.equal(400);
    expect((await fetch(`${app.directUrl}/v1/health`)).status).to.equal(200);
  });
});
