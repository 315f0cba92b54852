/**
 * Route-table entries of portfolios and saved searches (scope portfolios:manage, monitoring pool,
 * plans with monitoring). Writes need an Idempotency-Key; running a saved search is a read-shaped
 * POST that does not.
 */
import { OFFICE_YEARS_TEXT } from '../../domain/dates';
import { METADATA_RULE } from '../../resolvers/accounts/metadata';
import { DEADLINE_TYPES, MAX_HORIZON_YEARS } from '../../resolvers/deadlines/corpus';
import { MAX_PORTFOLIO_IDS_PER_REQUEST, PORTFOLIO_DESCRIPTION_MAX_LENGTH, PORTFOLIO_NAME_MAX_LENGTH } from '../../resolvers/portfolios/portfolios';
import { SAVED_SEARCH_NAME_MAX_LENGTH } from '../../resolvers/saved-searches/saved-searches';
import { RESOURCE_QUOTAS } from '../../domain/resource-quotas';
import { parseJsonParams, type JsonObject, type ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { portfolioDeadlineSchema, portfolioSchema, savedSearchSchema } from '../schemas/portfolios';
import { trademarkSearchMetaSchema, trademarkSummarySchema } from '../schemas/trademarks';
import { deletedObjectSchema, freeObject } from '../schemas/json-schema';
import { countedPageParams, pageParams } from './paging-params';
import { TRADEMARK_FILTER_PARAMS, TRADEMARK_SEARCH_CONTROL_PARAMS, trademarkListVariables } from './trademark-params';

const portfolioIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'pf_' }, required: true, description: 'Portfolio ID (pf_...).' };
const savedSearchIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'ss_' }, required: true, description: 'Saved search ID (ss_...).' };

const common = { kind: 'operation', scope: 'portfolios:manage', pool: 'monitoring', feature: 'monitoring' } as const;
const portfolios = { ...common, tag: 'Portfolios' } as const;
const savedSearches = { ...common, tag: 'Saved searches' } as const;
const write = { tier: 'writes', idempotency: 'required', query: [] } as const;
const read = { tier: 'reads', idempotency: 'none' } as const;

const limitsBy = (resource: 'portfolio_marks' | 'saved_searches') =>
  Object.entries(RESOURCE_QUOTAS)
    .filter(([, quota]) => quota[resource] > 0)
    .map(([plan, quota]) => `${plan} ${quota[resource].toLocaleString('en-US')}`)
    .join(', ');

const trademarkIdsParam = (required: boolean): ParamSpec => ({
  name: 'trademark_ids',
  kind: { type: 'id', prefix: 'tm_' },
  array: true,
  maxItems: MAX_PORTFOLIO_IDS_PER_REQUEST,
  required,
  description: `Up to ${MAX_PORTFOLIO_IDS_PER_REQUEST.toLocaleString('en-US')} trademark IDs (tm_...); an unknown one is 400 naming trademark_ids[i].`,
});

/** The parameters a saved search keeps: those of GET /v1/trademarks that say what to find. */
const SAVED_QUERY_SPECS: readonly ParamSpec[] = [
  ...TRADEMARK_FILTER_PARAMS,
  ...TRADEMARK_SEARCH_CONTROL_PARAMS.filter((spec) => ['q', 'sort', 'include_total'].includes(spec.name)),
];

/** A saved query parsed with GET /v1/trademarks's own parameter specs, errors named query.<param>. */
function savedQuery(raw: unknown): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null) return undefined;
  return parseJsonParams(raw as JsonObject, SAVED_QUERY_SPECS, 'query.');
}

const savedQueryParam = (required: boolean): ParamSpec => ({
  name: 'query',
  kind: { type: 'object', schema: freeObject(`GET /v1/trademarks query parameters as an object: ${SAVED_QUERY_SPECS.map((spec) => spec.name).join(', ')}.`) },
  required,
  description: "The search: the query parameters of GET /v1/trademarks (lists as arrays or comma strings), checked by that route's rules.",
});

