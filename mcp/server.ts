/**
 * The MCP server over the generated tools (the official SDK's low-level `Server`, since the tools'
 * schemas are JSON Schema from the route table rather than zod). A tool call is its route's
 * request, made by `callRoute` on the caller's behalf; a 2xx answer is the tool's
 * `structuredContent` (and the same JSON as text), anything else a tool error carrying the
 * catalog's error envelope, so an agent reads the same `detail` a REST client does and the
 * session continues.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { ApiError, errorBody } from '../domain/errors';
import { newRequestId } from '../rest/app';
import { toolRequest, type ToolDefinition, type ToolRequest } from './tools';
import { toolsetsOf } from './toolsets';

/** What a route answered: its status and its JSON body. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** Makes a tool's route request on behalf of the session's caller. */
export type CallRoute = (request: ToolRequest) => Promise<RouteAnswer>;

const MCP_SERVER_NAME = 'marque';

/** Where the instructions point an agent first, each said only when its tool is listed. */
const FIRST_STEPS: ReadonlyArray<{ tool: string; clause: string }> = [
  {
    tool: 'search_trademarks',
    clause: 'search marks by the words and word beginnings of their text, office, class and status (search_trademarks; it does not find other spellings)',
  },
  { tool: 'get_trademark', clause: 'read one in full with its opposition window (get_trademark)' },
  { tool: 'list_owners', clause: 'find owners and their portfolios (list_owners)' },
  {
    tool: 'preview_watch',
    clause:
      'find marks confusingly similar to a name, other spellings included, as a clearance check (preview_watch with watch_type similarity, q and filters: best first, phonetic, visual and typo matches, and marks in Cyrillic or Greek through their Latin reading; nothing is created; it needs a key with the portfolios:manage scope)',
  },
  { tool: 'compute_deadlines', clause: 'compute deadlines (compute_deadlines)' },
  { tool: 'marque_watches_create', clause: 'watch for conflicting filings (marque_watches_create)' },
];

function instructions(listed: readonly ToolDefinition[], unlisted: readonly string[]): string {
  const names = new Set(listed.map((tool) => tool.name));
  const steps = FIRST_STEPS.filter((step) => names.has(step.tool)).map((step) => step.clause);
  return [
    `Marque answers questions about trademarks${steps.length > 0 ? `: ${steps.join(', ')}` : ''}.`,
    'IDs carry their kind as a prefix (tm_, own_, wch_…). Errors come back as tool errors with a detail naming the argument and the rule.',
    ...(unlisted.length > 0 ? [`This connection lists some toolsets only; the others (${unlisted.join(', ')}) are added by naming them in its toolsets.`] : []),
  ].join(' ');
}

/** Signing secrets never reach a tool result (spec: OAuth 2.1 for the MCP server, item 7). */
function redactSecrets(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !('secret' in body)) return body;
  return { ...body, secret: '[redacted: signing secrets are not shown to tools; rotate the secret through the REST API to read a new one]' };
}

/**
 * The SDK checks a request against these schemas before any handler runs, and reports a mismatch
 * (`"arguments": "x"`, a numeric cursor) as -32603, JSON-RPC's internal error. With `params`
 * taken as anything here, the mismatch reaches the SDK's own tools/call check, or ours for
 * tools/list, which answer -32602 invalid params, as a client's mistake.
 */
const AnyParamsCallTool = CallToolRequestSchema.extend({ params: z.unknown().optional() });
const AnyParamsListTools = ListToolsRequestSchema.extend({ params: z.unknown().optional() });

function checkListParams(params: unknown): void {
  if (params === undefined) return;
  const parsed = ListToolsRequestSchema.shape.params.safeParse(params);
  if (!parsed.success) {
    throw new McpError(ErrorCode.InvalidParams, `tools/list: params must be an object whose cursor, if any, is a string (${z.prettifyError(parsed.error)})`);
  }
}

function errorResult(body: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

export interface McpServerOptions {
  /** Every tool of the service. */
  tools: readonly ToolDefinition[];
  /** The tools of the connection's toolsets (mcp/toolsets.ts): listed and callable. */
  listed: readonly ToolDefinition[];
  callRoute: CallRoute;
  version: string;
}

/** Why a tool cannot be called: none of that name, or not in the connection's toolsets. */
function unknownTool(name: string, tools: readonly ToolDefinition[]): ApiError {
  const elsewhere = tools.find((tool) => tool.name === name);
  return elsewhere === undefined
    ? new ApiError('not_found', `no tool ${name}; tools/list names them all`)
    : new ApiError(
        'not_found',
        `tool ${name} is in the toolset ${elsewhere.toolset}, which this connection does not list; add it to the connection's toolsets`,
      );
}

export function createMcpServer({ tools, listed: listedTools, callRoute, version }: McpServerOptions): Server {
  const listedToolsets = new Set(listedTools.map((tool) => tool.toolset));
  const unlisted = toolsetsOf(tools).filter((toolset) => !listedToolsets.has(toolset));
  const server = new Server({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} }, instructions: instructions(listedTools, unlisted) });
  const byName = new Map(listedTools.map((tool) => [tool.name, tool]));
  const listed: Tool[] = listedTools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: tool.outputSchema as Tool['outputSchema'],
    annotations: tool.annotations,
  }));

  server.setRequestHandler(AnyParamsListTools, async (request) => {
    checkListParams(request.params);
    return { tools: listed };
  });
  server.setRequestHandler(AnyParamsCallTool, async (anyRequest): Promise<CallToolResult> => {
    // The SDK's own tools/call check has passed by now (Server.setRequestHandler wraps this handler).
    const request = CallToolRequestSchema.parse(anyRequest);
    const tool = byName.get(request.params.name);
    if (tool === undefined) return errorResult(errorBody(unknownTool(request.params.name, tools), `tools/call ${request.params.name}`, newRequestId()));
    let call: ToolRequest;
    try {
      call = toolRequest(tool, request.params.arguments ?? {});
    } catch (error) {
      if (error instanceof ApiError) return errorResult(errorBody(error, `tools/call ${tool.name}`, newRequestId()));
      throw error;
    }
    const answer = await callRoute(call);
    if (answer.status < 200 || answer.status >= 300) return errorResult(answer.body);
    const body = redactSecrets(answer.body);
    return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as Record<string, unknown> };
  });
  return server;
}
