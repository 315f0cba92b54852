/**
 * Portfolios (`pf_`): named sets of an organization's marks. Created, listed, read, renamed,
 * deleted; marks added and removed; the marks listed with the trademark list filters (the search
 * restricted to the portfolio's IDs); and every mark's deadlines through the computation of
 * POST /v1/deadlines/compute, flattened and ordered by due date ("what is due for ACME in the
 * next 90 days"). Another organization's portfolio does not exist (404).
 */
import { invalid, notFound } from '../../domain/errors';
import { computeDeadlinesBatch, type ComputedDeadline } from '../../domain/deadlines';
import { randomId } from '../../domain/ids';
import { COLLECTIONS, type PortfolioDoc, type TrademarkDoc } from '../../domain/records';
import { isIsoDate, isOfficeDate, officeDateRule, parseId, truncate } from '../../domain/validation';
import { mergeMetadata, parseMetadata } from '../accounts/metadata';
import { pageOf, paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { DEADLINE_TYPES, MAX_HORIZON_YEARS, ruleCorpus } from '../deadlines/corpus';
import { markDeadlineInputs } from '../deadlines/mark-inputs';
import { loadPresent } from '../loaders';
import { pageLimit } from '../page-limit';
import { assertResourceQuota } from '../organization/resource-quota';
import { searchTrademarks, type TrademarkSearchArgs } from '../trademarks/search';
import { deadlineGroupOf, dueBeforeMonth, dueInMonth, inDeadlineGroup, monthStart } from './deadline-groups';

export const PORTFOLIO_NAME_MAX_LENGTH = 200;
export const PORTFOLIO_DESCRIPTION_MAX_LENGTH = 2_000;
/** Mark IDs one request may add or remove. */
export const MAX_PORTFOLIO_IDS_PER_REQUEST = 1_000;

const portfoliosOf = (ctx: RequestContext) => ctx.services.store.collection<PortfolioDoc>(COLLECTIONS.portfolios);

export function portfolioObject(portfolio: PortfolioDoc) {
  const { _id, organization_id: _organization, ...fields } = portfolio;
  return { id: _id, object: 'portfolio', ...fields, trademark_count: portfolio.trademark_ids.length };
}

function checkName(raw: unknown, name = 'name'): string {
  if (typeof raw !== 'string' || raw.trim().length === 0 || raw.length > PORTFOLIO_NAME_MAX_LENGTH)
    throw invalid(name, `must be 1 to ${PORTFOLIO_NAME_MAX_LENGTH} characters`);
  return raw;
}

function checkDescription(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length > PORTFOLIO_DESCRIPTION_MAX_LENGTH)
    throw invalid('description', `must be up to ${PORTFOLIO_DESCRIPTION_MAX_LENGTH} characters`);
  return raw;
}

/** Checked, de-duplicated mark IDs that exist in the catalog; an unknown one is 400 naming it. */
async function existingMarkIds(raw: unknown, ctx: RequestContext, name = 'trademark_ids'): Promise<string[]> {
  if (!Array.isArray(raw) || raw.length > MAX_PORTFOLIO_IDS_PER_REQUEST)
    throw invalid(name, `must be a list of up to ${MAX_PORTFOLIO_IDS_PER_REQUEST} trademark IDs`);
  const ids = raw.map((id, i) => parseId(`${name}[${i}]`, typeof id === 'string' ? id : JSON.stringify(id), 'tm_'));
  const found = new Set((await loadPresent(ctx.loaders.trademarks, ids)).map((mark) => mark._id));
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw invalid(`${name}[${missing}]`, `no trademark ${truncate(ids[missing] as string)}`);
  return [...new Set(ids)];
}

export async function requirePortfolio(id: string, ctx: RequestContext, parameter = 'id'): Promise<PortfolioDoc> {
  const portfolioId = parseId(parameter, id, 'pf_');
  const portfolio = await portfoliosOf(ctx).findOne({ _id: portfolioId, organization_id: ctx.caller.organizationId });
  if (!portfolio) throw notFound(`portfolio ${portfolioId}`, parameter === 'id' ? undefined : parameter);
  return portfolio;
}

interface PortfolioInput {
  name?: unknown;
  description?: unknown;
  trademark_ids?: unknown;
  metadata?: unknown;
}

