/**
 * Route-table entries of the trademark sub-resources /history, /related and /coverage (read pool).
 */
import { HISTORY_SORTS } from '../../domain/contract';
import { EVENT_CATEGORIES } from '../../resolvers/reference/queries';
import { MAX_RELATED } from '../../resolvers/trademarks/related';
import type { RouteDef } from '../route';
import { relatedTrademarkSchema, trademarkCoverageSchema, trademarkEventSchema } from '../schemas/trademark-sub-resources';
import { countedPageParams } from './paging-params';
import { trademarkReadBase } from './trademarks';

export const trademarkSubResourceRoutes: readonly RouteDef[] = [
  {
    ...trademarkReadBase,
    id: 'listTrademarkHistory',
    contract: 'named-without-detail',
    mcpTool: 'list_trademark_history',
    path: '/v1/trademarks/:id/history',
    operation: 'ListTrademarkHistory',
    summary: 'Prosecution history of a trademark',
    description:
      'Office events of one mark (filing, examination, publication, opposition, registration, renewal, …), each with its event type category and meaning from GET /v1/event-types. Newest first by default.',
    query: [
      {
        name: 'event_type',
        kind: { type: 'string', maxLength: 64, pattern: /^[a-z_0-9]+$/, patternRule: 'must be an event type code' },
        description: 'Only events of this type.',
      },
      { name: 'category', kind: { type: 'enum', values: EVENT_CATEGORIES }, description: 'Only events whose type has this category.' },
      { name: 'sort', kind: { type: 'enum', values: HISTORY_SORTS }, description: '-event_date (default, newest first) or event_date.' },
      ...countedPageParams,
    ],
    envelope: 'list',
    response: trademarkEventSchema,
    variables: ({ path, query }) => ({ id: path.id, ...query }),
  },
  {
    ...trademarkReadBase,
    id: 'listRelatedTrademarks',
    contract: 'named-without-detail',
    mcpTool: 'list_related_trademarks',
    path: '/v1/trademarks/:id/related',
    operation: 'ListRelatedTrademarks',
    summary: 'Related trademarks',
    description:
      `Marks of the same family, each row saying why (relations): madrid_family (same international registration number: the IR and its designations), series (same series_id), ` +
      `same_owner_similar_text (an owner in common and a similar mark text: folded edit similarity ≥ 0.7, or every word of the shorter text is a word of the longer). ` +
      `At most ${MAX_RELATED} rows in one page (has_more false): family first, then series, then similar marks by similarity.`,
    query: [],
    envelope: 'list',
    response: relatedTrademarkSchema,
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...trademarkReadBase,
    id: 'getTrademarkCoverage',
    contract: 'named-without-detail',
    mcpTool: 'get_trademark_coverage',
    path: '/v1/trademarks/:id/coverage',
    operation: 'GetTrademarkCoverage',
    summary: 'Where a trademark is protected',
    description:
      'Jurisdictions where the mark is protected. A Madrid family lists every designated jurisdiction with its own status and dates (the international registration itself is reported apart); ' +
      'a national mark its own jurisdiction; a regional mark every member state its office covers (EM: the EU member states; BX: Belgium, Luxembourg, the Netherlands).',
    query: [],
    envelope: 'single',
    response: trademarkCoverageSchema,
    variables: ({ path }) => ({ id: path.id }),
  },
];
