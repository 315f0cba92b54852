/**
 * The rule corpus (data/rules.json), validated once at module load: the single source of the
 * deadline rules, the opposition rules, both compute endpoints and the trademark detail's
 * opposition_window. A malformed corpus stops the server at start (RuleCorpusError).
 */
import { version as dateHolidaysVersion } from 'date-holidays/package.json';
import closedDaysJson from '../../data/closed-days.json';
import rulesJson from '../../data/rules.json';
import { primeClosedDays, type BusinessCalendarSpec, type YearRange } from '../../domain/calendar';
import type { IsoDate } from '../../domain/dates';
import { calendarSpecFor, loadRuleCorpus, type RuleCorpus } from '../../domain/rules';

export const ruleCorpus: RuleCorpus = loadRuleCorpus(rulesJson);

/** The deadline types of the corpus (renewal, declaration_of_use, ...): what a maintenance filing may be. */
export const DEADLINE_TYPES: readonly string[] = [...new Set(ruleCorpus.deadline_rules.map((rule) => rule.type))];

/** The most extensions of time any rule of the corpus takes (the US statement of use: 5). */
export const MAX_USE_EXTENSIONS = Math.max(0, ...ruleCorpus.deadline_rules.map((rule) => rule.extensions?.max ?? 0));

/** Compute requests look up to this many years ahead (spec: horizon_years 1 to 15). */
export const MAX_HORIZON_YEARS = 15;

/** data/closed-days.json: every corpus calendar's closed days, computed ahead by `npm run data:closed-days`. */
export interface ClosedDaysTable {
  about: string;
  /** The date-holidays release that computed it: another release's table is not used. */
  date_holidays_version: string;
  years: YearRange;
  calendars: Record<string, { spec: BusinessCalendarSpec; closed_days: Record<string, IsoDate[]> }>;
}

/**
 * The years data/closed-days.json holds: calendar coverage, and beyond it the longest compute
 * horizon (MAX_HORIZON_YEARS) of a request made up to 2030. Other years are computed on first use.
 */
export const CLOSED_DAYS_YEARS: YearRange = { from: 2000, to: 2045 };

/**
 * Hands every corpus calendar its closed days from data/closed-days.json when the table was built
 * by the installed date-holidays for the calendar as the corpus defines it now; otherwise (a
 * date-holidays upgrade, an edited calendar) that calendar computes its years on first use, as
 * any calendar does outside the table's years. test/data/closed-days.test.ts keeps the table true.
 * Returns the ids of the calendars primed.
 */
export function primeCorpusCalendars(table: ClosedDaysTable, installedVersion: string = dateHolidaysVersion): string[] {
  if (table.date_holidays_version !== installedVersion) return [];
  const primed: string[] = [];
  for (const id of Object.keys(ruleCorpus.calendars)) {
    const spec = calendarSpecFor(ruleCorpus, id);
    const entry = table.calendars[id];
    if (entry === undefined || JSON.stringify(entry.spec) !== JSON.stringify(spec)) continue;
    primeClosedDays(spec, entry.closed_days);
    primed.push(id);
  }
  return primed;
}

primeCorpusCalendars(closedDaysJson as ClosedDaysTable);
