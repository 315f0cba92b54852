/**
 * The deadline benchmarks' input: a deterministic mix of marks across jurisdictions, routes and
 * statuses, and the POST /v1/deadlines/compute body holding them.
 */
import { addDays } from '../domain/dates';
import type { DeadlineInput } from '../domain/deadlines';

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same batch. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function mixedItems(count: number): DeadlineInput[] {
  const random = randomSource(42);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const jurisdictions = ['US', 'US', 'US', 'EU', 'WIPO', 'GB', 'CA', 'JP', 'CN', 'AU', 'KR', 'IN', 'BR', 'MX', 'CH', 'DE', 'FR', 'ZZ'];
  const someDate = () => addDays('2000-01-01', Math.floor(random() * 9000));
  return Array.from({ length: count }, () => {
    const filingDate = someDate();
    const registrationDate = addDays(filingDate, 200 + Math.floor(random() * 600));
    return {
      jurisdiction: pick(jurisdictions),
      filing_route: pick([undefined, 'national', 'madrid'] as const),
      status: pick(['registered', 'registered', 'registered', 'expired', 'examining']),
      filing_date: filingDate,
      registration_date: registrationDate,
      international_registration_date: pick([null, filingDate]),
      protection_grant_date: pick([null, registrationDate]),
      expiry_date: pick([null, addDays(registrationDate, 3652)]),
    };
  });
}

/** The request body: absent fields are left out rather than sent as null. */
export function computeRequestBody(items: readonly DeadlineInput[]): string {
  return JSON.stringify({
    items: items.map((item) => Object.fromEntries(Object.entries(item).filter(([, v]) => v != null))),
    as_of_date: '2025-06-01',
    include_missed: true,
  });
}
