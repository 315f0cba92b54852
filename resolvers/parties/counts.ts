/**
 * Counts of parties' marks, derived from the trademark index (and the attorney index for firm
 * head counts). The party projections index these numbers for sorting and filtering; the list and
 * detail resolvers compute the displayed numbers with the same functions, one batch of index
 * queries per page, because the SearchIndex port returns hit IDs, not stored fields.
 */
import { ATTORNEY_INDEX, TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter, SearchIndex } from '../../datasources/ports';
import type { StatusStage } from '../../domain/records';

/** Enough terms buckets for every value a filter on one batch of parties can match. */
const ALL_TERMS = 1_000_000;

/**
 * Stages at which prosecution has reached its outcome: granted and then ended or challenged
 * (registered, pending_cancellation, expired, cancelled, invalidated, surrendered) or never
 * granted (refused, abandoned, withdrawn). Every other stage is still in prosecution (or unknown).
 * A concluded mark "was ever granted" when it carries a registration date.
 */
export const CONCLUDED_STAGES: readonly StatusStage[] = [
  'registered',
  'pending_cancellation',
  'expired',
  'cancelled',
  'invalidated',
  'surrendered',
  'refused',
  'abandoned',
  'withdrawn',
];
export const ABANDONED_STAGES: readonly StatusStage[] = ['abandoned', 'withdrawn'];

const granted: SearchFilter = { field: 'registration_date', op: 'exists', value: true };
const inMadridFamily: SearchFilter = { field: 'ir_number', op: 'exists', value: true };

/** Marks per party: `field` is a party-ID array field of the trademark index (owner_ids, …). */
export async function countMarksBy(
  search: SearchIndex,
  field: 'owner_ids' | 'attorney_ids' | 'firm_ids' | 'entity_ids',
  ids: readonly string[],
  extra: readonly SearchFilter[] = [],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const terms = await search.terms(TRADEMARK_INDEX.name, field, [{ field, op: 'in', values: ids }, ...extra], ALL_TERMS);
  for (const { value, count } of terms) if (counts.has(String(value))) counts.set(String(value), count);
  return counts;
}

export interface FirmStats {
  attorney_count: number;
  /** Marks handled by the firm's attorneys, each Madrid family (shared ir_number) once. */
  trademark_count: number;
  /** Marks counted one by one (the basis of the stats rates). */
  mark_count: number;
  concluded_count: number;
  granted_count: number;
  /** granted / concluded; null when nothing has concluded yet. */
  grant_rate: number | null;
  /** Marks that ever reached registration. */
  registered_count: number;
  pending_count: number;
  abandoned_count: number;
  /** registered / marks; null for a firm without marks. */
  registration_rate: number | null;
  latest_filing: string | null;
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/** Distinct Madrid families among one firm's marks. */
async function madridFamilies(search: SearchIndex, firmId: string): Promise<number> {
  const families = await search.terms(TRADEMARK_INDEX.name, 'ir_number', [{ field: 'firm_ids', op: 'eq', value: firmId }, inMadridFamily], ALL_TERMS);
  return families.length;
}

async function latestFiling(search: SearchIndex, firmId: string): Promise<string | null> {
  const result = await search.search({
    index: TRADEMARK_INDEX.name,
    filters: [{ field: 'firm_ids', op: 'eq', value: firmId }],
    sort: [{ field: 'filing_date', direction: 'desc' }],
    limit: 1,
  });
  const value = result.hits[0]?.sortValues[0];
  return typeof value === 'string' ? value : null;
}

/**
 * Stats of many firms: a fixed number of batch queries plus two per firm (Madrid families and the
 * latest filing, which the terms facet cannot group per firm).
 */
export async function firmStats(search: SearchIndex, firmIds: readonly string[]): Promise<Map<string, FirmStats>> {
  const count = (extra: readonly SearchFilter[]) => countMarksBy(search, 'firm_ids', firmIds, extra);
  const attorneysTerms =
    firmIds.length === 0
      ? []
      : await search.terms(
          ATTORNEY_INDEX.name,
          'firm_id',
          [
            { field: 'firm_id', op: 'in', values: firmIds },
            { field: 'is_merged', op: 'eq', value: false },
          ],
          ALL_TERMS,
        );
  const attorneys = new Map(attorneysTerms.map((t) => [String(t.value), t.count]));
  const [marks, singles, concluded, grantedConcluded, registered, pending, abandoned] = await Promise.all([
    count([]),
    count([{ op: 'not', filter: inMadridFamily }]),
    count([{ field: 'status_stage', op: 'in', values: CONCLUDED_STAGES }]),
    count([{ field: 'status_stage', op: 'in', values: CONCLUDED_STAGES }, granted]),
    count([granted]),
    count([{ field: 'status_primary', op: 'eq', value: 'pending' }]),
    count([{ field: 'status_stage', op: 'in', values: ABANDONED_STAGES }]),
  ]);
  const stats = new Map<string, FirmStats>();
  for (const id of firmIds) {
    const [families, latest] = await Promise.all([madridFamilies(search, id), latestFiling(search, id)]);
    const markCount = marks.get(id) ?? 0;
    const concludedCount = concluded.get(id) ?? 0;
    const grantedCount = grantedConcluded.get(id) ?? 0;
    const registeredCount = registered.get(id) ?? 0;
    stats.set(id, {
      attorney_count: attorneys.get(id) ?? 0,
      trademark_count: (singles.get(id) ?? 0) + families,
      mark_count: markCount,
      concluded_count: concludedCount,
      granted_count: grantedCount,
      grant_rate: ratio(grantedCount, concludedCount),
      registered_count: registeredCount,
      pending_count: pending.get(id) ?? 0,
      abandoned_count: abandoned.get(id) ?? 0,
      registration_rate: ratio(registeredCount, markCount),
      latest_filing: latest,
    });
  }
  return stats;
}
