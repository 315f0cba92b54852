/**
 * Watch queries (spec: Watch preview, "Watch query rules"): checked and normalized the same way
 * on create, update, bulk create and preview.
 *
 * - `query` members: `q` and `score_threshold` (similarity), `filters` (every type; required for
 *   `filter` unless `saved_search_id` names a saved search to take them from), `trademark_ids` or
 *   `portfolio_id` (trademark). `query.match`, in any form, is 400.
 * - `filters` keys are the camelCase names of the trademark list filters (`niceClasses`,
 *   `offices`, `ownerId`, `filingDateGte`, …); an unknown key is 400 listing the allowed keys.
 *   Entity scopes (`entity_id`, `entity_group`) are not watch filters: they are expanded against
 *   the store at search time; watch the owners with `ownerId` instead.
 * - Values are checked like the query parameters of GET /v1/trademarks; list filters take an
 *   array or a single value; `offices` any casing, stored lowercase; `ownerId`, `attorneyId`,
 *   `firmId` take prefixed IDs (a wrong kind is `id_type_mismatch`).
 */
import { DEFAULT_SCORE_THRESHOLD } from '../../domain/similarity';
import { TRADEMARK_DATE_FIELDS } from '../../domain/contract';
import { invalid } from '../../domain/errors';
import type { IdPrefix } from '../../domain/ids';
import {
  CHALLENGE_STATES,
  FILING_ROUTES,
  MARK_FEATURE_TYPES,
  MARK_LEGAL_CATEGORIES,
  RIGHT_KINDS,
  SCOPE_KINDS,
  STATUS_PRIMARIES,
  STATUS_REASONS,
  STATUS_STAGES,
  WATCH_TYPES,
  type WatchQuery,
  type WatchType,
} from '../../domain/records';
import { JURISDICTION_CODES, OFFICE_CODES } from '../../domain/offices';
import { COUNTRY_CODE_PATTERN, isIsoDate, parseId, truncate, VIENNA_CODE_PATTERN } from '../../domain/validation';
import type { SearchFilter } from '../../datasources/ports';
import { toSearchFilters, type TrademarkFilterInput } from '../trademarks/filter';

/** Characters of `query.q`. */
export const MAX_WATCH_Q_LENGTH = 200;
/** Marks one trademark watch names directly (larger sets: a portfolio). */
export const MAX_WATCH_TRADEMARK_IDS = 1000;
const MAX_FILTER_VALUES = 100;

/**
 * A closed list of values (`values`; `caseInsensitive`: any casing is read as the list's own), or
 * a `pattern` with the rule an error states; `caseFold` is the casing stored.
 */
interface StringRule {
  values?: readonly string[];
  caseInsensitive?: boolean;
  pattern?: RegExp;
  patternRule?: string;
  caseFold?: 'lower' | 'upper';
}

type FilterKind =
  ({ type: 'strings'; prefix?: IdPrefix } & StringRule) | { type: 'classes' } | ({ type: 'string' } & StringRule) | { type: 'boolean' } | { type: 'date' };

