/**
 * Input checks shared by every surface (REST query strings and bodies, GraphQL variables):
 * calendar-valid dates, ISO timestamps, ordered ranges.
 */
import { isWithinOfficeYears, OFFICE_YEARS_TEXT, parseIsoDate } from './dates';
import { ApiError, invalid } from './errors';
import { ID_BODY_RULE, idKind, isWellFormedId, type IdPrefix } from './ids';
import { foldText } from './text';

const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * True for a real calendar date written `YYYY-MM-DD`, by the parse of domain/dates.ts (char codes,
 * no Date: this runs for every date of a 1,000-item batch). One exception keeps the accepted set
 * what it has always been on every door: 0000-02-29 is refused, as when this check went through
 * `Date.UTC`, which reads the years 0 to 99 as 1900 to 1999 (and 1900 is not a leap year).
 */
/** An ISO 3166-1 alpha-2 country code, any casing. */
export const COUNTRY_CODE_PATTERN = /^[A-Za-z]{2}$/;
/** A Vienna classification code: category CC, division CC.DD or section CC.DD.SS. */
export const VIENNA_CODE_PATTERN = /^\d{2}(\.\d{2}(\.\d{2})?)?$/;

export function isIsoDate(value: string): boolean {
  const date = parseIsoDate(value);
  return date !== null && !(date.year === 0 && date.month === 2 && date.day === 29);
}

/** A calendar date in the office years: what a date a deadline or window is computed from must be. */
export function isOfficeDate(value: string): boolean {
  return isIsoDate(value) && isWithinOfficeYears(value);
}

/** The rule a date that `isOfficeDate` refuses broke, for its 400's detail. */
export function officeDateRule(value: string): string {
  return isIsoDate(value) ? `must be a date ${OFFICE_YEARS_TEXT} (got '${value}')` : `must be a date written YYYY-MM-DD (got '${value}')`;
}

/** Normalizes an ISO 8601 date or timestamp to a UTC ISO timestamp, or null when malformed. */
export function parseTimestamp(value: string): string | null {
  const m = TIMESTAMP_RE.exec(value);
  if (!m || !isIsoDate(`${m[1]}-${m[2]}-${m[3]}`)) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
  const time = new Date(m[4] === undefined ? `${value}T00:00:00Z` : value).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Checks that each lower bound of a range lies before its upper bound (spec: otherwise 400). */
export function assertRangesOrdered(values: Record<string, unknown>, fields: readonly string[]): void {
  for (const field of fields) {
    const lowers = (['gte', 'gt'] as const).map((op) => [op, values[`${field}_${op}`]] as const).filter(([, v]) => typeof v === 'string');
    const uppers = (['lte', 'lt'] as const).map((op) => [op, values[`${field}_${op}`]] as const).filter(([, v]) => typeof v === 'string');
    for (const [lowOp, low] of lowers) {
      for (const [upOp, up] of uppers) {
        const bothInclusive = lowOp === 'gte' && upOp === 'lte';
        const ordered = bothInclusive ? (low as string) <= (up as string) : (low as string) < (up as string);
        if (!ordered) {
          throw invalid(`${field}_${lowOp}`, `must be before ${field}_${upOp} (${low as string} is not before ${up as string})`);
        }
      }
    }
  }
}

/** Shortens a client-supplied value for quoting in an error detail. */
export function truncate(raw: string): string {
  return raw.length > 60 ? `${raw.slice(0, 60)}…` : raw;
}

/**
 * Checks a prefixed ID: another resource's prefix → 400 `id_type_mismatch`; anything else
 * malformed → 400 `validation_error`.
 */
export function parseId(name: string, raw: string, prefix: IdPrefix): string {
  if (isWellFormedId(raw, prefix)) return raw;
  const kind = idKind(raw);
  if (kind !== null && !raw.startsWith(prefix)) {
    throw new ApiError('id_type_mismatch', `${name}: expected an ID starting with ${prefix} but got a ${kind} ID ('${truncate(raw)}')`, { parameter: name });
  }
  throw invalid(name, `must be an ID: ${prefix} followed by ${ID_BODY_RULE} (got '${truncate(raw)}')`);
}

/**
 * A list's free-text `q`, trimmed; undefined when blank. A q of punctuation or symbols alone
 * matches nothing and would answer "0, exactly", which reads as "nothing like it exists": 400.
 */
export function searchTextOf(q: string | null | undefined): string | undefined {
  const text = q?.trim();
  if (!text) return undefined;
  if (foldText(text) === '') throw invalid('q', `must contain a letter or digit: punctuation and symbols alone match nothing (got '${truncate(text)}')`);
  return text;
}
