/**
 * `/graphql`: the internal schema for the dashboard, served by graphql-yoga with GraphiQL, behind
 * the same API-key authentication as /v1. The GraphiQL page itself (GET with Accept: text/html)
 * holds no data and loads without a key; every query needs one with `trademarks:read`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { ApiError } from '../domain/errors';
import { createRequestContext, type RequestContext, type Services } from '../resolvers/context';
import { catalogError } from '../resolvers/errors';
import { sendError } from './errors';
import { authenticate, requireScope } from './auth';

interface YogaServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

export function mountGraphql(app: FastifyInstance, schema: GraphQLSchema, services: Services): void {
  const yoga = createYoga<YogaServerContext, RequestContext>({
    schema,
    graphiql: { title: 'Marque GraphQL', headers: JSON.stringify({ Authorization: 'Bearer mq_...' }) },
    landingPage: false,
    cors: false,
    maskedErrors: {
      maskError: (error, message) => {
        const known = catalogError((error as { originalError?: unknown }).originalError);
        if (known) return Object.assign(error as Error, { extensions: { code: known.type, http: { status: known.status } } });
        return new Error(message);
      },
    },
    // Resolvers receive the same RequestContext as under /v1 (merged into yoga's own context).
    context: async ({ req }) => (req as FastifyRequest & { marqueContext: RequestContext }).marqueContext,
  });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (!wantsPage) {
      try {
        const { caller } = await authenticate(services.store, request.headers.authorization, services.now());
        requireScope(caller, 'trademarks:read');
        (request as FastifyRequest & { marqueContext: RequestContext }).marqueContext = createRequestContext(services, caller);
      } catch (error) {
        if (error instanceof ApiError) return sendError(reply, request, error);
        throw error;
      }
    }
    const response = await yoga.handleNodeRequestAndResponse(request, reply, { req: request, reply });
    response.headers.forEach((value, key) => reply.header(key, value));
    reply.status(response.status);
    return reply.send(Buffer.from(await response.arrayBuffer()));
  };
  app.route({ url: '/graphql', method: ['GET', 'POST'], handler });
}
