/**
 * Field resolvers of `Entity` (parent: the stored EntityDoc).
 */
import type { EntityDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { countLoaders } from '../parties/count-loaders';

export const entityFieldResolvers = {
  id: (doc: EntityDoc) => doc._id,
  object: () => 'entity',
  member_count: (doc: EntityDoc) => doc.member_owner_ids.length,
  trademark_count: (doc: EntityDoc, _: unknown, ctx: RequestContext) => countLoaders(ctx).entityMarks.load(doc._id),
};
