/**
 * Saved searches (`ss_`): the query parameters of GET /v1/trademarks kept under a name, and run
 * later with exactly that search's answer (same filters, sort, envelope and cursors: a run's
 * cursor pages on through GET /v1/trademarks as well, both being the one trademark list).
 * Another organization's saved search does not exist (404).
 */
import { invalid, notFound } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import { COLLECTIONS, type SavedSearchDoc } from '../../domain/records';
import { parseId } from '../../domain/validation';
import { pageOf } from '../pages';
import type { RequestContext } from '../context';
import { assertResourceQuota } from '../organization/resource-quota';
import { pageLimit } from '../page-limit';
import type { TrademarkFilterInput } from '../trademarks/filter';
import { searchTrademarks } from '../trademarks/search';
import { checkTrademarkListQuery } from '../watches/query';

export const SAVED_SEARCH_NAME_MAX_LENGTH = 200;

const savedSearchesOf = (ctx: RequestContext) => ctx.services.store.collection<SavedSearchDoc>(COLLECTIONS.savedSearches);

export function savedSearchObject(search: SavedSearchDoc) {
  const { _id, organization_id: _organization, ...fields } = search;
  return { id: _id, object: 'saved_search', ...fields };
}

function checkName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim().length === 0 || raw.length > SAVED_SEARCH_NAME_MAX_LENGTH)
    throw invalid('name', `must be 1 to ${SAVED_SEARCH_NAME_MAX_LENGTH} characters`);
  return raw;
}

/** The caller's saved search, or 404 (also for another organization's). */
export async function requireSavedSearch(id: string, ctx: RequestContext, parameter = 'id'): Promise<SavedSearchDoc> {
  const searchId = parseId(parameter, id, 'ss_');
  const search = await savedSearchesOf(ctx).findOne({ _id: searchId, organization_id: ctx.caller.organizationId });
  if (!search) throw notFound(`saved search ${searchId}`, parameter === 'id' ? undefined : parameter);
  return search;
}

async function createSavedSearch(args: { name?: unknown; query?: unknown }, ctx: RequestContext) {
  const at = ctx.services.now().toISOString();
  const search: SavedSearchDoc = {
    _id: randomId('ss_', ctx.services.now().getTime()),
    organization_id: ctx.caller.organizationId,
    name: checkName(args.name),
    query: checkTrademarkListQuery(args.query),
    created_at: at,
    updated_at: at,
  };
  await ctx.services.store.transaction(async () => {
    await assertResourceQuota(ctx, 'saved_searches', 1);
    await savedSearchesOf(ctx).insertOne(search);
  });
  return savedSearchObject(search);
}

async function updateSavedSearch(args: { id: string; name?: unknown; query?: unknown }, ctx: RequestContext) {
  const search = await requireSavedSearch(args.id, ctx);
  const updated: SavedSearchDoc = {
    ...search,
    name: args.name === undefined || args.name === null ? search.name : checkName(args.name),
    query: args.query === undefined || args.query === null ? search.query : checkTrademarkListQuery(args.query),
    updated_at: ctx.services.now().toISOString(),
  };
  await savedSearchesOf(ctx).replaceOne(updated);
  return savedSearchObject(updated);
}

async function deleteSavedSearch(id: string, ctx: RequestContext) {
  const search = await requireSavedSearch(id, ctx);
  await savedSearchesOf(ctx).deleteOne({ _id: search._id });
  return { id: search._id, object: 'saved_search', deleted: true };
}

/** The search the saved query describes, as GET /v1/trademarks runs it (the same list and cursors). */
async function runSavedSearch(args: { id: string; limit?: number | null; cursor?: string | null }, ctx: RequestContext) {
  const search = await requireSavedSearch(args.id, ctx);
  const { q, sort, include_total, ...filter } = search.query;
  return searchTrademarks(
    {
      filter: filter as TrademarkFilterInput,
      q: typeof q === 'string' ? q : null,
      sort: typeof sort === 'string' ? sort : null,
      include_total: include_total === true,
      limit: args.limit ?? null,
      cursor: args.cursor ?? null,
    },
    ctx,
    { requireFilter: true, listName: 'trademarks' },
  );
}

export const savedSearchQueryResolvers = {
  savedSearches: async (_: unknown, args: { limit?: number | null; cursor?: string | null; include_total?: boolean | null }, ctx: RequestContext) => {
    const organizationId = ctx.caller.organizationId;
    const page = await pageOf(
      savedSearchesOf(ctx),
      { organization_id: organizationId },
      pageLimit(args.limit),
      args.cursor ?? null,
      { list: 'saved_searches', organization: organizationId },
      ctx.services.cursors,
      { includeTotal: args.include_total },
    );
    return { ...page, data: page.data.map(savedSearchObject) };
  },
  savedSearch: async (_: unknown, args: { id: string }, ctx: RequestContext) => savedSearchObject(await requireSavedSearch(args.id, ctx)),
  runSavedSearch: (_: unknown, args: { id: string; limit?: number | null; cursor?: string | null }, ctx: RequestContext) => runSavedSearch(args, ctx),
};

export const savedSearchMutationResolvers = {
  createSavedSearch: (_: unknown, args: { name?: unknown; query?: unknown }, ctx: RequestContext) => createSavedSearch(args, ctx),
  updateSavedSearch: (_: unknown, args: { id: string; name?: unknown; query?: unknown }, ctx: RequestContext) => updateSavedSearch(args, ctx),
  deleteSavedSearch: (_: unknown, args: { id: string }, ctx: RequestContext) => deleteSavedSearch(args.id, ctx),
};
