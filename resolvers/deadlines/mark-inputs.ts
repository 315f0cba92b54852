/**
 * Stored marks as deadline computation inputs: their records, and from their events the renewals
 * and declarations on record and, for allowed US applications, the notice of allowance and
 * extensions (one query for all of them).
 */
import type { DocumentStore } from '../../datasources/ports';
import { DEAD_STATUSES, type DeadlineInput } from '../../domain/deadlines';
import {
  ALLOWANCE_EVENT_TYPES,
  allowanceOf,
  deadlineInputOf,
  MAINTENANCE_EVENT_TYPES,
  maintenanceFilingsOf,
  needsAllowanceFacts,
} from '../../domain/mark-deadlines';
import { COLLECTIONS, type TrademarkDoc, type TrademarkEventDoc } from '../../domain/records';

const EVENT_TYPES = [...ALLOWANCE_EVENT_TYPES, ...MAINTENANCE_EVENT_TYPES];

export async function markDeadlineInputs(marks: readonly TrademarkDoc[], store: DocumentStore): Promise<DeadlineInput[]> {
  // A dead mark has no deadline for its events to meet.
  const live = marks.filter((mark) => !DEAD_STATUSES.includes(mark.status.stage)).map((mark) => mark._id);
  const events =
    live.length === 0
      ? []
      : await store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents).find({ trademark_id: { $in: live }, event_type: { $in: EVENT_TYPES } });
  const byMark = new Map<string, TrademarkEventDoc[]>();
  for (const event of events) byMark.set(event.trademark_id, [...(byMark.get(event.trademark_id) ?? []), event]);
  return marks.map((mark) => {
    const own = byMark.get(mark._id) ?? [];
    return deadlineInputOf(mark, needsAllowanceFacts(mark) ? allowanceOf(own) : null, maintenanceFilingsOf(own));
  });
}
