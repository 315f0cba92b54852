/**
 * Reading a JSON request body: parsed once by the app's content-type parser, and refused when it
 * nests deeper than any body of the API needs, before anything walks it recursively (the
 * idempotency fingerprint, the parameter parser, GraphQL variables).
 */
import { ApiError } from '../domain/errors';

/** Deepest nesting of arrays and objects a body may have; the deepest body the API takes needs 6. */
export const MAX_JSON_DEPTH = 32;

/** The nesting depth of a parsed JSON value (0 for a scalar), walked without recursion and stopping past `limit`. */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop() as { value: unknown; depth: number };
    if (current === null || typeof current !== 'object') continue;
    const inner = depth + 1;
    deepest = Math.max(deepest, inner);
    if (inner > limit) return inner;
    for (const member of Array.isArray(current) ? current : Object.values(current)) pending.push({ value: member, depth: inner });
  }
  return deepest;
}

/** The body as JSON: undefined when empty; 400 when malformed or nested too deep. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('validation_error', 'body: is not valid JSON', { parameter: 'body' });
  }
  if (jsonDepth(parsed) > MAX_JSON_DEPTH)
    throw new ApiError('validation_error', `body: nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`, { parameter: 'body' });
  return parsed;
}
