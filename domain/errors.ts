/**
 * The one error catalog. Every error any surface returns (REST envelopes, GraphQL `extensions`)
 * is an `ApiError` of a type listed here; nothing else invents status codes. It lives in domain/
 * because resolvers raise the errors every surface renders.
 */

export const FEEDBACK_HINT = 'If this persists, report it with POST /v1/feedback and include the request_id.';

interface CatalogEntry {
  status: number;
  title: string;
  retryable: boolean;
  suggestion: string;
}

export const ERROR_CATALOG = {
  validation_error: {
    status: 400,
    title: 'Validation error',
    retryable: false,
    suggestion: 'Correct the parameter named in detail and send the request again.',
  },
  id_type_mismatch: {
    status: 400,
    title: 'ID type mismatch',
    retryable: false,
    suggestion: 'Use an ID with the prefix this endpoint expects (for example tm_ for trademarks).',
  },
  cursor_expired: {
    status: 400,
    title: 'Cursor expired',
    retryable: false,
    suggestion: 'Cursors live 24 hours; start again from the first page without a cursor.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    retryable: false,
    suggestion: 'Send a valid, active API key as "Authorization: Bearer <key>".',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    retryable: false,
    suggestion: 'Use a key that holds the scope named in detail.',
  },
  plan_upgrade_required: {
    status: 403,
    title: 'Plan upgrade required',
    retryable: false,
    suggestion: 'This feature is not part of your plan; upgrade the plan to use it.',
  },
  resource_limit_exceeded: {
    status: 403,
    title: 'Resource limit exceeded',
    retryable: false,
    suggestion: 'Delete some of the objects named in detail, or upgrade the plan (limit_name, limit and current say which and how many).',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    retryable: false,
    suggestion: 'Check the ID or path; IDs of other organizations are not visible.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    retryable: false,
    suggestion: 'Use a new Idempotency-Key for a different request, after checking whether the request first sent with this key took effect.',
  },
  idempotency_processing: {
    status: 409,
    title: 'Request in progress',
    retryable: true,
    suggestion: 'The first request with this Idempotency-Key is still running; retry shortly.',
  },
  entity_merged: {
    status: 410,
    title: 'Entity merged',
    retryable: false,
    suggestion: 'Follow merged_into and use the surviving ID from now on.',
  },
  entity_too_large: {
    status: 422,
    title: 'Entity too large',
    retryable: false,
    suggestion: 'Narrow the query, query a single owner, or use ?entity_id= instead of ?entity_group=.',
  },
  batch_too_large: {
    status: 422,
    title: 'Batch too large',
    retryable: false,
    suggestion: 'Split the items into batches within item_count_limit.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    retryable: true,
    suggestion: 'Wait for the number of seconds in Retry-After, then retry.',
  },
  quota_exceeded: {
    status: 429,
    title: 'Quota exceeded',
    retryable: false,
    suggestion: 'Wait until quota_resets_at or upgrade the plan.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    retryable: true,
    suggestion: `Retry with backoff. ${FEEDBACK_HINT}`,
  },
  upstream_error: {
    status: 502,
    title: 'Upstream error',
    retryable: true,
    suggestion: `A dependency failed; retry with backoff. ${FEEDBACK_HINT}`,
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    retryable: true,
    suggestion: `A dependency is down; wait retry_after seconds and retry. ${FEEDBACK_HINT}`,
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    retryable: false,
    suggestion: 'GraphQL queries may use GET or POST; mutations need POST.',
  },
  preview_timeout: {
    status: 504,
    title: 'Preview timeout',
    retryable: false,
    suggestion: `The watch preview exceeded its budget; narrow the query. ${FEEDBACK_HINT}`,
  },
} as const satisfies Record<string, CatalogEntry>;

export type ErrorType = keyof typeof ERROR_CATALOG;

/** Extra members some error types carry (`merged_into`, `item_count`, `quota_scope`, …). */
export type ErrorExtras = Record<string, string | number | boolean | null>;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly retryable: boolean;

  constructor(
    readonly type: ErrorType,
    readonly detail: string,
    readonly extras: ErrorExtras = {},
    /** Seconds to wait before retrying (429, 503); also sent as `Retry-After`. */
    readonly retryAfter: number | null = null,
  ) {
    super(detail);
    const entry: CatalogEntry = ERROR_CATALOG[type];
    this.status = entry.status;
    this.retryable = type === 'quota_exceeded' ? extras.quota_scope === 'daily' : entry.retryable;
  }
}

export interface ErrorFields {
  type: ErrorType;
  title: string;
  status: number;
  detail: string;
  instance: string;
  suggestion: string;
  retryable: boolean;
  retry_after: number | null;
  [extra: string]: string | number | boolean | null;
}

export interface ErrorBody {
  error: ErrorFields;
  request_id: string;
}

/** The members of the spec's `error` object for an ApiError raised while serving `instance` (the request path). */
export function errorFields(error: ApiError, instance: string): ErrorFields {
  const entry: CatalogEntry = ERROR_CATALOG[error.type];
  return {
    ...error.extras,
    type: error.type,
    title: entry.title,
    status: entry.status,
    detail: error.detail,
    instance,
    suggestion: entry.suggestion,
    retryable: error.retryable,
    retry_after: error.retryAfter,
  };
}

/** The spec's error envelope. */
export function errorBody(error: ApiError, instance: string, requestId: string): ErrorBody {
  return { error: errorFields(error, instance), request_id: requestId };
}

/** Convenience constructors for the errors raised most often. */
export const invalid = (parameter: string, rule: string): ApiError => new ApiError('validation_error', `${parameter}: ${rule}`, { parameter });

/** 404: `what` (e.g. "portfolio pf_…"); `parameter` names where a body or query referred to it (not for the path's own ID). */
export const notFound = (what: string, parameter?: string): ApiError =>
  parameter === undefined
    ? new ApiError('not_found', `${what} does not exist`)
    : new ApiError('not_found', `${parameter}: ${what} does not exist`, { parameter });
