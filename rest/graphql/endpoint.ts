/**
 * `/graphql`: the internal schema for the dashboard, served by graphql-yoga, through the same
 * stages as a REST route. In order: **request id** (the app's onRequest hook); **authenticate**
 * (as for REST, before anything reads the query, so that nothing about the schema, not even a
 * validation error's "Did you mean …", reaches a caller without a key); graphql-yoga reads the
 * request (GET or POST; batched bodies are 400, mutations over GET 405) and parses it with at
 * most MAX_TOKENS tokens; the validation rules refuse more than MAX_DEPTH levels, MAX_ALIASES
 * aliases or MAX_DIRECTIVES directives;
 * **authorize** and **limits** (`useGate`: each root field's scope, the cost, each pool charged);
 * execute; the result gets `extensions.request_id`, and one larger than MAX_RESPONSE_BYTES is
 * replaced by an error; **meter** (the app's onResponse hook). Limits are in rest/graphql/limits.ts.
 *
 * The GraphiQL page (GET with Accept: text/html) holds no data and loads without a key; its
 * assets are inlined from @graphql-yoga/render-graphiql (no CDN), and queries from it need a key.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { ApiError } from '../../domain/errors';
import { createRequestContext, type Services } from '../../resolvers/context';
import type { OperationRegistry } from '../../resolvers/engine';
import { rootFieldPolicies } from '../../resolvers/index';
import { authenticate, type Authenticated } from '../auth';
import { errorForResponse } from '../errors';
import { Limiter } from '../limits';
import { openExchange } from '../metering';
import type { RouteDef } from '../route';
import { buildFieldPolicies } from './field-policies';
import { GRAPHQL_PATH, catalogGraphqlError, maskGraphqlError, withoutSuggestions } from './errors';
import { INTROSPECTION_SCOPE, useGate, type GraphqlContext } from './gate';
import { MAX_ALIASES, MAX_DEPTH, MAX_DIRECTIVES, MAX_RESPONSE_BYTES, MAX_TOKENS } from './limits';

interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
  /** The caller, authenticated before graphql-yoga reads the request; null only for the GraphiQL page. */
  authenticated: Authenticated | null;
}

/** graphql-yoga answers a GET asking for HTML with the GraphiQL page, which holds no data. */
function asksForGraphiql(request: FastifyRequest): boolean {
  return request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
}

export interface GraphqlDeps {
  schema: GraphQLSchema;
  services: Services;
  registry: OperationRegistry;
  routes: readonly RouteDef[];
  log: (message: string, error?: unknown) => void;
}

/**
 * Every result leaves in the catalog's shape: errors graphql-yoga reports without masking (the
 * validation rules') are rendered like the rest, the request id is added, and the first error is
 * recorded for the request log.
 */
function useResultRecord(log: GraphqlDeps['log']): Plugin<GraphqlContext, ServerContext> {
  return {
    onResultProcess({ result, setResult, serverContext }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      // A key that may not introspect learns no field or type name from a misspelt query either.
      const mayReadSchema = serverContext.authenticated?.caller.scopes.has(INTROSPECTION_SCOPE) ?? false;
      const errors = result.errors
        ?.map((error) => (error.extensions?.type === undefined ? maskGraphqlError(error, log) : error))
        .map((error) => (mayReadSchema ? error : withoutSuggestions(error)));
      const [first] = errors ?? [];
      const exchange = serverContext.req.exchange;
      if (first && exchange) exchange.error = { type: String(first.extensions?.type), detail: first.message };
      setResult({ ...result, ...(errors ? { errors } : {}), extensions: { ...result.extensions, request_id: serverContext.req.requestId } });
    },
  };
}

/** The GraphiQL page, rendered once: about 9 MB with every asset inlined. */
let graphiqlPage: string | null = null;

