/**
 * Errors on the HTTP surfaces (REST routes and /graphql): what a thrown value becomes, and how an
 * ApiError is sent. Catalog errors come from resolvers/errors.ts; on top of that, Fastify's own
 * request errors (bad media type, body size) are mapped here, and anything else is a bug: logged,
 * and answered 500 without a stack trace.
 */
import type { Duplex } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, invalid } from '../domain/errors';

import { catalogError } from '../resolvers/errors';

import { serializeError } from './serialize';

/** Longest path segment the router matches (Fastify's maxParamLength); longer ones are 400. */
export const MAX_PATH_SEGMENT = 200;

/** Fastify's request errors by code, as the catalog error each one is. */
const FASTIFY_ERRORS: Readonly<Record<string, () => ApiError>> = {
  FST_ERR_BAD_URL: () => new ApiError('validation_error', 'path: is not a valid URL (malformed percent-encoding)', { parameter: 'path' }),
  FST_ERR_MAX_PARAM_LENGTH: () => new ApiError('validation_error', `path: a path segment may be at most ${MAX_PATH_SEGMENT} characters`, { parameter: 'path' }),
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

/**
 * Node's own refusals of a request it could not read (headers over 16 KB, a malformed request
 * line, a client too slow to send its headers), answered on the raw socket in the catalog's
 * envelope with a request id, then closed gracefully: `Connection: close` and end, so a keep-alive
 * client reads this answer and opens a new connection for its next request instead of meeting a
 * reset socket.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, requestId: string): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [parameter, rule] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ['headers', 'are larger than 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ['request', 'was not received in time']
        : ['request', 'is not a valid HTTP/1.1 request'];
  const body = serializeError(errorBody(invalid(parameter, rule), '', requestId));
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Request-Id: ${requestId}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
    );
  } else {
    socket.destroy();
  }
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
