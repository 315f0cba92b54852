/**
 * Loading one party by its public ID: wrong prefix → 400 id_type_mismatch, unknown → 404, merged
 * → 410 entity_merged carrying `merged_into` (spec: Errors, details 6).
 */
import type DataLoader from 'dataloader';
import { ApiError, notFound } from '../../domain/errors';
import type { IdPrefix } from '../../domain/ids';
import type { EntityDoc } from '../../domain/records';
import { parseId } from '../../domain/validation';
import type { RequestContext } from '../context';

export interface MergeableDoc {
  _id: string;
  merged_into: string | null;
}

export async function loadLiveParty<T extends MergeableDoc>(
  loader: DataLoader<string, T | null>,
  id: string,
  prefix: IdPrefix,
  what: string,
  parameter = 'id',
): Promise<T> {
  parseId(parameter, id, prefix);
  const doc = await loader.load(id);
  if (!doc) throw notFound(`${what} ${id}`);
  if (doc.merged_into !== null) {
    throw new ApiError('entity_merged', `${what} ${id} was merged into ${doc.merged_into}`, { merged_into: doc.merged_into });
  }
  return doc;
}

export const loadEntity = (id: string, ctx: RequestContext, parameter = 'id'): Promise<EntityDoc> =>
  loadLiveParty(ctx.loaders.entities, id, 'ent_', 'entity', parameter);
