/**
 * Calendar arithmetic on day numbers (days since 1970-01-01, UTC). The generator works in whole
 * days for speed and turns them into `YYYY-MM-DD` strings or ISO timestamps only at the end.
 */

const MS_PER_DAY = 86_400_000;

/** The generator's fixed "today", so the same seed gives the same data on any day. */
export const GENERATOR_TODAY = '2026-11-01';

export function dayOf(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / MS_PER_DAY);
}

export const TODAY = dayOf(GENERATOR_TODAY);

/** Formatting dates dominates generation time without this cache (indexed by day number). */
const ISO_DATE_CACHE: string[] = [];

export function isoDate(day: number): string {
  if (day < 0) return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
  let text = ISO_DATE_CACHE[day];
  if (text === undefined) {
    text = new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
    ISO_DATE_CACHE[day] = text;
  }
  return text;
}

/** ISO 8601 timestamp of `day` plus `secondOfDay` seconds (may exceed one day). */
export function isoTimestamp(day: number, secondOfDay: number): string {
  return new Date(day * MS_PER_DAY + secondOfDay * 1000).toISOString();
}

export function yearOf(day: number): number {
  return Number(isoDate(day).slice(0, 4));
}

/** Adds calendar months; a day that does not exist in the target month becomes its last day. */
export function addMonths(day: number, months: number): number {
  const date = new Date(day * MS_PER_DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Math.floor(Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay)) / MS_PER_DAY);
}

export function addYears(day: number, years: number): number {
  return addMonths(day, years * 12);
}

export function startOfYear(year: number): number {
  return Math.floor(Date.UTC(year, 0, 1) / MS_PER_DAY);
}
