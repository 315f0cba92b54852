/**
 * Owners: list (owner index), detail (store), the owner's marks (trademark index, scoped) and its
 * corporate relatives (from the owner record's relationships).
 */
import { OWNER_SORT_FIELDS } from '../../domain/contract';
import { invalid } from '../../domain/errors';
import type { OwnerDoc, OwnerRelationship } from '../../domain/records';
import { OWNER_INDEX } from '../../datasources/index-definitions';
import { paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { loadPresent } from '../loaders';
import { listParties, type PartyListArgs } from '../parties/list';
import { loadLiveParty } from '../parties/lookup';
import { searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';

export const loadOwner = (id: string, ctx: RequestContext, parameter = 'id'): Promise<OwnerDoc> =>
  loadLiveParty(ctx.loaders.owners, id, 'own_', 'owner', parameter);

const listOwners = (args: PartyListArgs, ctx: RequestContext) =>
  listParties({ index: OWNER_INDEX.name, list: 'owners', sortFields: OWNER_SORT_FIELDS, defaultSort: 'name', loader: ctx.loaders.owners }, args, ctx);

interface RelatedArgs {
  id: string;
  direction?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

/** Relationship rows in record order; the cursor carries the index of the last row returned. */
async function ownerRelated(args: RelatedArgs, ctx: RequestContext) {
  const owner = await loadOwner(args.id, ctx);
  const direction = args.direction ?? null;
  if (direction !== null && direction !== 'parent' && direction !== 'child')
    throw invalid('direction', `must be parent or child, or omitted for both (got '${direction}')`);
  const limit = pageLimit(args.limit);
  const binding = { list: 'owner_related', id: owner._id, direction };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;
  const start = typeof position?.after[0] === 'number' ? position.after[0] + 1 : 0;
  const rows = owner.relationships.filter((r) => direction === null || r.direction === direction);
  const page = rows.slice(start, start + limit);
  const hasMore = start + limit < rows.length;
  const related = new Map(
    (
      await loadPresent(
        ctx.loaders.owners,
        page.map((r) => r.related_owner_id),
      )
    ).map((o) => [o._id, o]),
  );
  return {
    data: page.map((row: OwnerRelationship) => ({
      ...row,
      name: related.get(row.related_owner_id)?.name ?? null,
      country_code: related.get(row.related_owner_id)?.country_code ?? null,
    })),
    has_more: hasMore,
    pagination: paginationOf(
      hasMore ? ctx.services.cursors.encode(binding, { snapshot: 0, after: [start + page.length - 1] }) : null,
      await totalIf(args.include_total, () => rows.length),
    ),
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
