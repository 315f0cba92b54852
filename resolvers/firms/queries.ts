/**
 * Firms: list (firm index, the eight sorts and count filters), detail (store, with include=stats
 * and include=attorneys), the firm's marks and its attorneys.
 */
import { FIRM_INCLUDES, FIRM_PAGE_SIZE_MAX, FIRM_SORT_FIELDS, REMOVED_FIRM_INCLUDES } from '../../domain/contract';
import { FIRM_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import type { FirmDoc } from '../../domain/records';
import { attorneyPage } from '../attorneys/queries';
import type { RequestContext } from '../context';
import { listParties, type PartyListArgs } from '../parties/list';
import { loadLiveParty } from '../parties/lookup';
import { searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';

export type FirmInclude = (typeof FIRM_INCLUDES)[number];
/** The firm record with what the request asked to include, for the field resolvers. */
export interface FirmWithIncludes extends FirmDoc {
  includes: ReadonlySet<FirmInclude>;
}

export const loadFirm = (id: string, ctx: RequestContext): Promise<FirmDoc> => loadLiveParty(ctx.loaders.firms, id, 'firm_', 'firm');

interface FirmListArgs extends PartyListArgs {
  min_attorneys?: number | null;
  min_filings?: number | null;
}

async function listFirms(args: FirmListArgs, ctx: RequestContext) {
  const filters: SearchFilter[] = [];
  for (const [parameter, field] of [
    ['min_attorneys', 'attorney_count'],
    ['min_filings', 'trademark_count'],
  ] as const) {
    const min = args[parameter];
    if (min === null || min === undefined) continue;
    if (!Number.isInteger(min) || min < 0) throw invalid(parameter, 'must be a non-negative integer');
    filters.push({ field, op: 'range', gte: min });
  }
  const page = await listParties(
    {
      index: FIRM_INDEX.name,
      list: 'firms',
      sortFields: FIRM_SORT_FIELDS,
      defaultSort: '-trademark_count',
      loader: ctx.loaders.firms,
      maxLimit: FIRM_PAGE_SIZE_MAX,
    },
    args,
    ctx,
    { filters, binding: { min_attorneys: args.min_attorneys ?? null, min_filings: args.min_filings ?? null } },
  );
  return { ...page, data: page.data.map((firm): FirmWithIncludes => ({ ...firm, includes: new Set() })) };
}

function parseIncludes(include: readonly string[] | null | undefined): Set<FirmInclude> {
  const includes = new Set<FirmInclude>();
  for (const value of include ?? []) {
    if ((REMOVED_FIRM_INCLUDES as readonly string[]).includes(value)) {
      throw invalid('include', `'${value}' no longer exists; use ${FIRM_INCLUDES.join(' or ')}`);
    }
    if (!(FIRM_INCLUDES as readonly string[]).includes(value)) throw invalid('include', `must be a comma list of ${FIRM_INCLUDES.join(', ')} (got '${value}')`);
    includes.add(value as FirmInclude);
  }
  return includes;
}

async function firmDetail(args: { id: string; include?: string[] | null }, ctx: RequestContext): Promise<FirmWithIncludes> {
  const includes = parseIncludes(args.include);
  return { ...(await loadFirm(args.id, ctx)), includes };
}

async function firmTrademarks(args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) {
  const firm = await loadFirm(args.id, ctx);
  return searchTrademarks(args, ctx, { filters: { firm_id: [firm._id] }, requireFilter: false, listName: `firm_trademarks:${firm._id}` });
}

async function firmAttorneys(args: { id: string; limit?: number | null; cursor?: string | null; include_total?: boolean | null }, ctx: RequestContext) {
  const firm = await loadFirm(args.id, ctx);
  return attorneyPage({ firm_id: firm._id, limit: args.limit, cursor: args.cursor, include_total: args.include_total }, ctx, 'firm_attorneys');
}

export const firmQueryResolvers = {
  firms: (_: unknown, args: FirmListArgs, ctx: RequestContext) => listFirms(args, ctx),
  firm: (_: unknown, args: { id: string; include?: string[] | null }, ctx: RequestContext) => firmDetail(args, ctx),
  firmTrademarks: (_: unknown, args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) => firmTrademarks(args, ctx),
  firmAttorneys: (_: unknown, args: { id: string; limit?: number | null; cursor?: string | null; include_total?: boolean | null }, ctx: RequestContext) =>
    firmAttorneys(args, ctx),
};
