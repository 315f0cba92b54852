/**
 * MCP tools, generated from the route table: every route with `mcpTool` is one tool whose input
 * schema is its path, query and body parameters, whose output schema is its success envelope, and
 * whose call is that route's request (so validation, scopes, limits, idempotency, metering and
 * errors are the route's own). Nothing here is written per tool.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../domain/errors';
import { IDEMPOTENCY_KEY_PATTERN } from '../rest/idempotency';
import { bodySchema } from '../rest/openapi';
import { parseJsonParams, type ParamSpec } from '../rest/params';
import type { RouteDef } from '../rest/route';
import { cursorParam } from '../rest/routes/paging-params';
import type { JsonSchema } from '../rest/schemas/json-schema';
import { successSchema } from '../rest/serialize';
import { toolsetName } from './toolsets';

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** The group an agent may list it in (mcp/toolsets.ts): its route's tag. */
  toolset: string;
  route: RouteDef;
}

/** The HTTP request a tool call makes. */
export interface ToolRequest {
  method: RouteDef['method'];
  url: string;
  body: Record<string, unknown> | undefined;
  idempotencyKey: string | undefined;
}

/** The argument that carries an Idempotency-Key, on tools whose route needs one. */
const IDEMPOTENCY_ARGUMENT = 'idempotency_key';

/** Routes that send requests to customer URLs (their effect leaves this service). */
const OUTBOUND_ROUTES = new Set(['sendWebhookTest', 'redeliverWebhook']);

const idempotencyArgument: ParamSpec = {
  name: IDEMPOTENCY_ARGUMENT,
  kind: { type: 'string', maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN, patternRule: 'must be 1 to 255 characters of A-Z, a-z, 0-9, _ and -' },
  description:
    'Optional. The same key within 24 hours replays the first answer instead of acting twice (send it again when a call timed out). A fresh key is used when omitted.',
};

function inputParams(route: RouteDef): ParamSpec[] {
  return [
    ...route.pathParams.map((spec) => ({ ...spec, required: true })),
    ...route.query,
    ...(route.body ?? []),
    ...(route.idempotency === 'required' ? [idempotencyArgument] : []),
  ];
}

function description(route: RouteDef): string {
  const scope = route.scope === null || route.scope === 'public' ? '' : ` Needs the ${route.scope} scope.`;
  const paged = [...route.query, ...(route.body ?? [])].includes(cursorParam);
  const paging = paged
    ? ' Lists are paged: pass pagination.cursor of an answer as cursor, with the same other arguments, to get the next page (null on the last).'
    : '';
  return `${route.summary}. ${route.mcpDescription ?? route.description}${paging}${scope}`;
}

function annotations(route: RouteDef): ToolAnnotations {
  const readOnly = route.method === 'GET' || route.idempotency === 'exempt';
  return {
    title: route.summary,
    readOnlyHint: readOnly,
    destructiveHint: route.method === 'DELETE',
    // PATCH, DELETE and a state-setting POST leave the same state when repeated; a POST that creates does not.
    idempotentHint: readOnly || route.method === 'PATCH' || route.method === 'DELETE' || route.setsState === true,
    openWorldHint: OUTBOUND_ROUTES.has(route.id),
  };
}

/** The tools of `routes`, in route-table order; throws on a duplicate name (a route-table error). */
export function buildTools(routes: readonly RouteDef[]): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  const names = new Set<string>();
  for (const route of routes) {
    if (route.mcpTool === undefined) continue;
    if (names.has(route.mcpTool)) throw new Error(`MCP tool ${route.mcpTool} is named by two routes`);
    if (route.scope === 'public' || route.envelope === 'raw') throw new Error(`route ${route.id} cannot be an MCP tool (public or raw)`);
    names.add(route.mcpTool);
    tools.push({
      name: route.mcpTool,
      description: description(route),
      inputSchema: bodySchema(inputParams(route)),
      outputSchema: successSchema(route),
      annotations: annotations(route),
      toolset: toolsetName(route.tag),
      route,
    });
  }
  return tools;
}

/** Query-string text of one argument, by the REST conventions (arrays comma-separated). */
function queryText(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

/**
 * Checks the arguments that do not travel as JSON (path, query, idempotency key) by their specs
 * before they become text, so that `{"q": {"a": 1}}` is refused by name rather than searched for
 * as "[object Object]", and an `id` of ".." is refused rather than read as a dot segment of the
 * path (which would reach another route). Body arguments are the route's own JSON checks.
 */
function checkTextArguments(args: Record<string, unknown>, specs: readonly ParamSpec[]): void {
  const declared = new Map(specs.map((spec) => [spec.name, spec]));
  for (const [name, value] of Object.entries(args)) {
    const spec = declared.get(name);
    if (spec !== undefined) parseJsonParams({ [name]: value }, [spec]);
  }
}

/**
 * The request a call with `args` makes: path parameters into the path, query parameters into the
 * query string, body parameters into the JSON body. Arguments the tool does not declare are sent as
 * query parameters, so the route refuses them by name as it refuses any unknown parameter.
 */
export function toolRequest(tool: ToolDefinition, args: Record<string, unknown>): ToolRequest {
  const { route } = tool;
  const pathNames = new Set(route.pathParams.map((spec) => spec.name));
  const bodyNames = new Set((route.body ?? []).map((spec) => spec.name));
  checkTextArguments(args, [...route.pathParams, ...route.query, ...(route.idempotency === 'required' ? [idempotencyArgument] : [])]);
  let path = route.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null || name === IDEMPOTENCY_ARGUMENT) continue;
    if (pathNames.has(name)) path = path.replace(`:${name}`, encodeURIComponent(String(value)));
    else if (bodyNames.has(name)) body[name] = value;
    else query.set(name, queryText(value));
  }
  const missing = route.pathParams.find((spec) => path.includes(`:${spec.name}`));
  if (missing) throw new ApiError('validation_error', `${missing.name}: is required`, { parameter: missing.name });
  const search = query.toString();
  const key = args[IDEMPOTENCY_ARGUMENT];
  return {
    method: route.method,
    url: search === '' ? path : `${path}?${search}`,
    body: route.body ? body : undefined,
    idempotencyKey: route.idempotency === 'required' ? (typeof key === 'string' ? key : `mcp-${randomUUID()}`) : undefined,
  };
}
