/**
 * Which query a watch matches a change with: the one it had when the change occurred, not the one
 * it has when the evaluator reads the change (which may be after the query was replaced).
 */
import { isDeepStrictEqual } from 'node:util';
import type { WatchDoc, WatchQuery } from './records';

/** Replaced queries kept per watch; older ones are dropped (a change older than that is long evaluated). */
const KEPT_QUERIES = 50;

/** One of a watch's queries and the instants it was in force from (inclusive) and until (exclusive); null is unbounded. */
export interface QueryPeriod {
  query: WatchQuery;
  from: string | null;
  until: string | null;
}

/**
 * The watch's query set to `query` at `at`: the query it had joins its earlier ones. The same
 * query sent again (key order aside) records nothing, so a PATCH of the name or metadata, or a
 * repeated PATCH, leaves the history as it was.
 */
export function withQuery(watch: Pick<WatchDoc, 'query' | 'earlier_queries'>, query: WatchQuery, at: string): Pick<WatchDoc, 'query' | 'earlier_queries'> {
  if (isDeepStrictEqual(watch.query, query)) return { query: watch.query };
  return { query, earlier_queries: [...(watch.earlier_queries ?? []), { query: watch.query, until: at }].slice(-KEPT_QUERIES) };
}

/**
 * Every query the watch has had (those kept), each with its period: an earlier one from the
 * replacement before it (the oldest kept one from always) until its own replacement, the current
 * one from the last replacement on. A period starts at the latest `until` before it, not merely
 * the previous one, so that a clock stepping back between two updates never puts an instant in
 * two periods.
 */
export function queryPeriods(watch: Pick<WatchDoc, 'query' | 'earlier_queries'>): QueryPeriod[] {
  const periods: QueryPeriod[] = [];
  let from: string | null = null;
  for (const earlier of watch.earlier_queries ?? []) {
    periods.push({ query: earlier.query, from, until: earlier.until });
    if (from === null || earlier.until > from) from = earlier.until;
  }
  periods.push({ query: watch.query, from, until: null });
  return periods;
}

/** Whether a change that occurred at `occurredAt` falls in the period. */
export function inForceAt(period: Pick<QueryPeriod, 'from' | 'until'>, occurredAt: string): boolean {
  return (period.from === null || occurredAt >= period.from) && (period.until === null || occurredAt < period.until);
}
