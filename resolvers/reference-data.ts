/**
 * Shipped reference data (data/*.json, sources in data/SOURCES.md), loaded once at module load:
 * Nice classes and terms, Vienna categories, event types. Offices are domain/offices.ts.
 */
import eventTypes from '../data/event_types.json';
import niceClasses from '../data/nice_classes.json';
import niceTerms from '../data/nice_terms.json';
import viennaCategories from '../data/vienna_categories.json';

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
