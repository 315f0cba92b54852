/**
 * Shipped reference data (data/*.json, sources in data/SOURCES.md), loaded once at module load.
 */
import offices from '../data/offices.json';

export interface OfficeRecord {
  office_code: string;
  name: string;
  acronym: string;
  jurisdiction_code: string;
  jurisdiction_name: string;
  kind: string;
  time_zone: string;
  holiday_calendar: string | null;
  holiday_subdivision: string | null;
  madrid_member: boolean;
  legacy_code: string;
}

export const OFFICES: readonly OfficeRecord[] = offices as OfficeRecord[];
export const OFFICE_CODES: readonly string[] = OFFICES.map((o) => o.office_code);
export const JURISDICTION_CODES: readonly string[] = [...new Set(OFFICES.map((o) => o.jurisdiction_code))].sort();

const byCode = new Map(OFFICES.map((o) => [o.office_code, o]));

export function officeByCode(code: string): OfficeRecord | undefined {
  return byCode.get(code.toUpperCase());
}
