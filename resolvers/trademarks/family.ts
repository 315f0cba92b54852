/**
 * The Madrid family of a mark: every record sharing its international registration number (the
 * IR itself and its designations), found in the trademark index and loaded in one batch.
 */
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { TrademarkDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';

/** More designations than any IR can have (about 130 Madrid members). */
const MAX_FAMILY_SIZE = 500;

export async function madridFamily(mark: TrademarkDoc, ctx: RequestContext): Promise<TrademarkDoc[]> {
  if (mark.ir_number === null) return [mark];
  const result = await ctx.services.search.search({
    index: TRADEMARK_INDEX.name,
    filters: [{ field: 'ir_number', op: 'eq', value: mark.ir_number }],
    sort: [],
    limit: MAX_FAMILY_SIZE,
  });
  const members = await loadPresent(
    ctx.loaders.trademarks,
    result.hits.map((hit) => hit.id),
  );
  // The index may lag a write; the mark itself always belongs to its family.
  return members.some((m) => m._id === mark._id) ? members : [mark, ...members];
}
