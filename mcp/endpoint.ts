/**
 * `POST /mcp`: the MCP streamable HTTP transport of the official SDK, stateless (a server and a
 * transport per request, JSON answers, no session to keep), behind the same credentials as the
 * API: an API key, or an OAuth 2.1 access token when an authorization server is configured.
 *
 * The caller is authenticated once per HTTP request; each tool call is then its route's request
 * made in-process (`app.inject`) on that caller's behalf through an internal-call ticket
 * (rest/internal-calls.ts), spending the `mcp` transport tier and the route's own pool, quota and
 * scope, and logged like any request (OAuth sessions without an API key id). Every other message
 * (the handshake: initialize, notifications, tools/list, ping; a call of an unknown tool) spends
 * one unit of the `mcp` tier and the utility pool itself, each message of a batch alike (spec,
 * Limits: "MCP handshake paths are `utility`"; the MCP tier covers "`/mcp` endpoints"), and the
 * answer carries the rate-limit headers. The organization is always the credential's: no tool
 * argument names one.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, errorBody, invalid } from '../domain/errors';
import { newRequestId } from '../rest/app';
import type { DocumentStore, KeyValue } from '../datasources/ports';
import { authenticate, authenticateOAuth, type Authenticated } from '../rest/auth';
import { errorForResponse, sendError } from '../rest/errors';
import { INTERNAL_CALL_HEADER, type InternalCalls } from '../rest/internal-calls';
import { LIMIT_HEADER_NAMES, Limiter, type LimitCharge } from '../rest/limits';
import { OAUTH_METADATA_PATH } from '../rest/routes/oauth-metadata';
import { looksLikeJwt, type AccessTokenVerifier } from './access-tokens';
import { createMcpServer, type CallRoute } from './server';
import type { ToolDefinition } from './tools';
import { selectToolsets } from './toolsets';

export interface McpEndpointOptions {
  store: DocumentStore;
  /** The limits' windows: the handshake is charged here, tool calls through their routes. */
  kv: KeyValue;
  tools: readonly ToolDefinition[];
  internalCalls: InternalCalls;
  /** Verifies OAuth access tokens; null: API keys only (no MARQUE_AUTH_URL). */
  verifyAccessToken: AccessTokenVerifier | null;
  /** `{base_url}`, known once the server listens. */
  publicUrl: () => string;
  version: string;
  now: () => Date;
  log: (message: string, error?: unknown) => void;
}

/**
 * The limit headers of a route's answer, which the MCP response carries too (spec: every endpoint
 * returns them). Not Retry-After: a refused tool call is a tool error in a 200 answer, and
 * Retry-After belongs to a 429 (its value is in the error body's retry_after).
 */
const LIMIT_HEADERS = LIMIT_HEADER_NAMES.map((name) => name.toLowerCase());

/**
 * A route request made in-process on behalf of `who`, spending the mcp tier. `onLimitHeaders`
 * receives the limit headers of each answer (the HTTP endpoint puts them on its response).
 */
export function routeCaller(
  app: FastifyInstance,
  internalCalls: InternalCalls,
  who: () => Promise<Authenticated>,
  onLimitHeaders: (headers: Record<string, string>) => void = () => undefined,
): CallRoute {
  return async (request) => {
    let caller: Authenticated;
    try {
      caller = await who();
    } catch (error) {
      // A key revoked during a stdio session: the call's answer is the 401 a REST client gets, as a tool error.
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, body: errorBody(error, request.url.split('?')[0] ?? request.url, newRequestId()) };
    }
    const ticket = internalCalls.issue({ ...caller, tier: 'mcp' });
    try {
      const response = await app.inject({
        method: request.method,
        url: request.url,
        headers: {
          [INTERNAL_CALL_HEADER]: ticket,
          ...(request.idempotencyKey === undefined ? {} : { 'idempotency-key': request.idempotencyKey }),
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
      });
      const limitHeaders: Record<string, string> = {};
      for (const name of LIMIT_HEADERS) {
        const value = response.headers[name];
        if (typeof value === 'string' || typeof value === 'number') limitHeaders[name] = String(value);
      }
      onLimitHeaders(limitHeaders);
      return { status: response.statusCode, body: response.json() as unknown };
    } finally {
      internalCalls.discard(ticket);
    }
  };
}

