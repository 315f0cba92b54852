/**
 * Toolsets: an agent lists only the groups of tools it needs (`/mcp?toolsets=…`, or
 * `marque mcp --toolsets …` / MARQUE_MCP_TOOLSETS over stdio). The expected tool names are the
 * spec's; the toolset names are the ones README.md publishes.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAdapters, openAdapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { startTestApp, type TestApp } from '../support/harness';
import { MARQUE } from '../support/serve-process';

/** The toolsets README.md lists for agents. */
const PUBLISHED_TOOLSETS = [
  'trademarks',
  'deadlines',
  'proceedings',
  'reference',
  'suggest',
  'analytics',
  'owners',
  'attorneys',
  'firms',
  'entities',
  'organization',
  'watches',
  'alerts',
  'portfolios',
  'saved-searches',
  'webhooks',
  'events',
];

interface ErrorEnvelope {
  error: { type: string; status: number; detail: string; parameter?: string };
}

async function connect(app: TestApp, query: string): Promise<Client> {
  const client = new Client({ name: 'toolsets-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp${query}`), { requestInit: { headers: { authorization: `Bearer ${app.keys.full}` } } }),
  );
  return client;
}

async function toolNames(app: TestApp, query: string): Promise<string[]> {
  const client = await connect(app, query);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

const textOf = (result: CallToolResult): string => (result.content[0] as { type: 'text'; text: string }).text;

function initialize(app: TestApp, query: string): Promise<Response> {
  return fetch(`${app.baseUrl}/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${app.keys.full}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }),
  });
}

describe('mcp: toolsets over streamable HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 50, organization: { plan: 'pro' } });
  });
  after(() => app.close());

  it('?toolsets=trademarks,deadlines lists the search, detail and computation tools and none of the others', async () => {
    const names = await toolNames(app, '?toolsets=trademarks,deadlines');
    expect(names).to.include.members(['search_trademarks', 'get_trademark', 'compute_deadlines', 'compute_opposition_windows', 'list_deadline_rules']);
    for (const other of ['marque_watches_create', 'list_owners', 'list_offices', 'get_usage', 'marque_webhooks_list', 'list_alerts']) {
      expect(names, other).to.not.include(other);
    }
  });

  it('without toolsets every tool is listed; each tool is in exactly one published toolset, and all of them together are the whole list', async () => {
    const all = await toolNames(app, '');
    const seen: string[] = [];
    for (const toolset of PUBLISHED_TOOLSETS) {
      const names = await toolNames(app, `?toolsets=${toolset}`);
      expect(names.length, toolset).to.be.greaterThan(0);
      seen.push(...names);
    }
    expect([...seen].sort()).to.deep.equal([...all].sort());
    expect(await toolNames(app, `?toolsets=${PUBLISHED_TOOLSETS.join(',')}`)).to.deep.equal(all);
  });

  it('a tool of another toolset is a tool error that names its toolset; a listed one answers; the instructions name what is left out', async () => {
    const client = await connect(app, '?toolsets=reference');
    try {
      const offices = (await client.callTool({ name: 'list_offices', arguments: {} })) as CallToolResult;
      expect(offices.isError ?? false).to.equal(false);
      expect(JSON.stringify(offices.structuredContent)).to.contain('USPTO');
      const refused = (await client.callTool({ name: 'search_trademarks', arguments: { q: 'nova' } })) as CallToolResult;
      expect(refused.isError).to.equal(true);
      const error = (JSON.parse(textOf(refused)) as ErrorEnvelope).error;
      expect(error.type).to.equal('not_found');
      expect(error.detail).to.contain('trademarks');
      expect(client.getInstructions()).to.contain('watches');
    } finally {
      await client.close();
    }
  });

  it('an unknown, empty or repeated toolsets parameter is 400 validation_error naming toolsets', async () => {
    for (const query of ['?toolsets=trademarks,brands', '?toolsets=', '?toolsets=trademarks,,deadlines', '?toolsets=trademarks&toolsets=deadlines']) {
      const response = await initialize(app, query);
      expect(response.status, query).to.equal(400);
      const { error } = (await response.json()) as ErrorEnvelope;
      expect(error, query).to.include({ type: 'validation_error', parameter: 'toolsets' });
      expect(error.detail, query).to.match(/^toolsets: /);
    }
    const { error } = (await (await initialize(app, '?toolsets=brands')).json()) as ErrorEnvelope;
    expect(error.detail).to.contain('"brands"').and.to.contain('saved-searches');
  });
});

describe('mcp: toolsets over stdio', function () {
  this.timeout(60_000);
  let dataDir: string;
  let apiKey: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-mcp-toolsets-'));
    const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
    try {
      const org = await createOrganization(adapters.store, { name: 'Toolsets agent', plan: 'pro' });
      apiKey = (await createApiKey(adapters.store, { organizationId: org._id, name: 'agent', scopes: [...CUSTOMER_SCOPES] })).secret;
    } finally {
      await closeAdapters(adapters);
    }
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const env = (extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '',
    MARQUE_DATA_DIR: dataDir,
    MARQUE_API_KEY: apiKey,
    MARQUE_LOG_LEVEL: 'silent',
    ...extra,
  });

  async function stdioNames(args: string[], extra: Record<string, string> = {}): Promise<string[]> {
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MARQUE, 'mcp', ...args], env: env(extra), stderr: 'ignore' }));
    try {
      return (await client.listTools()).tools.map((tool) => tool.name);
    } finally {
      await client.close();
    }
  }

  it('--toolsets and MARQUE_MCP_TOOLSETS choose the tools; the flag wins', async () => {
    const reference = await stdioNames(['--toolsets', 'reference']);
    expect(reference).to.include.members(['list_offices', 'list_jurisdictions', 'list_classifications']);
    expect(reference).to.not.include('search_trademarks');
    const fromEnv = await stdioNames([], { MARQUE_MCP_TOOLSETS: 'watches' });
    expect(fromEnv).to.include.members(['marque_watches_create', 'pause_watch']);
    expect(fromEnv).to.not.include('list_offices');
    expect(await stdioNames(['--toolsets', 'reference'], { MARQUE_MCP_TOOLSETS: 'watches' })).to.deep.equal(reference);
  });

  it('an unknown toolset stops the command with exit 2, naming where it came from', () => {
    for (const [args, extra, named] of [
      [['--toolsets', 'brands'], {}, '--toolsets'],
      [[], { MARQUE_MCP_TOOLSETS: 'brands' }, 'MARQUE_MCP_TOOLSETS'],
    ] as const) {
      const run = spawnSync(process.execPath, [MARQUE, 'mcp', ...args], { env: env(extra), input: '', encoding: 'utf8', timeout: 30_000 });
      expect(run.status, run.stderr).to.equal(2);
      expect(run.stderr).to.contain(`${named}: unknown toolset "brands"`);
      expect(run.stdout).to.equal('');
    }
  });
});
