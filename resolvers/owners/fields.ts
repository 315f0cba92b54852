/**
 * Field resolvers of `Owner` (parent: the stored OwnerDoc); counts come from the trademark index
 * through per-request count loaders, one batch per page.
 */
import type { OwnerDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { countLoaders } from '../parties/count-loaders';

export const ownerFieldResolvers = {
  id: (doc: OwnerDoc) => doc._id,
  object: () => 'owner',
  trademark_count: (doc: OwnerDoc, _: unknown, ctx: RequestContext) => countLoaders(ctx).ownerMarks.load(doc._id),
  active_trademark_count: (doc: OwnerDoc, _: unknown, ctx: RequestContext) => countLoaders(ctx).ownerActiveMarks.load(doc._id),
};
