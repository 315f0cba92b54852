/**
 * Trademark search and list: filters → SearchIndex query → page of IDs → DataLoader → records.
 * Paging is keyset (`searchAfter`) under a pinned snapshot, carried in a signed cursor.
 */
import { TRADEMARK_SORT_FIELDS } from '../../domain/contract';
import type { SearchFilter, SearchSort } from '../../datasources/ports';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import { invalid } from '../../domain/errors';
import { markTextKey } from '../../domain/mark-keys';
import type { TrademarkDoc } from '../../domain/records';
import { searchTextOf } from '../../domain/validation';
import type { RequestContext } from '../context';
import { entityScopeFilters } from './entity-scope';
import { loadPresent } from '../loaders';
import { searchIdPage, type Pagination } from '../search-page';
import { hasAnyFilter, toSearchFilters, type TrademarkFilterInput } from './filter';

export { MAX_PAGE_SIZE, TOTAL_COUNT_CAP } from '../search-page';

/**
 * What a mark whose whole text is the query's (folded, spaces ignored) adds to its relevance: far
 * more than word matches score (bm25 sums stay in the tens), so a clearance search for H&M lists
 * H & M and h&m before the marks that merely contain an h- and an m-word.
 */
const EXACT_MARK_TEXT_BOOST = 1000;

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
  pagination: Pagination;
  search_meta: { total_results: number | null; total_count_exact: boolean | null; total_count_approximate: boolean | null };
}

/**
 * Parses `sort` (comma list of fields, `-` for descending). Default: relevance then newest filing
 * when there is a text query; otherwise the index's internal order. An explicit sort replaces
 * relevance (the spec: it "overrides the default"): marks tied on its keys follow in ID order, and
 * no relevance is computed, so a sorted text search need not score every match.
 */
export function trademarkSort(sort: string | null | undefined, hasText: boolean, allowed: readonly string[] = TRADEMARK_SORT_FIELDS): SearchSort[] {
  if (!sort) {
    return hasText
      ? [
          { field: '_score', direction: 'desc' },
          { field: 'filing_date', direction: 'desc' },
        ]
      : [];
  }
  const keys = sort.split(',').map((part): SearchSort => {
    const field = part.startsWith('-') ? part.slice(1) : part;
    if (!allowed.includes(field)) throw invalid('sort', `must be one of ${allowed.join(', ')}, optionally prefixed with - (got '${part}')`);
    return { field, direction: part.startsWith('-') ? 'desc' : 'asc' };
  });
  return keys;
}

export interface SearchScope {
  /** Extra filters a parent resource imposes (for example an owner's own marks). */
  filters?: TrademarkFilterInput;
  /** Lists under a parent resource are scoped already and need no filter. */
  requireFilter: boolean;
  /** Identifies the list in cursor bindings, so a cursor of one list is refused by another. */
  listName: string;
  sortFields?: readonly string[];
  /** SearchIndex filters of the parent resource that the list filters cannot say (a portfolio's mark IDs). */
  extraFilters?: readonly SearchFilter[];
}

export async function searchTrademarks(args: TrademarkSearchArgs, ctx: RequestContext, scope: SearchScope): Promise<TrademarkSearchPage> {
  const filter: TrademarkFilterInput = { ...(args.filter ?? {}) };
  const q = searchTextOf(args.q);
  if (scope.requireFilter && q === undefined && !hasAnyFilter(filter)) {
    throw invalid('filter', 'at least one filter or q is required; unscoped lists are not offered');
  }
  const { filters, ownerName } = toSearchFilters({ ...filter, ...scope.filters });
  filters.push(...(await entityScopeFilters({ ...filter, ...scope.filters }, ctx)));
  if (ownerName !== null) filters.push({ field: 'owner_names', op: 'match', text: ownerName });
  filters.push(...(scope.extraFilters ?? []));
  const sort = trademarkSort(args.sort, q !== undefined, scope.sortFields);

  const binding = { list: scope.listName, filter, q: q ?? null, sort: args.sort ?? null };
  const boosts = q === undefined ? [] : [{ field: 'mark_text_key', value: markTextKey(q), boost: EXACT_MARK_TEXT_BOOST }];
  const page = await searchIdPage(
    { index: TRADEMARK_INDEX.name, binding, text: q, filters, sort, boosts, limit: args.limit, cursor: args.cursor, include_total: args.include_total },
    ctx,
  );
  const data = await loadPresent(ctx.loaders.trademarks, page.ids);
  const { total_count, total_count_approximate } = page.pagination;
  return {
    data,
    has_more: page.has_more,
    pagination: page.pagination,
    search_meta: {
      total_results: total_count ?? null,
      total_count_exact: total_count_approximate === undefined ? null : !total_count_approximate,
      total_count_approximate: total_count_approximate ?? null,
    },
  };
}
