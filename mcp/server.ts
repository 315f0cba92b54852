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

/** What a route answered: its status and its JSON body. */
export interface RouteAnswer {
  status: number;
  body: unknown;
}

/** Makes a tool's route request on behalf of the session's caller. */
export type CallRoute = (request: ToolRequest) => Promise<RouteAnswer>;

const MCP_SERVER_NAME = 'marque';

const INSTRUCTIONS =
  'Marque answers questions about trademarks: search marks by text, office, class and status (search_trademarks), read one in full with its opposition window (get_trademark), ' +
  'find owners and their portfolios, compute deadlines (compute_deadlines) and watch for conflicting filings (marque_watches_create). IDs carry their kind as a prefix (tm_, own_, wch_…). ' +
  'Errors come back as tool errors with a detail naming the argument and the rule.';

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

export function createMcpServer(tools: readonly ToolDefinition[], callRoute: CallRoute, version: string): Server {
  const server = new Server({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed: Tool[] = tools.map((tool) => ({
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
    if (tool === undefined) {
      const unknown = new ApiError('not_found', `no tool ${request.params.name}; tools/list names them all`);
      return errorResult(errorBody(unknown, `tools/call ${request.params.name}`, newRequestId()));
    }
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
