/**
 * One page of a party index (owners, attorneys, firms, entities): filters and sort → SearchIndex
 * query under a pinned snapshot, keyset paging in a signed cursor bound to the list and its
 * arguments, optional capped total. Returns IDs; callers load the records through DataLoaders.
 */
import type { SearchFilter, SearchSort } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import type { RequestContext } from '../context';
import { searchIdPage, type IdPage } from '../search-page';

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

export type PartyIdPage = IdPage;

/** `-field` / `field` → a sort key, checked against the fields a list offers. */
export function parseSort(sort: string, allowed: readonly string[], indexField: (field: string) => string = (f) => f): SearchSort {
  const field = sort.startsWith('-') ? sort.slice(1) : sort;
  if (!allowed.includes(field)) throw invalid('sort', `must be one of ${allowed.join(', ')}, optionally prefixed with - (got '${sort}')`);
  return { field: indexField(field), direction: sort.startsWith('-') ? 'desc' : 'asc' };
}

/** A page of a party list; merged records stay indexed (is_merged) but never list. */
export async function searchPartyPage(query: PartyPageQuery, ctx: RequestContext): Promise<IdPage> {
  const text = query.q?.trim() ? query.q.trim() : undefined;
  return searchIdPage({ ...query, text, filters: [...query.filters, { field: 'is_merged', op: 'eq', value: false }] }, ctx);
}
