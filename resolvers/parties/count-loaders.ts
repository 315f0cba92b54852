/**
 * Per-request DataLoaders of the parties' displayed counts: the rows of one page ask one by one,
 * the loader answers them with one batch of index queries (resolvers/parties/counts.ts).
 */
import DataLoader from 'dataloader';
import type { RequestContext } from '../context';
import { countMarksBy, firmStats, type FirmStats } from './counts';

export interface CountLoaders {
  ownerMarks: DataLoader<string, number>;
  ownerActiveMarks: DataLoader<string, number>;
  attorneyMarks: DataLoader<string, number>;
  entityMarks: DataLoader<string, number>;
  firmStats: DataLoader<string, FirmStats>;
}

const byRequest = new WeakMap<RequestContext, CountLoaders>();

function fromMap<V>(load: (ids: readonly string[]) => Promise<Map<string, V>>, fallback: V): DataLoader<string, V> {
  return new DataLoader<string, V>(async (ids) => {
    const values = await load(ids);
    return ids.map((id) => values.get(id) ?? fallback);
  });
}

export function countLoaders(ctx: RequestContext): CountLoaders {
  let loaders = byRequest.get(ctx);
  if (!loaders) {
    const { search } = ctx.services;
    loaders = {
      ownerMarks: fromMap((ids) => countMarksBy(search, 'owner_ids', ids), 0),
      ownerActiveMarks: fromMap((ids) => countMarksBy(search, 'owner_ids', ids, [{ field: 'status_primary', op: 'eq', value: 'active' }]), 0),
      attorneyMarks: fromMap((ids) => countMarksBy(search, 'attorney_ids', ids), 0),
      entityMarks: fromMap((ids) => countMarksBy(search, 'entity_ids', ids), 0),
      firmStats: new DataLoader<string, FirmStats>(async (ids) => {
        const stats = await firmStats(search, ids);
        return ids.map((id) => stats.get(id) ?? new Error(`no stats for ${id}`));
      }),
    };
    byRequest.set(ctx, loaders);
  }
  return loaders;
}
