/**
 * The one translation from a thrown value to the error catalog, shared by every surface: the
 * persisted-operation registry, the REST lifecycle and /graphql all ask it what a thrown value
 * means before rendering it.
 */
import { GraphQLError } from 'graphql';

import { DependencyUnavailableError } from '../datasources/ports';

import { ApiError } from '../domain/errors';

/** Seconds a client should wait when a dependency is down (`retry_after` of the 503). */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * The catalog error a thrown value stands for, or null when it is unexpected (a bug: log it and
 * answer 500). A resolver's ApiError passes through unchanged, also when GraphQL wrapped it; an
 * unreachable dependency is 503; a GraphQL error of its own (syntax, validation, a bad variable)
 * is 400.
 */
export function catalogError(thrown: unknown): ApiError | null {
  if (thrown instanceof ApiError) return thrown;
  if (thrown instanceof DependencyUnavailableError) {
    return new ApiError('service_unavailable', `the ${thrown.dependency} is unavailable`, {}, DEPENDENCY_RETRY_AFTER_SECONDS);
  }
  if (thrown instanceof GraphQLError) {
    return thrown.originalError ? catalogError(thrown.originalError) : new ApiError('validation_error', thrown.message);
  }
  return null;
}
