/**
 * Trademark search and list: filters → SearchIndex query → page of IDs → DataLoader → records.
 * Paging is keyset (`searchAfter`) under a pinned snapshot, carried in a signed cursor.
 */
import type { SearchSort } from '../../datasources/ports';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import { invalid } from '../../domain/errors';
import type { TrademarkDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { entityScopeFilters } from '../entities/scope';
import { loadPresent } from '../loaders';
import { hasAnyFilter, toSearchFilters, type TrademarkFilterInput } from './filter';

/** Spec: sort fields for GET/POST /v1/trademarks. */
export const TRADEMARK_SORT_FIELDS = [
  'filing_date',
  'registration_date',
  'expiry_date',
  'renewal_due_date',
  'updated_at',
  'publication_date',
  'termination_date',
  'office_code',
  'jurisdiction_code',
] as const;

/** Totals above this are reported as approximate (spec: 10,000 cap on deep search). */
export const TOTAL_COUNT_CAP = 10_000;
export const MAX_PAGE_SIZE = 100;

export interface TrademarkSearchArgs {
  filter?: TrademarkFilterInput | null;
  q?: string | null;
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

export interface TrademarkSearchPage {
  data: TrademarkDoc[];
  has_more: boolean;
  pagination: { cursor: string | null; total_count?: number; total_count_approximate?: boolean };
  search_meta: { total_results: number | null; total_count_exact: boolean | null; total_count_approximate: boolean | null };
}

/**
 * Parses `sort` (comma list of fields, `-` for descending). Default: relevance then newest filing
 * when there is a text query; otherwise the index's internal order.
 */
export function trademarkSort(sort: string | null | undefined, hasText: boolean, allowed: readonly string[] = TRADEMARK_SORT_FIELDS): SearchSort[] {
  if (!sort) {
    return hasText ? [{ field: '_score', direction: 'desc' }, { field: 'filing_date', direction: 'desc' }] : [];
  }
  const keys = sort.split(',').map((part): SearchSort => {
    const field = part.startsWith('-') ? part.slice(1) : part;
    if (!allowed.includes(field)) throw invalid('sort', `must be one of ${allowed.join(', ')}, optionally prefixed with - (got '${part}')`);
    return { field, direction: part.startsWith('-') ? 'desc' : 'asc' };
  });
  return hasText ? [...keys, { field: '_score', direction: 'desc' }] : keys;
}

export interface SearchScope {
  /** Extra filters a parent resource imposes (for example an owner's own marks). */
  filters?: TrademarkFilterInput;
  /** Lists under a parent resource are scoped already and need no filter. */
  requireFilter: boolean;
  /** Identifies the list in cursor bindings, so a cursor of one list is refused by another. */
  listName: string;
  sortFields?: readonly string[];
}

export async function searchTrademarks(args: TrademarkSearchArgs, ctx: RequestContext, scope: SearchScope): Promise<TrademarkSearchPage> {
  const filter: TrademarkFilterInput = { ...(args.filter ?? {}) };
  const q = args.q?.trim() ? args.q.trim() : undefined;
  if (scope.requireFilter && q === undefined && !hasAnyFilter(filter)) {
    throw invalid('filter', 'at least one filter or q is required; unscoped lists are not offered');
  }
  const limit = args.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw invalid('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);

  const { filters, ownerName } = toSearchFilters({ ...filter, ...scope.filters });
  filters.push(...(await entityScopeFilters({ ...filter, ...scope.filters }, ctx)));
  if (ownerName !== null) filters.push({ field: 'owner_names', op: 'match', text: ownerName });
  const sort = trademarkSort(args.sort, q !== undefined, scope.sortFields);

  const binding = { list: scope.listName, filter, q: q ?? null, sort: args.sort ?? null };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;
  const includeTotal = args.include_total === true;

  const result = await ctx.services.search.search({
    index: TRADEMARK_INDEX.name,
    text: q,
    filters,
    sort,
    searchAfter: position?.after,
    snapshot: position?.snapshot,
    limit: limit + 1,
    countUpTo: includeTotal ? TOTAL_COUNT_CAP : undefined,
  });
  const pageHits = result.hits.slice(0, limit);
  const hasMore = result.hits.length > limit;
  // Records deleted since indexing are skipped silently (spec: a page may hold fewer than limit).
  const data = await loadPresent(ctx.loaders.trademarks, pageHits.map((hit) => hit.id));
  const last = pageHits[pageHits.length - 1];
  const cursor = hasMore && last ? ctx.services.cursors.encode(binding, { snapshot: result.snapshot, after: last.sortValues }) : null;

  const total = includeTotal ? result.total : undefined;
  return {
    data,
    has_more: hasMore,
    pagination: total ? { cursor, total_count: total.value, total_count_approximate: total.approximate } : { cursor },
    search_meta: {
      total_results: total?.value ?? null,
      total_count_exact: total ? !total.approximate : null,
      total_count_approximate: total?.approximate ?? null,
    },
  };
}
