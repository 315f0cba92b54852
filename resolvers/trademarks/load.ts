/**
 * A trademark by ID for a resolver (detail, and the parent mark of every sub-resource):
 * a malformed ID is 400, a missing mark 404.
 */
import { notFound } from '../../domain/errors';
import type { TrademarkDoc } from '../../domain/records';
import { parseId } from '../../domain/validation';
import type { RequestContext } from '../context';

export async function requireTrademark(id: string, ctx: RequestContext, parameter = 'id'): Promise<TrademarkDoc> {
  parseId(parameter, id, 'tm_');
  const doc = await ctx.loaders.trademarks.load(id);
  if (!doc) throw notFound(`trademark ${id}`);
  return doc;
}
