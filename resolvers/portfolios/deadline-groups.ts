/**
 * The groups of a portfolio's deadline timeline, defined once so that the timeline
 * (portfolioDeadlineTimeline) and a page through one of its groups (portfolioDeadlines with
 * `month` or `overdue`) cannot disagree: a month is a UTC calendar month (YYYY-MM) holding the
 * deadlines due in it; the overdue group holds those due before the current month (missed ones
 * are never listed, so what is left is still actionable, in a grace period).
 */
import { addMonths, type IsoDate } from '../../domain/dates';
import { invalid } from '../../domain/errors';
import { isIsoDate, truncate } from '../../domain/validation';

/** The first day of the calendar month `offset` months after the one of `day` (YYYY-MM-DD). */
export const monthStart = (day: IsoDate, offset = 0): IsoDate => addMonths(`${day.slice(0, 7)}-01`, offset);

export const dueInMonth = (dueDate: string, month: string): boolean => dueDate.startsWith(`${month}-`);

/** `currentMonth`: the first day of the current month (monthStart). */
export const dueBeforeMonth = (dueDate: string, currentMonth: string): boolean => dueDate < currentMonth;

/** One group of the timeline, as the arguments of portfolioDeadlines select it. */
export type DeadlineGroupSelection = { month: string } | { overdue: boolean };

/**
 * The group `month` or `overdue` selects, checked (null: neither, every deadline). Both at once
 * would select two groups or none, so they are refused rather than intersected.
 */
export function deadlineGroupOf(args: { month?: string | null; overdue?: boolean | null }): DeadlineGroupSelection | null {
  const { month, overdue } = args;
  if (month !== null && month !== undefined) {
    if (!/^\d{4}-\d{2}$/.test(month) || !isIsoDate(`${month}-01`)) throw invalid('month', `must be a month YYYY-MM (got '${truncate(month)}')`);
    if (overdue !== null && overdue !== undefined) throw invalid('overdue', 'cannot be combined with month: each selects one group of the timeline');
    return { month };
  }
  return overdue === null || overdue === undefined ? null : { overdue };
}

/** Whether a deadline due on `dueDate` belongs to `group`, the current month starting on `currentMonth`. */
export function inDeadlineGroup(dueDate: string, group: DeadlineGroupSelection, currentMonth: string): boolean {
  if ('month' in group) return dueInMonth(dueDate, group.month);
  return dueBeforeMonth(dueDate, currentMonth) === group.overdue;
}
