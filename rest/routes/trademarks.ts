/**
 * Route-table entries of the trademark endpoints.
 */
import { SOURCE_INCLUDES } from '../../domain/contract';
import { idPattern } from '../../domain/ids';
import { MAX_BATCH_IDS } from '../../resolvers/trademarks/queries';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { getTrademarkExample, searchTrademarksExample } from '../schemas/examples';
import { arrayOf, str } from '../schemas/json-schema';
import { trademarkChangeSchema, trademarkDetailSchema, trademarkSearchMetaSchema, trademarkSourceSchema, trademarkSummarySchema } from '../schemas/trademarks';
import { TRADEMARK_FILTER_PARAMS, TRADEMARK_SEARCH_CONTROL_PARAMS, trademarkListVariables } from './trademark-params';
import { countedPageParams } from './paging-params';

export const trademarkIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'tm_' }, required: true, description: 'Trademark ID (tm_...).' };

/** What the GET routes of one trademark share: read pool and tier, trademarks:read, a tm_ path ID. */
export const trademarkReadBase = {
  kind: 'operation',
  method: 'GET',
  tag: 'Trademarks',
  scope: 'trademarks:read',
  pool: 'read',
  tier: 'reads',
  idempotency: 'none',
  pathParams: [trademarkIdParam],
  successStatus: 200,
  errors: [400, 404],
} as const;

const searchParams = [...TRADEMARK_FILTER_PARAMS, ...TRADEMARK_SEARCH_CONTROL_PARAMS];
const searchDescription =
  'Search and list trademarks. At least one filter or q is required (no unscoped list). Arrays are comma-separated; dates YYYY-MM-DD; ' +
  'ranges use the _gte/_gt/_lte/_lt suffixes with the lower bound before the upper. Results are eventually consistent (normally seconds behind a write). ' +
  'Cursors pin the result set: marks added after the first page never appear in later pages. ' +
  'Relevance (the order with q and no sort) is scored at each page against the whole index, whose statistics any write moves: a change between two pages can move a mark across the page boundary (seen twice, or not at all). To walk every result exactly, sort by a field (sort=-filing_date).';

