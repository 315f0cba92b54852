/**
 * Civil-date arithmetic on `YYYY-MM-DD` strings. A civil date has no time of day and no zone, so
 * every computation runs on a day number (days since 1970-01-01, proleptic Gregorian), never on a
 * local `Date`, which is how off-by-one-day bugs around midnight and DST
 * are avoided. Only `todayInTimeZone` looks at an instant, and it asks Intl for the calendar date
 * in the named zone.
 */

/** A civil date written `YYYY-MM-DD` (four-digit year). */
export type IsoDate = string;

export interface CivilDate {
  year: number;
  month: number; // 1..12
  day: number; // 1..31
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const MONTH_LENGTHS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : MONTH_LENGTHS[month - 1]!;
}

const DIGIT_0 = 48;

/** Digits of `value` from `start` (inclusive) to `end` (exclusive) as a number, or -1. */
function digitsAt(value: string, start: number, end: number): number {
  let result = 0;
  for (let index = start; index < end; index += 1) {
    const digit = value.charCodeAt(index) - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    result = result * 10 + digit;
  }
  return result;
}

// Parsing is on the hot path of every computation, so it reads char codes instead of a regex.
/** The parts of a valid date, or null (wrong shape, month 13, 30 February, ...). */
export function parseIsoDate(value: string): CivilDate | null {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return null;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function isIsoDate(value: unknown): value is IsoDate {
  return typeof value === 'string' && parseIsoDate(value) !== null;
}

function requireDate(value: IsoDate): CivilDate {
  const parts = parseIsoDate(value);
  if (!parts) throw new RangeError(`not a valid YYYY-MM-DD date: ${JSON.stringify(value)}`);
  return parts;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * The years an office date may fall in. A calendar date outside them (`9999-12-31`, `0001-01-01`)
 * is a placeholder or a typing error, never an office fact (the USPTO's oldest registrations are
 * from 1870), and terms computed from it would leave four-digit years (this module throws
 * beyond) or the years the holiday library computes (it loops for ever on year 1 of lunisolar
 * calendars). Ingestion rejects such a record; the deadline computations refuse such a date.
 */
export const OFFICE_YEARS = { first: 1800, last: 2199 } as const;

/** The bound as the API's rule texts and descriptions state it. */
export const OFFICE_YEARS_TEXT = `in the years ${OFFICE_YEARS.first} to ${OFFICE_YEARS.last}`;

export const isOfficeYear = (year: number): boolean => year >= OFFICE_YEARS.first && year <= OFFICE_YEARS.last;

export function isWithinOfficeYears(date: IsoDate): boolean {
  return isOfficeYear(yearOf(date));
}

export function formatIsoDate({ year, month, day }: CivilDate): IsoDate {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

// Day numbers use H. Hinnant's days_from_civil / civil_from_days (proleptic Gregorian, eras of
// 400 years), which need no Date object.

/** Days since 1970-01-01 (negative before). */
export function toDayNumber(date: IsoDate): number {
  const { year, month, day } = requireDate(date);
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

export function fromDayNumber(dayNumber: number): IsoDate {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return formatIsoDate({ year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day });
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromDayNumber(toDayNumber(date) + days);
}

/**
 * The same day-of-month `months` later (or earlier when negative); when that day does not exist
 * in the target month, the month's last day (31 Aug + 6 months = 28/29 Feb; 29 Feb + 12 = 28 Feb).
 * Each call clamps afresh, so chained calls can drift (31 Jan +1 +1 = 28 Mar); callers that need
 * the n-th anniversary add n periods to the anchor in one call.
 */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const { year, month, day } = requireDate(date);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  return formatIsoDate({ year: targetYear, month: targetMonth, day: Math.min(day, daysInMonth(targetYear, targetMonth)) });
}

/** Calendar days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return toDayNumber(to) - toDayNumber(from);
}

/** -1, 0 or 1. Valid `YYYY-MM-DD` strings order lexically, so no parsing is needed. */
export function compareDates(a: IsoDate, b: IsoDate): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function maxDate(a: IsoDate, b: IsoDate): IsoDate {
  return a >= b ? a : b;
}

/** 0 = Sunday ... 6 = Saturday. */
export function dayOfWeek(date: IsoDate): number {
  // 1970-01-01 was a Thursday (4).
  return (((toDayNumber(date) + 4) % 7) + 7) % 7;
}

export function yearOf(date: IsoDate): number {
  return requireDate(date).year;
}

const dateFormatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = dateFormatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for an unknown zone, which is what a caller passing a bad zone deserves.
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormatters.set(timeZone, formatter);
  }
  return formatter;
}

export function isTimeZone(value: string): boolean {
  try {
    formatterFor(value);
    return true;
  } catch {
    return false;
  }
}

/** The calendar date at instant `now` in IANA zone `timeZone` (what "today" is at that office). */
export function todayInTimeZone(timeZone: string, now: Date = new Date()): IsoDate {
  const parts = formatterFor(timeZone).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value);
  return formatIsoDate({ year: part('year'), month: part('month'), day: part('day') });
}
