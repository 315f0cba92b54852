/**
 * The offices Marque knows (data/offices.json, sources in data/SOURCES.md) and the codes the
 * contract accepts for them: office codes (uppercase ST.3) and jurisdiction codes. Static data,
 * loaded once with the module; the REST parameter specs and the resolvers read the same lists.
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
  seat: string;
  languages: string[];
  /** Member states a regional office's registrations cover (EM, BX). */
  covers?: string[];
  notes?: string;
}

export const OFFICES: readonly OfficeRecord[] = offices as OfficeRecord[];
export const OFFICE_CODES: readonly string[] = OFFICES.map((o) => o.office_code);
export const JURISDICTION_CODES: readonly string[] = [...new Set(OFFICES.map((o) => o.jurisdiction_code))].sort();

const byCode = new Map(OFFICES.map((o) => [o.office_code, o]));

export function officeByCode(code: string): OfficeRecord | undefined {
  return byCode.get(code.toUpperCase());
}
