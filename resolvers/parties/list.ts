/**
 * One page of a party list (owners, attorneys, firms, entities): q, country_code, the list's own
 * filters and its sort → SearchIndex query under a pinned snapshot, keyset paging in a signed
 * cursor bound to the list and its arguments, optional capped total; records loaded through the
 * list's DataLoader. Merged records stay indexed (`is_merged`) but never list.
 */
import type DataLoader from 'dataloader';
import type { SearchFilter, SearchSort } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import { searchTextOf } from '../../domain/validation';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { searchIdPage, type IdPage } from '../search-page';

/** The arguments every party list takes. */
export interface PartyListArgs {
  q?: string | null;
  country_code?: string | null;
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

/** One party list: its index, its name in cursors, its sorts and where its records load from. */
export interface PartyList<T> {
  index: string;
  list: string;
  sortFields: readonly string[];
  defaultSort: string;
  loader: DataLoader<string, T | null>;
  maxLimit?: number;
}

/** Filters a list adds to q and country_code, with their values as cursors bind them. */
export interface ListRefinements {
  filters: SearchFilter[];
  binding: Record<string, unknown>;
}

const countryFilter = (countryCode: string | null | undefined): SearchFilter[] =>
  countryCode ? [{ field: 'country_code', op: 'eq', value: countryCode.toUpperCase() }] : [];

/**
 * `-field` / `field` → a sort key, checked against the fields a list offers; the public `name`
 * sort is the index's lowercased canonical name.
 */
function parseSort(sort: string, allowed: readonly string[]): SearchSort {
  const field = sort.startsWith('-') ? sort.slice(1) : sort;
  if (!allowed.includes(field)) throw invalid('sort', `must be one of ${allowed.join(', ')}, optionally prefixed with - (got '${sort}')`);
  return { field: field === 'name' ? 'sort_name' : field, direction: sort.startsWith('-') ? 'desc' : 'asc' };
}

export async function listParties<T>(
  spec: PartyList<T>,
  args: PartyListArgs,
  ctx: RequestContext,
  refinements: ListRefinements = { filters: [], binding: {} },
): Promise<IdPage & { data: T[] }> {
  const sort = args.sort ?? spec.defaultSort;
  const text = searchTextOf(args.q);
  const page = await searchIdPage(
    {
      index: spec.index,
      binding: { list: spec.list, q: args.q ?? null, country_code: args.country_code ?? null, ...refinements.binding, sort },
      text,
      filters: [...countryFilter(args.country_code), ...refinements.filters, { field: 'is_merged', op: 'eq', value: false }],
      sort: [parseSort(sort, spec.sortFields)],
      limit: args.limit,
      maxLimit: spec.maxLimit,
      cursor: args.cursor,
      include_total: args.include_total,
    },
    ctx,
  );
  return { ...page, data: await loadPresent(spec.loader, page.ids) };
}
