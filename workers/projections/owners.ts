/**
 * The owner index: names for `q`, the list filters and sort keys, and the owner's mark count
 * (from the trademark index, updated earlier in the same batch). A mark's change re-indexes its
 * owners and those it detached (resolvers/parties/detached.ts).
 */
import { OWNER_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type OwnerDoc, type TrademarkDoc } from '../../domain/records';
import { countMarksBy } from '../../resolvers/parties/counts';
import { detachedIds } from '../../resolvers/parties/detached';
import { defineProjection } from './projection';

export const ownerProjection = defineProjection<OwnerDoc>({
  index: OWNER_INDEX,
  source: COLLECTIONS.owners,
  async toIndexDocuments(owners, { search }) {
    const counts = await countMarksBy(
      search,
      'owner_ids',
      owners.map((o) => o._id),
    );
    return owners.map((owner) => ({
      id: owner._id,
      name: owner.name,
      aliases: owner.aliases,
      sort_name: owner.canonical_name.toLowerCase(),
      country_code: owner.country_code,
      entity_id: owner.entity_id,
      entity_type: owner.entity_type,
      trademark_count: counts.get(owner._id) ?? 0,
      is_merged: owner.merged_into !== null,
      updated_at: owner.updated_at,
    }));
  },
  dependents: {
    [COLLECTIONS.trademarks]: (event) => {
      const mark = event.document as TrademarkDoc | null;
      const ids = [...(mark?.owner_ids ?? []), ...detachedIds(mark, 'own_')];
      return ids.length === 0 ? null : { _id: { $in: ids } };
    },
  },
});
