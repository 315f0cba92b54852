/**
 * Errors on the HTTP surfaces (REST routes and /graphql): what a thrown value becomes, and how an
 * ApiError is sent. Catalog errors come from resolvers/errors.ts; on top of that, Fastify's own
 * request errors (bad media type, body size) are mapped here, and anything else is a bug: logged,
 * and answered 500 without a stack trace.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from '../domain/errors';

import { catalogError } from '../resolvers/errors';

import { serializeError } from './serialize';

/** Fastify's request errors by code, as the catalog error each one is. */
const FASTIFY_ERRORS: Readonly<Record<string, () => ApiError>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new ApiError('validation_error', 'Content-Type: request bodies must be sent as application/json', { parameter: 'Content-Type' }),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError('validation_error', 'body: must be at most 1 MiB', { parameter: 'body' }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new ApiError('validation_error', 'body: is empty or truncated', { parameter: 'body' }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError('validation_error', 'body: is empty or truncated', { parameter: 'body' }),
};

/** The catalog error to answer a thrown value with; unexpected ones are logged and become 500. */
export function errorForResponse(thrown: unknown, log: (message: string, error?: unknown) => void): ApiError {
  const known = catalogError(thrown);
  if (known) return known;
  const code = (thrown as { code?: unknown } | null)?.code;
  const fastifyError = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
  if (fastifyError) return fastifyError();
  log('unexpected error', thrown);
  return new ApiError('internal_error', 'the server failed to handle this request');
}

/** Sends the spec's error envelope and records the error for the request log. */
export function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError): FastifyReply {
  if (request.exchange) request.exchange.error = { type: error.type, detail: error.detail };
  // Spec (Limits → Headers): Retry-After only on 429; other retryable errors carry retry_after in the body.
  if (error.status === 429 && error.retryAfter !== null) reply.header('retry-after', String(error.retryAfter));
  return reply
    .status(error.status)
    .type('application/json; charset=utf-8')
    .send(serializeError(errorBody(error, request.url.split('?')[0] as string, request.requestId)));
}
