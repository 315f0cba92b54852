/**
 * The REST translation layer as a Fastify app. Every route of the route table runs the same
 * lifecycle, in this order:
 *
 *   1. request id + CORS          (onRequest hook)
 *   2. authenticate               (rest/auth.ts, or the caller of an internal call: rest/internal-calls.ts;
 *                                 skipped for public routes, which also skip 3 to 5)
 *   3. authorize scope            (route.scope)
 *   4. limits                     (rest/limits.ts: plan features, the plan and tier windows, the
 *                                 monthly and daily quotas; RateLimit-* and X-Quota-* headers)
 *   5. idempotency                (rest/idempotency.ts: key syntax, required keys, claim or replay)
 *   6. parse path, query, body    (rest/params.ts, the spec's conventions)
 *   7. execute                    (the route's persisted operation, or its custom handler)
 *   8. envelope + serialize       (rest/envelope.ts, fast-json-stringify per route); a claimed
 *                                 idempotency key stores a 2xx response, releases anything else
 *   9. public cache               (routes with publicCache: Cache-Control, ETag, 304; the 'binary'
 *                                 envelope sends bytes with their own type and ETag here instead)
 *  10. meter                      (rest/metering.ts, onResponse hook: the request-log row, after
 *                                 the response is sent)
 *
 * Unmatched paths (404) and public routes (health, OpenAPI) spend no limit and are not logged.
 *
 * Errors at any stage become the spec's error envelope (domain/errors.ts); anything unexpected is
 * logged and answered with 500 internal_error, never with a stack trace.
 */
import { createHash } from 'node:crypto';
import fastifyMultipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { MEDIA_MAX_BYTES } from '../datasources/ports';
import { ApiError, invalid } from '../domain/errors';
import { randomId } from '../domain/ids';
import { createRequestContext, type Services } from '../resolvers/context';
import type { OperationRegistry } from '../resolvers/engine';
import { authenticate, requireScope } from './auth';
import { buildEnvelope } from './envelope';
import { answerClientError, errorForResponse, MAX_PATH_SEGMENT, sendError } from './errors';
import { parseJsonBody } from './json-body';
import { LIMIT_HEADER_NAMES, Limiter } from './limits';
import type { Metrics } from './metrics';
import { INTERNAL_CALL_HEADER, type InternalCalls } from './internal-calls';
import { IdempotencyStage, ResponseSealer, storedResponse, type IdempotencyClaim, type StoredResponse } from './idempotency';
import { openExchange, requestLogRow, type Exchange, type RequestLogWriter } from './metering';
import { parseJsonParams, parseQueryString, type ParsedParams } from './params';
import { isBinaryBody, type CustomResult, type RouteDef, type RouteInput, type UploadedFile } from './route';
import { compileRouteSerializer, type SerializedBody } from './serialize';
import { ifNoneMatchHits } from './static-files';
import { endUnusedConnectionsOnClose } from './unused-connections';

export interface AppOptions {
  services: Services;
  registry: OperationRegistry;
  routes: readonly RouteDef[];
  /** Extra Fastify plugins mounted beside the route table (the /graphql endpoint). */
  mount?: Array<(app: FastifyInstance) => void>;
  /** The server secret (it signs cursors): stored idempotent responses are sealed with a key derived from it. */
  serverSecret: Buffer;
  /** Receives one row per business request (stage 9); none: requests are not logged. */
  requestLog?: RequestLogWriter;
  /** Where unexpected errors and failed idempotency writes are reported (the server's log). */
  log: (message: string, error?: unknown) => void;
  /** Requests made on an already authenticated caller's behalf (MCP tool calls). */
  internalCalls?: InternalCalls;
  /** Request counts, latencies and refusals for /metrics. */
  metrics?: Metrics;
  /** Fastify's pino logger: one JSON line per request, with its request id (false: none). */
  logger?: FastifyServerOptions['logger'];
  /** How long a client may take to send a whole request before its connection is closed (none: no limit). */
  requestTimeoutMs?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    requestId: string;
    /** Set once the caller is known; what the request log records. */
    exchange: Exchange | null;
  }
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Time-ordered like every minted ID: sortable, and request-log rows append instead of landing at random. */
export const newRequestId = (): string => randomId('req_');

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Authorization, Content-Type, Idempotency-Key',
  'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'access-control-expose-headers': ['Request-Id', ...LIMIT_HEADER_NAMES, 'Retry-After', 'Idempotent-Replayed'].join(', '),
  'access-control-max-age': '600',
};

