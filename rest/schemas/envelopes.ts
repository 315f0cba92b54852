/**
 * The spec's response envelopes as JSON Schemas: single resource, list (paginated or bounded),
 * data-only list, and the error envelope.
 */
import { ERROR_CATALOG } from '../../domain/errors';
import { arrayOf, bool, int, named, nullableInt, nullableStr, object, str, withMembers, type JsonSchema } from './json-schema';

export const requestIdSchema = str('ID of this request (req_...).');

export function singleEnvelope(resource: JsonSchema): JsonSchema {
  return withMembers(resource, { request_id: requestIdSchema });
}

const paginationSchema: JsonSchema = named('Pagination', {
  type: 'object',
  properties: {
    cursor: nullableStr('Opaque cursor for the next page; null when has_more is false.'),
    total_count: int('Number of matches; present only with include_total=true.'),
    total_count_approximate: bool('True when the engine capped the count at 10,000; present only with include_total=true.'),
  },
  required: ['cursor'],
  additionalProperties: false,
});

/** `object: list` with `data`, `has_more`, `pagination`, `request_id`, plus any extra members. */
export function listEnvelope(item: JsonSchema, extra: Record<string, JsonSchema> = {}, withRequestId = true): JsonSchema {
  const properties: Record<string, JsonSchema> = {
    object: { type: 'string', enum: ['list'] },
    data: arrayOf(item),
    has_more: bool('True when another page exists.'),
    pagination: paginationSchema,
    ...extra,
    ...(withRequestId ? { request_id: requestIdSchema } : {}),
  };
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** `object: list` with `data` only (bulk operations that never paginate). */
export function dataOnlyEnvelope(item: JsonSchema): JsonSchema {
  return object({ object: { type: 'string', enum: ['list'] }, data: arrayOf(item), request_id: requestIdSchema });
}

/** Named ErrorEnvelope rather than Error, so a generated client's type does not shadow its language's own Error. */
export const errorEnvelope: JsonSchema = named('ErrorEnvelope', {
  type: 'object',
  description: 'The body of every error response.',
  properties: {
    error: {
      type: 'object',
      properties: {
        type: { type: 'string', enum: Object.keys(ERROR_CATALOG) },
        title: str('Human title, the same for every occurrence of the type.'),
        status: int('HTTP status.'),
        detail: str('What went wrong in this request; names the parameter and the rule for validation errors.'),
        instance: str('Request path.'),
        suggestion: str('How to fix or what to do next.'),
        retryable: bool('Whether retrying the same request can succeed.'),
        retry_after: nullableInt('Seconds to wait before retrying, when known.'),
      },
      required: ['type', 'title', 'status', 'detail', 'instance', 'suggestion', 'retryable', 'retry_after'],
      additionalProperties: { type: ['string', 'integer', 'number', 'boolean', 'null'] },
    },
    request_id: requestIdSchema,
  },
  required: ['error', 'request_id'],
  additionalProperties: false,
});