const snakeToCamel = (name: string): string => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** camelCase filter key → its trademark list parameter and its rule. */
const FILTER_KEYS: ReadonlyMap<string, { param: string; kind: FilterKind }> = new Map(
  (
    [
      ['status_primary', { type: 'strings', values: STATUS_PRIMARIES }],
      ['status_stage', { type: 'strings', values: STATUS_STAGES }],
      ['status_reason', { type: 'strings', values: STATUS_REASONS }],
      ['challenge_states', { type: 'strings', values: CHALLENGE_STATES }],
      ['mark_feature_type', { type: 'strings', values: MARK_FEATURE_TYPES }],
      ['mark_legal_category', { type: 'strings', values: MARK_LEGAL_CATEGORIES }],
      ['filing_route', { type: 'strings', values: FILING_ROUTES }],
      ['scope_kind', { type: 'strings', values: SCOPE_KINDS }],
      // The trademark list's rules for the same parameters (rest/routes/trademark-params.ts): a
      // code that names no office or jurisdiction would make a watch that can never alert.
      ['jurisdictions', { type: 'strings', values: JURISDICTION_CODES, caseInsensitive: true }],
      ['offices', { type: 'strings', values: OFFICE_CODES, caseInsensitive: true, caseFold: 'lower' }],
      ['owner_country', { type: 'strings', pattern: COUNTRY_CODE_PATTERN, patternRule: 'must be an ISO 3166-1 alpha-2 country code', caseFold: 'upper' }],
      ['nice_classes', { type: 'classes' }],
      ['vienna_codes', { type: 'strings', pattern: VIENNA_CODE_PATTERN, patternRule: 'must be a Vienna code written CC, CC.DD or CC.DD.SS' }],
      ['owner_id', { type: 'strings', prefix: 'own_' }],
      ['attorney_id', { type: 'strings', prefix: 'att_' }],
      ['firm_id', { type: 'strings', prefix: 'firm_' }],
      ['right_kind', { type: 'string', values: RIGHT_KINDS }],
      ['application_number', { type: 'string' }],
      ['registration_number', { type: 'string' }],
      ['ir_number', { type: 'string' }],
      ['office', { type: 'string', values: OFFICE_CODES, caseInsensitive: true }],
      ['owner_name', { type: 'string' }],
      ['owner_ticker', { type: 'string' }],
      ['owner_lei', { type: 'string' }],
      ['owner_publicly_traded', { type: 'boolean' }],
      ['owner_has_lei', { type: 'boolean' }],
      ['has_media', { type: 'boolean' }],
      ['has_proceedings', { type: 'boolean' }],
      ['is_madrid', { type: 'boolean' }],
      ['is_retracted', { type: 'boolean' }],
      ['is_series_mark', { type: 'boolean' }],
      ...TRADEMARK_DATE_FIELDS.flatMap((field) => (['gt', 'gte', 'lt', 'lte'] as const).map((op) => [`${field}_${op}`, { type: 'date' }] as const)),
    ] as ReadonlyArray<readonly [string, FilterKind]>
  ).map(([param, kind]) => [snakeToCamel(param), { param, kind }]),
);

/** The allowed `query.filters` keys, as error messages list them. */
export const WATCH_FILTER_KEYS: readonly string[] = [...FILTER_KEYS.keys()];

const QUERY_MEMBERS = ['q', 'score_threshold', 'filters', 'trademark_ids', 'portfolio_id', 'saved_search_id'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function checkString(name: string, rule: StringRule, value: string): string {
  let checked = value;
  if (rule.values) {
    const listed = rule.caseInsensitive ? rule.values.find((v) => v.toUpperCase() === value.toUpperCase()) : rule.values.find((v) => v === value);
    if (listed === undefined) throw invalid(name, `must be one of ${rule.values.join(', ')} (got '${truncate(value)}')`);
    checked = listed;
  }
  if (rule.pattern && !rule.pattern.test(value)) throw invalid(name, `${rule.patternRule ?? `must match ${rule.pattern.source}`} (got '${truncate(value)}')`);
  return rule.caseFold === 'lower' ? checked.toLowerCase() : rule.caseFold === 'upper' ? checked.toUpperCase() : checked;
}

function checkFilterValue(name: string, kind: FilterKind, raw: unknown): unknown {
  switch (kind.type) {
    case 'strings':
    case 'classes': {
      const values = Array.isArray(raw) ? raw : [raw];
      if (values.length === 0 || values.length > MAX_FILTER_VALUES) throw invalid(name, `must be a value or a list of 1 to ${MAX_FILTER_VALUES} values`);
      return values.map((value, i) => {
        const item = Array.isArray(raw) ? `${name}[${i}]` : name;
        if (kind.type === 'classes') {
          if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 45)
            throw invalid(item, `must be a Nice class from 1 to 45 (got ${truncate(JSON.stringify(value))})`);
          return value;
        }
        if (typeof value !== 'string' || value.length === 0 || value.length > 200) throw invalid(item, 'must be a string of 1 to 200 characters');
        if (kind.prefix) return parseId(item, value, kind.prefix);
        return checkString(item, kind, value);
      });
    }
    case 'string':
      if (typeof raw !== 'string' || raw.length === 0 || raw.length > 200) throw invalid(name, 'must be a string of 1 to 200 characters');
      return checkString(name, kind, raw);
    case 'boolean':
      if (typeof raw !== 'boolean') throw invalid(name, 'must be true or false');
      return raw;
    case 'date':
      if (typeof raw !== 'string' || !isIsoDate(raw)) throw invalid(name, `must be a date YYYY-MM-DD (got ${truncate(JSON.stringify(raw))})`);
      return raw;
  }
}

