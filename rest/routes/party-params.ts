/**
 * Parameters and route defaults shared by the owner, attorney, firm and entity routes.
 */
import type { IdPrefix } from '../../domain/ids';
import type { ParamSpec, ParsedParams } from '../params';
import type { OperationRoute } from '../route';
import { trademarkSummarySchema } from '../schemas/trademarks';
import { TRADEMARK_FILTER_PARAMS, TRADEMARK_SEARCH_CONTROL_PARAMS, trademarkListVariables } from './trademark-params';
import { COUNTRY_CODE_PATTERN } from '../../domain/validation';

export const idParam = (prefix: IdPrefix, what: string): ParamSpec => ({
  name: 'id',
  kind: { type: 'id', prefix },
  required: true,
  description: `${what} ID (${prefix}...).`,
});

export const countryCodeParam: ParamSpec = {
  name: 'country_code',
  kind: { type: 'string', maxLength: 2, pattern: COUNTRY_CODE_PATTERN, patternRule: 'must be an ISO 3166-1 alpha-2 code', uppercase: true },
  description: 'ISO 3166-1 alpha-2 country code.',
};
export const nameQueryParam = (what: string): ParamSpec => ({
  name: 'q',
  kind: { type: 'string', maxLength: 200 },
  description: `Text matched against ${what} (terms of 3+ characters as substrings, shorter ones as word prefixes; case, accents and letters such as ø, ł, æ, ß folded to ASCII, so "orsted" finds Ørsted).`,
});
export const sortParam = (fields: readonly string[], defaultSort: string): ParamSpec => ({
  name: 'sort',
  kind: { type: 'sort', fields },
  description: `One of ${fields.join(', ')}; prefix - for descending. Default ${defaultSort}.`,
});

/** Members every party GET route shares. */
export const partyRouteBase = {
  kind: 'operation',
  method: 'GET',
  scope: 'trademarks:read',
  tier: 'reads',
  idempotency: 'none',
  successStatus: 200,
} as const satisfies Partial<OperationRoute>;

/**
 * The shared trademark filter set under a parent resource, minus the filters the parent fixes
 * (an owner's list takes no owner_id, …), plus the search controls.
 */
export function scopedTrademarkParams(excluded: readonly string[], controls: readonly ParamSpec[] = TRADEMARK_SEARCH_CONTROL_PARAMS): ParamSpec[] {
  return [...TRADEMARK_FILTER_PARAMS.filter((spec) => !excluded.includes(spec.name)), ...controls];
}

export const scopedTrademarkVariables = ({ path, query }: { path: ParsedParams; query: ParsedParams }): Record<string, unknown> => ({
  ...trademarkListVariables(query),
  id: path.id,
});

/** Members every "a party's trademarks" route shares (the trademark list under a parent). */
export const scopedTrademarksRouteBase = {
  ...partyRouteBase,
  pool: 'search',
  envelope: 'list',
  response: trademarkSummarySchema,
  errors: [400, 404, 410, 422],
  variables: scopedTrademarkVariables,
} as const satisfies Partial<OperationRoute>;

export const SCOPED_TRADEMARKS_DESCRIPTION =
  'The shared trademark list filters apply (arrays comma-separated, dates YYYY-MM-DD, ranges with _gte/_gt/_lte/_lt). Without sort or q the order is the index order; with q, relevance with filing date as tiebreaker.';