async function authenticateMcp(options: McpEndpointOptions, authorization: string | undefined): Promise<Authenticated> {
  const credential = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (credential !== undefined && looksLikeJwt(credential)) {
    if (options.verifyAccessToken === null) {
      throw new ApiError('unauthorized', 'this server accepts API keys only (no authorization server is configured); send "Authorization: Bearer <API key>"');
    }
    return authenticateOAuth(options.store, await options.verifyAccessToken(credential));
  }
  if (authorization === undefined) {
    throw new ApiError(
      'unauthorized',
      'no credential sent: add the connection again with an API key or sign in (Authorization: Bearer <API key or access token>)',
    );
  }
  return authenticate(options.store, authorization, options.now());
}

/** The query parameter of the `/mcp` URL that names the connection's toolsets (mcp/toolsets.ts). */
const TOOLSETS_PARAMETER = 'toolsets';

/** The toolsets the URL names (the app leaves query strings to each route to parse). */
function toolsetsParameter(url: string): string | undefined {
  const question = url.indexOf('?');
  const values = question === -1 ? [] : new URLSearchParams(url.slice(question + 1)).getAll(TOOLSETS_PARAMETER);
  if (values.length > 1) throw invalid(TOOLSETS_PARAMETER, 'give it once, with the toolset names separated by commas');
  return values[0];
}

const HANDSHAKE_CHARGE: LimitCharge = { pool: 'utility', tier: 'mcp' };

/**
 * How many of a POST's JSON-RPC messages (one, or a batch) no route charges: every message but a
 * call of a known tool (those spend their route's limits). Each one is a handshake unit, so a
 * batch costs what its messages would cost sent one by one, and a call of an unknown tool is
 * charged too.
 */
function handshakeUnits(body: unknown, toolNames: ReadonlySet<string>): number {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const routed = messages.filter((message) => {
    if (typeof message !== 'object' || message === null) return false;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    return method === 'tools/call' && typeof params === 'object' && params !== null && typeof params.name === 'string' && toolNames.has(params.name);
  });
  return messages.length - routed.length;
}

export function mountMcp(app: FastifyInstance, options: McpEndpointOptions): void {
  const challenge = () => `Bearer resource_metadata="${options.publicUrl()}${OAUTH_METADATA_PATH}"`;
  const limiter = new Limiter(options.kv);

  app.post('/mcp', async (request, reply) => {
    let who: Authenticated;
    let listed: readonly ToolDefinition[];
    try {
      who = await authenticateMcp(options, request.headers.authorization);
      listed = selectToolsets(options.tools, toolsetsParameter(request.url), TOOLSETS_PARAMETER);
      const units = handshakeUnits(request.body, new Set(listed.map((tool) => tool.name)));
      if (units > 0) {
        const limits = await limiter.admit({ ...HANDSHAKE_CHARGE, units }, who.organization);
        reply.headers(limits.headers);
        if (limits.refusal) throw limits.refusal;
      }
    } catch (error) {
      const refusal = errorForResponse(error, options.log);
      if (refusal.status === 401) reply.header('www-authenticate', challenge());
      return sendError(reply, request, refusal);
    }
    const server = createMcpServer({
      tools: options.tools,
      listed,
      // The answer is written once every tool call of the request has run (JSON responses), so the
      // limits of the last call are still in time for its head.
      callRoute: routeCaller(
        app,
        options.internalCalls,
        async () => who,
        (headers) => {
          if (!reply.raw.headersSent) for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
        },
      ),
      version: options.version,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the response itself: what the hooks set (CORS, Request-Id) and the
    // rate-limit headers go onto the raw response first, and Node merges them with its own.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: no server-sent stream to open and no session to end.
  const notAllowed = async (_request: unknown, reply: FastifyReply) =>
    reply
      .status(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST JSON-RPC requests to /mcp.' },
        id: null,
      });
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
}