function checkFilters(raw: unknown, name = 'query.filters'): Record<string, unknown> {
  if (!isObject(raw)) throw invalid(name, 'must be an object of filters');
  const filters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const entry = FILTER_KEYS.get(key);
    if (!entry) throw invalid(`${name}.${truncate(key)}`, `is not a watch filter; allowed keys: ${WATCH_FILTER_KEYS.join(', ')}`);
    filters[key] = checkFilterValue(`${name}.${key}`, entry.kind, value);
  }
  return filters;
}

/** Stored filters → the trademark list filter input (offices back to the index's uppercase). */
export function watchFilterInput(filters: Readonly<Record<string, unknown>> | undefined): TrademarkFilterInput {
  const input: TrademarkFilterInput = {};
  for (const [key, value] of Object.entries(filters ?? {})) {
    const entry = FILTER_KEYS.get(key);
    if (!entry) continue;
    input[entry.param] = (key === 'offices' ? (value as string[]).map((office) => office.toUpperCase()) : value) as TrademarkFilterInput[string];
  }
  return input;
}

export function checkWatchType(raw: unknown, name = 'watch_type'): WatchType {
  if (typeof raw !== 'string' || !(WATCH_TYPES as readonly string[]).includes(raw)) throw invalid(name, `must be one of ${WATCH_TYPES.join(', ')}`);
  return raw as WatchType;
}

/**
 * Checks `query` for a watch of `type` and returns it normalized (defaults filled, offices
 * lowercase, IDs checked). `name` prefixes parameter names (`items[3].query` in bulk).
 */
export function checkWatchQuery(type: WatchType, raw: unknown, name = 'query'): WatchQuery {
  if (!isObject(raw)) throw invalid(name, 'must be an object');
  if ('match' in raw) throw invalid(`${name}.match`, `is not supported; use ${name}.q with watch_type similarity, or ${name}.filters`);
  for (const key of Object.keys(raw)) {
    if (!(QUERY_MEMBERS as readonly string[]).includes(key))
      throw invalid(`${name}.${truncate(key)}`, `is not a query member; allowed: ${QUERY_MEMBERS.join(', ')}`);
  }
  const query: WatchQuery = {};
  if (raw.filters !== undefined) query.filters = checkFilters(raw.filters, `${name}.filters`);
  if (type === 'similarity') {
    if (typeof raw.q !== 'string' || raw.q.trim().length === 0 || raw.q.length > MAX_WATCH_Q_LENGTH) {
      throw invalid(`${name}.q`, `is required for similarity watches: the mark to protect, 1 to ${MAX_WATCH_Q_LENGTH} characters`);
    }
    query.q = raw.q.trim();
    const threshold = raw.score_threshold ?? DEFAULT_SCORE_THRESHOLD;
    if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw invalid(`${name}.score_threshold`, 'must be a number from 0 to 1');
    query.score_threshold = threshold;
  } else {
    for (const member of ['q', 'score_threshold'] as const) {
      if (raw[member] !== undefined) throw invalid(`${name}.${member}`, 'applies only to watch_type similarity');
    }
  }
  if (raw.saved_search_id !== undefined) {
    if (type !== 'filter') throw invalid(`${name}.saved_search_id`, 'applies only to watch_type filter');
    if (raw.filters !== undefined) throw invalid(`${name}.saved_search_id`, `takes the place of ${name}.filters: send one of the two`);
    if (typeof raw.saved_search_id !== 'string') throw invalid(`${name}.saved_search_id`, 'must be a saved search ID (ss_...)');
    query.saved_search_id = parseId(`${name}.saved_search_id`, raw.saved_search_id, 'ss_');
  }
  if (type === 'filter' && Object.keys(query.filters ?? {}).length === 0 && query.saved_search_id === undefined)
    throw invalid(`${name}.filters`, `is required for filter watches: at least one filter (or ${name}.saved_search_id)`);
  if (type === 'trademark') {
    const hasIds = raw.trademark_ids !== undefined;
    const hasPortfolio = raw.portfolio_id !== undefined;
    if (hasIds === hasPortfolio) throw invalid(`${name}.trademark_ids`, `trademark watches need exactly one of ${name}.trademark_ids and ${name}.portfolio_id`);
    if (hasIds) {
      const ids = raw.trademark_ids;
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_WATCH_TRADEMARK_IDS) {
        throw invalid(`${name}.trademark_ids`, `must be a list of 1 to ${MAX_WATCH_TRADEMARK_IDS} trademark IDs`);
      }
      query.trademark_ids = [...new Set(ids.map((id, i) => parseId(`${name}.trademark_ids[${i}]`, typeof id === 'string' ? id : JSON.stringify(id), 'tm_')))];
    } else {
      if (typeof raw.portfolio_id !== 'string') throw invalid(`${name}.portfolio_id`, 'must be a portfolio ID (pf_...)');
      query.portfolio_id = parseId(`${name}.portfolio_id`, raw.portfolio_id, 'pf_');
    }
  } else {
    for (const member of ['trademark_ids', 'portfolio_id'] as const) {
      if (raw[member] !== undefined) throw invalid(`${name}.${member}`, 'applies only to watch_type trademark');
    }
  }
  return query;
}