async function createPortfolio(input: PortfolioInput, ctx: RequestContext) {
  const name = checkName(input.name);
  const description = checkDescription(input.description);
  const trademarkIds = input.trademark_ids === undefined || input.trademark_ids === null ? [] : await existingMarkIds(input.trademark_ids, ctx);
  const metadata = input.metadata === undefined || input.metadata === null ? {} : parseMetadata('metadata', input.metadata);
  const at = ctx.services.now().toISOString();
  const portfolio: PortfolioDoc = {
    _id: randomId('pf_', ctx.services.now().getTime()),
    organization_id: ctx.caller.organizationId,
    name,
    description,
    trademark_ids: trademarkIds,
    metadata,
    created_at: at,
    updated_at: at,
  };
  await ctx.services.store.transaction(async () => {
    await assertResourceQuota(ctx, 'portfolio_marks', trademarkIds.length);
    await portfoliosOf(ctx).insertOne(portfolio);
  });
  return portfolioObject(portfolio);
}

async function listPortfolios(args: { limit?: number | null; cursor?: string | null; include_total?: boolean | null }, ctx: RequestContext) {
  const organizationId = ctx.caller.organizationId;
  const page = await pageOf(
    portfoliosOf(ctx),
    { organization_id: organizationId },
    pageLimit(args.limit),
    args.cursor ?? null,
    { list: 'portfolios', organization: organizationId },
    ctx.services.cursors,
    { includeTotal: args.include_total },
  );
  return { ...page, data: page.data.map(portfolioObject) };
}

async function updatePortfolio(args: PortfolioInput & { id: string }, ctx: RequestContext) {
  const portfolio = await requirePortfolio(args.id, ctx);
  const updated: PortfolioDoc = {
    ...portfolio,
    name: args.name === undefined || args.name === null ? portfolio.name : checkName(args.name),
    description: args.description === undefined ? portfolio.description : checkDescription(args.description),
    metadata: args.metadata === undefined || args.metadata === null ? portfolio.metadata : mergeMetadata('metadata', portfolio.metadata, args.metadata),
    updated_at: ctx.services.now().toISOString(),
  };
  await portfoliosOf(ctx).replaceOne(updated);
  return portfolioObject(updated);
}

/** Adds marks (those already in it are left as they are) or removes them (absent ones are ignored). */
async function changeMarks(args: { id: string; trademark_ids: unknown }, ctx: RequestContext, change: 'add' | 'remove') {
  // Read inside the transaction, so a concurrent change of the same portfolio is not lost.
  return ctx.services.store.transaction(async () => {
    const current = await requirePortfolio(args.id, ctx);
    const ids = await existingMarkIds(args.trademark_ids, ctx);
    if (ids.length === 0) throw invalid('trademark_ids', 'must list at least one trademark ID');
    const present = new Set(current.trademark_ids);
    const trademarkIds =
      change === 'add' ? [...current.trademark_ids, ...ids.filter((id) => !present.has(id))] : current.trademark_ids.filter((id) => !ids.includes(id));
    if (change === 'add') await assertResourceQuota(ctx, 'portfolio_marks', trademarkIds.length - current.trademark_ids.length);
    const updated: PortfolioDoc = { ...current, trademark_ids: trademarkIds, updated_at: ctx.services.now().toISOString() };
    await portfoliosOf(ctx).replaceOne(updated);
    return portfolioObject(updated);
  });
}

async function deletePortfolio(id: string, ctx: RequestContext) {
  const portfolio = await requirePortfolio(id, ctx);
  await portfoliosOf(ctx).deleteOne({ _id: portfolio._id });
  return { id: portfolio._id, object: 'portfolio', deleted: true };
}

/** The portfolio's marks as a trademark list: the list filters, sort and paging of GET /v1/trademarks. */
async function portfolioTrademarks(args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) {
  const { id, ...search } = args;
  const portfolio = await requirePortfolio(id, ctx);
  return searchTrademarks(search, ctx, {
    requireFilter: false,
    listName: `portfolio:${portfolio._id}`,
    extraFilters: [{ field: 'id', op: 'in', values: portfolio.trademark_ids }],
  });
}

