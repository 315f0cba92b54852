/**
 * Route-table entries of the firm endpoints.
 */
import { FIRM_INCLUDES, FIRM_PAGE_SIZE_MAX, FIRM_SORT_FIELDS, REMOVED_FIRM_INCLUDES } from '../../domain/contract';
import type { RouteDef } from '../route';
import { attorneySchema, firmDetailSchema, firmSummarySchema } from '../schemas/parties';
import {
  countryCodeParam,
  idParam,
  partyRouteBase,
  SCOPED_TRADEMARKS_DESCRIPTION,
  scopedTrademarkParams,
  scopedTrademarksRouteBase,
  sortParam,
} from './party-params';
import { cursorParam, includeTotalParam, limitParam } from './paging-params';

const firmId = idParam('firm_', 'Firm');
const count = (name: string, description: string) => ({ name, kind: { type: 'integer', min: 0, max: 1_000_000_000 }, description }) as const;

export const firmRoutes: readonly RouteDef[] = [
  {
    ...partyRouteBase,
    id: 'listFirms',
    mcpTool: 'list_firms',
    path: '/v1/firms',
    operation: 'ListFirms',
    summary: 'List law firms',
    description: 'Firm summaries with their counts. Merged firms are left out.',
    tag: 'Firms',
    pool: 'search',
    pathParams: [],
    query: [
      {
        name: 'q',
        kind: { type: 'string', maxLength: 200 },
        description:
          'Substring of the firm name (terms of 3+ characters; shorter terms match word prefixes), with case, accents and letters such as ø, ł, æ, ß folded to ASCII.',
      },
      countryCodeParam,
      count('min_attorneys', 'Firms with at least this many attorneys.'),
      count('min_filings', 'Firms with at least this trademark_count.'),
      sortParam(FIRM_SORT_FIELDS, '-trademark_count'),
      includeTotalParam,
      limitParam(FIRM_PAGE_SIZE_MAX),
      cursorParam,
    ],
    envelope: 'list',
    response: firmSummarySchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...partyRouteBase,
    id: 'getFirm',
    mcpTool: 'get_firm',
    path: '/v1/firms/:id',
    operation: 'GetFirm',
    summary: 'Retrieve a law firm',
    description: 'The firm record with counts. A merged firm answers 410 entity_merged with merged_into.',
    tag: 'Firms',
    pool: 'read',
    pathParams: [firmId],
    query: [
      {
        name: 'include',
        kind: { type: 'string', maxLength: 32, pattern: /^[a-z_]+$/, patternRule: `must be a comma list of ${FIRM_INCLUDES.join(', ')}` },
        array: true,
        maxItems: FIRM_INCLUDES.length,
        resolverRules: { values: FIRM_INCLUDES },
        description: `Comma list of ${FIRM_INCLUDES.join(', ')}. The former ${REMOVED_FIRM_INCLUDES.join(', ')} includes no longer exist (400).`,
      },
    ],
    envelope: 'single',
    response: firmDetailSchema,
    errors: [400, 404, 410],
    variables: ({ path, query }) => {
      const include = Array.isArray(query.include) ? query.include : [];
      // Members not asked for are left out of the selection (absent, not null).
      return { id: path.id, include: query.include, include_stats: include.includes('stats'), include_attorneys: include.includes('attorneys') };
    },
  },
  {
    ...scopedTrademarksRouteBase,
    id: 'listFirmTrademarks',
    mcpTool: 'list_firm_trademarks',
    path: '/v1/firms/:id/trademarks',
    operation: 'ListFirmTrademarks',
    summary: "A firm's trademarks",
    description: `Marks the firm's attorneys handle. ${SCOPED_TRADEMARKS_DESCRIPTION} Entity filters: owner_id, owner_name, attorney_id.`,
    tag: 'Firms',
    pathParams: [firmId],
    query: scopedTrademarkParams(['firm_id']),
  },
  {
    ...partyRouteBase,
    id: 'listFirmAttorneys',
    contract: 'named-without-detail',
    mcpTool: 'list_firm_attorneys',
    path: '/v1/firms/:id/attorneys',
    operation: 'ListFirmAttorneys',
    summary: "A firm's attorneys",
    description: 'Attorney records of this firm, by name.',
    tag: 'Firms',
    pool: 'search',
    pathParams: [firmId],
    query: [includeTotalParam, limitParam(), cursorParam],
    envelope: 'list',
    response: attorneySchema,
    errors: [400, 404, 410],
    variables: ({ path, query }) => ({ id: path.id, ...query }),
  },
];
