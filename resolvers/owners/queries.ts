/**
 * Owners: list (owner index), detail (store), the owner's marks (trademark index, scoped) and its
 * corporate relatives (from the owner record's relationships).
 */
import type { SearchFilter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import type { OwnerDoc, OwnerRelationship } from '../../domain/records';
import { OWNER_INDEX } from '../../datasources/index-definitions';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { searchPartyPage, parseSort } from '../parties/list';
import { loadLiveParty } from '../parties/lookup';
import { MAX_PAGE_SIZE, searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';

/** Spec: sort fields for GET /v1/owners. */
export const OWNER_SORT_FIELDS = ['name', 'updated_at'] as const;

export const loadOwner = (id: string, ctx: RequestContext, parameter = 'id'): Promise<OwnerDoc> =>
  loadLiveParty(ctx.loaders.owners, id, 'own_', 'owner', parameter);

export interface PartyListArgs {
  q?: string | null;
  country_code?: string | null;
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

export const countryFilter = (countryCode: string | null | undefined): SearchFilter[] =>
  countryCode ? [{ field: 'country_code', op: 'eq', value: countryCode.toUpperCase() }] : [];

/** A list's public `name` sort is the index's lowercased canonical name. */
export const sortNameField = (field: string): string => (field === 'name' ? 'sort_name' : field);

async function listOwners(args: PartyListArgs, ctx: RequestContext) {
  const sort = args.sort ?? 'name';
  const page = await searchPartyPage(
    {
      index: OWNER_INDEX.name,
      binding: { list: 'owners', q: args.q ?? null, country_code: args.country_code ?? null, sort },
      q: args.q,
      filters: countryFilter(args.country_code),
      sort: [parseSort(sort, OWNER_SORT_FIELDS, sortNameField)],
      limit: args.limit,
      cursor: args.cursor,
      include_total: args.include_total,
    },
    ctx,
  );
  return { ...page, data: await loadPresent(ctx.loaders.owners, page.ids) };
}

interface RelatedArgs {
  id: string;
  direction?: string | null;
  limit?: number | null;
  cursor?: string | null;
}

/** Relationship rows in record order; the cursor carries the index of the last row returned. */
async function ownerRelated(args: RelatedArgs, ctx: RequestContext) {
  const owner = await loadOwner(args.id, ctx);
  const direction = args.direction ?? null;
  if (direction !== null && direction !== 'parent' && direction !== 'child') throw invalid('direction', `must be parent or child, or omitted for both (got '${direction}')`);
  const limit = args.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw invalid('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  const binding = { list: 'owner_related', id: owner._id, direction };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;
  const start = typeof position?.after[0] === 'number' ? position.after[0] + 1 : 0;
  const rows = owner.relationships.filter((r) => direction === null || r.direction === direction);
  const page = rows.slice(start, start + limit);
  const hasMore = start + limit < rows.length;
  const related = new Map((await loadPresent(ctx.loaders.owners, page.map((r) => r.related_owner_id))).map((o) => [o._id, o]));
  return {
    data: page.map((row: OwnerRelationship) => ({ ...row, name: related.get(row.related_owner_id)?.name ?? null, country_code: related.get(row.related_owner_id)?.country_code ?? null })),
    has_more: hasMore,
    pagination: { cursor: hasMore ? ctx.services.cursors.encode(binding, { snapshot: 0, after: [start + page.length - 1] }) : null },
  };
}

async function ownerTrademarks(args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) {
  const owner = await loadOwner(args.id, ctx);
  return searchTrademarks(args, ctx, { filters: { owner_id: [owner._id] }, requireFilter: false, listName: `owner_trademarks:${owner._id}` });
}

export const ownerQueryResolvers = {
  owners: (_: unknown, args: PartyListArgs, ctx: RequestContext) => listOwners(args, ctx),
  owner: (_: unknown, args: { id: string }, ctx: RequestContext) => loadOwner(args.id, ctx),
  ownerTrademarks: (_: unknown, args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) => ownerTrademarks(args, ctx),
  ownerRelated: (_: unknown, args: RelatedArgs, ctx: RequestContext) => ownerRelated(args, ctx),
};
