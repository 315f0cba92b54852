/**
 * One page of a party index (owners, attorneys, firms, entities): filters and sort → SearchIndex
 * query under a pinned snapshot, keyset paging in a signed cursor bound to the list and its
 * arguments, optional capped total. Returns IDs; callers load the records through DataLoaders.
 */
import type { SearchFilter, SearchSort } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import type { RequestContext } from '../context';
import { TOTAL_COUNT_CAP } from '../trademarks/search';

export interface PartyPageQuery {
  index: string;
  /** Identifies the list and everything that shapes it (filters, sort, parent ID) in cursors. */
  binding: Record<string, unknown>;
  q?: string | null;
  filters: SearchFilter[];
  sort: SearchSort[];
  limit?: number | null;
  maxLimit?: number;
  cursor?: string | null;
  include_total?: boolean | null;
}

export interface PartyIdPage {
  ids: string[];
  has_more: boolean;
  pagination: { cursor: string | null; total_count?: number; total_count_approximate?: boolean };
}

/** `-field` / `field` → a sort key, checked against the fields a list offers. */
export function parseSort(sort: string, allowed: readonly string[], indexField: (field: string) => string = (f) => f): SearchSort {
  const field = sort.startsWith('-') ? sort.slice(1) : sort;
  if (!allowed.includes(field)) throw invalid('sort', `must be one of ${allowed.join(', ')}, optionally prefixed with - (got '${sort}')`);
  return { field: indexField(field), direction: sort.startsWith('-') ? 'desc' : 'asc' };
}

export async function searchPartyPage(query: PartyPageQuery, ctx: RequestContext): Promise<PartyIdPage> {
  const maxLimit = query.maxLimit ?? 100;
  const limit = query.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw invalid('limit', `must be an integer from 1 to ${maxLimit}`);
  const q = query.q?.trim() ? query.q.trim() : undefined;
  const position = query.cursor ? ctx.services.cursors.decode(query.cursor, query.binding) : null;
  const includeTotal = query.include_total === true;
  const result = await ctx.services.search.search({
    index: query.index,
    text: q,
    filters: [...query.filters, { field: 'is_merged', op: 'eq', value: false }],
    sort: query.sort,
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
