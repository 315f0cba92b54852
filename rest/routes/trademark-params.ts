/**
 * Parameters of trademark lists: the spec's shared filter set, plus the search controls. Used by
 * GET and POST /v1/trademarks and, later, the owner, firm and attorney trademark lists.
 */
import { TRADEMARK_DATE_FIELDS, TRADEMARK_SORT_FIELDS } from '../../domain/contract';
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
} from '../../domain/records';
import { JURISDICTION_CODES, OFFICE_CODES } from '../../domain/offices';
import { rangeParams, type ParamSpec, type ParsedParams } from '../params';
import { cursorParam, includeTotalParam, limitParam } from './paging-params';
import { COUNTRY_CODE_PATTERN, VIENNA_CODE_PATTERN } from '../../domain/validation';

const enumList = (name: string, values: readonly string[], description: string, caseInsensitive = false): ParamSpec => ({
  name,
  kind: { type: 'enum', values, caseInsensitive },
  array: true,
  group: 'filter',
  description,
});

const flag = (name: string, description: string): ParamSpec => ({ name, kind: { type: 'boolean' }, group: 'filter', description });

const NUMBER_PATTERN = {
  type: 'string',
  maxLength: 40,
  pattern: /^[A-Za-z0-9/.\- ]+$/,
  patternRule: 'may hold only letters, digits, spaces and / . -',
} as const;

const NUMBER_MATCHING =
  'Matched as the office writes it or without its letter case, spaces, separators (/ . -) and leading zeros: 146682 finds the USPTO registration 0146682.';

export const TRADEMARK_FILTER_PARAMS: readonly ParamSpec[] = [
  enumList('status_primary', STATUS_PRIMARIES, 'Primary status: active, pending, inactive, unknown.'),
  enumList('status_stage', STATUS_STAGES, 'Lifecycle stage.'),
  enumList('status_reason', STATUS_REASONS, 'Reason for the current stage.'),
  enumList('challenge_states', CHALLENGE_STATES, 'Marks under any of these challenges.'),
  enumList('mark_feature_type', MARK_FEATURE_TYPES, 'Kind of sign (word, figurative, ...).'),
  enumList('mark_legal_category', MARK_LEGAL_CATEGORIES, 'Individual, collective or certification mark.'),
  {
    name: 'right_kind',
    kind: { type: 'enum', values: RIGHT_KINDS },
    group: 'filter',
    description: 'Goods (trademark), services (service_mark) or both; a single value.',
  },
  enumList('filing_route', FILING_ROUTES, 'national, regional or madrid.'),
  enumList('scope_kind', SCOPE_KINDS, 'Territorial scope of the right.'),
  { name: 'application_number', kind: NUMBER_PATTERN, group: 'filter', description: `Office application number; requires office. ${NUMBER_MATCHING}` },
  { name: 'registration_number', kind: NUMBER_PATTERN, group: 'filter', description: `Registration number; requires office. ${NUMBER_MATCHING}` },
  { name: 'ir_number', kind: NUMBER_PATTERN, group: 'filter', description: 'Madrid international registration number.' },
  {
    name: 'office',
    kind: { type: 'enum', values: OFFICE_CODES, caseInsensitive: true },
    group: 'filter',
    description: 'One office (uppercase ST.3 code; legacy lowercase accepted).',
  },
  enumList('jurisdictions', JURISDICTION_CODES, 'Jurisdiction codes (US, EU, WIPO, ...).', true),
  enumList('offices', OFFICE_CODES, 'Office codes (uppercase ST.3; legacy lowercase accepted).', true),
  {
    name: 'owner_country',
    kind: { type: 'string', maxLength: 2, pattern: COUNTRY_CODE_PATTERN, patternRule: 'must be ISO 3166-1 alpha-2 codes', uppercase: true },
    array: true,
    group: 'filter',
    description: "Owner's country (ISO 3166-1 alpha-2).",
  },
  { name: 'nice_classes', kind: { type: 'integer', min: 1, max: 45 }, array: true, maxItems: 45, group: 'filter', description: 'Nice classes 1 to 45.' },
  {
    name: 'vienna_codes',
    kind: { type: 'string', maxLength: 8, pattern: VIENNA_CODE_PATTERN, patternRule: 'must be Vienna codes written CC, CC.DD or CC.DD.SS' },
    array: true,
    group: 'filter',
    description: 'Vienna classification codes; a category (01) or division (01.05) also matches the marks coded within it.',
  },
  ...TRADEMARK_DATE_FIELDS.flatMap((field) =>
    field === 'updated_at'
      ? rangeParams(field, 'timestamp', 'Last updated')
      : rangeParams(
          field,
          'date',
          field.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
        ),
  ),
  { name: 'owner_name', kind: { type: 'string', maxLength: 200 }, group: 'filter', description: 'Owner name, fuzzy.' },
  { name: 'owner_id', kind: { type: 'id', prefix: 'own_' }, array: true, maxItems: 100, group: 'filter', description: 'Owner IDs (own_...).' },
  { name: 'attorney_id', kind: { type: 'id', prefix: 'att_' }, array: true, maxItems: 100, group: 'filter', description: 'Attorney IDs (att_...).' },
  { name: 'firm_id', kind: { type: 'id', prefix: 'firm_' }, array: true, maxItems: 100, group: 'filter', description: 'Firm IDs (firm_...).' },
  {
    name: 'entity_id',
    kind: { type: 'id', prefix: 'ent_' },
    group: 'filter',
    description: 'Marks whose owners belong to this resolved entity (ent_...). More than 10,000 member owners: 422 entity_too_large (member_owners_too_large).',
  },
  {
    name: 'entity_group',
    kind: { type: 'id', prefix: 'ent_' },
    group: 'filter',
    description:
      "Marks of the entity's whole corporate family (ent_...), walking owner parent/child relationships. Too many related entities or too deep: 422 entity_too_large (family_graph_too_large); too many member owners: member_owners_too_large.",
  },
  flag('owner_publicly_traded', 'true: a confirmed active securities listing; false: no confirmed match (not confirmed private).'),
  flag('owner_has_lei', 'true: a confirmed legal entity identifier; false: no confirmed match.'),
  { name: 'owner_ticker', kind: { type: 'string', maxLength: 12, uppercase: true }, group: 'filter', description: 'Exact ticker, uppercased server-side.' },
  { name: 'owner_lei', kind: { type: 'string', maxLength: 20, uppercase: true }, group: 'filter', description: 'Exact LEI, uppercased server-side.' },
  flag('has_media', 'Marks with stored images or other media.'),
  flag('has_proceedings', 'Marks involved in at least one proceeding.'),
  flag('is_madrid', 'Marks of a Madrid international registration family.'),
  flag('is_retracted', 'Records retracted by the office.'),
  flag('is_series_mark', 'Series marks.'),
];

