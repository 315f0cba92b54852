/**
 * Resolved entities: list (entity index), detail (store) and the marks of the entity's member
 * owners (trademark index; the member-owner cap applies).
 */
import { ENTITY_SORT_FIELDS } from '../../domain/contract';
import { ENTITY_INDEX } from '../../datasources/index-definitions';
import type { RequestContext } from '../context';
import { listParties, type PartyListArgs } from '../parties/list';
import { searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';
import { loadEntity } from '../parties/lookup';

const listEntities = (args: PartyListArgs, ctx: RequestContext) =>
  listParties({ index: ENTITY_INDEX.name, list: 'entities', sortFields: ENTITY_SORT_FIELDS, defaultSort: 'name', loader: ctx.loaders.entities }, args, ctx);

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
