/**
 * /graphql as a hostile client would try it: every request runs the REST guards (scope per root
 * field, per-minute windows, quotas, request log), ad hoc queries stay within their limits, and
 * nothing a client sends produces a 500 or an answer outside the catalog's shape.
 */
import { expect } from 'chai';
import { COLLECTIONS, type RequestLogDoc } from '../../domain/records';
import { MAX_ALIASES, MAX_COST, MAX_DEPTH, MAX_TOKENS } from '../../rest/graphql/limits';
import { startTestApp, type TestApp } from '../support/harness';

interface GraphqlError {
  message: string;
  extensions: { code: string; type: string; status: number; detail: string; instance: string; retryable: boolean; [extra: string]: unknown };
}

interface GraphqlBody {
  data?: Record<string, unknown> | null;
  errors?: GraphqlError[];
  extensions?: { request_id?: string };
}

interface Answer {
  status: number;
  headers: Headers;
  body: GraphqlBody;
}

const SEARCH = { query: '{ searchTrademarks(filter: { offices: ["US"] }, limit: 1) { data { id } } }' };

async function graphql(
  app: TestApp,
  body: unknown,
  key: string | null = app.keys.full,
  init: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const method = init.method ?? 'POST';
  const query = method === 'GET' ? `?query=${encodeURIComponent((body as { query: string }).query)}` : '';
  const response = await fetch(`${app.baseUrl}/graphql${query}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...init.headers },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const answer = { status: response.status, headers: response.headers, body: (await response.json()) as GraphqlBody };
  // Every answer, refusals included, carries the request id in the body and the header.
  expect(answer.body.extensions?.request_id, JSON.stringify(answer.body).slice(0, 500)).to.match(/^req_/);
  expect(answer.headers.get('request-id')).to.equal(answer.body.extensions?.request_id);
  return answer;
}

/** The single error of a refused request: the status, no data entry (refused before execution), the catalog's fields. */
function refusal(answer: Answer, status: number, type: string): GraphqlError {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).to.equal(status);
  expect(answer.body).not.to.have.property('data');
  const [error] = answer.body.errors ?? [];
  expect(error?.extensions).to.include({ code: type, type, status, instance: '/graphql' });
  expect(error?.message).to.equal(error?.extensions.detail);
  return error as GraphqlError;
}

/** Runs `count` calls, `width` at a time. */
async function inParallel<T>(count: number, width: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const index = next++;
        results[index] = await call(index);
      }
    }),
  );
  return results;
}

describe('/graphql: one guarded path', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 200 });
  });

  after(async () => app.close());

  it('answers a query with the caller key, RateLimit headers and a request-log row', async () => {
    const answer = await graphql(app, SEARCH);
    expect(answer.status).to.equal(200);
    expect((answer.body.data?.searchTrademarks as { data: unknown[] }).data).to.have.length(1);
    expect(answer.headers.get('ratelimit-policy')).to.equal('1000;w=60, 10000;w=60');
    expect(answer.headers.get('x-quota-limit')).to.equal('100000');
    await app.flushRequestLogs();
    const row = await app.adapters.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs).findOne({ _id: answer.body.extensions?.request_id as string });
    expect(row).to.include({ organization_id: app.organizationId, route: '/graphql', method: 'POST', status_code: 200, error_type: null });
  });

  it('refuses a missing or malformed key with 401 before anything runs', async () => {
    refusal(await graphql(app, SEARCH, null), 401, 'unauthorized');
    refusal(await graphql(app, SEARCH, 'mq_bad'), 401, 'unauthorized');
  });

  it('checks the scope of each root field as its REST route does (finding 2)', async () => {
    for (const query of ['{ usage { object } }', '{ plan { object } }', '{ requestLogs { data { id api_key_id } } }']) {
      const error = refusal(await graphql(app, { query }, app.keys.legacy), 403, 'forbidden');
      expect(error.extensions.required_scope, query).to.equal('billing:read');
    }
    // The whole operation is refused when one of its fields is not allowed: nothing runs.
    const mixed = refusal(await graphql(app, { query: `{ ping usage { object } }` }, app.keys.legacy), 403, 'forbidden');
    expect(mixed.extensions.required_scope).to.equal('billing:read');
    refusal(await graphql(app, SEARCH, app.keys.billingOnly), 403, 'forbidden');
    expect((await graphql(app, { query: '{ usage { object } }' }, app.keys.billingOnly)).status).to.equal(200);
  });

  it('allows introspection only to keys that read the catalog', async () => {
    const error = refusal(await graphql(app, { query: '{ __schema { queryType { name } } }' }, app.keys.billingOnly), 403, 'forbidden');
    expect(error.extensions.required_scope).to.equal('trademarks:read');
    const allowed = await graphql(app, { query: '{ __schema { queryType { name } } }' });
    expect(allowed.body.data).to.deep.equal({ __schema: { queryType: { name: 'Query' } } });
  });

  it('tells a caller without a valid key nothing about the schema: 401 before validation, no "Did you mean"', async () => {
    for (const key of [null, `mq_${'0'.repeat(48)}`]) {
      for (const query of ['mutation { createApiKe }', '{ apiKey(id: "key_x") { secre } }']) {
        const answer = await graphql(app, { query }, key);
        const error = refusal(answer, 401, 'unauthorized');
        expect(JSON.stringify(answer.body)).not.to.match(/Did you mean|createApiKey|secret"/);
        expect(error.message).to.match(/API key|Authorization/);
      }
    }
    // With a key that may introspect, the suggestions help whoever writes the query.
    const withKey = refusal(await graphql(app, { query: 'mutation { createApiKe }' }), 400, 'validation_error');
    expect(withKey.message).to.contain('Did you mean');
  });

  it('answers a body of another media type (text/plain) with the catalog error naming Content-Type', async () => {
    const response = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'text/plain' },
      body: '{ ping }',
    });
    expect(response.status).to.equal(400);
    const body = (await response.json()) as { errors: Array<{ extensions: { type: string; detail: string } }>; extensions: { request_id: string } };
    expect(body.errors[0]!.extensions).to.include({ type: 'validation_error' });
    expect(body.errors[0]!.extensions.detail).to.match(/^Content-Type: /);
    expect(body.extensions.request_id).to.match(/^req_/);
  });

  it('gives a key that may not introspect no "Did you mean" either: the error, without the names', async () => {
    for (const query of ['mutation { createApiKe }', '{ apiKeyz }', '{ webhookEndpoint(id: "whk_x") { secre } }']) {
      const answer = await graphql(app, { query }, app.keys.billingOnly);
      const error = refusal(answer, 400, 'validation_error');
      expect(JSON.stringify(answer.body), query).not.to.match(/Did you mean|createApiKey|apiKeys|"secret"/);
      expect(error.message).to.match(/^Cannot query field/);
      expect(error.extensions.detail).to.equal(error.message);
    }
  });

  it('refuses oversized documents before executing them, with the limit named (findings 3 and 4)', async () => {
    const aliases = (count: number, field: string) => Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(' ');
    // 1,000 and 6,000 aliases (through one fragment): too many tokens to parse.
    expect(
      refusal(await graphql(app, { query: `{ ${aliases(1000, 'searchTrademarks(limit: 100) { data { id } }')} }` }), 400, 'validation_error').extensions.detail,
    ).to.contain(`Token limit of ${MAX_TOKENS}`);
    const fragmentBomb = `query { ...F } fragment F on Query { ${aliases(6000, 'searchTrademarks(limit: 100) { data { id } }')} }`;
    refusal(await graphql(app, { query: fragmentBomb }), 400, 'validation_error');
    // Within the token limit: the alias limit.
    expect(refusal(await graphql(app, { query: `{ ${aliases(MAX_ALIASES + 1, 'ping')} }` }), 400, 'validation_error').extensions.detail).to.contain(
      'Aliases limit',
    );
    // 5,000 nested inline fragments used to overflow the parser's stack: now the token limit refuses them.
    const nested = `{ ${'... on Query { '.repeat(5000)}ping${' }'.repeat(5000)} }`;
    refusal(await graphql(app, { query: nested }), 400, 'validation_error');
    // Depth, fragments flattened.
    const deep = `{ ${'__type(name: "Query") { ofType { '.repeat(1)}${'ofType { '.repeat(MAX_DEPTH)}name${' }'.repeat(MAX_DEPTH + 2)} }`;
    expect(refusal(await graphql(app, { query: deep }), 400, 'validation_error').extensions.detail).to.contain('Query depth limit');
  });

  it('counts a limit argument in the cost, and refuses an operation over the cost limit', async () => {
    const page =
      'searchTrademarks(filter: { offices: ["US"] }, limit: 100) { data { id mark_text owners { id name } classifications { nice_class goods_services_text } } }';
    // Each page costs 1 + 100 × (1 + 8) = 901; twelve of them (within the alias limit) cost 10,812.
    const query = `{ ${Array.from({ length: 12 }, (_, i) => `p${i}: ${page}`).join(' ')} }`;
    const error = refusal(await graphql(app, { query }), 400, 'validation_error');
    expect(error.extensions.detail).to.match(new RegExp(`^query: costs \\d+ units, more than the ${MAX_COST}`));
    // The same page once is within the limit and runs.
    expect((await graphql(app, { query: `{ ${page} }` })).status).to.equal(200);
  });

  it('counts the items of a batch in the cost: aliases cannot multiply the REST batch limit', async () => {
    const items = Array.from({ length: 1000 }, () => ({ jurisdiction: 'US', registration_date: '2015-03-01' }));
    const compute = 'computeDeadlines(items: $items) { data { deadlines { type due_date } } }';
    // One computation costs 1 + 1,000 × (1 + 1 × (1 + 2)) = 4,001; three of them 12,003.
    const three = `query ($items: [DeadlineItemInput!]!) { ${[1, 2, 3].map((i) => `c${i}: ${compute}`).join(' ')} }`;
    const error = refusal(await graphql(app, { query: three, variables: { items } }), 400, 'validation_error');
    expect(error.extensions.detail).to.match(new RegExp(`^query: costs 12003 units, more than the ${MAX_COST}`));
    expect((await graphql(app, { query: `query ($items: [DeadlineItemInput!]!) { ${compute} }`, variables: { items } })).status).to.equal(200);
  });

  it('keeps graphql-yoga statuses in the catalog shape: batches 400, mutations over GET 405, unknown fields 400', async () => {
    expect(refusal(await graphql(app, [{ query: '{ ping }' }, { query: '{ ping }' }]), 400, 'validation_error').extensions.detail).to.contain('Batching');
    refusal(await graphql(app, { query: 'mutation { revokeApiKey(id: "key_x") { id } }' }, app.keys.full, { method: 'GET' }), 405, 'method_not_allowed');
    expect(refusal(await graphql(app, { query: '{ nope }' }), 400, 'validation_error').extensions.detail).to.contain('Cannot query field "nope"');
    refusal(await graphql(app, '{"query": '), 400, 'validation_error');
  });

  it('renders resolver errors with the catalog fields and the field path', async () => {
    const answer = await graphql(app, { query: '{ trademark(id: "tm_zzzzzzzzzzzzzzzzzzzz") { id } }' });
    expect(answer.status).to.equal(404);
    const [error] = answer.body.errors ?? [];
    expect(error?.extensions).to.include({ type: 'not_found', status: 404 });
    expect((error as unknown as { path: string[] }).path).to.deep.equal(['trademark']);
  });

  it('serves GraphiQL without a key and with every asset inline (no CDN)', async () => {
    const response = await fetch(`${app.baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).to.equal(200);
    const html = await response.text();
    expect(html).to.contain('<title>Marque GraphQL</title>');
    expect(html).not.to.match(/<script[^>]+src=|<link[^>]+href="https?:/);
    expect(html).not.to.match(/unpkg\.com|jsdelivr|cdnjs/);
  });
});

