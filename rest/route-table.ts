/**
 * The route table: every public route, in one list. Everything about a route is read from here.
 */
import { PUBLIC_GET, type CustomRoute, type RouteDef } from './route';
import { buildOpenApi } from './openapi';
import { apiKeyRoutes } from './routes/api-keys';
import { feedbackRoutes } from './routes/feedback';
import { attorneyRoutes } from './routes/attorneys';
import { deadlineRoutes } from './routes/deadlines';
import { entityRoutes } from './routes/entities';
import { firmRoutes } from './routes/firms';
import { healthRoutes, type HealthDeps } from './routes/health';
import { mediaRoutes } from './routes/media';
import { imageSearchRoutes, type ImageSearchDeps } from './routes/image-search';
import { organizationRoutes } from './routes/organization';
import { ownerRoutes } from './routes/owners';
import { proceedingRoutes } from './routes/proceedings';
import { referenceRoutes } from './routes/reference';
import { suggestRoutes } from './routes/suggest';
import { analyticsRoutes } from './routes/analytics';
import { trademarkSubResourceRoutes } from './routes/trademark-sub-resources';
import { trademarkRoutes } from './routes/trademarks';
import { watchRoutes } from './routes/watches';
import { webhookRoutes } from './routes/webhooks';
import { portfolioRoutes } from './routes/portfolios';
import { oauthMetadataRoute, type OAuthMetadataDeps } from './routes/oauth-metadata';
import { freeObject } from './schemas/json-schema';
import type { DocumentStore, MediaStore } from '../datasources/ports';

export interface RouteTableDeps {
  health: HealthDeps;
  version: string;
  /** The MCP endpoint's discovery document (default: API keys only, at localhost). */
  oauth?: OAuthMetadataDeps;
  /** Where GET /v1/media/{id} reads from; absent (route-table checks): every media ID is unknown. */
  media?: MediaStore;
  /** Where image search reads marks and media records from; absent (route-table checks): no candidates. */
  store?: DocumentStore;
  /** Image search's ANN indexes, the query OCR and the image_url fetcher; absent: none (no candidates, no logo_text, no image_url). */
  imageSearch?: Omit<ImageSearchDeps, 'media' | 'store'>;
}

const API_KEYS_ONLY: OAuthMetadataDeps = { publicUrl: () => 'http://localhost', authUrl: null, scopes: [] };

export function buildRouteTable(deps: RouteTableDeps): RouteDef[] {
  const routes: RouteDef[] = [
    ...healthRoutes(deps.health),
    oauthMetadataRoute(deps.oauth ?? API_KEYS_ONLY),
    ...trademarkRoutes,
    ...deadlineRoutes,
    ...proceedingRoutes,
    ...referenceRoutes,
    ...trademarkSubResourceRoutes,
    ...mediaRoutes(deps.media ?? null),
    ...imageSearchRoutes({ ...deps.imageSearch, media: deps.media ?? null, store: deps.store ?? null }),
    ...suggestRoutes,
    ...analyticsRoutes,
    ...apiKeyRoutes,
    ...feedbackRoutes,
  ];
  routes.push(...ownerRoutes, ...attorneyRoutes, ...firmRoutes, ...entityRoutes);
  routes.push(...organizationRoutes);
  routes.push(...watchRoutes, ...portfolioRoutes, ...webhookRoutes);
  // The document describes the whole table, itself included, so it is built after the push.
  let openapi: Record<string, unknown> = {};
  routes.push(openApiRoute(async () => ({ status: 200, body: openapi })));
  openapi = buildOpenApi(routes, deps.version);
  return routes;
}

/** The persisted operations the route table runs, by name (for the start-up check of that seam). */
export function operationNames(routes: readonly RouteDef[]): string[] {
  return routes.flatMap((route) => (route.kind === 'operation' ? [route.operation] : []));
}

function openApiRoute(handle: CustomRoute['handle']): CustomRoute {
  return {
    ...PUBLIC_GET,
    id: 'getOpenApi',
    path: '/v1/openapi.json',
    summary: 'OpenAPI document',
    description: 'This API described as OpenAPI 3.1, generated from the route table. No key needed.',
    tag: 'Meta',
    envelope: 'raw',
    response: freeObject('OpenAPI 3.1 document.'),
    handle,
  };
}
