/**
 * A hostile client, generated: for every route of the route table, requests whose path, query and
 * body come from fast-check arbitraries built from the route's own parameter specs (valid values,
 * values just outside each rule, wrong types, junk, unknown parameters), plus a fixed corpus of the
 * cases the fuzz report found. Every answer must be below 500, JSON, and either a success or the
 * catalog's error envelope with a request id; nothing may hang.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_CATALOG } from '../../domain/errors';
import { buildRouteTable } from '../../rest/route-table';
import type { RouteDef } from '../../rest/route';
import { paramsOf, junkString } from '../support/fuzz-values';
import { startTestApp, type TestApp } from '../support/harness';
import { rawRequest } from '../support/raw-http';

/** Requests per route; about 70 routes make a few thousand requests in all. */
const RUNS_PER_ROUTE = 40;
const SEED = 20261124;

function queryString(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    search.append(name, Array.isArray(value) ? value.map(String).join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

interface Generated {
  path: string;
  body: string | undefined;
  key: 'full' | 'otherOrg' | 'billingOnly' | 'none' | 'malformed';
  idempotencyKey: string | undefined;
}

function requestsFor(route: RouteDef): fc.Arbitrary<Generated> {
  return fc
    .record({
      pathParams: paramsOf(route.pathParams),
      query: paramsOf(route.query),
      body: route.body
        ? fc.oneof({ weight: 4, arbitrary: paramsOf(route.body).map((b) => JSON.stringify(b)) }, { weight: 1, arbitrary: junkString })
        : fc.constant(undefined),
      key: fc.constantFrom('full', 'full', 'full', 'otherOrg', 'billingOnly', 'none', 'malformed') as fc.Arbitrary<Generated['key']>,
      idempotencyKey: fc.option(fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), junkString), { nil: undefined }),
    })
    .map(({ pathParams, query, body, key, idempotencyKey }) => {
      const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => encodeURIComponent(String(pathParams[name] ?? 'x')));
      return { path: `${path}${queryString(query)}`, body, key, idempotencyKey };
    });
}

interface Checked {
  status: number;
}

