/**
 * Route-table entries of the owner endpoints.
 */
import { OWNER_SORT_FIELDS } from '../../domain/contract';
import type { RouteDef } from '../route';
import { ownerDetailSchema, ownerRelatedSchema, ownerSummarySchema } from '../schemas/parties';
import {
  countryCodeParam,
  idParam,
  nameQueryParam,
  partyRouteBase,
  SCOPED_TRADEMARKS_DESCRIPTION,
  scopedTrademarkParams,
  scopedTrademarksRouteBase,
  sortParam,
} from './party-params';
import { countedPageParams, cursorParam, includeTotalParam, limitParam } from './paging-params';

const ownerId = idParam('own_', 'Owner');

export const ownerRoutes: readonly RouteDef[] = [
  {
    ...partyRouteBase,
    id: 'listOwners',
    contract: 'named-without-detail',
    mcpTool: 'list_owners',
    path: '/v1/owners',
    operation: 'ListOwners',
    summary: 'List owners',
    description: 'Owner records by name (default) or last update. Merged owners are left out.',
    tag: 'Owners',
    pool: 'search',
    pathParams: [],
    query: [nameQueryParam('owner names and aliases'), countryCodeParam, sortParam(OWNER_SORT_FIELDS, 'name'), includeTotalParam, limitParam(), cursorParam],
    envelope: 'list',
    response: ownerSummarySchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...partyRouteBase,
    id: 'getOwner',
    contract: 'named-without-detail',
    mcpTool: 'get_owner',
    path: '/v1/owners/:id',
    operation: 'GetOwner',
    summary: 'Retrieve an owner',
    description: 'Names, aliases, country, entity type, resolved entity, companies and mark counts. A merged owner answers 410 entity_merged with merged_into.',
    tag: 'Owners',
    pool: 'read',
    pathParams: [ownerId],
    query: [],
    envelope: 'single',
    response: ownerDetailSchema,
    errors: [400, 404, 410],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...scopedTrademarksRouteBase,
    id: 'listOwnerTrademarks',
    mcpTool: 'list_owner_trademarks',
    path: '/v1/owners/:id/trademarks',
    operation: 'ListOwnerTrademarks',
    summary: "An owner's trademarks",
    description: `Marks naming this owner. ${SCOPED_TRADEMARKS_DESCRIPTION} Entity filters: owner_name (fuzzy, among the owner names on this owner's marks), attorney_id, firm_id.`,
    tag: 'Owners',
    pathParams: [ownerId],
    query: scopedTrademarkParams(['owner_id']),
  },
  {
    ...partyRouteBase,
    id: 'listOwnerRelated',
    mcpTool: 'list_related_owners',
    path: '/v1/owners/:id/related',
    operation: 'ListOwnerRelated',
    summary: "An owner's corporate relatives",
    description:
      'Parents and children from the corporate hierarchy, in record order. direction=parent keeps rows whose related owner is a parent of this one; child the reverse; omit for both.',
    tag: 'Owners',
    pool: 'read',
    pathParams: [ownerId],
    query: [{ name: 'direction', kind: { type: 'enum', values: ['parent', 'child'] }, description: 'parent or child; omit for both.' }, ...countedPageParams],
    envelope: 'list',
    response: ownerRelatedSchema,
    errors: [400, 404, 410],
    variables: ({ path, query }) => ({ id: path.id, ...query }),
  },
];
