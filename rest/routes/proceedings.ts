/**
 * Route-table entries of the proceedings area (spec: Proceedings).
 */
import { PROCEEDING_SORTS } from '../../domain/contract';
import { PARTY_ROLES, PROCEEDING_STATUSES, PROCEEDING_TYPES } from '../../domain/records';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { proceedingDetailSchema, proceedingSummarySchema } from '../schemas/proceedings';
import { includeTotalParam, pageParams } from './paging-params';
import { trademarkReadBase } from './trademarks';

const listControlParams: ParamSpec[] = [
  {
    name: 'sort',
    kind: { type: 'enum', values: PROCEEDING_SORTS },
    description: '-filed_date (default), filed_date, -decided_date or decided_date; undecided proceedings sort last.',
  },
  ...pageParams,
  includeTotalParam,
];

const filterParams: ParamSpec[] = [
  { name: 'contested_class', kind: { type: 'integer', min: 1, max: 45 }, description: 'Nice class 1 to 45 in dispute.' },
  { name: 'trademark_id', kind: { type: 'id', prefix: 'tm_' }, description: 'A contested mark (tm_...).' },
  { name: 'proceeding_type', kind: { type: 'enum', values: PROCEEDING_TYPES }, description: PROCEEDING_TYPES.join(', ') },
  { name: 'status', kind: { type: 'enum', values: PROCEEDING_STATUSES }, description: PROCEEDING_STATUSES.join(', ') },
  {
    name: 'q',
    kind: { type: 'string', maxLength: 200 },
    description:
      'Party name search (opponents, petitioners, respondents, …): every word of 3+ letters must occur in one party name, with case, accents and letters such as ø, ł, æ, ß folded to ASCII.',
  },
  { name: 'party_owner_id', kind: { type: 'id', prefix: 'own_' }, description: 'A party (own_...). With party_role, that owner must hold that role.' },
  { name: 'party_role', kind: { type: 'enum', values: PARTY_ROLES }, description: `${PARTY_ROLES.join(', ')}. With party_owner_id, the role of that owner.` },
  {
    name: 'office_code',
    kind: { type: 'string', maxLength: 4, pattern: /^[A-Za-z]{2,4}$/, patternRule: 'must be an office code of 2 to 4 letters' },
    description: 'Office code, any case (lowercase legacy codes are canonical here); unknown codes are 400.',
  },
  { name: 'filed_date_gte', kind: { type: 'date' }, description: 'Filed on or after, YYYY-MM-DD.' },
  { name: 'filed_date_lt', kind: { type: 'date' }, description: 'Filed before, YYYY-MM-DD; must be after filed_date_gte.' },
  { name: 'decision_date_gte', kind: { type: 'date' }, description: 'Decided on or after, YYYY-MM-DD.' },
  { name: 'decision_date_lt', kind: { type: 'date' }, description: 'Decided before, YYYY-MM-DD; must be after decision_date_gte.' },
];

export const proceedingRoutes: readonly RouteDef[] = [
  {
    kind: 'operation',
    id: 'listProceedings',
    mcpTool: 'list_proceedings',
    method: 'GET',
    path: '/v1/proceedings',
    operation: 'ListProceedings',
    summary: 'List proceedings',
    description:
      'Oppositions, cancellations, appeals and other proceedings. At least one filter is required (400 otherwise); filters combine with AND. ' +
      'Lower date bounds must be before upper bounds. Rows are the proceeding summary plus office_code and trademark_ids. Eventually consistent (search index).',
    tag: 'Proceedings',
    scope: 'trademarks:read',
    pool: 'search',
    tier: 'reads',
    idempotency: 'none',
    pathParams: [],
    query: [...filterParams, ...listControlParams],
    successStatus: 200,
    envelope: 'list',
    response: proceedingSummarySchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    kind: 'operation',
    id: 'getProceeding',
    contract: 'named-without-detail',
    mcpTool: 'get_proceeding',
    method: 'GET',
    path: '/v1/proceedings/:id',
    operation: 'GetProceeding',
    summary: 'Retrieve a proceeding',
    description:
      'The full proceeding record: the summary fields, the deciding office, duration_days, the contested marks summarized, created_at and updated_at. Read from the source of truth.',
    tag: 'Proceedings',
    scope: 'trademarks:read',
    pool: 'read',
    tier: 'reads',
    idempotency: 'none',
    pathParams: [{ name: 'id', kind: { type: 'id', prefix: 'prc_' }, required: true, description: 'Proceeding ID (prc_...).' }],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: proceedingDetailSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...trademarkReadBase,
    id: 'listTrademarkProceedings',
    contract: 'named-without-detail',
    mcpTool: 'list_trademark_proceedings',
    path: '/v1/trademarks/:id/proceedings',
    operation: 'ListTrademarkProceedings',
    summary: 'Proceedings of a trademark',
    description: 'Proceedings naming this mark, newest filing first by default. 404 when the mark does not exist.',
    query: listControlParams,
    envelope: 'list',
    response: proceedingSummarySchema,
    variables: ({ path, query }) => ({ id: path.id, ...query }),
  },
];
