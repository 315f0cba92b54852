/**
 * GET /v1/analytics/offices/{code}: an office's figures, counted on the trademark index (so they
 * follow every indexed change) and cached in the KeyValue store for STATS_TTL_MS, shared by all
 * instances. Status buckets, by status.stage:
 *
 * - registered: registered, pending_cancellation (a registration in force);
 * - pending: status.primary pending;
 * - expired: expired; cancelled: cancelled, invalidated; abandoned: abandoned, withdrawn;
 * - registration_rate: marks ever registered (registration_date set) ÷ (those + marks that ended
 *   abandoned, withdrawn or refused without registering); null when nothing has concluded;
 * - jurisdiction_count: member states covered for a regional office (EM 27, BX 3), the distinct
 *   jurisdictions designated for WO, otherwise the distinct jurisdictions of the office's marks;
 * - top_classes: the ten most frequent Nice classes, pct = share of the office's marks;
 * - yearly_trend: per calendar year, marks filed, registered (registration_date) and abandoned
 *   (termination_date of marks now abandoned or withdrawn).
 */
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter, SearchIndex } from '../../datasources/ports';
import { invalid, notFound } from '../../domain/errors';
import type { RequestContext } from '../context';
import { officeByCode } from '../../domain/offices';

export const STATS_TTL_MS = 10 * 60 * 1000;
export const TOP_CLASS_COUNT = 10;

export const REGISTERED_STAGES = ['registered', 'pending_cancellation'];
export const EXPIRED_STAGES = ['expired'];
export const CANCELLED_STAGES = ['cancelled', 'invalidated'];
export const ABANDONED_STAGES = ['abandoned', 'withdrawn'];
export const UNREGISTERED_END_STAGES = ['abandoned', 'withdrawn', 'refused'];

/** Larger than any number of distinct values a field can have in one office. */
const ALL_TERMS = 1_000_000;
const EXACT = 1_000_000_000;