export function mountGraphql(app: FastifyInstance, deps: GraphqlDeps): void {
  const { schema, services, log } = deps;
  const limiter = new Limiter(services.kv);
  const policies = buildFieldPolicies(schema, deps.registry, deps.routes, rootFieldPolicies);
  const yoga = createYoga<ServerContext, GraphqlContext>({
    schema,
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: { title: 'Marque GraphQL', headers: JSON.stringify({ Authorization: 'Bearer mq_...' }) },
    renderGraphiQL: (options) => (graphiqlPage ??= renderGraphiQL(options)),
    landingPage: false,
    cors: false,
    logging: false,
    plugins: [
      maxTokensPlugin({ n: MAX_TOKENS }),
      maxDepthPlugin({ n: MAX_DEPTH, flattenFragments: true }),
      maxAliasesPlugin({ n: MAX_ALIASES }),
      maxDirectivesPlugin({ n: MAX_DIRECTIVES }),
      useGate({ schema, policies, limiter }),
      useResultRecord(log),
    ],
    maskedErrors: { maskError: (error) => maskGraphqlError(error, log) },
    context: async ({ reply, authenticated }): Promise<GraphqlContext> => {
      if (authenticated === null) throw new ApiError('unauthorized', 'Authorization header missing; send "Authorization: Bearer <API key>"');
      const { caller, organization } = authenticated;
      return { ...createRequestContext(services, caller), organization, setHeaders: (headers) => void reply.headers(headers) };
    },
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    // Before graphql-yoga parses and validates: a validation error's "Did you mean …" must not
    // describe the schema to a caller without a key.
    const authenticated = asksForGraphiql(request) ? null : await authenticate(services.store, request.headers.authorization, services.now());
    if (authenticated !== null) request.exchange = openExchange(request.requestId, authenticated.caller, GRAPHQL_PATH, request.method);
    const response = await yoga.handleNodeRequestAndResponse(request, reply, { req: request, reply, authenticated });
    // graphql-yoga answers a body of a type it does not read (text/plain) with a bare 415.
    if (response.status === 415) {
      return sendGraphqlError(
        reply,
        request,
        new ApiError('validation_error', 'Content-Type: request bodies must be sent as application/json', { parameter: 'Content-Type' }),
      );
    }
    response.headers.forEach((value, key) => void reply.header(key, value));
    // A subscription streams its events as they come (each one small): no buffering, no size cap.
    if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream') && response.body) {
      // graphql-yoga's body is its own ReadableStream (not Node's), async-iterable all the same.
      return reply.status(response.status).send(Readable.from(response.body as unknown as AsyncIterable<Uint8Array>));
    }
    const body = Buffer.from(await response.arrayBuffer());
    const isPage = (response.headers.get('content-type') ?? '').startsWith('text/html');
    if (isPage) reply.header('cache-control', 'public, max-age=3600');
    if (!isPage && body.length > MAX_RESPONSE_BYTES) {
      const detail = `query: the response would be ${body.length} bytes, more than the ${MAX_RESPONSE_BYTES} a response may hold; select fewer fields or rows`;
      return sendGraphqlError(reply, request, new ApiError('validation_error', detail, { parameter: 'query' }));
    }
    return reply.status(response.status).send(body);
  };
  // A body Fastify cannot read (malformed JSON, wrong media type, too large) gets the same shape.
  const errorHandler = (error: unknown, request: FastifyRequest, reply: FastifyReply) => sendGraphqlError(reply, request, errorForResponse(error, log));
  app.route({ url: GRAPHQL_PATH, method: ['GET', 'POST'], handler, errorHandler });
}

/** An error answered by /graphql itself (not through graphql-yoga), in the same shape as the rest. */
function sendGraphqlError(reply: FastifyReply, request: FastifyRequest, error: ApiError): FastifyReply {
  if (request.exchange) request.exchange.error = { type: error.type, detail: error.detail };
  const body = { errors: [catalogGraphqlError(error).toJSON()], extensions: { request_id: request.requestId } };
  if (error.status === 429 && error.retryAfter !== null) reply.header('retry-after', String(error.retryAfter));
  return reply.status(error.status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}
