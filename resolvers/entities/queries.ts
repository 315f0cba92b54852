/**
 * Resolved entities: list (entity index), detail (store) and the marks of the entity's member
 * owners (trademark index; the member-owner cap applies).
 */
import { ENTITY_INDEX } from '../../datasources/index-definitions';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { countryFilter, sortNameField, type PartyListArgs } from '../owners/queries';
import { parseSort, searchPartyPage } from '../parties/list';
import { searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';
import { loadEntity } from './scope';

export const ENTITY_SORT_FIELDS = ['name', 'member_count', 'trademark_count', 'updated_at'] as const;

async function listEntities(args: PartyListArgs, ctx: RequestContext) {
  const sort = args.sort ?? 'name';
  const page = await searchPartyPage(
    {
      index: ENTITY_INDEX.name,
      binding: { list: 'entities', q: args.q ?? null, country_code: args.country_code ?? null, sort },
      q: args.q,
      filters: countryFilter(args.country_code),
      sort: [parseSort(sort, ENTITY_SORT_FIELDS, sortNameField)],
      limit: args.limit,
      cursor: args.cursor,
      include_total: args.include_total,
    },
    ctx,
  );
  return { ...page, data: await loadPresent(ctx.loaders.entities, page.ids) };
}

async function entityTrademarks(args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) {
  const entity = await loadEntity(args.id, ctx);
  // The entity_id scope is expanded (and its cap checked) by the trademark search itself.
  return searchTrademarks(args, ctx, { filters: { entity_id: entity._id }, requireFilter: false, listName: `entity_trademarks:${entity._id}` });
}

export const entityQueryResolvers = {
  entities: (_: unknown, args: PartyListArgs, ctx: RequestContext) => listEntities(args, ctx),
  entity: (_: unknown, args: { id: string }, ctx: RequestContext) => loadEntity(args.id, ctx),
  entityTrademarks: (_: unknown, args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) => entityTrademarks(args, ctx),
};