describe('/graphql: the same per-minute window and quota as REST (finding 1)', function () {
  this.timeout(180_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 100 });
  });

  after(async () => app.close());

  it('1,500 searches over GraphQL meet the 429 and the usage count REST meets', async () => {
    // The beta plan allows 1,000 search calls a minute; org A searches over GraphQL, org B over REST.
    const overGraphql = await inParallel(1500, 25, async () => (await graphql(app, SEARCH)).status);
    const overRest = await inParallel(1500, 25, async () => (await app.get('/v1/trademarks?offices=US&limit=1', app.keys.otherOrg)).status);
    const tally = (statuses: number[]) => ({ ok: statuses.filter((s) => s === 200).length, limited: statuses.filter((s) => s === 429).length });
    expect(tally(overGraphql)).to.deep.equal({ ok: 1000, limited: 500 });
    expect(tally(overRest)).to.deep.equal(tally(overGraphql));
    const used = async (key: string) =>
      ((await (await app.get('/v1/organization/usage', key)).json()) as { by_endpoint_type: { search: { used: number } } }).by_endpoint_type.search.used;
    expect(await used(app.keys.full)).to.equal(1000);
    expect(await used(app.keys.otherOrg)).to.equal(1000);
    const limited = refusal(await graphql(app, SEARCH), 429, 'rate_limited');
    expect(limited.extensions.retryable).to.equal(true);
    expect(Number(limited.extensions.retry_after)).to.be.greaterThan(0);
  });
});