/** Sends one request and checks the answer's shape; returns the status. */
async function sendChecked(app: TestApp, method: string, request: Generated): Promise<Checked> {
  const keys: Record<Generated['key'], string | null> = {
    full: app.keys.full,
    otherOrg: app.keys.otherOrg,
    billingOnly: app.keys.billingOnly,
    none: null,
    malformed: 'mq_nothex',
  };
  const key = keys[request.key];
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  if (request.idempotencyKey !== undefined && /^[\x20-\x7e]*$/.test(request.idempotencyKey)) headers['idempotency-key'] = request.idempotencyKey;
  const response = await fetch(`${app.baseUrl}${request.path}`, { method, headers, body: request.body, signal: AbortSignal.timeout(20_000) });
  const text = await response.text();
  const where = `${method} ${request.path.slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
  expect(response.status, where).to.be.below(500);
  if (response.status === 304 || response.status === 204) return { status: response.status };
  const body = JSON.parse(text) as { error?: { type: string; status: number }; request_id?: string };
  expect(response.headers.get('request-id'), where).to.match(/^req_/);
  if (response.status >= 400) {
    expect(body.error?.type, where).to.be.oneOf(Object.keys(ERROR_CATALOG));
    expect(body.error?.status, where).to.equal(response.status);
    expect(body.request_id, where).to.equal(response.headers.get('request-id'));
  }
  return { status: response.status };
}

describe('fuzz: generated requests to every route, and the corpus of known nasty cases', function () {
  this.timeout(300_000);
  let app: TestApp;
  const routes = buildRouteTable({ version: 'fuzz', health: { startedAt: 0, now: () => 0, isShuttingDown: () => false, probes: [] } });

  before(async () => {
    // Limits high enough that requests reach the deeper stages instead of stopping at 429.
    const perMinute = { search: 1_000_000, read: 1_000_000, check: 1_000_000, monitoring: 1_000_000, reference: 1_000_000, utility: 1_000_000 };
    const tiers = { reads: 1_000_000, search: 1_000_000, writes: 1_000_000, mcp: 1_000_000 };
    app = await startTestApp({ marks: 150, organization: { limitsOverride: { per_minute: perMinute, tier_ceilings: tiers } } });
  });

  after(async () => app.close());

  for (const route of routes) {
    it(`${route.method} ${route.path}: ${RUNS_PER_ROUTE} generated requests, none 5xx, every error in the envelope`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestsFor(route), async (request) => {
          const { status } = await sendChecked(app, route.method, request);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
      );
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).to.equal(RUNS_PER_ROUTE);
    });
  }

  describe('the corpus of the fuzz report', () => {
    const post = (path: string, body: string, headers: Record<string, string> = {}, baseUrl = app.baseUrl) =>
      fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json', ...headers },
        body,
      });
    const expectCatalogError = async (response: Response, status: number) => {
      const text = await response.text();
      expect(response.status, text.slice(0, 300)).to.equal(status);
      const body = JSON.parse(text) as {
        error?: { type: string };
        errors?: Array<{ extensions: { type: string } }>;
        request_id?: string;
        extensions?: { request_id?: string };
      };
      expect(body.request_id ?? body.extensions?.request_id).to.match(/^req_/);
      expect(body.error?.type ?? body.errors?.[0]?.extensions.type).to.be.oneOf(Object.keys(ERROR_CATALOG));
    };

    it('a 15 KB body nested 3,000 levels, with an Idempotency-Key', async () => {
      await expectCatalogError(await post('/v1/organization/api-keys', `${'['.repeat(3000)}${']'.repeat(3000)}`, { 'idempotency-key': 'deep' }), 400);
      await expectCatalogError(
        await post('/v1/feedback', `{"type":"bug","message":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`, { 'idempotency-key': 'deep-2' }),
        400,
      );
    });

    it('GraphQL: batched arrays, 5,000 nested fragments, 6,000 aliases, a mutation over GET', async () => {
      await expectCatalogError(await post('/graphql', '[{"query":"{ ping }"},{"query":"{ ping }"}]'), 400);
      await expectCatalogError(await post('/graphql', JSON.stringify({ query: `{ ${'... on Query { '.repeat(5000)}ping${' }'.repeat(5000)} }` })), 400);
      const aliases = Array.from({ length: 6000 }, (_, i) => `a${i}: searchTrademarks(limit: 100) { data { id } }`).join(' ');
      await expectCatalogError(await post('/graphql', JSON.stringify({ query: `query { ...F } fragment F on Query { ${aliases} }` })), 400);
      const get = await fetch(`${app.baseUrl}/graphql?query=${encodeURIComponent('mutation { revokeApiKey(id: "key_x") { id } }')}`, {
        headers: { authorization: `Bearer ${app.keys.full}` },
      });
      await expectCatalogError(get, 405);
    });

    it('malformed JSON, a JSON scalar body, a wrong content type, a 2 MB body', async () => {
      await expectCatalogError(await post('/v1/trademarks', '{"offices": ['), 400);
      await expectCatalogError(await post('/v1/trademarks', '"just a string"'), 400);
      await expectCatalogError(await post('/v1/trademarks', 'offices=US', { 'content-type': 'application/x-www-form-urlencoded' }), 400);
      // The server stops reading the body at its limit: sent to it directly, as a front would see its pipe break.
      await expectCatalogError(await post('/v1/trademarks', JSON.stringify({ q: 'x'.repeat(2 * 1024 * 1024) }), {}, app.directUrl), 400);
    });

    it('bad percent-encoding, an overlong path segment and oversized headers, on the raw socket', async () => {
      for (const request of [
        `GET /v1/trademarks/%E0%A4%A HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.keys.full}\r\n\r\n`,
        `GET /v1/owners/own_${'9'.repeat(5000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.keys.full}\r\n\r\n`,
        `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
        `BREW /v1/health HTTP/1.1\r\nHost: x\r\n\r\n`,
      ]) {
        const exchange = await rawRequest(app.directUrl, request);
        expect(exchange.status, request.slice(0, 60) + exchange.text.slice(0, 200)).to.be.within(400, 499);
        expect((JSON.parse(exchange.body) as { request_id: string }).request_id).to.match(/^req_/);
        expect(exchange.reset).to.equal(false);
      }
      // A bad escape in the query string is read as the literal text, as browsers and most servers do.
      const literal = await rawRequest(app.directUrl, `GET /v1/trademarks?q=%ZZ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.keys.full}\r\n\r\n`);
      expect(literal.status).to.equal(200);
      expect((JSON.parse(literal.body) as { data?: unknown[] }).data).to.be.an('array');
    });
  });
});
