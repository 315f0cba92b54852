/**
 * The resolved-entity index: member count (from the entity record) and mark count (marks whose
 * owners belong to the entity, from the trademark index updated earlier in the same batch).
 */
import { ENTITY_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type EntityDoc, type OwnerDoc, type TrademarkDoc } from '../../domain/records';
import { countMarksBy } from '../../resolvers/parties/counts';
import { detachedIds } from '../../resolvers/parties/detached';
import { defineProjection } from './projection';

const entitiesFilter = (ids: readonly string[]) => {
  const unique = [...new Set(ids)];
  return unique.length === 0 ? null : { _id: { $in: unique } };
};

export const entityProjection = defineProjection<EntityDoc>({
  index: ENTITY_INDEX,
  source: COLLECTIONS.entities,
  async toIndexDocuments(entities, { search }) {
    const counts = await countMarksBy(
      search,
      'entity_ids',
      entities.map((e) => e._id),
    );
    return entities.map((entity) => ({
      id: entity._id,
      name: entity.name,
      sort_name: entity.canonical_name.toLowerCase(),
      country_code: entity.country_code,
      lei: entity.lei,
      ticker: entity.ticker,
      member_count: entity.member_owner_ids.length,
      trademark_count: counts.get(entity._id) ?? 0,
      is_merged: entity.merged_into !== null,
      updated_at: entity.updated_at,
    }));
  },
  dependents: {
    // A mark's entities are its owners' entities, which the event does not carry.
    [COLLECTIONS.trademarks]: async (event, { store }) => {
      const mark = event.document as TrademarkDoc | null;
      const ownerIds = [...(mark?.owner_ids ?? []), ...detachedIds(mark, 'own_')];
      if (ownerIds.length === 0) return null;
      const owners = await store.collection<OwnerDoc>(COLLECTIONS.owners).findByIds(ownerIds);
      return entitiesFilter(owners.map((o) => o.entity_id));
    },
    // An owner that changed entity re-indexes (through the trademark index) both entities' counts.
    [COLLECTIONS.owners]: (event) => {
      const owner = event.document as OwnerDoc | null;
      return entitiesFilter([...(owner ? [owner.entity_id] : []), ...detachedIds(owner, 'ent_')]);
    },
  },
});
