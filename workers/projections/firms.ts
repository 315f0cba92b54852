/**
 * The firm index: the counts the firm list sorts and filters on (attorney_count from the attorney
 * index, trademark_count with each Madrid family once, grant_rate, latest_filing), derived by
 * resolvers/parties/counts.ts from indexes updated earlier in the same batch. Must be registered
 * after the trademark and attorney projections.
 */
import { FIRM_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type AttorneyDoc, type FirmDoc, type TrademarkDoc } from '../../domain/records';
import { firmStats } from '../../resolvers/parties/counts';
import { detachedIds } from '../../resolvers/parties/detached';
import { defineProjection } from './projection';

const firmsFilter = (ids: ReadonlyArray<string | null>) => {
  const firmIds = [...new Set(ids.filter((id): id is string => id !== null))];
  return firmIds.length === 0 ? null : { _id: { $in: firmIds } };
};

export const firmProjection = defineProjection<FirmDoc>({
  index: FIRM_INDEX,
  source: COLLECTIONS.firms,
  async toIndexDocuments(firms, { search }) {
    const stats = await firmStats(
      search,
      firms.map((f) => f._id),
    );
    return firms.map((firm) => {
      const s = stats.get(firm._id);
      return {
        id: firm._id,
        name: firm.name,
        sort_name: firm.canonical_name.toLowerCase(),
        country_code: firm.country_code,
        attorney_count: s?.attorney_count ?? 0,
        trademark_count: s?.trademark_count ?? 0,
        grant_rate: s?.grant_rate ?? null,
        latest_filing: s?.latest_filing ?? null,
        is_merged: firm.merged_into !== null,
        updated_at: firm.updated_at,
      };
    });
  },
  dependents: {
    // A mark's firms are its attorneys' firms, which the event does not carry.
    [COLLECTIONS.trademarks]: async (event, { store }) => {
      const mark = event.document as TrademarkDoc | null;
      const attorneyIds = [...(mark?.attorney_ids ?? []), ...detachedIds(mark, 'att_')];
      if (attorneyIds.length === 0) return null;
      const attorneys = await store.collection<AttorneyDoc>(COLLECTIONS.attorneys).findByIds(attorneyIds);
      return firmsFilter(attorneys.map((a) => a.firm_id));
    },
    [COLLECTIONS.attorneys]: (event) => {
      const attorney = event.document as AttorneyDoc | null;
      return firmsFilter([attorney?.firm_id ?? null, ...detachedIds(attorney, 'firm_')]);
    },
  },
});
