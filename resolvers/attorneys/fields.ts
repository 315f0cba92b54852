/**
 * Field resolvers of `Attorney` and `AttorneyClient` (parents: stored AttorneyDoc / OwnerDoc).
 */
import type { AttorneyDoc, OwnerDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { countLoaders } from '../parties/count-loaders';

export const attorneyFieldResolvers = {
  id: (doc: AttorneyDoc) => doc._id,
  object: () => 'attorney',
  firm_name: async (doc: AttorneyDoc, _: unknown, ctx: RequestContext) =>
    doc.firm_id === null ? null : ((await ctx.loaders.firms.load(doc.firm_id))?.name ?? null),
  trademark_count: (doc: AttorneyDoc, _: unknown, ctx: RequestContext) => countLoaders(ctx).attorneyMarks.load(doc._id),
};

export const attorneyClientFieldResolvers = {
  id: (doc: OwnerDoc) => doc._id,
  object: () => 'owner',
};
