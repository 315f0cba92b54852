/**
 * The ApiError a synchronous rule throws, for unit tests of pure rules (parameter parsing, filter
 * translation, idempotency keys): anything else thrown, or nothing, fails the test.
 */
import { ApiError } from '../../domain/errors';

export function apiErrorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}
