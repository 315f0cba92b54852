/**
 * Query fields of the deadline area: the two stateless compute batches and the two rule lists,
 * all over the one rule corpus. REST checks the syntax of every field before execution; the
 * checks here (batch size, horizon, dates) keep /graphql callers to the same rules.
 */
import { ApiError, invalid } from '../../domain/errors';
import { listDeadlineRules } from '../../domain/deadline-rules';
import { computeDeadlinesBatch, type DeadlineInput } from '../../domain/deadlines';
import { computeOppositionWindow, findOppositionRules } from '../../domain/opposition';
import { TRIGGER_FIELDS, type DeadlineFilingRoute, type OppositionFilingRoute, type OppositionTriggerEvent } from '../../domain/rules';
import { isOfficeDate, officeDateRule, truncate } from '../../domain/validation';
import type { RequestContext } from '../context';
import { DEADLINE_TYPES, MAX_HORIZON_YEARS, MAX_USE_EXTENSIONS, ruleCorpus } from './corpus';

/** Items per compute request (spec: Other constants). */
export const MAX_COMPUTE_ITEMS = 1000;
export const DEFAULT_HORIZON_YEARS = 5;
/** Maintenance filings per compute item: a mark's renewals and declarations over a century fit. */
export const MAX_MAINTENANCE_FILINGS = 50;

type DeadlineItemArgs = {
  jurisdiction: string;
  filing_route?: DeadlineFilingRoute | null;
  status?: string | null;
  use_extensions_granted?: number | null;
  maintenance_filings?: ReadonlyArray<{ type: string; filed_date: string }> | null;
} & Partial<Record<(typeof TRIGGER_FIELDS)[number], string | null>>;

interface ComputeDeadlinesArgs {
  items: readonly DeadlineItemArgs[];
  as_of_date?: string | null;
  horizon_years?: number | null;
  include_optional?: boolean | null;
  include_missed?: boolean | null;
}

interface OppositionWindowItemArgs {
  office: string;
  filing_route: OppositionFilingRoute;
  trigger_event: OppositionTriggerEvent;
  publication_date: string;
}

interface ComputeOppositionWindowsArgs {
  items: readonly OppositionWindowItemArgs[];
  as_of_date?: string | null;
}

interface OppositionRulesArgs {
  jurisdiction?: readonly string[] | null;
  office?: readonly string[] | null;
  filing_route?: readonly OppositionFilingRoute[] | null;
  trigger_event?: readonly OppositionTriggerEvent[] | null;
}

/** The same answers the REST body parser gives for an `objects` parameter (rest/params.ts). */
function checkBatchSize(count: number): void {
  if (count === 0) throw invalid('items', 'must list at least one item');
  if (count > MAX_COMPUTE_ITEMS) {
    throw new ApiError('batch_too_large', `items: at most ${MAX_COMPUTE_ITEMS} items per request (got ${count})`, {
      item_count: count,
      item_count_limit: MAX_COMPUTE_ITEMS,
    });
  }
}

const dateError = (name: string, value: string) => invalid(name, officeDateRule(value));

function checkDate(name: string, value: string | null | undefined): void {
  if (value != null && !isOfficeDate(value)) throw dateError(name, value);
}

/** A bounded list always fits one page. */
const onePage = <T>(data: T[]) => ({ data, has_more: false, pagination: { cursor: null } });

/** The rules of an item's extensions and maintenance filings, as the REST body parser states them. */
function checkItemFilings(item: DeadlineItemArgs, index: number): void {
  const extensions = item.use_extensions_granted;
  if (extensions != null && (extensions < 0 || extensions > MAX_USE_EXTENSIONS)) {
    throw invalid(`items[${index}].use_extensions_granted`, `must be an integer from 0 to ${MAX_USE_EXTENSIONS} (got ${extensions})`);
  }
  const filings = item.maintenance_filings ?? [];
  if (filings.length > MAX_MAINTENANCE_FILINGS) throw invalid(`items[${index}].maintenance_filings`, `must list at most ${MAX_MAINTENANCE_FILINGS} items`);
  filings.forEach((filing, position) => {
    const name = `items[${index}].maintenance_filings[${position}]`;
    if (!DEADLINE_TYPES.includes(filing.type)) throw invalid(`${name}.type`, `must be one of ${DEADLINE_TYPES.join(', ')} (got '${truncate(filing.type)}')`);
    if (!isOfficeDate(filing.filed_date)) throw dateError(`${name}.filed_date`, filing.filed_date);
  });
}

