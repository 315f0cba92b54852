/**
 * The records a watch query names must be the organization's own (404 otherwise, as for an ID
 * that does not exist): a trademark watch's portfolio; a filter watch's saved search, whose
 * filters the query takes now (a later change of the saved search does not change a stored
 * watch; PATCH the query to take them again). Create, update and preview all go through here.
 */
import type { WatchQuery } from '../../domain/records';
import type { RequestContext } from '../context';
import { requirePortfolio } from '../portfolios/portfolios';
import { requireSavedSearch } from '../saved-searches/saved-searches';
import { savedSearchFilters } from './query';

export async function resolveReferences(query: WatchQuery, ctx: RequestContext, name = 'query'): Promise<WatchQuery> {
  if (query.portfolio_id !== undefined) await requirePortfolio(query.portfolio_id, ctx, `${name}.portfolio_id`);
  if (query.saved_search_id === undefined) return query;
  const saved = await requireSavedSearch(query.saved_search_id, ctx, `${name}.saved_search_id`);
  return { ...query, filters: savedSearchFilters(saved.query, `${name}.saved_search_id`) };
}