function rawQuery(request: FastifyRequest): string {
  const q = request.url.indexOf('?');
  return q === -1 ? '' : request.url.slice(q + 1);
}

function parseBody(route: RouteDef, request: FastifyRequest): ParsedParams {
  if (!route.body) return {};
  const body: unknown = request.body;
  if (body === undefined || body === null)
    throw new ApiError('validation_error', 'body: a JSON object is required (Content-Type: application/json)', { parameter: 'body' });
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('validation_error', 'body: must be a JSON object', { parameter: 'body' });
  return parseJsonParams(body as Record<string, unknown>, route.body, '', route.method === 'PATCH' ? 'refused' : 'absent');
}

/** A form field's value as its JSON body field would be: JSON when it parses (numbers, objects, arrays), else the text. */
function formFieldValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The longest value a non-file field of a multipart form may have. */
const FORM_FIELD_MAX_BYTES = 64 * 1024;

/**
 * Stage 6 for multipart/form-data (routes with `upload` only): reads the parts, after the key, its
 * scope and limits were checked. The file stays in memory; the other parts become the body's fields.
 */
async function parseMultipart(route: RouteDef, request: FastifyRequest): Promise<{ body: ParsedParams; upload: UploadedFile }> {
  const upload = route.upload;
  if (upload === undefined)
    throw new ApiError('validation_error', 'body: multipart/form-data is not accepted here; send application/json', { parameter: 'body' });
  const fields: Record<string, unknown> = {};
  let file: UploadedFile | null = null;
  const mb = Math.round(upload.maxBytes / (1024 * 1024));
  try {
    for await (const part of request.parts({ limits: { fileSize: upload.maxBytes, files: 1, fields: 20, fieldSize: FORM_FIELD_MAX_BYTES, parts: 21 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== upload.field) {
          part.file.resume();
          throw new ApiError('validation_error', `${part.fieldname}: is not a file field of this form (the file goes in '${upload.field}')`, {
            parameter: part.fieldname,
          });
        }
        const bytes = await part.toBuffer();
        file = { field: part.fieldname, bytes, filename: part.filename, mimeType: part.mimetype };
      } else {
        // The parser cuts a longer value at the limit; what is left must not be read as if it had been sent.
        if (part.valueTruncated) throw invalid(part.fieldname, `must be at most ${FORM_FIELD_MAX_BYTES / 1024} KB`);
        fields[part.fieldname] = formFieldValue(String(part.value));
      }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT')
      throw new ApiError('validation_error', `${upload.field}: must be one file of at most ${mb} MB`, { parameter: upload.field });
    throw new ApiError('validation_error', `body: is not a readable multipart/form-data body (${(error as Error).message})`, { parameter: 'body' });
  }
  if (file === null) throw new ApiError('validation_error', `${upload.field}: a file part is required`, { parameter: upload.field });
  if (file.bytes.byteLength === 0) throw new ApiError('validation_error', `${upload.field}: is empty`, { parameter: upload.field });
  return { body: parseJsonParams(fields, route.body ?? []), upload: file };
}

async function parseInput(route: RouteDef, request: FastifyRequest): Promise<RouteInput> {
  const params = request.params as Record<string, string>;
  const pathQuery = new URLSearchParams();
  for (const spec of route.pathParams) pathQuery.set(spec.name, params[spec.name] ?? '');
  const path = parseQueryString(pathQuery.toString(), route.pathParams);
  const query = parseQueryString(rawQuery(request), route.query);
  if (request.isMultipart()) return { path, query, ...(await parseMultipart(route, request)) };
  return { path, query, body: parseBody(route, request) };
}

/** A strong validator: the same body always gets the same tag, on every instance. */
function strongEtag(body: SerializedBody): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/** Stages 6 and 7: sends the serialized body, or 304 when a publicly cached body is unchanged. */
function sendSuccess(route: RouteDef, request: FastifyRequest, reply: FastifyReply, status: number, body: SerializedBody): FastifyReply {
  if (route.publicCache) {
    const etag = strongEtag(body);
    reply.header('cache-control', `public, max-age=${route.publicCache.maxAgeSeconds}`).header('etag', etag);
    if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.status(304).send();
  }
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Stages 8 and 9 for the 'binary' envelope (media): the bytes with their own Content-Type and ETag,
 * cacheable by anyone and never changing within max-age, or 304 when If-None-Match names the tag.
 */
function sendBinary(route: RouteDef, request: FastifyRequest, reply: FastifyReply, result: CustomResult): FastifyReply {
  if (!isBinaryBody(result.body)) throw new Error(`route ${route.id} has the binary envelope but answered another body`);
  const { bytes, contentType, etag } = result.body;
  reply
    .header('cache-control', `public, max-age=${route.publicCache?.maxAgeSeconds ?? 0}, immutable`)
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff');
  if (ifNoneMatchHits(request.headers['if-none-match'], etag)) return reply.status(304).send();
  return reply.status(result.status).type(contentType).send(bytes);
}

/** Replays a stored idempotent response (its original body and request_id). */
function sendReplay(reply: FastifyReply, stored: StoredResponse): FastifyReply {
  return reply.status(stored.status).headers(stored.headers).header('idempotent-replayed', 'true').send(stored.body);
}

/** Stage 1, request id and CORS: the request's id (also the Request-Id header) and the CORS headers. */
function startExchange(request: FastifyRequest, reply: FastifyReply): void {
  // Fastify's id (genReqId), so the log lines of a request carry the id its client sees.
  request.requestId = request.id;
  request.exchange = null;
  reply.headers(CORS_HEADERS);
  reply.header('request-id', request.requestId);
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { services, registry, routes } = options;
  const { log } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    genReqId: () => newRequestId(),
    routerOptions: { querystringParser: () => ({}), maxParamLength: MAX_PATH_SEGMENT },
    bodyLimit: 1024 * 1024,
    // Fastify's default is no limit: a body sent a byte at a time, with or without a key, would hold its connection for ever.
    // Node's server must be built with it too, so that it derives its headers timeout from it (Node checks the headers
    // timeout first, a minute by default, and the request timeout only under it), and checks every second, not every 30.
    requestTimeout: options.requestTimeoutMs ?? 0,
    http: { requestTimeout: options.requestTimeoutMs ?? 0, connectionsCheckingInterval: 1_000 },
    return503OnClosing: false,
    // The router's own refusals (bad percent-encoding, an overlong segment) run before any hook.
    frameworkErrors: (error, request, reply) => {
      startExchange(request, reply);
      sendError(reply, request, errorForResponse(error, log));
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, newRequestId()),
  });

  endUnusedConnectionsOnClose(app);

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as ApiError, undefined);
    }
  });

  // multipart/form-data is read by the routes that take an upload (stage 6, parseMultipart), after
  // the key and limits; the plugin's parser only marks the request. Its own limits are the
  // upload route's (a larger file is refused while it streams in).
  await app.register(fastifyMultipart, { limits: { fileSize: MEDIA_MAX_BYTES, files: 1 } });

  app.decorateRequest('requestId', '');
  app.decorateRequest('exchange', null);
  app.addHook('onRequest', async (request, reply) => startExchange(request, reply));

  const metrics = options.metrics;
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      metrics.observe(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
  }
  const requestLog = options.requestLog;
  if (requestLog) {
    app.addHook('onResponse', async (request, reply) => {
      if (request.exchange) requestLog.record(requestLogRow(request.exchange, reply.statusCode, reply.elapsedTime));
    });
  }
  const limiter = new Limiter(services.kv);
  const idempotency = new IdempotencyStage(services.kv, services.store, new ResponseSealer(options.serverSecret));

  const toApiError = (error: unknown): ApiError => errorForResponse(error, log);

  for (const route of routes) {
    if (route.envelope === 'binary' && (route.kind !== 'custom' || route.publicCache === undefined))
      throw new Error(`route ${route.id}: the binary envelope is for custom routes with publicCache`);
    const serialize = compileRouteSerializer(route);
    app.route({
      method: route.method,
      url: route.path,
      handler: async (request, reply) => {
        let claim: IdempotencyClaim | null = null;
        /** Stage 8's bookkeeping: a claimed key keeps what was sent (2xx) or is released. */
        const respond = async (status: number, body: SerializedBody): Promise<FastifyReply> => {
          if (claim !== null) {
            const held = claim;
            claim = null;
            await idempotency
              .finish(held, storedResponse(status, body, JSON_HEADERS))
              .catch((error: unknown) => log('idempotency: could not store the response', error));
          }
          return sendSuccess(route, request, reply, status, body);
        };
        try {
          const now = services.now();
          let context = null;
          if (route.scope !== 'public') {
            const internal = options.internalCalls?.take(request.headers[INTERNAL_CALL_HEADER]);
            if (internal === null) throw new ApiError('unauthorized', 'internal call ticket is not valid');
            const { caller, organization } = internal ?? (await authenticate(services.store, request.headers.authorization, now));
            request.exchange = openExchange(request.requestId, caller, route.path, route.method);
            requireScope(caller, route.scope);
            context = createRequestContext(services, caller);
            const limits = await limiter.admit(internal ? { ...route, tier: internal.tier } : route, organization);
            reply.headers(limits.headers);
            if (limits.refusal) {
              metrics?.refused(route.pool, limits.refusal.type);
              throw limits.refusal;
            }
            const door = internal ? 'mcp' : 'http';
            const begun = await idempotency.begin(route, request.url, caller, request.headers['idempotency-key'], request.body, door);
            if (begun !== null && 'replay' in begun) return sendReplay(reply, begun.replay);
            claim = begun?.claim ?? null;
          }
          const input = await parseInput(route, request);
          if (route.kind === 'custom') {
            const result = await route.handle(input);
            if (route.envelope === 'binary') return sendBinary(route, request, reply, result);
            return await respond(result.status, serialize(buildEnvelope(route, result.body, request.requestId)));
          }
          if (context === null) throw new Error(`operation route ${route.id} must not be public`);
          const operationContext = context;
          const execute = async (): Promise<SerializedBody> => {
            const data = await registry.run(route.operation, route.variables(input), operationContext);
            return serialize(buildEnvelope(route, data, request.requestId, input));
          };
          // A write with a claimed key commits together with its receipt (rest/idempotency.ts).
          if (claim !== null && route.idempotency === 'required') {
            const written = await idempotency.runWrite(claim, async () => storedResponse(route.successStatus, await execute(), JSON_HEADERS));
            return await respond(written.status, written.body);
          }
          return await respond(route.successStatus, await execute());
        } catch (error) {
          if (claim !== null) await idempotency.release(claim).catch((releaseError: unknown) => log('idempotency: could not release a key', releaseError));
          return sendError(reply, request, toApiError(error));
        }
      },
    });
  }

  app.options('*', async (_request, reply) => reply.status(204).send());
  for (const mount of options.mount ?? []) mount(app);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    sendError(reply, request, new ApiError('not_found', `no route ${request.method} ${path}`));
  });
  app.setErrorHandler((error, request, reply) => {
    sendError(reply, request, toApiError(error));
  });
  return app;
}