/**
 * Checks the dates, extensions and filings of every item. The items (the coerced variables, this
 * request's own objects) are already the computation's input, absent and null members alike, so
 * none is copied.
 */
function checkItems(items: readonly DeadlineItemArgs[]): readonly DeadlineInput[] {
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    for (const field of TRIGGER_FIELDS) {
      const value = item[field];
      // The detail's name is built only for a refused date: a batch checks thousands of good ones.
      if (value != null && !isOfficeDate(value)) throw dateError(`items[${index}].${field}`, value);
    }
    if (item.use_extensions_granted != null || item.maintenance_filings != null) checkItemFilings(item, index);
  }
  return items;
}

function computeDeadlines(args: ComputeDeadlinesArgs, ctx: RequestContext) {
  checkBatchSize(args.items.length);
  checkDate('as_of_date', args.as_of_date);
  const horizonYears = args.horizon_years ?? DEFAULT_HORIZON_YEARS;
  if (!Number.isInteger(horizonYears) || horizonYears < 1 || horizonYears > MAX_HORIZON_YEARS) {
    throw invalid('horizon_years', `must be an integer from 1 to ${MAX_HORIZON_YEARS} (got ${horizonYears})`);
  }
  return onePage(
    computeDeadlinesBatch(ruleCorpus, checkItems(args.items), {
      ...(args.as_of_date ? { asOfDate: args.as_of_date } : {}),
      now: ctx.services.now(),
      horizonYears,
      includeOptional: args.include_optional ?? true,
      includeMissed: args.include_missed ?? false,
    }),
  );
}

function computeOppositionWindows(args: ComputeOppositionWindowsArgs, ctx: RequestContext) {
  checkBatchSize(args.items.length);
  checkDate('as_of_date', args.as_of_date);
  const now = ctx.services.now();
  return onePage(
    args.items.map((item, i) => {
      if (!isOfficeDate(item.publication_date)) throw dateError(`items[${i}].publication_date`, item.publication_date);
      const window = computeOppositionWindow(
        ruleCorpus,
        {
          office_code: item.office,
          filing_route: item.filing_route,
          trigger_event: item.trigger_event,
          publication_date: item.publication_date,
          as_of_date: args.as_of_date ?? null,
        },
        now,
      );
      return { ...window, object: 'opposition_window_computation' };
    }),
  );
}

export const deadlineQueryResolvers = {
  computeDeadlines: (_root: unknown, args: ComputeDeadlinesArgs, ctx: RequestContext) => computeDeadlines(args, ctx),
  computeOppositionWindows: (_root: unknown, args: ComputeOppositionWindowsArgs, ctx: RequestContext) => computeOppositionWindows(args, ctx),
  oppositionRules: (_root: unknown, args: OppositionRulesArgs) =>
    onePage(
      findOppositionRules(ruleCorpus, {
        ...(args.jurisdiction ? { jurisdictions: args.jurisdiction } : {}),
        ...(args.office ? { offices: args.office } : {}),
        ...(args.filing_route ? { filing_routes: args.filing_route } : {}),
        ...(args.trigger_event ? { trigger_events: args.trigger_event } : {}),
      }),
    ),
  deadlineRules: (_root: unknown, args: { jurisdiction?: readonly string[] | null }) =>
    onePage(listDeadlineRules(ruleCorpus, args.jurisdiction ? { jurisdictions: args.jurisdiction } : {})),
};