export const TRADEMARK_SEARCH_CONTROL_PARAMS: readonly ParamSpec[] = [
  {
    name: 'q',
    kind: { type: 'string', maxLength: 500 },
    description:
      'Text query on mark text, owner names and goods/services; without sort, results rank by relevance, filing date breaking ties, and the marks whose whole text is the query (case, accents and punctuation aside: for H&M, the marks H&M and H & M) come first among those found. Every word is required, as written but for case, accents and the Latin letters without an accent folded to ASCII (ø→o, ł→l, æ→ae, ß→ss: "orsted" finds ØRSTED; other scripts are not transliterated): "coca cola" finds COCA-COLA, "cocacola" does not, nor does a one-letter variant; for look-alikes and other spellings use POST /v1/watches/preview with watch_type similarity (a clearance check, nothing created).',
  },
  {
    name: 'sort',
    kind: { type: 'sort', fields: TRADEMARK_SORT_FIELDS },
    description: `One of ${TRADEMARK_SORT_FIELDS.join(', ')}; prefix - for descending. Default: relevance with q, otherwise the index's internal order. An explicit sort replaces relevance: marks tied on its keys follow in ID order.`,
  },
  includeTotalParam,
  {
    name: 'include',
    kind: { type: 'enum', values: ['full_goods_services'] },
    array: true,
    description: 'full_goods_services: return classifications[].goods_services_text in full.',
  },
  limitParam(),
  cursorParam,
];

/** GraphQL variables of a trademark list from parsed parameters (query string or body). */
export function trademarkListVariables(params: ParsedParams): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const spec of TRADEMARK_FILTER_PARAMS) {
    if (params[spec.name] !== undefined) filter[spec.name] = params[spec.name];
  }
  const include = params.include;
  return {
    filter,
    q: params.q,
    sort: params.sort,
    limit: params.limit,
    cursor: params.cursor,
    include_total: params.include_total,
    full_goods_services: Array.isArray(include) && include.includes('full_goods_services'),
  };
}
