/**
 * GET /v1/organization/logs: the organization's request log, newest first (occurred_at, then
 * request_id, both descending), with keyset cursors. Rows written after the first page are newer
 * than every row of the session, so they never appear in later pages.
 *
 * Filters: `status` is an exact code (`404`) or a class (`4xx`); `route` is a route template
 * (`/v1/trademarks/:id`, or with `{id}`); `method`; `occurred_at_gte` / `occurred_at_lt` bound the
 * time range.
 */
import type { Filter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import { COLLECTIONS, type RequestLogDoc } from '../../domain/records';
import { paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';

export const MAX_LOG_PAGE = 100;
export const STATUS_FILTER_PATTERN = /^(?:[1-5]xx|[1-5]\d\d)$/;

export interface RequestLogArgs {
  status?: string | null;
  route?: string | null;
  method?: string | null;
  occurred_at_gte?: string | null;
  occurred_at_lt?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

/** `404` → exactly 404; `4xx` → 400 to 499. */
export function statusCondition(status: string): number | { $gte: number; $lt: number } {
  if (!STATUS_FILTER_PATTERN.test(status)) throw invalid('status', `must be a status code such as 404 or a class such as 4xx (got '${status.slice(0, 20)}')`);
  if (status.endsWith('xx')) {
    const low = Number(status[0]) * 100;
    return { $gte: low, $lt: low + 100 };
  }
  return Number(status);
}

/** OpenAPI-style `{id}` and Fastify-style `:id` templates name the same route. */
export function routeTemplate(route: string): string {
  return route.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');
}

function instant(parameter: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalid(parameter, `must be an ISO 8601 timestamp (got '${value.slice(0, 40)}')`);
  return new Date(ms).toISOString();
}

/** The store filter of the organization's rows matching the arguments (cursor aside). */
export function requestLogFilter(organizationId: string, args: RequestLogArgs): Filter {
  const filter: Filter = { organization_id: organizationId };
  if (args.status) filter.status_code = statusCondition(args.status);
  if (args.route) filter.route = routeTemplate(args.route);
  if (args.method) filter.method = args.method.toUpperCase();
  const range: Record<string, string> = {};
  if (args.occurred_at_gte) range.$gte = instant('occurred_at_gte', args.occurred_at_gte);
  if (args.occurred_at_lt) range.$lt = instant('occurred_at_lt', args.occurred_at_lt);
  if (range.$gte !== undefined && range.$lt !== undefined && range.$gte >= range.$lt) {
    throw invalid('occurred_at_gte', 'must be before occurred_at_lt');
  }
  if (Object.keys(range).length > 0) filter.occurred_at = range;
  return filter;
}

export async function requestLogs(args: RequestLogArgs, ctx: RequestContext) {
  const limit = pageLimit(args.limit, MAX_LOG_PAGE);
  const base = requestLogFilter(ctx.caller.organizationId, args);
  const binding = { list: 'request_logs', filter: base };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;
  let filter = base;
  const [afterAt, afterId] = position?.after ?? [];
  if (typeof afterAt === 'string' && typeof afterId === 'string') {
    filter = { $and: [base, { $or: [{ occurred_at: { $lt: afterAt } }, { occurred_at: afterAt, _id: { $lt: afterId } }] }] };
  }
  const logs = ctx.services.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs);
  const [rows, total] = await Promise.all([
    logs.find(filter, { sort: { occurred_at: -1, _id: -1 }, limit: limit + 1 }),
    totalIf(args.include_total, () => logs.countDocuments(base)),
  ]);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  return {
    data: page.map(({ _id, organization_id: _organization, ...row }) => ({ id: _id, object: 'request_log', ...row })),
    has_more: hasMore,
    pagination: paginationOf(hasMore && last ? ctx.services.cursors.encode(binding, { snapshot: 0, after: [last.occurred_at, last._id] }) : null, total),
  };
}
