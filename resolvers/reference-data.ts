/**
 * Shipped reference data (data/*.json, sources in data/SOURCES.md), loaded once at module load.
 */
import eventTypes from '../data/event_types.json';
import niceClasses from '../data/nice_classes.json';
import niceTerms from '../data/nice_terms.json';
import offices from '../data/offices.json';
import viennaCategories from '../data/vienna_categories.json';

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

export interface NiceClassRecord {
  class: number;
  kind: 'goods' | 'services';
  /** NCL 12th edition heading (12-2025 wording). */
  heading: string;
  short: string;
  /** NCL 13-2026 heading (USPTO rendering). */
  heading_ncl13_2026: string;
}

export interface NiceTermRecord {
  term: string;
  class: number;
  basic_number: string;
}

export interface ViennaCategoryRecord {
  code: string;
  title: string;
  divisions: Array<{ code: string; title: string }>;
  /** Absent in the data for categories whose divisions are not listed. */
  divisions_verified?: boolean;
}

export interface EventTypeRecord {
  code: string;
  category: string;
  description: string;
  /** `code` is absent where only the TSDR wording was located. */
  uspto_tsdr: Array<{ code?: string; description: string }>;
  euipo_status: string[];
  provenance: string;
}

export const NICE_CLASSES: readonly NiceClassRecord[] = niceClasses as NiceClassRecord[];
export const NICE_TERMS: readonly NiceTermRecord[] = niceTerms as NiceTermRecord[];
export const VIENNA_CATEGORIES: readonly ViennaCategoryRecord[] = viennaCategories as ViennaCategoryRecord[];
export const EVENT_TYPES: readonly EventTypeRecord[] = eventTypes as EventTypeRecord[];

const eventTypeByCode = new Map(EVENT_TYPES.map((t) => [t.code, t]));

export function eventTypeOf(code: string): EventTypeRecord | undefined {
  return eventTypeByCode.get(code);
}
