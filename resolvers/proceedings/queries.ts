/**
 * Query fields of the proceedings area: the filtered list (GET /v1/proceedings), one mark's
 * proceedings (GET /v1/trademarks/{id}/proceedings) and the full record. Lists read the
 * proceedings index, then load the page's records in one batch.
 */
import { PROCEEDING_SORTS } from '../../domain/contract';
import { PROCEEDING_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter, SearchSort } from '../../datasources/ports';
import { invalid, notFound } from '../../domain/errors';
import type { ProceedingDoc } from '../../domain/records';
import { parseId } from '../../domain/validation';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { requireTrademark } from '../trademarks/load';
import { searchIdPage } from '../search-page';
import { hasAnyProceedingFilter, toProceedingSearch, type ProceedingFilterInput } from './filter';

interface PageArgs {
  sort?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

type ProceedingListArgs = ProceedingFilterInput & PageArgs;

function proceedingSort(sort: string | null | undefined): SearchSort[] {
  const chosen = sort ?? '-filed_date';
  if (!(PROCEEDING_SORTS as readonly string[]).includes(chosen)) throw invalid('sort', `must be one of ${PROCEEDING_SORTS.join(', ')} (got '${chosen}')`);
  const direction = chosen.startsWith('-') ? 'desc' : 'asc';
  // decided_date is the public name of decision_date; undecided proceedings come last either way.
  return [{ field: chosen.endsWith('filed_date') ? 'filed_date' : 'decision_date', direction }];
}

async function pageOfProceedings(args: PageArgs, filters: SearchFilter[], q: string | undefined, binding: Record<string, unknown>, ctx: RequestContext) {
  const page = await searchIdPage(
    {
      index: PROCEEDING_INDEX.name,
      binding,
      text: q,
      textFields: q === undefined ? undefined : ['party_names'],
      filters,
      sort: proceedingSort(args.sort),
      limit: args.limit,
      cursor: args.cursor,
      include_total: args.include_total,
    },
    ctx,
  );
  return { data: await loadPresent(ctx.loaders.proceedings, page.ids), has_more: page.has_more, pagination: page.pagination };
}

async function listProceedings(args: ProceedingListArgs, ctx: RequestContext) {
  const { sort, limit, cursor, include_total, ...filter } = args;
  if (!hasAnyProceedingFilter(filter)) {
    throw invalid(
      'filter',
      'at least one filter is required: contested_class, trademark_id, proceeding_type, status, q, party_owner_id, party_role, office_code, filed_date_gte, filed_date_lt, decision_date_gte or decision_date_lt',
    );
  }
  const { filters, q } = toProceedingSearch(filter);
  return pageOfProceedings({ sort, limit, cursor, include_total }, filters, q, { list: 'proceedings', filter, sort: sort ?? null }, ctx);
}

async function trademarkProceedings(args: { id: string } & PageArgs, ctx: RequestContext) {
  const mark = await requireTrademark(args.id, ctx);
  const filters: SearchFilter[] = [{ field: 'trademark_ids', op: 'eq', value: mark._id }];
  return pageOfProceedings(args, filters, undefined, { list: 'trademark_proceedings', id: mark._id, sort: args.sort ?? null }, ctx);
}

async function proceeding(id: string, ctx: RequestContext): Promise<ProceedingDoc> {
  parseId('id', id, 'prc_');
  const doc = await ctx.loaders.proceedings.load(id);
  if (!doc) throw notFound(`proceeding ${id}`);
  return doc;
}

export const proceedingQueryResolvers = {
  proceedings: (_: unknown, args: ProceedingListArgs, ctx: RequestContext) => listProceedings(args, ctx),
  proceeding: (_: unknown, args: { id: string }, ctx: RequestContext) => proceeding(args.id, ctx),
  trademarkProceedings: (_: unknown, args: { id: string } & PageArgs, ctx: RequestContext) => trademarkProceedings(args, ctx),
};
