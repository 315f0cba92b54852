/**
 * Errors on /graphql, in GraphQL's own shape: each error's `message` is the catalog detail and its
 * `extensions` carry the catalog's error object (type, title, status, detail, instance,
 * suggestion, retryable, retry_after, extras) plus `code` (the type, as GraphQL clients expect)
 * and `http` (the status graphql-yoga answers with, and Retry-After on 429). Resolver errors,
 * graphql-yoga's own request errors (batched bodies, mutations over GET), parse and validation
 * errors all go through here; anything unexpected is logged and becomes 500 internal_error.
 */
import { GraphQLError } from 'graphql';
import { ApiError, errorFields } from '../../domain/errors';
import { catalogError } from '../../resolvers/errors';

export const GRAPHQL_PATH = '/graphql';

/** graphql-yoga's own request errors carry an HTTP status and no original error. */
function yogaStatus(error: GraphQLError): number | null {
  const http = error.extensions?.http as { status?: unknown } | undefined;
  return error.originalError === undefined && typeof http?.status === 'number' ? http.status : null;
}

/** The catalog error behind anything graphql-yoga reports. */
export function graphqlApiError(error: unknown, log: (message: string, error?: unknown) => void): ApiError {
  if (error instanceof GraphQLError && yogaStatus(error) === 405) return new ApiError('method_not_allowed', error.message);
  const known = catalogError(error);
  if (known) return known;
  log('unexpected error in /graphql', error);
  return new ApiError('internal_error', 'the server failed to handle this request');
}

/** A GraphQLError whose extensions are the catalog's error object, keeping where it happened. */
export function catalogGraphqlError(error: ApiError, source?: GraphQLError): GraphQLError {
  const headers = error.status === 429 && error.retryAfter !== null ? { 'retry-after': String(error.retryAfter) } : undefined;
  return new GraphQLError(error.detail, {
    nodes: source?.nodes,
    path: source?.path,
    extensions: { code: error.type, ...errorFields(error, GRAPHQL_PATH), http: { status: error.status, ...(headers ? { headers } : {}) } },
  });
}

/** graphql-js's "Did you mean …?" hints, which name the schema's fields and types. */
const SUGGESTION = / Did you mean [^?]*\?/g;

/** The error without graphql-js's hints, for a caller that may not read the schema. */
export function withoutSuggestions(error: GraphQLError): GraphQLError {
  const strip = (text: string) => text.replace(SUGGESTION, '');
  const message = strip(error.message);
  if (message === error.message) return error;
  const detail = error.extensions?.detail;
  return new GraphQLError(message, {
    nodes: error.nodes,
    path: error.path,
    extensions: { ...error.extensions, ...(typeof detail === 'string' ? { detail: strip(detail) } : {}) },
  });
}

/** graphql-yoga's maskError: every error it would send, in the catalog's shape. */
export function maskGraphqlError(error: unknown, log: (message: string, error?: unknown) => void): GraphQLError {
  return catalogGraphqlError(graphqlApiError(error, log), error instanceof GraphQLError ? error : undefined);
}
