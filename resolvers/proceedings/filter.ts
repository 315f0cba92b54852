/**
 * The filters of GET /v1/proceedings (spec: Proceedings), checked and turned into SearchIndex
 * filters. Cross-parameter rules live here so /graphql callers get the REST answers.
 */
import type { SearchFilter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import { PARTY_ROLES, PROCEEDING_STATUSES, PROCEEDING_TYPES } from '../../domain/records';
import { assertRangesOrdered, isIsoDate, parseId, searchTextOf } from '../../domain/validation';
import { officeByCode } from '../../domain/offices';

export interface ProceedingFilterInput {
  contested_class?: number | null;
  trademark_id?: string | null;
  proceeding_type?: string | null;
  status?: string | null;
  q?: string | null;
  party_owner_id?: string | null;
  party_role?: string | null;
  office_code?: string | null;
  filed_date_gte?: string | null;
  filed_date_lt?: string | null;
  decision_date_gte?: string | null;
  decision_date_lt?: string | null;
}

export const PROCEEDING_FILTER_NAMES = [
  'contested_class',
  'trademark_id',
  'proceeding_type',
  'status',
  'q',
  'party_owner_id',
  'party_role',
  'office_code',
  'filed_date_gte',
  'filed_date_lt',
  'decision_date_gte',
  'decision_date_lt',
] as const satisfies ReadonlyArray<keyof ProceedingFilterInput>;

export function hasAnyProceedingFilter(filter: ProceedingFilterInput): boolean {
  return PROCEEDING_FILTER_NAMES.some((name) => {
    const value = filter[name];
    return value !== null && value !== undefined && !(typeof value === 'string' && value.trim() === '');
  });
}

function oneOf(name: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value)) throw invalid(name, `must be one of ${allowed.join(', ')} (got '${value}')`);
  return value;
}

function dateRange(filter: ProceedingFilterInput, field: 'filed_date' | 'decision_date'): SearchFilter | null {
  const gte = filter[`${field}_gte`];
  const lt = filter[`${field}_lt`];
  for (const [name, value] of [
    [`${field}_gte`, gte],
    [`${field}_lt`, lt],
  ] as const) {
    if (value != null && !isIsoDate(value)) throw invalid(name, `must be a date written YYYY-MM-DD (got '${value}')`);
  }
  if (gte == null && lt == null) return null;
  return { field, op: 'range', ...(gte != null ? { gte } : {}), ...(lt != null ? { lt } : {}) };
}

/** Index filters for a checked filter set; `q` is returned apart (it is the text query). */
export function toProceedingSearch(filter: ProceedingFilterInput): { filters: SearchFilter[]; q: string | undefined } {
  assertRangesOrdered(filter as Record<string, unknown>, ['filed_date', 'decision_date']);
  const filters: SearchFilter[] = [];
  if (filter.contested_class != null) {
    if (!Number.isInteger(filter.contested_class) || filter.contested_class < 1 || filter.contested_class > 45) {
      throw invalid('contested_class', `must be a Nice class from 1 to 45 (got ${filter.contested_class})`);
    }
    filters.push({ field: 'contested_classes', op: 'eq', value: filter.contested_class });
  }
  if (filter.trademark_id != null) filters.push({ field: 'trademark_ids', op: 'eq', value: parseId('trademark_id', filter.trademark_id, 'tm_') });
  if (filter.proceeding_type != null)
    filters.push({ field: 'proceeding_type', op: 'eq', value: oneOf('proceeding_type', filter.proceeding_type, PROCEEDING_TYPES) });
  if (filter.status != null) filters.push({ field: 'status', op: 'eq', value: oneOf('status', filter.status, PROCEEDING_STATUSES) });
  const ownerId = filter.party_owner_id != null ? parseId('party_owner_id', filter.party_owner_id, 'own_') : null;
  const role = filter.party_role != null ? oneOf('party_role', filter.party_role, PARTY_ROLES) : null;
  // Both given: the same party must be that owner in that role.
  if (ownerId !== null && role !== null) filters.push({ field: 'party_owner_roles', op: 'eq', value: `${ownerId}:${role}` });
  else if (ownerId !== null) filters.push({ field: 'party_owner_ids', op: 'eq', value: ownerId });
  else if (role !== null) filters.push({ field: 'party_roles', op: 'eq', value: role });
  if (filter.office_code != null) {
    const office = officeByCode(filter.office_code);
    if (!office) throw invalid('office_code', `is not a known office code (got '${filter.office_code}'); GET /v1/offices lists them`);
    filters.push({ field: 'office_code', op: 'eq', value: office.office_code });
  }
  for (const range of [dateRange(filter, 'filed_date'), dateRange(filter, 'decision_date')]) if (range) filters.push(range);
  const q = searchTextOf(filter.q);
  return { filters, q };
}
