/**
 * `trademarkStats`: the catalog-wide figures the dashboard's overview charts, counted on the
 * trademark search index (terms aggregations), never in the browser from rows:
 *
 * - by_office_status: one `terms` on office_code per primary status (a handful of statuses, so a
 *   handful of index queries whatever the catalog's size);
 * - filings_by_month: one `terms` on filing_date over the window, folded into months here (the
 *   port has no date histogram; distinct filing days in two years are at most ~730 per office);
 * - recent_changes: one index page sorted by -updated_at, loaded through the request's trademark
 *   DataLoader (the same batch every list uses).
 *
 * The counts are cached in the KeyValue store for STATS_TTL_MS (shared by instances), judged
 * against `Services.now` like the office analytics; the recent changes are read on every call.
 */
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import type { TrademarkDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';

export const CATALOG_STATS_TTL_MS = 60 * 1000;
export const MAX_STATS_MONTHS = 120;
export const MAX_RECENT_CHANGES = 50;

/** Larger than any number of distinct values (statuses, offices, filing days) a window holds. */
const ALL_TERMS = 1_000_000;

interface CachedStats {
  total_marks: number;
  by_office_status: Array<{ office_code: string; status_primary: string; count: number }>;
  filings_by_month: Array<{ month: string; count: number }>;
  stats_computed_at: string;
}

export interface TrademarkStats extends CachedStats {
  object: 'trademark_stats';
  recent_changes: TrademarkDoc[];
}

/** The `months` calendar months ending with the one of `now` (UTC), as YYYY-MM, oldest first. */
export function monthWindow(now: Date, months: number): string[] {
  const list: string[] = [];
  for (let back = months - 1; back >= 0; back--) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    list.push(date.toISOString().slice(0, 7));
  }
  return list;
}

async function computeStats(ctx: RequestContext, months: number, now: Date): Promise<CachedStats> {
  const { search } = ctx.services;
  const index = TRADEMARK_INDEX.name;
  const window = monthWindow(now, months);
  const from = `${window[0]}-01`;
  const [statuses, filingDays] = await Promise.all([
    search.terms(index, 'status_primary', [], ALL_TERMS),
    search.terms(index, 'filing_date', [{ field: 'filing_date', op: 'range', gte: from } satisfies SearchFilter], ALL_TERMS),
  ]);
  const byStatus = await Promise.all(
    statuses.map(async ({ value }) => {
      const status = String(value);
      const offices = await search.terms(index, 'office_code', [{ field: 'status_primary', op: 'eq', value: status }], ALL_TERMS);
      return offices.map((office) => ({ office_code: String(office.value), status_primary: status, count: office.count }));
    }),
  );
  const byOfficeStatus = byStatus.flat().sort((a, b) => a.office_code.localeCompare(b.office_code) || a.status_primary.localeCompare(b.status_primary));
  const perMonth = new Map(window.map((month) => [month, 0]));
  for (const { value, count } of filingDays) {
    const month = String(value).slice(0, 7);
    // Filing dates after today (data errors) fall outside the window and are left out.
    if (perMonth.has(month)) perMonth.set(month, (perMonth.get(month) ?? 0) + count);
  }
  return {
    total_marks: statuses.reduce((sum, term) => sum + term.count, 0),
    by_office_status: byOfficeStatus,
    filings_by_month: [...perMonth].map(([month, count]) => ({ month, count })),
    stats_computed_at: now.toISOString(),
  };
}

export async function trademarkStats(args: { months?: number | null; recent?: number | null }, ctx: RequestContext): Promise<TrademarkStats> {
  const months = args.months ?? 24;
  const recent = args.recent ?? 10;
  if (!Number.isInteger(months) || months < 1 || months > MAX_STATS_MONTHS)
    throw invalid('months', `must be an integer from 1 to ${MAX_STATS_MONTHS} (got ${months})`);
  if (!Number.isInteger(recent) || recent < 0 || recent > MAX_RECENT_CHANGES)
    throw invalid('recent', `must be an integer from 0 to ${MAX_RECENT_CHANGES} (got ${recent})`);
  const now = ctx.services.now();
  const key = `analytics:catalog:${months}`;
  const cached = await ctx.services.kv.get(key);
  let stats: CachedStats | null = null;
  if (cached !== null) {
    const parsed = JSON.parse(cached) as CachedStats;
    const age = now.getTime() - Date.parse(parsed.stats_computed_at);
    if (age >= 0 && age < CATALOG_STATS_TTL_MS) stats = parsed;
  }
  if (stats === null) {
    stats = await computeStats(ctx, months, now);
    await ctx.services.kv.set(key, JSON.stringify(stats), { ttlMs: CATALOG_STATS_TTL_MS });
  }
  const page =
    recent === 0
      ? { hits: [] }
      : await ctx.services.search.search({ index: TRADEMARK_INDEX.name, filters: [], sort: [{ field: 'updated_at', direction: 'desc' }], limit: recent });
  const recentChanges = await loadPresent(
    ctx.loaders.trademarks,
    page.hits.map((hit) => hit.id),
  );
  return { object: 'trademark_stats', ...stats, recent_changes: recentChanges };
}

export const catalogStatsQueryResolvers = {
  trademarkStats: (_: unknown, args: { months?: number | null; recent?: number | null }, ctx: RequestContext) => trademarkStats(args, ctx),
};
