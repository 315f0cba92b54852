/**
 * Why one record of a bulk file cannot be loaded (an impossible date, a missing serial number),
 * and the office dates every mapping reads. A rejected record is reported with its key and reason
 * in the ingestion summary while the rest of the file loads.
 */
import { formatIsoDate, isOfficeYear, OFFICE_YEARS, parseIsoDate, type CivilDate } from '../../domain/dates';

export class RecordRejection extends Error {
  override readonly name = 'RecordRejection';
}

function checkYear(date: CivilDate, raw: string, field: string): void {
  if (!isOfficeYear(date.year)) throw new RecordRejection(`${field} '${raw}' is outside the years ${OFFICE_YEARS.first}-${OFFICE_YEARS.last}`);
}

/**
 * A `YYYYMMDD` office date as `YYYY-MM-DD`. Absent or empty, `00000000` and partial dates (month
 * or day `00`, as in `19870000`) are null; anything else that is not a calendar date (`20240231`,
 * `2024-1-5`) or falls outside OFFICE_YEARS (`99991231`) rejects the record, naming the field.
 */
export function officeDate(raw: string | null, field: string): string | null {
  if (raw === null || raw === '') return null;
  if (!/^\d{8}$/.test(raw)) throw new RecordRejection(`${field} '${raw}' is not a YYYYMMDD date`);
  if (raw.slice(4, 6) === '00' || raw.slice(6, 8) === '00') return null;
  const iso = `${raw.slice(0, 4)}-${raw.slice(4, 6)}-${raw.slice(6, 8)}`;
  const date = parseIsoDate(iso);
  if (date === null) throw new RecordRejection(`${field} '${raw}' is not a calendar date`);
  checkYear(date, raw, field);
  return formatIsoDate(date);
}

/**
 * An ST.96 date: `YYYY-MM-DD`, possibly followed by a zone offset (`1995-02-07-05:00`, `Z`) that
 * says where the office's day was, not a different day; the calendar date is kept as written.
 * Outside OFFICE_YEARS rejects the record, as for the USPTO dates.
 */
export function st96Date(raw: string | null, field: string): string | null {
  if (raw === null || raw === '') return null;
  const match = /^(\d{4}-\d{2}-\d{2})(Z|[+-]\d{2}:\d{2})?$/.exec(raw);
  const date = match === null ? null : parseIsoDate(match[1]!);
  if (match === null || date === null) throw new RecordRejection(`${field} '${raw}' is not a date`);
  checkYear(date, raw, field);
  return match[1]!;
}
