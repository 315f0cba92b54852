/**
 * Attorneys: list (attorney index), detail (store), the attorney's marks (trademark index, scoped,
 * default -filing_date) and clients (owners by marks shared with the attorney, from the trademark
 * index's owner facet).
 */
import { ATTORNEY_SORT_FIELDS } from '../../domain/contract';
import { ATTORNEY_INDEX, TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { AttorneyDoc } from '../../domain/records';
import { parseId } from '../../domain/validation';
import { paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { loadPresent } from '../loaders';
import { listParties, type PartyListArgs } from '../parties/list';
import { loadLiveParty } from '../parties/lookup';
import { searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';

/** Every client of one attorney fits one facet call; an attorney never has more. */
const ALL_CLIENTS = 1_000_000;

export const loadAttorney = (id: string, ctx: RequestContext): Promise<AttorneyDoc> => loadLiveParty(ctx.loaders.attorneys, id, 'att_', 'attorney');

/** Attorneys of a list page, by the attorney index; shared by GET /v1/attorneys and a firm's attorneys. */
export async function attorneyPage(args: PartyListArgs & { firm_id?: string | null }, ctx: RequestContext, list: string) {
  const firmFilter = args.firm_id ? [{ field: 'firm_id', op: 'eq' as const, value: parseId('firm_id', args.firm_id, 'firm_') }] : [];
  return listParties({ index: ATTORNEY_INDEX.name, list, sortFields: ATTORNEY_SORT_FIELDS, defaultSort: 'name', loader: ctx.loaders.attorneys }, args, ctx, {
    filters: firmFilter,
    binding: { firm_id: args.firm_id ?? null },
  });
}

async function attorneyTrademarks(args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) {
  const attorney = await loadAttorney(args.id, ctx);
  const sort = args.sort ?? (args.q?.trim() ? null : '-filing_date');
  return searchTrademarks({ ...args, sort }, ctx, {
    filters: { attorney_id: [attorney._id] },
    requireFilter: false,
    listName: `attorney_trademarks:${attorney._id}`,
  });
}

interface ClientsArgs {
  id: string;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

/** Owners by shared marks, descending, owner ID ascending among equals; keyset on (count, id). */
async function attorneyClients(args: ClientsArgs, ctx: RequestContext) {
  const attorney = await loadAttorney(args.id, ctx);
  const limit = pageLimit(args.limit);
  const binding = { list: 'attorney_clients', id: attorney._id };
  const position = args.cursor ? ctx.services.cursors.decode(args.cursor, binding) : null;
  const clients = await ctx.services.search.terms(TRADEMARK_INDEX.name, 'owner_ids', [{ field: 'attorney_ids', op: 'eq', value: attorney._id }], ALL_CLIENTS);
  const [afterCount, afterId] = position?.after ?? [];
  const start =
    typeof afterCount === 'number' && typeof afterId === 'string'
      ? clients.findIndex((c) => c.count < afterCount || (c.count === afterCount && String(c.value) > afterId))
      : 0;
  const page = start === -1 ? [] : clients.slice(start, start + limit);
  const hasMore = start !== -1 && start + limit < clients.length;
  const owners = new Map(
    (
      await loadPresent(
        ctx.loaders.owners,
        page.map((c) => String(c.value)),
      )
    ).map((o) => [o._id, o]),
  );
  const last = page[page.length - 1];
  return {
    data: page.flatMap(({ value, count }) => {
      const owner = owners.get(String(value));
      return owner ? [{ ...owner, shared_trademark_count: count }] : [];
    }),
    has_more: hasMore,
    pagination: paginationOf(
      hasMore && last ? ctx.services.cursors.encode(binding, { snapshot: 0, after: [last.count, String(last.value)] }) : null,
      await totalIf(args.include_total, () => clients.length),
    ),
  };
}

export const attorneyQueryResolvers = {
  attorneys: (_: unknown, args: PartyListArgs & { firm_id?: string | null }, ctx: RequestContext) => attorneyPage(args, ctx, 'attorneys'),
  attorney: (_: unknown, args: { id: string }, ctx: RequestContext) => loadAttorney(args.id, ctx),
  attorneyTrademarks: (_: unknown, args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) => attorneyTrademarks(args, ctx),
  attorneyClients: (_: unknown, args: ClientsArgs, ctx: RequestContext) => attorneyClients(args, ctx),
};