export const trademarkRoutes: readonly RouteDef[] = [
  {
    kind: 'operation',
    id: 'searchTrademarks',
    mcpTool: 'search_trademarks',
    method: 'GET',
    path: '/v1/trademarks',
    operation: 'SearchTrademarks',
    summary: 'Search trademarks',
    description: searchDescription,
    tag: 'Trademarks',
    scope: 'trademarks:read',
    pool: 'search',
    tier: 'search',
    idempotency: 'none',
    pathParams: [],
    query: searchParams,
    successStatus: 200,
    envelope: 'list',
    response: trademarkSummarySchema,
    listExtras: { search_meta: trademarkSearchMetaSchema },
    errors: [400],
    examples: searchTrademarksExample,
    variables: ({ query }) => trademarkListVariables(query),
  },
  {
    kind: 'operation',
    id: 'searchTrademarksPost',
    method: 'POST',
    path: '/v1/trademarks',
    operation: 'SearchTrademarks',
    summary: 'Search trademarks (JSON body)',
    description: `${searchDescription} The body takes the same parameters as the query string of GET /v1/trademarks; arrays may be JSON arrays or comma-separated strings. A search call: search pool and search tier, no Idempotency-Key needed.`,
    tag: 'Trademarks',
    scope: 'trademarks:read',
    pool: 'search',
    tier: 'search',
    idempotency: 'exempt',
    pathParams: [],
    query: [],
    body: searchParams,
    successStatus: 200,
    envelope: 'list',
    response: trademarkSummarySchema,
    listExtras: { search_meta: trademarkSearchMetaSchema },
    errors: [400],
    variables: ({ body }) => trademarkListVariables(body),
  },
  {
    kind: 'operation',
    id: 'batchGetTrademarks',
    mcpTool: 'get_trademarks_batch',
    method: 'POST',
    path: '/v1/trademarks/batch',
    operation: 'BatchGetTrademarks',
    summary: 'Look up trademarks by ID',
    description: `Up to ${MAX_BATCH_IDS} IDs. Found marks come back as full records in request order (duplicates once); unknown IDs are listed in not_found. has_more is always false and pagination.cursor always null. Read pool; as a POST it also counts against the writes tier.`,
    tag: 'Trademarks',
    scope: 'trademarks:read',
    pool: 'read',
    tier: 'writes',
    idempotency: 'exempt',
    contract: 'named-without-detail',
    pathParams: [],
    query: [],
    body: [
      {
        name: 'ids',
        kind: { type: 'string', maxLength: 64 },
        array: true,
        required: true,
        resolverRules: { pattern: idPattern('tm_'), maxItems: MAX_BATCH_IDS },
        description: `Trademark IDs (tm_...), 1 to ${MAX_BATCH_IDS}.`,
      },
    ],
    successStatus: 200,
    envelope: 'list',
    response: trademarkDetailSchema,
    listExtras: { not_found: arrayOf(str(), 'Requested IDs that do not exist.') },
    errors: [400],
    variables: ({ body }) => ({ ids: body.ids }),
  },
  {
    ...trademarkReadBase,
    id: 'getTrademark',
    mcpTool: 'get_trademark',
    path: '/v1/trademarks/:id',
    operation: 'GetTrademark',
    summary: 'Retrieve a trademark',
    description:
      "The full trademark record, read from the source of truth (immediately consistent), with its computed opposition window. renewal_due_date is the office's next renewal only: every maintenance deadline (declarations of use, grace periods, what missing each costs) comes from POST /v1/deadlines/compute with the record's jurisdiction, filing_route, status.stage and dates, or from a portfolio's deadlines.",
    contract: 'named-without-detail',
    query: [],
    envelope: 'single',
    response: trademarkDetailSchema,
    examples: getTrademarkExample,
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...trademarkReadBase,
    id: 'listTrademarkChanges',
    mcpTool: 'list_trademark_changes',
    path: '/v1/trademarks/:id/changes',
    operation: 'ListTrademarkChanges',
    summary: 'Change history of a trademark',
    description:
      'Diff history of one mark, one row per recorded version. changed_field keeps versions whose changed_fields include it (parent fields in snake_case such as status_stage, mark_text_primary, expiry_date; child changes by entity type such as classifications, owners, attorneys, events); old_values and new_values are keyed by the same names.',
    query: [
      {
        name: 'changed_field',
        kind: { type: 'string', maxLength: 64, pattern: /^[a-z_]+$/, patternRule: 'must be a snake_case field or entity name' },
        description: 'Keep versions that changed this field.',
      },
      { name: 'sort', kind: { type: 'enum', values: ['-changed_at', 'changed_at'] }, description: '-changed_at (default, newest first) or changed_at.' },
      ...countedPageParams,
    ],
    envelope: 'list',
    response: trademarkChangeSchema,
    variables: ({ path, query }) => ({ id: path.id, ...query }),
  },
  {
    ...trademarkReadBase,
    id: 'getTrademarkSource',
    mcpTool: 'get_trademark_source',
    path: '/v1/trademarks/:id/source',
    operation: 'GetTrademarkSource',
    summary: 'Provenance of a trademark record',
    description:
      'Where the latest raw record came from: format, file and record locator, payload hash, the office data date, and with include=raw the raw record itself. ' +
      'When no raw version is stored the response is reduced: source_format bulk_xml, source_response_type null, source_locator and payload_hash null.',
    query: [{ name: 'include', kind: { type: 'enum', values: SOURCE_INCLUDES }, description: 'raw: add raw_record, the raw record as received.' }],
    envelope: 'single',
    response: trademarkSourceSchema,
    variables: ({ path, query }) => ({ id: path.id, include_raw: query.include === 'raw' }),
  },
];