interface PortfolioDeadlineArgs {
  id: string;
  due_before?: string | null;
  type?: string | null;
  as_of_date?: string | null;
  horizon_years?: number | null;
  include_optional?: boolean | null;
  /** One group of the timeline (deadline-groups.ts); GraphQL only, no REST route passes them. */
  month?: string | null;
  overdue?: boolean | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

type PortfolioDeadline = ComputedDeadline & { object: 'portfolio_deadline'; trademark_id: string; mark_text: string; office_code: string };

/** The order of a portfolio's deadlines (due date, then mark, then type) as one comparable string; also the page keyset. */
const orderKey = (row: PortfolioDeadline): string => [row.due_date, row.trademark_id, row.type].join('\u0000');

/** Every deadline of a portfolio's marks that the arguments keep, by due date then mark and type. */
async function portfolioDeadlineRows(args: Omit<PortfolioDeadlineArgs, 'limit' | 'cursor'>, ctx: RequestContext) {
  const portfolio = await requirePortfolio(args.id, ctx);
  if (args.due_before != null && !isIsoDate(args.due_before)) throw invalid('due_before', `must be a date YYYY-MM-DD (got '${truncate(args.due_before)}')`);
  if (args.as_of_date != null && !isOfficeDate(args.as_of_date)) throw invalid('as_of_date', officeDateRule(truncate(args.as_of_date)));
  // A misspelt type ("renewals") would otherwise read as "nothing due".
  if (args.type != null && !DEADLINE_TYPES.includes(args.type))
    throw invalid('type', `must be one of ${DEADLINE_TYPES.join(', ')} (got '${truncate(args.type)}')`);
  const horizonYears = args.horizon_years ?? 5;
  if (!Number.isInteger(horizonYears) || horizonYears < 1 || horizonYears > MAX_HORIZON_YEARS)
    throw invalid('horizon_years', `must be an integer from 1 to ${MAX_HORIZON_YEARS}`);
  const marks: TrademarkDoc[] = await loadPresent(ctx.loaders.trademarks, portfolio.trademark_ids);
  const computations = computeDeadlinesBatch(ruleCorpus, await markDeadlineInputs(marks, ctx.services.store), {
    ...(args.as_of_date ? { asOfDate: args.as_of_date } : {}),
    now: ctx.services.now(),
    horizonYears,
    includeOptional: args.include_optional ?? true,
    includeMissed: false,
  });
  const rows: PortfolioDeadline[] = marks
    .flatMap((mark, i) =>
      (computations[i]?.deadlines ?? []).map((deadline) => ({
        object: 'portfolio_deadline' as const,
        trademark_id: mark._id,
        mark_text: mark.mark_text,
        office_code: mark.office_code,
        ...deadline,
      })),
    )
    .filter((row) => (args.due_before ? row.due_date < args.due_before : true) && (args.type ? row.type === args.type : true))
    .sort((a, b) => (orderKey(a) < orderKey(b) ? -1 : orderKey(a) > orderKey(b) ? 1 : 0));
  return { portfolio, rows, horizonYears };
}

/**
 * Every mark's deadlines, one row per deadline with its mark, by due date then mark and type;
 * `due_before` keeps those due before a date, `month` or `overdue` one group of the timeline (the
 * current month is the one of `as_of_date`, today by default, as the timeline's); paged by keyset
 * on that order.
 */
async function portfolioDeadlines(args: PortfolioDeadlineArgs, ctx: RequestContext) {
  const group = deadlineGroupOf(args);
  const { portfolio, rows: all, horizonYears } = await portfolioDeadlineRows(args, ctx);
  const limit = pageLimit(args.limit);
  const currentMonth = monthStart(args.as_of_date || ctx.services.now().toISOString().slice(0, 10));
  const rows = group === null ? all : all.filter((row) => inDeadlineGroup(row.due_date, group, currentMonth));
  const binding = {
    list: 'portfolio_deadlines',
    portfolio: portfolio._id,
    due_before: args.due_before ?? null,
    type: args.type ?? null,
    as_of: args.as_of_date ?? null,
    horizonYears,
    // Only when given, so the cursors of the REST route (which never passes a group) keep their binding.
    ...(group === null ? {} : { group }),
  };
  const after = args.cursor ? ctx.services.cursors.decode(args.cursor, binding).after : null;
  const start = after ? rows.findIndex((row) => orderKey(row) > (after as string[]).join('\u0000')) : 0;
  const page = start < 0 ? [] : rows.slice(start, start + limit);
  const last = page[page.length - 1];
  const hasMore = start >= 0 && start + limit < rows.length && last !== undefined;
  return {
    data: page,
    has_more: hasMore,
    pagination: paginationOf(
      hasMore ? ctx.services.cursors.encode(binding, { snapshot: 0, after: [last.due_date, last.trademark_id, last.type] }) : null,
      await totalIf(args.include_total, () => rows.length),
    ),
  };
}

const MAX_TIMELINE_MONTHS = 60;
const MAX_DEADLINES_PER_MONTH = 100;

/** The total, the count per status and the first `limit` of some deadlines (already in due order). */
function deadlineGroup(rows: readonly PortfolioDeadline[], limit: number) {
  const statuses = [...new Set(rows.map((row) => row.status))].sort();
  return {
    count: rows.length,
    by_status: statuses.map((status) => ({ status, count: rows.filter((row) => row.status === status).length })),
    deadlines: rows.slice(0, limit),
  };
}

/**
 * A portfolio's deadlines of the next `months` calendar months (the current one first), one entry
 * per month with no deadline left out of its counts: the total, the count per status, and the
 * first `per_month` deadlines in due order (the dashboard's timeline); `overdue` groups those due
 * before the current month that can still be met (a grace period).
 */
async function portfolioDeadlineTimeline(args: { id: string; months?: number | null; per_month?: number | null }, ctx: RequestContext) {
  const months = args.months ?? 12;
  const perMonth = args.per_month ?? 20;
  if (!Number.isInteger(months) || months < 1 || months > MAX_TIMELINE_MONTHS) throw invalid('months', `must be an integer from 1 to ${MAX_TIMELINE_MONTHS}`);
  if (!Number.isInteger(perMonth) || perMonth < 0 || perMonth > MAX_DEADLINES_PER_MONTH)
    throw invalid('per_month', `must be an integer from 0 to ${MAX_DEADLINES_PER_MONTH}`);
  const today = ctx.services.now().toISOString().slice(0, 10);
  const { rows } = await portfolioDeadlineRows({ id: args.id, due_before: monthStart(today, months) }, ctx);
  const first = monthStart(today);
  return {
    overdue: deadlineGroup(
      rows.filter((row) => dueBeforeMonth(row.due_date, first)),
      perMonth,
    ),
    months: Array.from({ length: months }, (_, i) => {
      const month = monthStart(today, i).slice(0, 7);
      return {
        month,
        ...deadlineGroup(
          rows.filter((row) => dueInMonth(row.due_date, month)),
          perMonth,
        ),
      };
    }),
  };
}

export const portfolioQueryResolvers = {
  portfolios: (_: unknown, args: Parameters<typeof listPortfolios>[0], ctx: RequestContext) => listPortfolios(args, ctx),
  portfolio: async (_: unknown, args: { id: string }, ctx: RequestContext) => portfolioObject(await requirePortfolio(args.id, ctx)),
  portfolioTrademarks: (_: unknown, args: TrademarkSearchArgs & { id: string }, ctx: RequestContext) => portfolioTrademarks(args, ctx),
  portfolioDeadlines: (_: unknown, args: PortfolioDeadlineArgs, ctx: RequestContext) => portfolioDeadlines(args, ctx),
  portfolioDeadlineTimeline: (_: unknown, args: { id: string; months?: number | null; per_month?: number | null }, ctx: RequestContext) =>
    portfolioDeadlineTimeline(args, ctx),
};

export const portfolioMutationResolvers = {
  createPortfolio: (_: unknown, args: PortfolioInput, ctx: RequestContext) => createPortfolio(args, ctx),
  updatePortfolio: (_: unknown, args: PortfolioInput & { id: string }, ctx: RequestContext) => updatePortfolio(args, ctx),
  deletePortfolio: (_: unknown, args: { id: string }, ctx: RequestContext) => deletePortfolio(args.id, ctx),
  addPortfolioTrademarks: (_: unknown, args: { id: string; trademark_ids: unknown }, ctx: RequestContext) => changeMarks(args, ctx, 'add'),
  removePortfolioTrademarks: (_: unknown, args: { id: string; trademark_ids: unknown }, ctx: RequestContext) => changeMarks(args, ctx, 'remove'),
};
