/**
 * One page of any SearchIndex list: the query under a pinned snapshot, keyset paging in a signed
 * cursor bound to the list and its arguments, and an optional capped total. Returns IDs; callers
 * load the records through their DataLoaders (deleted records drop out silently).
 */
import { StaleSnapshotError, type ScoreBoost, type SearchFilter, type SearchQuery, type SearchResult, type SearchSort } from '../datasources/ports';
import { ApiError } from '../domain/errors';
import type { RequestContext } from './context';
import { pageLimit } from './page-limit';
import type { CursorPosition } from './cursors';

/** Totals above this are reported as approximate (spec: 10,000 cap on deep search). */
export const TOTAL_COUNT_CAP = 10_000;
export { MAX_PAGE_SIZE } from './page-limit';

export interface SearchPageQuery {
  index: string;
  /** Identifies the list and everything that shapes it (filters, sort, parent ID) in cursors. */
  binding: Record<string, unknown>;
  text?: string;
  textFields?: readonly string[];
  filters: readonly SearchFilter[];
  sort: readonly SearchSort[];
  boosts?: readonly ScoreBoost[];
  limit?: number | null;
  maxLimit?: number;
  cursor?: string | null;
  include_total?: boolean | null;
}

export interface Pagination {
  cursor: string | null;
  total_count?: number;
  total_count_approximate?: boolean;
}

export interface IdPage {
  ids: string[];
  has_more: boolean;
  pagination: Pagination;
}

/** Runs a page's query; a cursor's snapshot of an index recreated since (an upgrade) has expired. */
async function searchFrom(position: CursorPosition | null, ctx: RequestContext, query: SearchQuery): Promise<SearchResult> {
  try {
    return await ctx.services.search.search(query);
  } catch (error) {
    if (position === null || !(error instanceof StaleSnapshotError)) throw error;
    throw new ApiError('cursor_expired', 'cursor: was issued before the search index was rebuilt (after an upgrade); run the query again from the first page', {
      parameter: 'cursor',
    });
  }
}

export async function searchIdPage(query: SearchPageQuery, ctx: RequestContext): Promise<IdPage> {
  const limit = pageLimit(query.limit, query.maxLimit);
  const position = query.cursor ? ctx.services.cursors.decode(query.cursor, query.binding) : null;
  const includeTotal = query.include_total === true;
  const result = await searchFrom(position, ctx, {
    index: query.index,
    text: query.text,
    textFields: query.textFields,
    filters: query.filters,
    sort: query.sort,
    boosts: query.boosts,
    searchAfter: position?.after,
    snapshot: position?.snapshot,
    limit: limit + 1,
    countUpTo: includeTotal ? TOTAL_COUNT_CAP : undefined,
  });
  const hits = result.hits.slice(0, limit);
  const hasMore = result.hits.length > limit;
  const last = hits[hits.length - 1];
  const cursor = hasMore && last ? ctx.services.cursors.encode(query.binding, { snapshot: result.snapshot, after: last.sortValues }) : null;
  const total = includeTotal ? result.total : undefined;
  return {
    ids: hits.map((hit) => hit.id),
    has_more: hasMore,
    pagination: total ? { cursor, total_count: total.value, total_count_approximate: total.approximate } : { cursor },
  };
}
