/**
 * Stage 6a: wraps an operation's result in the route's envelope (spec: Response envelopes).
 */
import { projectRows } from './fields-projection';
import type { RouteDef, RouteInput } from './route';

interface ListResult {
  data: unknown[];
  has_more?: boolean;
  pagination?: { cursor: string | null; total_count?: number | null; total_count_approximate?: boolean | null };
  [extra: string]: unknown;
}

/** `total_count` members appear only when asked for (include_total=true). */
function cleanPagination(pagination: ListResult['pagination']): ListResult['pagination'] {
  if (!pagination) return { cursor: null };
  const { cursor, total_count, total_count_approximate } = pagination;
  if (total_count === null || total_count === undefined) return { cursor };
  return { cursor, total_count, total_count_approximate: total_count_approximate ?? false };
}

export function buildEnvelope(route: RouteDef, result: unknown, requestId: string, input?: RouteInput): unknown {
  if (route.fieldsProjection && input) {
    const list = result as ListResult;
    result = { ...list, data: projectRows(list.data, input.query, route.fieldsProjection.alwaysKept) };
  }
  switch (route.envelope) {
    case 'single': {
      const body: Record<string, unknown> = { ...(result as Record<string, unknown>), request_id: requestId };
      for (const member of route.absentWhenNull ?? []) if (body[member] === null) delete body[member];
      return body;
    }
    case 'list': {
      const list = result as ListResult;
      return { ...list, object: 'list', has_more: list.has_more ?? false, pagination: cleanPagination(list.pagination), request_id: requestId };
    }
    case 'list_public': {
      const list = result as ListResult;
      return { ...list, object: 'list', has_more: list.has_more ?? false, pagination: cleanPagination(list.pagination) };
    }
    case 'data_only':
      return { object: 'list', data: (result as ListResult).data, request_id: requestId };
    case 'raw':
    case 'binary':
      return result;
  }
}
