/**
 * The trademark list filters (spec: "Trademark list filters") → SearchIndex filters. Rules that
 * span several parameters (ranges ordered, identifiers need `office`) are checked here, so REST,
 * and GraphQL callers get the same answers.
 */
import { TRADEMARK_DATE_FIELDS } from '../../domain/contract';
import type { SearchFilter } from '../../datasources/ports';
import { ApiError, invalid } from '../../domain/errors';
import { numberMatchKey } from '../../domain/ids';
import { assertRangesOrdered } from '../../domain/validation';

export interface TrademarkFilterInput {
  status_primary?: string[];
  status_stage?: string[];
  status_reason?: string[];
  challenge_states?: string[];
  mark_feature_type?: string[];
  mark_legal_category?: string[];
  right_kind?: string;
  filing_route?: string[];
  scope_kind?: string[];
  application_number?: string;
  registration_number?: string;
  ir_number?: string;
  office?: string;
  jurisdictions?: string[];
  offices?: string[];
  owner_country?: string[];
  nice_classes?: number[];
  vienna_codes?: string[];
  owner_name?: string;
  owner_id?: string[];
  attorney_id?: string[];
  firm_id?: string[];
  /** Expanded by resolvers/trademarks/entity-scope.ts (async: caps and the family walk need the store). */
  entity_id?: string;
  entity_group?: string;
  owner_publicly_traded?: boolean;
  owner_has_lei?: boolean;
  owner_ticker?: string;
  owner_lei?: string;
  has_media?: boolean;
  has_proceedings?: boolean;
  is_madrid?: boolean;
  is_retracted?: boolean;
  is_series_mark?: boolean;
  [rangeParam: string]: string | string[] | number[] | boolean | undefined;
}

/** List parameter → index field it filters with `in`. */
const IN_FILTERS: ReadonlyArray<[keyof TrademarkFilterInput, string]> = [
  ['status_primary', 'status_primary'],
  ['status_stage', 'status_stage'],
  ['status_reason', 'status_reason'],
  ['challenge_states', 'challenge_states'],
  ['mark_feature_type', 'mark_feature_type'],
  ['mark_legal_category', 'mark_legal_category'],
  ['filing_route', 'filing_route'],
  ['scope_kind', 'scope_kind'],
  ['jurisdictions', 'jurisdiction_code'],
  ['offices', 'office_code'],
  ['owner_country', 'owner_countries'],
  ['nice_classes', 'nice_classes'],
  ['vienna_codes', 'vienna_codes'],
  ['owner_id', 'owner_ids'],
  ['attorney_id', 'attorney_ids'],
  ['firm_id', 'firm_ids'],
];

/** Single-value parameter → index field it filters with `eq`. */
const EQ_FILTERS: ReadonlyArray<[keyof TrademarkFilterInput, string]> = [
  ['right_kind', 'right_kind'],
  ['ir_number', 'ir_number'],
  ['owner_ticker', 'owner_tickers'],
  ['owner_lei', 'owner_leis'],
  ['owner_publicly_traded', 'owner_publicly_traded'],
  ['owner_has_lei', 'owner_has_lei'],
  ['has_media', 'has_media'],
  ['has_proceedings', 'has_proceedings'],
  ['is_madrid', 'is_madrid'],
  ['is_retracted', 'is_retracted'],
  ['is_series_mark', 'is_series_mark'],
];

export function hasAnyFilter(filter: TrademarkFilterInput): boolean {
  return Object.values(filter).some((v) => v !== undefined && v !== null);
}

/**
 * Translates the filter input to index filters. `owner_name` is returned separately: it is a fuzzy
 * text match on owner names, not an exact filter.
 */
export function toSearchFilters(filter: TrademarkFilterInput): { filters: SearchFilter[]; ownerName: string | null } {
  assertRangesOrdered(filter, TRADEMARK_DATE_FIELDS);
  for (const param of ['application_number', 'registration_number'] as const) {
    if (filter[param] !== undefined && filter.office === undefined) {
      throw invalid(param, 'requires office (numbers are only unique within one office)');
    }
  }
  const filters: SearchFilter[] = [];
  for (const [param, field] of IN_FILTERS) {
    const values = filter[param];
    if (Array.isArray(values) && values.length > 0) filters.push({ field, op: 'in', values: values as Array<string | number> });
  }
  for (const [param, field] of EQ_FILTERS) {
    const value = filter[param];
    if (value !== undefined && value !== null) {
      if (typeof value !== 'string' && typeof value !== 'boolean') throw new ApiError('validation_error', `${String(param)}: must be a single value`);
      filters.push({ field, op: 'eq', value: field === 'owner_tickers' || field === 'owner_leis' ? (value as string).toUpperCase() : value });
    }
  }
  if (filter.office !== undefined) filters.push({ field: 'office_code', op: 'eq', value: filter.office.toUpperCase() });
  if (filter.application_number !== undefined) filters.push({ field: 'application_number_key', op: 'eq', value: numberMatchKey(filter.application_number) });
  if (filter.registration_number !== undefined) filters.push({ field: 'registration_number_key', op: 'eq', value: numberMatchKey(filter.registration_number) });
  for (const field of TRADEMARK_DATE_FIELDS) {
    const range: { gt?: string; gte?: string; lt?: string; lte?: string } = {};
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      const value = filter[`${field}_${op}`];
      if (typeof value === 'string') range[op] = value;
    }
    if (Object.keys(range).length > 0) filters.push({ field, op: 'range', ...range });
  }
  return { filters, ownerName: filter.owner_name ?? null };
}
