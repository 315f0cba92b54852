/**
 * /mcp as an agent uses it (issue 17): the official SDK client connects over streamable HTTP,
 * lists the tools, calls them, and every structuredContent is checked against its tool's
 * outputSchema with AJV. OAuth access tokens are signed by a test key whose set a local JWKS
 * server publishes. `marque mcp` answers tools/list over stdio.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { SignJWT, type JWTPayload } from 'jose';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAdapters, openAdapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';
import { COLLECTIONS, type ApiKeyDoc, type RequestLogDoc, type TrademarkDoc } from '../../domain/records';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { startTestApp, type TestApp } from '../support/harness';
import { JwksServer, signingKey, type SigningKey } from '../support/jwks-server';
import { MARQUE } from '../support/serve-process';

interface ErrorEnvelope {
  error: { type: string; status: number; detail: string; parameter?: string };
}

/** The SDK client over HTTP with `authorization` (a key or a token). */
async function connect(app: TestApp, credential: string): Promise<Client> {
  const client = new Client({ name: 'marque-test-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }),
  );
  return client;
}

const textOf = (result: CallToolResult): string => (result.content[0] as { type: 'text'; text: string }).text;

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};

/** One JSON-RPC message POSTed to /mcp as a client without the SDK would. */
function postMcp(app: TestApp, message: unknown, credential: string | null): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (credential !== null) headers.authorization = `Bearer ${credential}`;
  return fetch(`${app.baseUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
}

describe('mcp: tools over streamable HTTP with an API key (issue 17)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let client: Client;
  let tools: Tool[];
  const validators = new Map<string, ValidateFunction>();
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);

  before(async () => {
    app = await startTestApp({ marks: 200, organization: { plan: 'pro' } });
    client = await connect(app, app.keys.full);
    tools = (await client.listTools()).tools;
    for (const tool of tools) validators.set(tool.name, ajv.compile(tool.outputSchema as object));
  });
  after(async () => {
    await client.close();
    await app.close();
  });

  /** Calls a tool that must succeed; its structuredContent must match the tool's outputSchema and equal the text content. */
  async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError ?? false, `${name}: ${textOf(result)}`).to.equal(false);
    const validate = validators.get(name) as ValidateFunction;
    expect(validate(result.structuredContent), `${name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    expect(JSON.parse(textOf(result))).to.deep.equal(result.structuredContent);
    return result.structuredContent as T;
  }

  async function failure(name: string, args: Record<string, unknown>, using: Client = client): Promise<ErrorEnvelope['error']> {
    const result = (await using.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError).to.equal(true);
    return (JSON.parse(textOf(result)) as ErrorEnvelope).error;
  }

  it('lists a tool for every route the table marks, with input and output schemas, annotations and a description', async () => {
    const names = tools.map((tool) => tool.name);
    // The spec's account and watch tool names, with the service prefix marque.
    expect(names).to.include.members([
      'get_usage',
      'get_usage_summary',
      'get_account',
      'marque_watches_create',
      'marque_watches_update',
      'marque_watches_delete',
      'pause_watch',
      'resume_watch',
      'preview_watch',
      'get_watch_diagnostics',
      'list_alerts_for_watch',
      'lookup_alert',
    ]);
    expect(names.filter((name) => name.startsWith('marque_webhooks_'))).to.have.length.of.at.least(5);
    // The spec's reads: trademarks, owners, entities, attorneys, firms, proceedings, watches, alerts, webhooks, reference data.
    expect(names).to.include.members([
      'search_trademarks',
      'get_trademark',
      'list_owners',
      'get_owner',
      'list_entities',
      'list_attorneys',
      'list_firms',
      'list_proceedings',
      'list_watches',
      'list_alerts',
      'marque_webhooks_list',
      'list_offices',
      'list_jurisdictions',
      'list_classifications',
      'suggest_goods_services',
      'list_design_codes',
      'list_deadline_rules',
      'compute_deadlines',
      'compute_opposition_windows',
    ]);
    expect(new Set(names).size).to.equal(names.length);
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).to.equal('object');
      expect(tool.outputSchema?.type, tool.name).to.equal('object');
      expect(tool.description, tool.name).to.have.length.above(40);
      expect(tool.annotations, tool.name).to.include.keys('readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('search_trademarks')?.annotations).to.include({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('marque_watches_delete')?.annotations).to.include({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('marque_watches_create')?.annotations).to.include({ readOnlyHint: false, idempotentHint: false });
    // POSTs that set a state: repeating one changes nothing more (checked on the watch below).
    for (const name of ['pause_watch', 'resume_watch', 'add_portfolio_trademarks', 'remove_portfolio_trademarks'])
      expect(byName.get(name)?.annotations, name).to.include({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(byName.get('marque_webhooks_redeliver')?.annotations).to.include({ idempotentHint: false });
    expect(byName.get('get_trademark')?.inputSchema.required).to.deep.equal(['id']);
  });

  it('sends a clearance check to preview_watch, naming the scope it needs, since search finds words and word beginnings only', () => {
    const instructions = client.getInstructions()!;
    expect(instructions).to.contain('preview_watch').and.to.contain('portfolios:manage');
    expect(instructions).to.contain('search_trademarks; it does not find other spellings');
  });

  it('tells of paging exactly the tools that take a cursor, and never promises a tool a secret it will not see', () => {
    const pagingText = 'Lists are paged: pass pagination.cursor';
    for (const tool of tools) {
      const takesCursor = Object.keys(tool.inputSchema.properties ?? {}).includes('cursor');
      expect(tool.description!.includes(pagingText), tool.name).to.equal(takesCursor);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // One page by design: their descriptions must not send an agent after a next page.
    for (const name of ['suggest_trademarks', 'compute_deadlines', 'list_offices', 'get_trademarks_batch'])
      expect(byName.get(name)?.description).not.to.contain(pagingText);
    expect(byName.get('search_trademarks')?.description).to.contain(pagingText);
    // Secrets are redacted from tool results (the test below), so the description says so instead of "shown this once".
    const create = byName.get('marque_webhooks_create')!.description!;
    expect(create).to.contain('redacted');
    expect(create).not.to.contain('shown this once');
  });

  it('answers reads: search, detail, owner, a reference list, deadlines and the account', async () => {
    const found = await call<{ data: Array<{ id: string; owner_id: string | null }> }>('search_trademarks', { offices: ['US'], limit: 5 });
    expect(found.data.length).to.be.within(1, 5);
    const stored = (await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds([found.data[0]!.id]))[0] as TrademarkDoc;
    const detail = await call<{ id: string; mark_text: string; office_code: string }>('get_trademark', { id: stored._id });
    expect(detail).to.include({ id: stored._id, mark_text: stored.mark_text, office_code: 'US' });
    const owners = await call<{ data: Array<{ id: string }> }>('list_owners', { limit: 1 });
    const owner = await call<{ id: string }>('get_owner', { id: owners.data[0]!.id });
    expect(owner.id).to.equal(owners.data[0]!.id);
    await call('list_owner_trademarks', { id: owner.id, limit: 3 });
    const offices = await call<{ data: Array<{ code: string }> }>('list_offices');
    expect(offices.data.map((office) => office.code)).to.include.members(['US', 'EM']);
    await call('list_classifications', { kind: 'services' });
    // A US registration of 2020-03-10: the section 8 declaration is due six years on (15 U.S.C. 1058).
    const deadlines = await call<{ data: Array<{ deadlines: Array<{ type: string; due_date: string }> }> }>('compute_deadlines', {
      items: [{ jurisdiction: 'US', registration_date: '2020-03-10' }],
      as_of_date: '2025-06-01',
    });
    expect(JSON.stringify(deadlines)).to.contain('2026-03-10');
    const account = await call<{ plan: string }>('get_account');
    expect(JSON.stringify(account)).to.contain('pro');
    await call('get_usage_summary');
  });

  it('runs a watch through its life: create, pause, read, delete', async () => {
    const watch = await call<{ id: string; status: string }>('marque_watches_create', {
      watch_type: 'filter',
      query: { filters: { offices: ['us'], niceClasses: [9] } },
      idempotency_key: 'mcp-watch-1',
    });
    expect(watch.status).to.equal('active');
    // The same idempotency key replays the creation instead of making a second watch.
    const again = await call<{ id: string }>('marque_watches_create', {
      watch_type: 'filter',
      query: { filters: { offices: ['us'], niceClasses: [9] } },
      idempotency_key: 'mcp-watch-1',
    });
    expect(again.id).to.equal(watch.id);
    // Annotated idempotent: pausing or resuming again (a new call, its own key) leaves the watch as it was.
    const withoutRequestId = ({ request_id: _requestId, ...rest }: Record<string, unknown>) => rest;
    const paused = withoutRequestId(await call('pause_watch', { id: watch.id }));
    expect(paused.status).to.equal('paused');
    expect(withoutRequestId(await call('pause_watch', { id: watch.id }))).to.deep.equal(paused);
    expect((await call<{ id: string; status: string }>('get_watch', { id: watch.id })).status).to.equal('paused');
    const resumed = withoutRequestId(await call('resume_watch', { id: watch.id }));
    expect(resumed.status).to.equal('active');
    expect(withoutRequestId(await call('resume_watch', { id: watch.id }))).to.deep.equal(resumed);
    await call('pause_watch', { id: watch.id });
    await call('get_watch_diagnostics', { id: watch.id });
    await call('list_alerts_for_watch', { id: watch.id });
    expect(await call('marque_watches_delete', { id: watch.id })).to.include({ id: watch.id, deleted: true });
    expect((await failure('get_watch', { id: watch.id })).type).to.equal('not_found');
  });

  it('compute_deadlines takes null item dates, as its schema says ("string or null")', async () => {
    const compute = tools.find((tool) => tool.name === 'compute_deadlines') as Tool;
    const items = (compute.inputSchema.properties as Record<string, { items: { properties: Record<string, { type: unknown }> } }>).items;
    expect(items?.items.properties.registration_date?.type).to.deep.equal(['string', 'null']);
    const answer = await call<{ data: Array<{ supported: boolean; deadlines: unknown[] }> }>('compute_deadlines', {
      items: [{ jurisdiction: 'US', filing_date: '2015-03-02', registration_date: '2016-01-05', expiry_date: null, protection_grant_date: null }],
      as_of_date: '2020-01-01',
    });
    expect(answer.data[0]?.supported).to.equal(true);
    expect(answer.data[0]?.deadlines.length).to.be.greaterThan(0);
  });

  it("keeps a portfolio's marks: create with one, add two, remove one, list what is left", async () => {
    const marks = await call<{ data: Array<{ id: string }> }>('search_trademarks', { offices: ['US'], limit: 3 });
    const [a, b, c] = marks.data.map((mark) => mark.id) as [string, string, string];
    const portfolio = await call<{ id: string }>('create_portfolio', { name: 'Agent portfolio', trademark_ids: [a] });
    await call('add_portfolio_trademarks', { id: portfolio.id, trademark_ids: [b, c] });
    await call('remove_portfolio_trademarks', { id: portfolio.id, trademark_ids: [a] });
    const left = await call<{ data: Array<{ id: string }> }>('list_portfolio_trademarks', { id: portfolio.id });
    expect(left.data.map((mark) => mark.id).sort()).to.deep.equal([b, c].sort());
    await call('delete_portfolio', { id: portfolio.id });
  });

  it('never shows a webhook signing secret', async () => {
    const created = await call<{ id: string; secret: string }>('marque_webhooks_create', { url: 'http://127.0.0.1:9/hook' });
    expect(created.secret).not.to.match(/^whsec_/);
    expect(created.secret).to.contain('redacted');
    const listed = await call<{ data: Array<Record<string, unknown>> }>('marque_webhooks_list');
    expect(listed.data.every((endpoint) => !('secret' in endpoint))).to.equal(true);
    await call('marque_webhooks_delete', { id: created.id });
  });

  it("a tool's idempotency key is not replayed over HTTP, so the signing secret the tool withheld stays unread", async () => {
    const body = { url: 'http://127.0.0.1:9/replayed', enabled_events: ['alert.created'] };
    const created = await call<{ id: string; secret: string }>('marque_webhooks_create', { ...body, idempotency_key: 'mcp-webhook-1' });
    expect(created.secret).to.contain('redacted');
    // The same key, body and API key over REST: another request, refused, and no secret in the answer.
    const replay = await fetch(`${app.baseUrl}/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json', 'idempotency-key': 'mcp-webhook-1' },
      body: JSON.stringify(body),
    });
    const text = await replay.text();
    expect(replay.status, text).to.equal(409);
    expect(JSON.parse(text).error.type).to.equal('conflict');
    expect(text).not.to.match(/whsec_/);
    // The tool itself still replays its own call.
    const again = await call<{ id: string }>('marque_webhooks_create', { ...body, idempotency_key: 'mcp-webhook-1' });
    expect(again.id).to.equal(created.id);
    await call('marque_webhooks_delete', { id: created.id });
  });

  it('bad arguments and unknown tools are tool errors naming the argument and the rule; the session goes on', async () => {
    const limit = await failure('search_trademarks', { limit: 1000 });
    expect(limit).to.include({ type: 'validation_error', status: 400 });
    expect(limit.detail).to.contain('limit');
    expect((await failure('search_trademarks', { colour: 'blue' })).detail).to.contain('colour');
    expect((await failure('get_trademark', {})).detail).to.contain('id');
    expect((await failure('get_trademark', { id: 'own_01m89anx9728jf1m11smthkh' })).type).to.equal('id_type_mismatch');
    expect((await failure('no_such_tool', {})).type).to.equal('not_found');
    await call('list_offices');
  });

  it('arguments that travel as text are checked first: an object for q, ".." for an id, a malformed idempotency_key are refused by name', async () => {
    const objectQuery = await failure('search_trademarks', { q: { a: 1 } });
    expect(objectQuery).to.include({ type: 'validation_error', parameter: 'q' });
    // ".." would be a dot segment of the path: GET /v1/portfolios/../trademarks is GET /v1/trademarks.
    for (const [tool, extra] of [
      ['get_owner', {}],
      ['list_portfolio_trademarks', { offices: ['US'] }],
    ] as const) {
      for (const id of ['..', '.']) expect(await failure(tool, { id, ...extra })).to.include({ type: 'validation_error', parameter: 'id' });
    }
    const watch = { watch_type: 'filter', query: { filters: { offices: ['us'] } } };
    for (const key of ['pause watch 2026-11-26:1', '', { nested: true }]) {
      expect(await failure('marque_watches_create', { ...watch, idempotency_key: key })).to.include({ type: 'validation_error', parameter: 'idempotency_key' });
    }
    const create = tools.find((tool) => tool.name === 'marque_watches_create') as Tool;
    const keySchema = (create.inputSchema.properties as Record<string, { pattern?: string }>).idempotency_key;
    expect(new RegExp(keySchema?.pattern ?? '').test('pause watch')).to.equal(false);
    await call('list_offices');
  });

  it('malformed JSON-RPC params are -32602 invalid params, not -32603 internal error', async () => {
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_trademark', arguments: 'x' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 5 } },
    ]) {
      const response = await postMcp(app, message, app.keys.full);
      expect(response.status).to.equal(200);
      const answer = (await response.json()) as { id: number; error?: { code: number; message: string } };
      expect(answer.id).to.equal(message.id);
      expect(answer.error?.code, JSON.stringify(answer)).to.equal(-32602);
    }
  });

  it('a key without portfolios:manage gets a tool error naming the scope, and its session continues', async () => {
    const { secret } = await createApiKey(app.adapters.store, { organizationId: app.organizationId, name: 'reader', scopes: ['trademarks:read'] });
    const reader = await connect(app, secret);
    try {
      const refused = await failure('marque_watches_create', { watch_type: 'filter', query: { filters: { offices: ['us'] } } }, reader);
      expect(refused).to.include({ type: 'forbidden', status: 403 });
      expect(refused.detail).to.contain('portfolios:manage');
      const after = (await reader.callTool({ name: 'list_offices', arguments: {} })) as CallToolResult;
      expect(after.isError ?? false).to.equal(false);
    } finally {
      await reader.close();
    }
  });

  it("the organization is the credential's: another organization's watch is not found", async () => {
    const other = await connect(app, app.keys.otherOrg);
    try {
      const theirs = (await other.callTool({
        name: 'marque_watches_create',
        arguments: { watch_type: 'filter', query: { filters: { offices: ['em'] } } },
      })) as CallToolResult;
      const watchId = (theirs.structuredContent as { id: string }).id;
      expect((await failure('get_watch', { id: watchId })).type).to.equal('not_found');
      expect((await call<{ data: Array<{ id: string }> }>('list_watches')).data.map((watch) => watch.id)).not.to.include(watchId);
    } finally {
      await other.close();
    }
  });

  it('tool calls are metered and logged like the routes behind them, with the key', async () => {
    await call('list_jurisdictions');
    await app.flushRequestLogs();
    const rows = await app.adapters.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs).find({ route: '/v1/jurisdictions' });
    expect(rows.length).to.be.at.least(1);
    expect(rows.at(-1)).to.include({ organization_id: app.organizationId, method: 'GET', status_code: 200 });
    expect(rows.at(-1)?.api_key_id).to.match(/^key_/);
  });

  it('answers the handshake and tool calls with Access-Control-Allow-Origin: * and a Request-Id (spec, Request conventions 7), and the handshake with the rate-limit headers', async () => {
    const initialized = await postMcp(app, INITIALIZE, app.keys.full);
    expect(initialized.status).to.equal(200);
    expect(initialized.headers.get('access-control-allow-origin')).to.equal('*');
    expect(initialized.headers.get('request-id')).to.match(/^req_/);
    // Utility pool of the pro plan (1,000 a minute, "other") and the MCP tier ceiling (1,000): one entry.
    expect(initialized.headers.get('ratelimit-policy')).to.equal('1000;w=60');
    expect(initialized.headers.get('ratelimit')).to.match(/^remaining=\d+, reset=\d+$/);
    const called = await postMcp(app, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_firms', arguments: {} } }, app.keys.full);
    expect(called.status).to.equal(200);
    expect(called.headers.get('access-control-allow-origin')).to.equal('*');
    expect(called.headers.get('request-id')).to.match(/^req_/);
    // The route's limits: the search pool (1,000 a minute on pro) and the MCP tier (1,000), and the search quota.
    expect(called.headers.get('ratelimit-policy')).to.equal('1000;w=60');
    expect(called.headers.get('x-quota-limit')).to.match(/^\d+$/);
    expect(called.headers.get('retry-after')).to.equal(null);
    expect(((await called.json()) as { result?: { isError?: boolean } }).result?.isError ?? false).to.equal(false);
  });

  it('401 without a credential, with the resource metadata in WWW-Authenticate; a forged internal-call header gains nothing', async () => {
    const bare = await postMcp(app, INITIALIZE, null);
    expect(bare.status).to.equal(401);
    expect(bare.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource"`);
    const forged = await fetch(`${app.baseUrl}/v1/offices`, { headers: { 'x-marque-internal-call': 'guessed-ticket' } });
    expect(forged.status).to.equal(401);
    const metadata = await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource`);
    const body = (await metadata.json()) as Record<string, unknown>;
    // No authorization server configured: API keys only, and the document says so by listing none.
    expect(body).to.deep.include({ resource: `${app.baseUrl}/mcp`, authorization_servers: [], bearer_methods_supported: ['header'] });
    // Spec (MCP server): scopes_supported (`read`, `search`, `offline_access`).
    expect(body.scopes_supported).to.deep.equal(['read', 'search', 'offline_access']);
    // Spec (Response envelopes, rule 1): every response carries request_id, as its Request-Id header.
    expect(body.request_id).to.match(/^req_/).and.to.equal(metadata.headers.get('request-id'));
  });
});

describe('mcp: OAuth 2.1 access tokens (issue 17)', function () {
  this.timeout(60_000);
  const jwks = new JwksServer();
  let app: TestApp;
  let authUrl: string;
  let key: SigningKey;

  before(async () => {
    authUrl = await jwks.start();
    key = await signingKey('test-key-1');
    jwks.published = [key.jwk];
    app = await startTestApp({ marks: 50, mcp: { authUrl } });
  });
  after(async () => {
    await app.close();
    await jwks.stop();
  });

  const token = async (overrides: JWTPayload = {}, signer: SigningKey = key) =>
    new SignJWT({
      sub: 'usr_agent',
      org_id: app.organizationId,
      scope: 'read search',
      aud: `${app.baseUrl}/mcp`,
      iss: `${authUrl}/api/auth`,
      exp: Math.floor(Date.now() / 1000) + 600,
      ...overrides,
    })
      .setProtectedHeader({ alg: 'ES256', kid: signer.kid })
      .sign(signer.privateKey);

  const refusal = async (credential: string): Promise<{ status: number; detail: string; challenge: string | null }> => {
    const response = await fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    const body = (await response.json()) as ErrorEnvelope;
    return { status: response.status, detail: body.error.detail, challenge: response.headers.get('www-authenticate') };
  };

  it('publishes the authorization server in the RFC 9728 metadata', async () => {
    const body = (await (await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(body).to.deep.include({ resource: `${app.baseUrl}/mcp`, authorization_servers: [`${authUrl}/api/auth`], bearer_methods_supported: ['header'] });
  });

  it('accepts a valid token: read tools work, metered to its organization with no API key; a watch tool names the missing scope', async () => {
    const client = await connect(app, await token());
    try {
      const offices = (await client.callTool({ name: 'list_offices', arguments: {} })) as CallToolResult;
      expect(offices.isError ?? false).to.equal(false);
      const refused = (await client.callTool({
        name: 'marque_watches_create',
        arguments: { watch_type: 'filter', query: { filters: { offices: ['us'] } } },
      })) as CallToolResult;
      expect(refused.isError).to.equal(true);
      expect(textOf(refused)).to.contain('portfolios:manage');
    } finally {
      await client.close();
    }
    await app.flushRequestLogs();
    const [row] = await app.adapters.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs).find({ route: '/v1/offices' });
    expect(row).to.include({ organization_id: app.organizationId, api_key_id: null, status_code: 200 });

    const manager = await connect(app, await token({ scope: 'read portfolios:manage' }));
    try {
      const created = (await manager.callTool({
        name: 'marque_watches_create',
        arguments: { watch_type: 'filter', query: { filters: { offices: ['us'] } } },
      })) as CallToolResult;
      expect(created.isError ?? false, textOf(created)).to.equal(false);
    } finally {
      await manager.close();
    }
  });

  it('refuses an expired token, the wrong audience, the wrong issuer and an unknown key with 401 and the metadata challenge', async () => {
    const stranger = await signingKey('not-published');
    const cases: Array<[string, string]> = [
      [await token({ exp: Math.floor(Date.now() / 1000) - 60 }), 'expired'],
      [await token({ aud: 'https://elsewhere.example/mcp' }), 'audience'],
      [await token({ iss: 'https://evil.example/api/auth' }), 'issuer'],
      [await token({}, stranger), 'key'],
    ];
    for (const [credential, word] of cases) {
      const answer = await refusal(credential);
      expect(answer.status, word).to.equal(401);
      expect(answer.detail.toLowerCase(), word).to.contain(word);
      expect(answer.challenge).to.contain('resource_metadata=');
    }
    const orphan = await refusal(await token({ org_id: 'org_01m89anx9728jf1m11smthkh' }));
    expect(orphan.status).to.equal(401);
    expect(orphan.detail).to.contain('no organization');
  });
});

describe('mcp: the mcp transport tier (issue 17)', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 20, organization: { limitsOverride: { tier_ceilings: { mcp: 5 }, per_minute: { utility: 3 } } } });
  });
  after(async () => app.close());

  it('tool calls spend the mcp ceiling (here 5 a minute, 2 of them spent by the handshake): the fourth call is a rate_limited tool error, while REST calls are unaffected', async () => {
    // The handshake is two POSTs: initialize and the initialized notification.
    const client = await connect(app, app.keys.full);
    try {
      for (let i = 0; i < 3; i++) {
        const result = (await client.callTool({ name: 'list_jurisdictions', arguments: {} })) as CallToolResult;
        expect(result.isError ?? false, textOf(result)).to.equal(false);
      }
      const fourth = (await client.callTool({ name: 'list_jurisdictions', arguments: {} })) as CallToolResult;
      expect(fourth.isError).to.equal(true);
      expect((JSON.parse(textOf(fourth)) as ErrorEnvelope).error).to.include({ type: 'rate_limited', status: 429 });
      expect((await app.get('/v1/jurisdictions')).status).to.equal(200);
    } finally {
      await client.close();
    }
  });
});

describe('mcp: the handshake in the utility pool', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 20, organization: { limitsOverride: { per_minute: { utility: 2 } } } });
  });
  after(async () => app.close());

  it('each handshake POST spends the utility pool (here 2 a minute): the third initialize is 429 rate_limited naming it, with Retry-After', async () => {
    for (let i = 0; i < 2; i++) expect((await postMcp(app, INITIALIZE, app.keys.full)).status).to.equal(200);
    const refused = await postMcp(app, INITIALIZE, app.keys.full);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(refused.headers.get('access-control-allow-origin')).to.equal('*');
    const error = ((await refused.json()) as ErrorEnvelope).error;
    expect(error).to.include({ type: 'rate_limited', status: 429 });
    expect(error.detail).to.contain('utility limit');
  });

  const tooling = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
  const listing = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

  it('every message of a batch is charged, a tool call among them or not: three tools/list in one POST are refused like three POSTs', async () => {
    const fresh = await startTestApp({ marks: 5, organization: { limitsOverride: { per_minute: { utility: 2 } } } });
    try {
      const refused = await postMcp(fresh, [tooling(1, 'list_offices'), listing(2), listing(3), listing(4)], fresh.keys.full);
      expect(refused.status).to.equal(429);
      expect(((await refused.json()) as ErrorEnvelope).error.detail).to.contain('utility limit');
    } finally {
      await fresh.close();
    }
  });

  it('a call of an unknown tool reaches no route and is charged as a handshake message', async () => {
    const fresh = await startTestApp({ marks: 5, organization: { limitsOverride: { per_minute: { utility: 2 } } } });
    try {
      // Two units: the unknown tool's call and the listing.
      expect((await postMcp(fresh, [tooling(1, 'no_such_tool'), listing(2)], fresh.keys.full)).status).to.equal(200);
      expect((await postMcp(fresh, tooling(3, 'no_such_tool'), fresh.keys.full)).status).to.equal(429);
    } finally {
      await fresh.close();
    }
  });
});

describe('mcp: marque mcp over stdio (issue 17)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let apiKey: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-mcp-stdio-'));
    const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
    try {
      const org = await createOrganization(adapters.store, { name: 'Stdio agent', plan: 'pro' });
      apiKey = (await createApiKey(adapters.store, { organizationId: org._id, name: 'agent', scopes: [...CUSTOMER_SCOPES] })).secret;
    } finally {
      await closeAdapters(adapters);
    }
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers tools/list and a call with the key from MARQUE_API_KEY', async () => {
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MARQUE, 'mcp'],
        env: { PATH: process.env.PATH ?? '', MARQUE_DATA_DIR: dataDir, MARQUE_API_KEY: apiKey, MARQUE_LOG_LEVEL: 'silent' },
        stderr: 'ignore',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.include.members(['search_trademarks', 'marque_watches_create']);
      const offices = (await client.callTool({ name: 'list_offices', arguments: {} })) as CallToolResult;
      expect(offices.isError ?? false).to.equal(false);
      expect(JSON.stringify(offices.structuredContent)).to.contain('USPTO');
    } finally {
      await client.close();
    }
  });

  it('a key revoked during the session: the next call is the 401 a REST client gets, as a tool error, and the session goes on', async () => {
    const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
    let revocable: { key: ApiKeyDoc; secret: string };
    try {
      const org = (await adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({}))?.organization_id as string;
      revocable = await createApiKey(adapters.store, { organizationId: org, name: 'revocable', scopes: [...CUSTOMER_SCOPES] });
    } finally {
      await closeAdapters(adapters);
    }
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MARQUE, 'mcp'],
        env: { PATH: process.env.PATH ?? '', MARQUE_DATA_DIR: dataDir, MARQUE_API_KEY: revocable.secret, MARQUE_LOG_LEVEL: 'silent' },
        stderr: 'ignore',
      }),
    );
    try {
      expect(((await client.callTool({ name: 'list_offices', arguments: {} })) as CallToolResult).isError ?? false).to.equal(false);
      const writer = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
      try {
        await writer.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).updateOne({ _id: revocable.key._id }, { $set: { revoked_at: new Date().toISOString() } });
      } finally {
        await closeAdapters(writer);
      }
      const refused = (await client.callTool({ name: 'list_offices', arguments: {} })) as CallToolResult;
      expect(refused.isError).to.equal(true);
      const error = (JSON.parse(textOf(refused)) as ErrorEnvelope).error;
      expect(error).to.include({ type: 'unauthorized', status: 401 });
      expect(error.detail).to.contain('revoked');
      expect((await client.listTools()).tools.length).to.be.greaterThan(0);
    } finally {
      await client.close();
    }
  });
});