/** A watch query's filters as SearchIndex filters (owner name as a text match, as the search does). */
export function watchSearchFilters(query: WatchQuery): SearchFilter[] {
  const { filters, ownerName } = toSearchFilters(watchFilterInput(query.filters));
  return ownerName === null ? filters : [...filters, { field: 'owner_names', op: 'match', text: ownerName }];
}

/** Members of a saved search's query besides the list filters. */
const SEARCH_CONTROLS = ['q', 'sort', 'include_total'] as const;
/** Entity scopes: search arguments (expanded against the store at search time), not watch filters. */
const ENTITY_SCOPES = ['entity_id', 'entity_group'] as const;

/**
 * A saved search's query (the query parameters of GET /v1/trademarks, snake_case, as an object):
 * the same value rules as watch filters, plus q, sort and include_total. REST has already parsed
 * it with the route's own parameter specs; this check guards the GraphQL door the same way.
 */
export function checkTrademarkListQuery(raw: unknown, name = 'query'): Record<string, unknown> {
  if (!isObject(raw)) throw invalid(name, 'must be an object of GET /v1/trademarks query parameters');
  const byParam = new Map([...FILTER_KEYS.values()].map((entry) => [entry.param, entry.kind]));
  const allowed = [...byParam.keys(), ...ENTITY_SCOPES, ...SEARCH_CONTROLS];
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const kind = byParam.get(key);
    // offices as GET /v1/trademarks reads them (uppercase), not as watches store them.
    if (kind)
      query[key] =
        key === 'offices'
          ? (checkFilterValue(`${name}.${key}`, kind, value) as string[]).map((office) => office.toUpperCase())
          : checkFilterValue(`${name}.${key}`, kind, value);
    else if (key === 'include_total') query[key] = checkFilterValue(`${name}.${key}`, { type: 'boolean' }, value);
    else if ((SEARCH_CONTROLS as readonly string[]).includes(key) || (ENTITY_SCOPES as readonly string[]).includes(key)) {
      query[key] = checkFilterValue(`${name}.${key}`, { type: 'string' }, value);
    } else throw invalid(`${name}.${truncate(key)}`, `is not a parameter of GET /v1/trademarks; allowed: ${allowed.join(', ')}`);
  }
  if (Object.keys(query).length === 0) throw invalid(name, 'must hold at least one filter or q');
  return query;
}

/**
 * The watch filters of a saved search's query, for a filter watch built on it: its list filters
 * under their camelCase keys, checked like any watch filters. A filter watch tests marks against
 * filters, so a saved search with `q` or an entity scope cannot back one (400 naming them); its
 * sort and include_total do not matter to a watch.
 */
export function savedSearchFilters(saved: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> {
  const unmatchable = Object.keys(saved).filter((key) => key === 'q' || (ENTITY_SCOPES as readonly string[]).includes(key));
  if (unmatchable.length > 0) {
    throw invalid(
      name,
      `the saved search uses ${unmatchable.join(', ')}, which a filter watch cannot test marks against (for a mark's text use a similarity watch with query.q; for an entity, filters.ownerId)`,
    );
  }
  const filters = Object.entries(saved).filter(([key]) => key !== 'sort' && key !== 'include_total');
  return checkFilters(Object.fromEntries(filters.map(([key, value]) => [snakeToCamel(key), value])), name);
}
