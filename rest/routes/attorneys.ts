/**
 * Route-table entries of the attorney endpoints.
 */
import { ATTORNEY_SORT_FIELDS, TRADEMARK_SORT_FIELDS } from '../../domain/contract';
import { fieldsParam, projectableRow } from '../fields-projection';
import type { RouteDef } from '../route';
import { attorneyClientSchema, attorneySchema } from '../schemas/parties';
import { trademarkSummarySchema } from '../schemas/trademarks';
import { countryCodeParam, idParam, nameQueryParam, partyRouteBase, scopedTrademarkParams, scopedTrademarkVariables, sortParam } from './party-params';
import { countedPageParams, cursorParam, includeTotalParam, limitParam } from './paging-params';
import { TRADEMARK_SEARCH_CONTROL_PARAMS } from './trademark-params';

const attorneyId = idParam('att_', 'Attorney');
const ALWAYS_KEPT = ['id', 'object'] as const;

const attorneyTrademarkControls = [
  ...TRADEMARK_SEARCH_CONTROL_PARAMS.filter((spec) => spec.name !== 'sort'),
  {
    name: 'sort',
    kind: { type: 'sort', fields: TRADEMARK_SORT_FIELDS },
    array: true,
    maxItems: TRADEMARK_SORT_FIELDS.length,
    description: `Comma list of ${TRADEMARK_SORT_FIELDS.join(', ')}, each optionally prefixed with - for descending; earlier keys first. Default -filing_date (relevance with q).`,
  },
  fieldsParam(trademarkSummarySchema, ALWAYS_KEPT),
] as const;

export const attorneyRoutes: readonly RouteDef[] = [
  {
    ...partyRouteBase,
    id: 'listAttorneys',
    contract: 'named-without-detail',
    mcpTool: 'list_attorneys',
    path: '/v1/attorneys',
    operation: 'ListAttorneys',
    summary: 'List attorneys',
    description: 'Attorney records by name (default), mark count or last update. Merged attorneys are left out.',
    tag: 'Attorneys',
    pool: 'search',
    pathParams: [],
    query: [
      nameQueryParam('attorney names'),
      countryCodeParam,
      { name: 'firm_id', kind: { type: 'id', prefix: 'firm_' }, description: 'Attorneys at this firm.' },
      sortParam(ATTORNEY_SORT_FIELDS, 'name'),
      includeTotalParam,
      limitParam(),
      cursorParam,
    ],
    envelope: 'list',
    response: attorneySchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...partyRouteBase,
    id: 'getAttorney',
    contract: 'named-without-detail',
    mcpTool: 'get_attorney',
    path: '/v1/attorneys/:id',
    operation: 'GetAttorney',
    summary: 'Retrieve an attorney',
    description: 'The attorney record with firm and mark count. A merged attorney answers 410 entity_merged with merged_into.',
    tag: 'Attorneys',
    pool: 'read',
    pathParams: [attorneyId],
    query: [],
    envelope: 'single',
    response: attorneySchema,
    errors: [400, 404, 410],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...partyRouteBase,
    id: 'listAttorneyTrademarks',
    mcpTool: 'list_attorney_trademarks',
    path: '/v1/attorneys/:id/trademarks',
    operation: 'ListAttorneyTrademarks',
    summary: "An attorney's trademarks",
    description:
      'Marks this attorney handles. The shared trademark list filters apply, with entity filters owner_id and firm_id; q searches within these marks. ' +
      'sort takes several comma-separated keys (default -filing_date). fields keeps only the named top-level fields of each row (id and object always); an unknown name is 400.',
    tag: 'Attorneys',
    pool: 'search',
    pathParams: [attorneyId],
    query: scopedTrademarkParams(['attorney_id', 'owner_name'], attorneyTrademarkControls),
    envelope: 'list',
    response: projectableRow(trademarkSummarySchema, ALWAYS_KEPT),
    fieldsProjection: { alwaysKept: ALWAYS_KEPT },
    errors: [400, 404, 410, 422],
    variables: (input) => {
      const sort = input.query.sort;
      return { ...scopedTrademarkVariables(input), sort: Array.isArray(sort) ? sort.join(',') : sort };
    },
  },
  {
    ...partyRouteBase,
    id: 'listAttorneyClients',
    mcpTool: 'list_attorney_clients',
    path: '/v1/attorneys/:id/clients',
    operation: 'ListAttorneyClients',
    summary: "An attorney's clients",
    description: 'Owners this attorney represents, by shared_trademark_count descending (owner ID ascending among equals).',
    tag: 'Attorneys',
    pool: 'search',
    pathParams: [attorneyId],
    query: countedPageParams,
    envelope: 'list',
    response: attorneyClientSchema,
    errors: [400, 404, 410],
    variables: ({ path, query }) => ({ id: path.id, ...query }),
  },
];
