/**
 * A hostile agent, generated: for every MCP tool, `tools/call` with arguments drawn from the
 * tool's route parameters (valid values, values just outside each rule, wrong types, junk,
 * unknown arguments). Every answer must be a JSON-RPC result, never an error (the SDK reports
 * server faults as -32603), and either the tool's structured content or a tool error carrying the
 * catalog's envelope with a status below 500: nothing an agent sends may make the server fail.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ERROR_CATALOG } from '../../domain/errors';
import { buildTools, type ToolDefinition } from '../../mcp/tools';
import { buildRouteTable } from '../../rest/route-table';
import { junkString, paramsOf } from '../support/fuzz-values';
import { startTestApp, type TestApp } from '../support/harness';

const RUNS_PER_TOOL = 12;
const SEED = 20261126;

interface RpcAnswer {
  result?: { isError?: boolean; content?: Array<{ text: string }>; structuredContent?: unknown };
  error?: { code: number; message: string };
}

function argumentsFor(tool: ToolDefinition): fc.Arbitrary<Record<string, unknown>> {
  const { route } = tool;
  const idempotency = route.idempotency === 'required' ? [{ name: 'idempotency_key', kind: { type: 'string' as const, maxLength: 40 }, description: '' }] : [];
  return fc.oneof(
    { weight: 9, arbitrary: paramsOf([...route.pathParams, ...route.query, ...(route.body ?? []), ...idempotency]) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), junkString, { maxKeys: 3 }) },
  );
}

describe('fuzz: generated tool calls to every MCP tool', function () {
  this.timeout(300_000);
  let app: TestApp;
  const tools = buildTools(buildRouteTable({ version: 'fuzz', health: { startedAt: 0, now: () => 0, isShuttingDown: () => false, probes: [] } }));
  let id = 0;

  before(async () => {
    // Limits high enough that calls reach the deeper stages instead of stopping at 429.
    const perMinute = { search: 1_000_000, read: 1_000_000, check: 1_000_000, monitoring: 1_000_000, reference: 1_000_000, utility: 1_000_000 };
    const tiers = { reads: 1_000_000, search: 1_000_000, writes: 1_000_000, mcp: 1_000_000 };
    app = await startTestApp({ marks: 100, organization: { plan: 'enterprise', limitsOverride: { per_minute: perMinute, tier_ceilings: tiers } } });
  });
  after(async () => app.close());

  async function call(name: string, args: unknown): Promise<void> {
    const message = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } };
    const response = await fetch(`${app.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await response.text();
    const where = `${name} ${JSON.stringify(args).slice(0, 300)} → ${response.status} ${text.slice(0, 400)}`;
    expect(response.status, where).to.equal(200);
    const answer = JSON.parse(text) as RpcAnswer;
    expect(answer.error, where).to.equal(undefined);
    const result = answer.result;
    expect(result, where).to.be.an('object');
    if (result?.isError) {
      const body = JSON.parse(result.content?.[0]?.text ?? '{}') as { error?: { type: string; status: number } };
      expect(body.error?.type, where).to.be.oneOf(Object.keys(ERROR_CATALOG));
      expect(body.error?.status, where).to.be.below(500);
    } else {
      expect(result?.structuredContent, where).to.be.an('object');
    }
  }

  for (const tool of tools) {
    it(`${tool.name}: ${RUNS_PER_TOOL} generated calls, no protocol error, no 5xx, every tool error in the envelope`, async () => {
      await fc.assert(
        fc.asyncProperty(argumentsFor(tool), (args) => call(tool.name, args)),
        { numRuns: RUNS_PER_TOOL, seed: SEED, endOnFailure: true },
      );
    });
  }

  it('arguments that are not an object, and tool names that are not strings, are the client’s errors (parse, invalid request or params), never internal ones', async () => {
    for (const params of [{ name: 'get_trademark', arguments: 'x' }, { name: 7, arguments: {} }, { arguments: [] }, 'params']) {
      const response = await fetch(`${app.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params }),
      });
      const answer = (await response.json()) as RpcAnswer;
      expect(answer.error?.code, JSON.stringify(answer)).to.be.oneOf([-32700, -32600, -32602]);
    }
  });
});
