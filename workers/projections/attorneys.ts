/**
 * The attorney index: name, country, firm and the attorney's mark count (from the trademark index,
 * updated earlier in the same batch). A mark's change re-indexes its attorneys and those it
 * detached (resolvers/parties/detached.ts).
 */
import { ATTORNEY_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type AttorneyDoc, type TrademarkDoc } from '../../domain/records';
import { countMarksBy } from '../../resolvers/parties/counts';
import { detachedIds } from '../../resolvers/parties/detached';
import { defineProjection } from './projection';

export const attorneyProjection = defineProjection<AttorneyDoc>({
  index: ATTORNEY_INDEX,
  source: COLLECTIONS.attorneys,
  async toIndexDocuments(attorneys, { search }) {
    const counts = await countMarksBy(
      search,
      'attorney_ids',
      attorneys.map((a) => a._id),
    );
    return attorneys.map((attorney) => ({
      id: attorney._id,
      name: attorney.name,
      sort_name: attorney.canonical_name.toLowerCase(),
      country_code: attorney.country_code,
      firm_id: attorney.firm_id,
      trademark_count: counts.get(attorney._id) ?? 0,
      is_merged: attorney.merged_into !== null,
      updated_at: attorney.updated_at,
    }));
  },
  dependents: {
    [COLLECTIONS.trademarks]: (event) => {
      const mark = event.document as TrademarkDoc | null;
      const ids = [...(mark?.attorney_ids ?? []), ...detachedIds(mark, 'att_')];
      return ids.length === 0 ? null : { _id: { $in: ids } };
    },
  },
});
