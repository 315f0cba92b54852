/**
 * GET /v1/trademarks/{id}/history: the mark's prosecution events (trademark_events), each with
 * its event type's category and description (data/event_types.json). Keyset pages on
 * (event_date, _id), newest first by default.
 */
import { HISTORY_SORTS } from '../../domain/contract';
import type { Filter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import { COLLECTIONS, type TrademarkEventDoc } from '../../domain/records';
import { paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { EVENT_TYPES, eventTypeOf } from '../reference-data';
import { requireTrademark } from './load';

export interface HistoryArgs {
  id: string;
  event_type?: string | null;
  category?: string | null;
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

function eventRow(event: TrademarkEventDoc) {
  const type = eventTypeOf(event.event_type);
  return {
    object: 'trademark_event',
    id: event._id,
    trademark_id: event.trademark_id,
    event_type: event.event_type,
    category: type?.category ?? null,
    event_type_description: type?.description ?? null,
    description: event.description,
    // Events stored before office event codes were kept have none.
    office_event_code: event.office_event_code ?? null,
    event_date: event.event_date,
    office_code: event.office_code,
  };
}

export async function trademarkHistory(args: HistoryArgs, ctx: RequestContext) {
  const mark = await requireTrademark(args.id, ctx);
  const sort = args.sort ?? '-event_date';
  if (!(HISTORY_SORTS as readonly string[]).includes(sort)) throw invalid('sort', `must be one of ${HISTORY_SORTS.join(', ')} (got '${sort}')`);
  const limit = pageLimit(args.limit);
  const descending = sort === '-event_date';
  const binding = { list: 'trademark_history', id: mark._id, event_type: args.event_type ?? null, category: args.category ?? null, sort };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;

  const clauses: Filter[] = [{ trademark_id: mark._id }];
  if (args.event_type != null) clauses.push({ event_type: args.event_type });
  if (args.category != null) clauses.push({ event_type: { $in: EVENT_TYPES.filter((t) => t.category === args.category).map((t) => t.code) } });
  const list: Filter = { $and: [...clauses] };
  const [afterDate, afterId] = position?.after ?? [];
  if (typeof afterDate === 'string' && typeof afterId === 'string') {
    const beyond = descending ? '$lt' : '$gt';
    clauses.push({ $or: [{ event_date: { [beyond]: afterDate } }, { event_date: afterDate, _id: { [beyond]: afterId } }] });
  }
  const direction = descending ? -1 : 1;
  const events = ctx.services.store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents);
  const [rows, total] = await Promise.all([
    events.find({ $and: clauses }, { sort: { event_date: direction, _id: direction }, limit: limit + 1 }),
    totalIf(args.include_total, () => events.countDocuments(list)),
  ]);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  return {
    data: page.map(eventRow),
    has_more: hasMore,
    pagination: paginationOf(hasMore && last ? ctx.services.cursors.encode(binding, { snapshot: 0, after: [last.event_date, last._id] }) : null, total),
  };
}