export interface OfficeAnalytics {
  object: 'office_analytics';
  code: string;
  total_marks: number;
  registered_count: number;
  pending_count: number;
  expired_count: number;
  cancelled_count: number;
  abandoned_count: number;
  registration_rate: number | null;
  jurisdiction_count: number;
  earliest_filing: string | null;
  latest_filing: string | null;
  top_classes: Array<{ class: number; count: number; pct: number }> | null;
  yearly_trend: Array<{ year: number; filed: number; registered: number; abandoned: number }> | null;
  stats_computed_at: string;
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

async function count(search: SearchIndex, filters: readonly SearchFilter[]): Promise<number> {
  const result = await search.search({ index: TRADEMARK_INDEX.name, filters, sort: [], limit: 0, countUpTo: EXACT });
  return result.total?.value ?? 0;
}

async function firstFiling(search: SearchIndex, filters: readonly SearchFilter[], direction: 'asc' | 'desc'): Promise<string | null> {
  const result = await search.search({ index: TRADEMARK_INDEX.name, filters, sort: [{ field: 'filing_date', direction }], limit: 1 });
  const value = result.hits[0]?.sortValues[0];
  return typeof value === 'string' ? value.slice(0, 10) : null;
}

async function countsByYear(search: SearchIndex, field: string, filters: readonly SearchFilter[]): Promise<Map<number, number>> {
  const byYear = new Map<number, number>();
  for (const { value, count: n } of await search.terms(TRADEMARK_INDEX.name, field, filters, ALL_TERMS)) {
    const year = Number(String(value).slice(0, 4));
    byYear.set(year, (byYear.get(year) ?? 0) + n);
  }
  return byYear;
}

async function jurisdictionCount(search: SearchIndex, code: string, covers: readonly string[], office: SearchFilter): Promise<number> {
  if (covers.length > 0) return covers.length;
  const filters: SearchFilter[] =
    code === 'WO'
      ? [
          { field: 'filing_route', op: 'eq', value: 'madrid' },
          { op: 'not', filter: { field: 'scope_kind', op: 'eq', value: 'international' } },
        ]
      : [office];
  return (await search.terms(TRADEMARK_INDEX.name, 'jurisdiction_code', filters, ALL_TERMS)).length;
}

async function computeOfficeAnalytics(code: string, covers: readonly string[], search: SearchIndex, now: Date): Promise<OfficeAnalytics> {
  const office: SearchFilter = { field: 'office_code', op: 'eq', value: code };
  const stages = (values: string[]): SearchFilter => ({ field: 'status_stage', op: 'in', values });
  const [stageTerms, pendingCount, everRegistered, endedUnregistered, earliest, latest, classTerms, filed, registered, abandoned, jurisdictions] =
    await Promise.all([
      search.terms(TRADEMARK_INDEX.name, 'status_stage', [office], ALL_TERMS),
      count(search, [office, { field: 'status_primary', op: 'eq', value: 'pending' }]),
      count(search, [office, { field: 'registration_date', op: 'exists', value: true }]),
      count(search, [office, stages(UNREGISTERED_END_STAGES), { field: 'registration_date', op: 'exists', value: false }]),
      firstFiling(search, [office], 'asc'),
      firstFiling(search, [office], 'desc'),
      search.terms(TRADEMARK_INDEX.name, 'nice_classes', [office], TOP_CLASS_COUNT),
      countsByYear(search, 'filing_date', [office]),
      countsByYear(search, 'registration_date', [office]),
      countsByYear(search, 'termination_date', [office, stages(ABANDONED_STAGES)]),
      jurisdictionCount(search, code, covers, office),
    ]);
  const byStage = new Map(stageTerms.map((t) => [String(t.value), t.count]));
  const sumOf = (list: string[]) => list.reduce((sum, stage) => sum + (byStage.get(stage) ?? 0), 0);
  const total = [...byStage.values()].reduce((a, b) => a + b, 0);
  const concluded = everRegistered + endedUnregistered;
  const years = [...new Set([...filed.keys(), ...registered.keys(), ...abandoned.keys()])].sort((a, b) => a - b);
  return {
    object: 'office_analytics',
    code,
    total_marks: total,
    registered_count: sumOf(REGISTERED_STAGES),
    pending_count: pendingCount,
    expired_count: sumOf(EXPIRED_STAGES),
    cancelled_count: sumOf(CANCELLED_STAGES),
    abandoned_count: sumOf(ABANDONED_STAGES),
    registration_rate: concluded === 0 ? null : round4(everRegistered / concluded),
    jurisdiction_count: jurisdictions,
    earliest_filing: earliest,
    latest_filing: latest,
    top_classes: total === 0 ? null : classTerms.map((t) => ({ class: Number(t.value), count: t.count, pct: round4(t.count / total) })),
    yearly_trend:
      total === 0
        ? null
        : years.map((year) => ({ year, filed: filed.get(year) ?? 0, registered: registered.get(year) ?? 0, abandoned: abandoned.get(year) ?? 0 })),
    stats_computed_at: now.toISOString(),
  };
}

export async function officeAnalytics(rawCode: string, ctx: RequestContext): Promise<OfficeAnalytics> {
  if (!/^[A-Za-z]{2,4}$/.test(rawCode)) throw invalid('code', `must be an office code of 2 to 4 letters (got '${rawCode}')`);
  const office = officeByCode(rawCode);
  if (!office) throw notFound(`office ${rawCode} (GET /v1/offices lists the offices)`);
  const key = `analytics:office:${office.office_code}`;
  const now = ctx.services.now();
  const cached = await ctx.services.kv.get(key);
  if (cached !== null) {
    const stats = JSON.parse(cached) as OfficeAnalytics;
    if (now.getTime() - Date.parse(stats.stats_computed_at) < STATS_TTL_MS) return stats;
  }
  const stats = await computeOfficeAnalytics(office.office_code, office.covers ?? [], ctx.services.search, now);
  await ctx.services.kv.set(key, JSON.stringify(stats), { ttlMs: STATS_TTL_MS });
  return stats;
}

export const analyticsQueryResolvers = {
  officeAnalytics: (_: unknown, args: { code: string }, ctx: RequestContext) => officeAnalytics(args.code, ctx),
};
