/**
 * Route-table entries of the resolved-entity endpoints.
 */
import { ENTITY_SORT_FIELDS, MEMBER_OWNER_LIMIT } from '../../domain/contract';
import type { RouteDef } from '../route';
import { entityDetailSchema, entitySchema } from '../schemas/parties';
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
import { cursorParam, includeTotalParam, limitParam } from './paging-params';

const entityId = idParam('ent_', 'Resolved entity');

export const entityRoutes: readonly RouteDef[] = [
  {
    ...partyRouteBase,
    id: 'listEntities',
    contract: 'named-without-detail',
    mcpTool: 'list_entities',
    path: '/v1/entities',
    operation: 'ListEntities',
    summary: 'List resolved entities',
    description:
      'Resolved entities (the real-world owners behind owner records) by name (default), member_count, trademark_count or updated_at. Merged entities are left out.',
    tag: 'Entities',
    pool: 'search',
    pathParams: [],
    query: [nameQueryParam('entity names'), countryCodeParam, sortParam(ENTITY_SORT_FIELDS, 'name'), includeTotalParam, limitParam(), cursorParam],
    envelope: 'list',
    response: entitySchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...partyRouteBase,
    id: 'getEntity',
    contract: 'unnamed',
    mcpTool: 'get_entity',
    path: '/v1/entities/:id',
    operation: 'GetEntity',
    summary: 'Retrieve a resolved entity',
    description: 'The entity with its member owners and counts. A merged entity answers 410 entity_merged with merged_into.',
    tag: 'Entities',
    pool: 'read',
    pathParams: [entityId],
    query: [],
    envelope: 'single',
    response: entityDetailSchema,
    errors: [400, 404, 410],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...scopedTrademarksRouteBase,
    id: 'listEntityTrademarks',
    contract: 'named-without-detail',
    mcpTool: 'list_entity_trademarks',
    path: '/v1/entities/:id/trademarks',
    operation: 'ListEntityTrademarks',
    summary: "A resolved entity's trademarks",
    description: `Marks naming any member owner of the entity. More than ${MEMBER_OWNER_LIMIT.toLocaleString('en-US')} member owners: 422 entity_too_large (reason member_owners_too_large, member_count, member_count_limit). ${SCOPED_TRADEMARKS_DESCRIPTION}`,
    tag: 'Entities',
    pathParams: [entityId],
    query: scopedTrademarkParams(['entity_id', 'entity_group']),
  },
];
