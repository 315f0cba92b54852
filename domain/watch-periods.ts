/**
 * When a watch hears of a change: one that occurred while it was active, judged by the time the
 * change occurred, not the time the evaluator reads it (which may be after a pause or a resume).
 */
import type { WatchDoc } from './records';

/** Pauses kept per watch; older ones are dropped (a change older than that is long evaluated). */
const KEPT_PAUSES = 50;

/**
 * The pauses of a watch stored before they were kept, as its `evaluate_from` and status imply:
 * everything before its last resume (or, while paused, everything) counts as paused, so its first
 * recorded pause or resume never makes it hear what it would not have heard before.
 */
function pausesOf(watch: Pick<WatchDoc, 'status' | 'evaluate_from' | 'created_at' | 'paused_periods'>): NonNullable<WatchDoc['paused_periods']> {
  if (watch.paused_periods !== undefined) return watch.paused_periods;
  if (watch.status === 'paused') return [{ from: watch.created_at, to: null }];
  return watch.evaluate_from > watch.created_at ? [{ from: watch.created_at, to: watch.evaluate_from }] : [];
}

/** The watch paused or resumed at `at`: its paused periods with one opened or closed. */
export function withStatusChange(watch: WatchDoc, status: WatchDoc['status'], at: string): Pick<WatchDoc, 'paused_periods'> {
  const periods = pausesOf(watch);
  if (status === 'paused') return { paused_periods: [...periods, { from: at, to: null }].slice(-KEPT_PAUSES) };
  return { paused_periods: periods.map((period) => (period.to === null ? { ...period, to: at } : period)) };
}

/** Whether a change that occurred at `occurredAt` is the watch's to evaluate. */
export function hearsChangeAt(watch: Pick<WatchDoc, 'status' | 'evaluate_from' | 'created_at' | 'paused_periods'>, occurredAt: string): boolean {
  if (watch.paused_periods === undefined) return watch.status === 'active' && occurredAt >= watch.evaluate_from;
  if (occurredAt < watch.created_at) return false;
  return !watch.paused_periods.some((period) => occurredAt >= period.from && (period.to === null || occurredAt < period.to));
}
