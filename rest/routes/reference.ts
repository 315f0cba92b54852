/**
 * Route-table entries of the reference data (spec: reference pool; cached reference routes omit
 * RateLimit-* headers). Bodies keep request_id (spec: Response envelopes, rule 1), so they are
 * not marked publicCache: an ETag over a body that varies per request could never match.
 */
import { EVENT_TYPE_CATEGORIES, CURRENT_NICE_VERSION, NICE_VERSIONS } from '../../resolvers/reference/queries';
import type { ParamSpec } from '../params';
import type { OperationRoute, RouteDef } from '../route';
import type { JsonSchema } from '../schemas/json-schema';
import { designCategorySchema, eventTypeSchema, jurisdictionSchema, niceClassSchema, officeSchema } from '../schemas/reference';

interface ReferenceRouteSpec {
  id: string;
  mcpTool: string;
  path: string;
  operation: string;
  summary: string;
  description: string;
  query: readonly ParamSpec[];
  response: JsonSchema;
}

function referenceRoute(spec: ReferenceRouteSpec): OperationRoute {
  return {
    kind: 'operation',
    method: 'GET',
    ...spec,
    description: `${spec.description} All rows in one page (has_more false). Reference pool, never billed; no RateLimit-* headers.`,
    tag: 'Reference',
    contract: 'named-without-detail',
    scope: 'trademarks:read',
    pool: 'reference',
    tier: 'reads',
    cachedReference: true,
    idempotency: 'none',
    pathParams: [],
    successStatus: 200,
    envelope: 'list',
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  };
}

export const referenceRoutes: readonly RouteDef[] = [
  referenceRoute({
    id: 'listOffices',
    mcpTool: 'list_offices',
    path: '/v1/offices',
    operation: 'ListOffices',
    summary: 'List trade mark offices',
    description:
      'Offices with ST.3 code, legacy alias, jurisdiction, kind, seat, time zone, holiday calendar, Madrid membership, languages and, for regional offices, the member states covered.',
    query: [
      { name: 'kind', kind: { type: 'enum', values: ['national', 'regional', 'international'] }, description: 'Only offices of this kind.' },
      { name: 'madrid_member', kind: { type: 'boolean' }, description: 'Only offices designatable (or not) under the Madrid Protocol.' },
    ],
    response: officeSchema,
  }),
  referenceRoute({
    id: 'listJurisdictions',
    mcpTool: 'list_jurisdictions',
    path: '/v1/jurisdictions',
    operation: 'ListJurisdictions',
    summary: 'List jurisdictions',
    description: 'Jurisdictions with their own offices, plus member states reached only through a regional office (covered_by), sorted by code.',
    query: [],
    response: jurisdictionSchema,
  }),
  referenceRoute({
    id: 'listClassifications',
    mcpTool: 'list_classifications',
    path: '/v1/classifications',
    operation: 'ListClassifications',
    summary: 'List Nice classes',
    description: `The 45 Nice classes with their headings. version picks the edition: ${NICE_VERSIONS.join(' or ')} (default ${CURRENT_NICE_VERSION}, in force since 2026-01-01); other values are 400.`,
    query: [
      { name: 'version', kind: { type: 'enum', values: NICE_VERSIONS }, description: `Nice edition of the headings (default ${CURRENT_NICE_VERSION}).` },
      { name: 'kind', kind: { type: 'enum', values: ['goods', 'services'] }, description: 'goods (1–34) or services (35–45).' },
    ],
    response: niceClassSchema,
  }),
  referenceRoute({
    id: 'listDesignCodes',
    mcpTool: 'list_design_codes',
    path: '/v1/design-codes',
    operation: 'ListDesignCodes',
    summary: 'List Vienna design codes',
    description: 'Vienna classification categories with their divisions and a divisions_verified flag as the data has it (null where no divisions are listed).',
    query: [
      {
        name: 'category',
        kind: { type: 'string', maxLength: 2, pattern: /^\d{2}$/, patternRule: 'must be a two-digit category such as 01' },
        description: 'One category.',
      },
    ],
    response: designCategorySchema,
  }),
  referenceRoute({
    id: 'listEventTypes',
    mcpTool: 'list_event_types',
    path: '/v1/event-types',
    operation: 'ListEventTypes',
    summary: 'List event types',
    description:
      'Prosecution event types used by GET /v1/trademarks/{id}/history, with their category and the office codes they map from; then the webhook event types (category webhook: what GET /v1/events lists and webhooks deliver), each with the JSON Schema of its data in payload_schema.',
    query: [
      {
        name: 'category',
        kind: { type: 'enum', values: EVENT_TYPE_CATEGORIES },
        description: 'Only event types of this category (webhook: the webhook event types).',
      },
    ],
    response: eventTypeSchema,
  }),
];
