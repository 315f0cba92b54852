/**
 * Stored marks as deadline computation inputs: their records, and for allowed US applications the
 * notice of allowance and extensions read from their events (one query for all of them).
 */
import type { DocumentStore } from '../../datasources/ports';
import type { DeadlineInput } from '../../domain/deadlines';
import { ALLOWANCE_EVENT_TYPES, allowanceOf, deadlineInputOf, needsAllowanceFacts } from '../../domain/mark-deadlines';
import { COLLECTIONS, type TrademarkDoc, type TrademarkEventDoc } from '../../domain/records';

export async function markDeadlineInputs(marks: readonly TrademarkDoc[], store: DocumentStore): Promise<DeadlineInput[]> {
  const allowed = marks.filter(needsAllowanceFacts).map((mark) => mark._id);
  const events =
    allowed.length === 0
      ? []
      : await store
          .collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents)
          .find({ trademark_id: { $in: allowed }, event_type: { $in: [...ALLOWANCE_EVENT_TYPES] } });
  const byMark = new Map<string, TrademarkEventDoc[]>();
  for (const event of events) byMark.set(event.trademark_id, [...(byMark.get(event.trademark_id) ?? []), event]);
  return marks.map((mark) => deadlineInputOf(mark, needsAllowanceFacts(mark) ? allowanceOf(byMark.get(mark._id) ?? []) : null));
}
