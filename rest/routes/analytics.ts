/**
 * Route-table entry of the office analytics (spec: Analytics).
 */
import { STATS_TTL_MS } from '../../resolvers/analytics/offices';
import type { RouteDef } from '../route';
import { officeAnalyticsSchema } from '../schemas/analytics';

export const analyticsRoutes: readonly RouteDef[] = [
  {
    kind: 'operation',
    id: 'getOfficeAnalytics',
    mcpTool: 'get_office_analytics',
    method: 'GET',
    path: '/v1/analytics/offices/:code',
    operation: 'GetOfficeAnalytics',
    summary: 'Office analytics',
    description:
      `Counts, registration rate, filing range, top Nice classes and a yearly trend for one office, counted from the catalog's search index and cached for ${STATS_TTL_MS / 60_000} minutes (stats_computed_at says when). ` +
      'code is an uppercase ST.3 code; lowercase legacy aliases are accepted. A malformed code is 400; a well-formed code that is no office is 404.',
    tag: 'Analytics',
    scope: 'trademarks:read',
    pool: 'read',
    tier: 'reads',
    idempotency: 'none',
    pathParams: [
      {
        name: 'code',
        kind: { type: 'string', maxLength: 4, pattern: /^[A-Za-z]{2,4}$/, patternRule: 'must be an office code of 2 to 4 letters' },
        required: true,
        description: 'Office code, for example EM (or em).',
      },
    ],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: officeAnalyticsSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ code: path.code }),
  },
];