export const portfolioRoutes: readonly RouteDef[] = [
  {
    ...portfolios,
    ...write,
    id: 'createPortfolio',
    contract: 'named-without-detail',
    mcpTool: 'create_portfolio',
    method: 'POST',
    path: '/v1/portfolios',
    operation: 'CreatePortfolio',
    summary: 'Create a portfolio',
    description: `A named set of marks. Marks across an organization's portfolios, by plan: ${limitsBy('portfolio_marks')} (past it, 403 resource_limit_exceeded).`,
    pathParams: [],
    body: [
      {
        name: 'name',
        kind: { type: 'string', maxLength: PORTFOLIO_NAME_MAX_LENGTH },
        required: true,
        description: `1 to ${PORTFOLIO_NAME_MAX_LENGTH} characters.`,
      },
      {
        name: 'description',
        kind: { type: 'string', maxLength: PORTFOLIO_DESCRIPTION_MAX_LENGTH },
        description: `Up to ${PORTFOLIO_DESCRIPTION_MAX_LENGTH} characters.`,
      },
      trademarkIdsParam(false),
      { name: 'metadata', kind: { type: 'stringMap' }, description: `String-to-string map: ${METADATA_RULE}.` },
    ],
    successStatus: 201,
    envelope: 'single',
    response: portfolioSchema,
    errors: [400, 409],
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...portfolios,
    ...read,
    id: 'listPortfolios',
    contract: 'named-without-detail',
    mcpTool: 'list_portfolios',
    method: 'GET',
    path: '/v1/portfolios',
    operation: 'ListPortfolios',
    summary: 'List portfolios',
    description: "Your organization's portfolios, newest first.",
    pathParams: [],
    query: countedPageParams,
    successStatus: 200,
    envelope: 'list',
    response: portfolioSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...portfolios,
    ...read,
    id: 'getPortfolio',
    contract: 'named-without-detail',
    mcpTool: 'get_portfolio',
    method: 'GET',
    path: '/v1/portfolios/:id',
    operation: 'GetPortfolio',
    summary: 'Retrieve a portfolio',
    description: "One of your organization's portfolios; other organizations' are 404.",
    pathParams: [portfolioIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: portfolioSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...portfolios,
    ...write,
    id: 'updatePortfolio',
    contract: 'named-without-detail',
    mcpTool: 'update_portfolio',
    method: 'PATCH',
    path: '/v1/portfolios/:id',
    operation: 'UpdatePortfolio',
    summary: 'Update a portfolio',
    description:
      'Partial update of name, description (null clears) and metadata (merged; a null value removes the key). Marks change through the trademarks sub-routes.',
    pathParams: [portfolioIdParam],
    body: [
      { name: 'name', kind: { type: 'string', maxLength: PORTFOLIO_NAME_MAX_LENGTH }, description: `1 to ${PORTFOLIO_NAME_MAX_LENGTH} characters.` },
      { name: 'description', kind: { type: 'string', maxLength: PORTFOLIO_DESCRIPTION_MAX_LENGTH }, nullable: true, description: 'Null clears it.' },
      { name: 'metadata', kind: { type: 'stringMap', nullValues: true }, description: `Merged into the metadata; null removes a key. ${METADATA_RULE}.` },
    ],
    successStatus: 200,
    envelope: 'single',
    response: portfolioSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
  {
    ...portfolios,
    ...write,
    id: 'deletePortfolio',
    contract: 'named-without-detail',
    mcpTool: 'delete_portfolio',
    method: 'DELETE',
    path: '/v1/portfolios/:id',
    operation: 'DeletePortfolio',
    summary: 'Delete a portfolio',
    description:
      'The marks stay in the catalog; trademark watches of this portfolio then watch nothing, and their diagnostics say so (evaluation.last_error names the portfolio).',
    pathParams: [portfolioIdParam],
    successStatus: 200,
    envelope: 'single',
    response: deletedObjectSchema('portfolio'),
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  ...(['add', 'remove'] as const).map((change): RouteDef => ({
    ...portfolios,
    ...write,
    id: change === 'add' ? 'addPortfolioTrademarks' : 'removePortfolioTrademarks',
    contract: 'unnamed',
    mcpTool: change === 'add' ? 'add_portfolio_trademarks' : 'remove_portfolio_trademarks',
    method: 'POST',
    setsState: true,
    path: change === 'add' ? '/v1/portfolios/:id/trademarks' : '/v1/portfolios/:id/trademarks/remove',
    operation: change === 'add' ? 'AddPortfolioTrademarks' : 'RemovePortfolioTrademarks',
    summary: change === 'add' ? 'Add marks to a portfolio' : 'Remove marks from a portfolio',
    description:
      change === 'add'
        ? 'Adds the marks not yet in it (in the order given, after those already there); the plan limit on portfolio marks applies.'
        : 'Removes the marks named; IDs not in the portfolio are ignored. (A POST, not a DELETE with a body, which proxies may drop.)',
    pathParams: [portfolioIdParam],
    body: [trademarkIdsParam(true)],
    successStatus: 200,
    envelope: 'single',
    response: portfolioSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ id: path.id, trademark_ids: body.trademark_ids }),
  })),
  {
    ...portfolios,
    ...read,
    id: 'listPortfolioTrademarks',
    contract: 'unnamed',
    mcpTool: 'list_portfolio_trademarks',
    method: 'GET',
    path: '/v1/portfolios/:id/trademarks',
    operation: 'ListPortfolioTrademarks',
    summary: "List a portfolio's marks",
    description: "The portfolio's marks in summary shape, with every filter, sort and paging parameter of GET /v1/trademarks (no filter needed).",
    pathParams: [portfolioIdParam],
    query: [...TRADEMARK_FILTER_PARAMS, ...TRADEMARK_SEARCH_CONTROL_PARAMS],
    successStatus: 200,
    envelope: 'list',
    response: trademarkSummarySchema,
    listExtras: { search_meta: trademarkSearchMetaSchema },
    errors: [400, 404],
    variables: ({ path, query }) => ({ ...trademarkListVariables(query), id: path.id }),
  },
  {
    ...portfolios,
    ...read,
    id: 'listPortfolioDeadlines',
    contract: 'unnamed',
    mcpTool: 'list_portfolio_deadlines',
    method: 'GET',
    path: '/v1/portfolios/:id/deadlines',
    operation: 'ListPortfolioDeadlines',
    summary: "A portfolio's deadlines",
    description:
      'Every mark of the portfolio through the computation of POST /v1/deadlines/compute (its jurisdiction, register, stage and dates), one row per deadline with its mark, ' +
      'ordered by due date, then mark, then type. due_before keeps what is due before a date: "what is due for ACME in the next 90 days". Missed deadlines are left out.',
    pathParams: [portfolioIdParam],
    query: [
      { name: 'due_before', kind: { type: 'date' }, description: 'Keep deadlines due before this date.' },
      { name: 'type', kind: { type: 'enum', values: DEADLINE_TYPES }, description: 'Keep one deadline type.' },
      {
        name: 'as_of_date',
        kind: { type: 'date' },
        description: `Compute as of this date, ${OFFICE_YEARS_TEXT} (default: today in each office's zone).`,
      },
      { name: 'horizon_years', kind: { type: 'integer', min: 1, max: MAX_HORIZON_YEARS }, description: `Years ahead to list (default 5).` },
      { name: 'include_optional', kind: { type: 'boolean' }, description: 'Include optional filings (default true).' },
      ...countedPageParams,
    ],
    successStatus: 200,
    envelope: 'list',
    response: portfolioDeadlineSchema,
    errors: [400, 404],
    variables: ({ path, query }) => ({ ...query, id: path.id }),
  },
  {
    ...savedSearches,
    ...write,
    id: 'createSavedSearch',
    contract: 'named-without-detail',
    mcpTool: 'create_saved_search',
    method: 'POST',
    path: '/v1/saved-searches',
    operation: 'CreateSavedSearch',
    summary: 'Save a search',
    description: `Keeps GET /v1/trademarks query parameters under a name. Saved searches by plan: ${limitsBy('saved_searches')} (past it, 403 resource_limit_exceeded).`,
    pathParams: [],
    body: [
      {
        name: 'name',
        kind: { type: 'string', maxLength: SAVED_SEARCH_NAME_MAX_LENGTH },
        required: true,
        description: `1 to ${SAVED_SEARCH_NAME_MAX_LENGTH} characters.`,
      },
      savedQueryParam(true),
    ],
    successStatus: 201,
    envelope: 'single',
    response: savedSearchSchema,
    errors: [400, 409],
    variables: ({ body }) => ({ name: body.name, query: savedQuery(body.query) }),
  },
  {
    ...savedSearches,
    ...read,
    id: 'listSavedSearches',
    contract: 'named-without-detail',
    mcpTool: 'list_saved_searches',
    method: 'GET',
    path: '/v1/saved-searches',
    operation: 'ListSavedSearches',
    summary: 'List saved searches',
    description: "Your organization's saved searches, newest first.",
    pathParams: [],
    query: countedPageParams,
    successStatus: 200,
    envelope: 'list',
    response: savedSearchSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...savedSearches,
    ...read,
    id: 'getSavedSearch',
    contract: 'named-without-detail',
    mcpTool: 'get_saved_search',
    method: 'GET',
    path: '/v1/saved-searches/:id',
    operation: 'GetSavedSearch',
    summary: 'Retrieve a saved search',
    description: "One of your organization's saved searches; other organizations' are 404.",
    pathParams: [savedSearchIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: savedSearchSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...savedSearches,
    ...write,
    id: 'updateSavedSearch',
    contract: 'named-without-detail',
    mcpTool: 'update_saved_search',
    method: 'PATCH',
    path: '/v1/saved-searches/:id',
    operation: 'UpdateSavedSearch',
    summary: 'Update a saved search',
    description: 'Renames it or replaces its query (checked as on creation).',
    pathParams: [savedSearchIdParam],
    body: [{ name: 'name', kind: { type: 'string', maxLength: SAVED_SEARCH_NAME_MAX_LENGTH }, description: 'The new name.' }, savedQueryParam(false)],
    successStatus: 200,
    envelope: 'single',
    response: savedSearchSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ id: path.id, name: body.name, query: savedQuery(body.query) }),
  },
  {
    ...savedSearches,
    ...write,
    id: 'deleteSavedSearch',
    contract: 'named-without-detail',
    mcpTool: 'delete_saved_search',
    method: 'DELETE',
    path: '/v1/saved-searches/:id',
    operation: 'DeleteSavedSearch',
    summary: 'Delete a saved search',
    description: 'Deletes it.',
    pathParams: [savedSearchIdParam],
    successStatus: 200,
    envelope: 'single',
    response: deletedObjectSchema('saved_search'),
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...savedSearches,
    tier: 'search',
    idempotency: 'exempt',
    id: 'runSavedSearch',
    contract: 'unnamed',
    mcpTool: 'run_saved_search',
    method: 'POST',
    path: '/v1/saved-searches/:id/run',
    operation: 'RunSavedSearch',
    summary: 'Run a saved search',
    description:
      'Answers exactly what GET /v1/trademarks answers for the saved parameters (same envelope, order and cursors; a cursor from a run pages on through either). Read-shaped: no Idempotency-Key needed.',
    pathParams: [savedSearchIdParam],
    query: [],
    body: pageParams,
    successStatus: 200,
    envelope: 'list',
    response: trademarkSummarySchema,
    listExtras: { search_meta: trademarkSearchMetaSchema },
    errors: [400, 404],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
];
