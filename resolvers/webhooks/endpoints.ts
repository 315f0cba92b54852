/**
 * Webhook endpoints of an organization (spec: Webhook endpoint, Webhook endpoints, Events):
 * create, list, read, change, delete, rotate the signing secret, and send a test event. Another
 * organization's endpoint does not exist (404).
 *
 * The signing secret (`whsec_` + base64 of 32 random bytes, the Standard Webhooks format) is
 * returned once, in `secret`, by creation and by rotation, and never again: every other answer
 * is the redacted endpoint object. After a rotation the previous secret keeps signing, beside the
 * new one, for ROTATION_OVERLAP_HOURS, so receivers can switch without dropping a delivery.
 */
import { randomBytes } from 'node:crypto';
import { invalid, notFound } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import {
  COLLECTIONS,
  WEBHOOK_ENDPOINT_STATUSES,
  type WebhookDeliveryDoc,
  type WebhookEndpointDoc,
  type WebhookEndpointStatus,
  type WebhookSecret,
} from '../../domain/records';
import { parseId, truncate } from '../../domain/validation';
import { newEndpointDoc, withDeliveryState } from '../../domain/webhook-endpoints';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../domain/webhook-events';
import { mergeMetadata, parseMetadata } from '../accounts/metadata';
import { pageOf } from '../pages';
import type { RequestContext } from '../context';
import { assertResourceQuota } from '../organization/resource-quota';
import { pageLimit } from '../page-limit';

export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 500;
/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_HOURS = 24;
/** Subscribed when a creation names no enabled_events. */
export const DEFAULT_ENABLED_EVENTS = ['alert.created'];

const endpointsOf = (ctx: RequestContext) => ctx.services.store.collection<WebhookEndpointDoc>(COLLECTIONS.webhookEndpoints);

/** The public endpoint object: never a secret. */
export function endpointObject(endpoint: WebhookEndpointDoc) {
  return {
    id: endpoint._id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    description: endpoint.description,
    enabled_events: endpoint.enabled_events,
    status: endpoint.status,
    secret_version: endpoint.secret_version,
    consecutive_failures: endpoint.consecutive_failures,
    last_success_at: endpoint.last_success_at,
    last_failure_at: endpoint.last_failure_at,
    metadata: endpoint.metadata,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

/** A new signing secret in the Standard Webhooks format. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

async function checkUrl(raw: unknown, ctx: RequestContext): Promise<string> {
  if (typeof raw !== 'string' || raw.length === 0) throw invalid('url', 'is required: the HTTPS URL that receives the events');
  if (raw.length > WEBHOOK_URL_MAX_LENGTH) throw invalid('url', `must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  await ctx.services.checkWebhookUrl(raw);
  return raw;
}

function checkDescription(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length > WEBHOOK_DESCRIPTION_MAX_LENGTH)
    throw invalid('description', `must be a string of at most ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters, or null`);
  return raw;
}

function checkEnabledEvents(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('enabled_events', 'must list at least one event type');
  const unknown = raw.find((type) => typeof type !== 'string' || !SUBSCRIBABLE_EVENT_TYPES.includes(type));
  if (unknown !== undefined) {
    throw invalid(
      'enabled_events',
      `unknown event type '${truncate(String(unknown))}'; the types are ${SUBSCRIBABLE_EVENT_TYPES.join(', ')} (GET /v1/event-types?category=webhook)`,
    );
  }
  return [...new Set(raw as string[])];
}

function checkStatus(raw: unknown): WebhookEndpointStatus {
  if (typeof raw !== 'string' || !(WEBHOOK_ENDPOINT_STATUSES as readonly string[]).includes(raw)) {
    throw invalid('status', `must be one of ${WEBHOOK_ENDPOINT_STATUSES.join(', ')} (got '${truncate(String(raw))}')`);
  }
  return raw as WebhookEndpointStatus;
}

/** The caller's endpoint, or 404 (also for another organization's). */
export async function requireEndpoint(id: string, ctx: RequestContext, parameter = 'id'): Promise<WebhookEndpointDoc> {
  const endpointId = parseId(parameter, id, 'whk_');
  const endpoint = await endpointsOf(ctx).findOne({ _id: endpointId, organization_id: ctx.caller.organizationId });
  if (!endpoint) throw notFound(`webhook endpoint ${endpointId}`);
  return endpoint;
}

interface EndpointInput {
  url?: unknown;
  description?: unknown;
  enabled_events?: unknown;
  metadata?: unknown;
}

async function createEndpoint(input: EndpointInput, ctx: RequestContext) {
  const url = await checkUrl(input.url, ctx);
  const now = ctx.services.now();
  const secret = newSecret();
  const endpoint = newEndpointDoc({
    id: randomId('whk_', now.getTime()),
    organizationId: ctx.caller.organizationId,
    url,
    description: checkDescription(input.description),
    enabledEvents: input.enabled_events === undefined || input.enabled_events === null ? DEFAULT_ENABLED_EVENTS : checkEnabledEvents(input.enabled_events),
    secret,
    metadata: input.metadata === undefined || input.metadata === null ? {} : parseMetadata('metadata', input.metadata),
    at: now,
  });
  await ctx.services.store.transaction(async () => {
    await assertResourceQuota(ctx, 'webhook_endpoints', 1);
    await endpointsOf(ctx).insertOne(endpoint);
  });
  return { ...endpointObject(endpoint), secret };
}

async function listEndpoints(args: { limit?: number | null; cursor?: string | null; include_total?: boolean | null }, ctx: RequestContext) {
  const organizationId = ctx.caller.organizationId;
  const binding = { list: 'webhook_endpoints', organization: organizationId };
  const page = await pageOf(endpointsOf(ctx), { organization_id: organizationId }, pageLimit(args.limit), args.cursor ?? null, binding, ctx.services.cursors, {
    includeTotal: args.include_total,
  });
  return { ...page, data: page.data.map(endpointObject) };
}

/**
 * PATCH: omitted fields unchanged; `description: null` clears it; `enabled_events` replaces the
 * list; `metadata` is merged (a null value removes a key); `status` active/disabled. Re-enabling
 * an endpoint that was disabled automatically resets `consecutive_failures` to 0 (spec: Webhook
 * endpoint status).
 */
async function updateEndpoint(args: EndpointInput & { id: string; status?: unknown }, ctx: RequestContext) {
  const endpoint = await requireEndpoint(args.id, ctx);
  const url = args.url === undefined || args.url === null ? endpoint.url : await checkUrl(args.url, ctx);
  const status = args.status === undefined || args.status === null ? endpoint.status : checkStatus(args.status);
  const reenabled = endpoint.status === 'disabled' && status === 'active';
  const failures = reenabled && endpoint.disabled_reason === 'failing' ? { consecutive_failures: 0, failing_since: null } : {};
  const updated: WebhookEndpointDoc = {
    ...endpoint,
    url,
    description: args.description === undefined ? endpoint.description : checkDescription(args.description),
    enabled_events: args.enabled_events === undefined || args.enabled_events === null ? endpoint.enabled_events : checkEnabledEvents(args.enabled_events),
    status,
    disabled_reason: status === 'active' ? null : endpoint.status === 'disabled' ? endpoint.disabled_reason : 'requested',
    ...failures,
    metadata: args.metadata === undefined || args.metadata === null ? endpoint.metadata : mergeMetadata('metadata', endpoint.metadata, args.metadata),
    updated_at: ctx.services.now().toISOString(),
  };
  const recorded = withDeliveryState(updated, updated.updated_at);
  await endpointsOf(ctx).replaceOne(recorded);
  return endpointObject(recorded);
}

/** Deletes the endpoint with its delivery log; nothing more is sent to it. */
async function deleteEndpoint(id: string, ctx: RequestContext) {
  const endpoint = await requireEndpoint(id, ctx);
  await ctx.services.store.transaction(async () => {
    await endpointsOf(ctx).deleteOne({ _id: endpoint._id });
    await ctx.services.store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries).deleteMany({ endpoint_id: endpoint._id });
  });
  return { id: endpoint._id, object: 'webhook_endpoint', deleted: true };
}

/**
 * A new current secret, `secret_version` + 1; the previous one keeps signing until the overlap
 * ends (older ones, already past their overlap, are dropped).
 */
async function rotateSecret(id: string, ctx: RequestContext) {
  const endpoint = await requireEndpoint(id, ctx);
  const now = ctx.services.now();
  const secret = newSecret();
  const overlapEnds = new Date(now.getTime() + ROTATION_OVERLAP_HOURS * 3600 * 1000).toISOString();
  const kept: WebhookSecret[] = endpoint.secrets
    .filter((old) => old.expires_at === null || old.expires_at > now.toISOString())
    .map((old) => ({ ...old, expires_at: old.expires_at ?? overlapEnds }));
  const version = endpoint.secret_version + 1;
  const updated: WebhookEndpointDoc = {
    ...endpoint,
    secrets: [{ version, secret, expires_at: null }, ...kept],
    secret_version: version,
    updated_at: now.toISOString(),
  };
  await endpointsOf(ctx).replaceOne(updated);
  return { ...endpointObject(updated), secret };
}

export const webhookEndpointQueryResolvers = {
  webhookEndpoints: (_: unknown, args: Parameters<typeof listEndpoints>[0], ctx: RequestContext) => listEndpoints(args, ctx),
  webhookEndpoint: async (_: unknown, args: { id: string }, ctx: RequestContext) => endpointObject(await requireEndpoint(args.id, ctx)),
};

export const webhookEndpointMutationResolvers = {
  createWebhookEndpoint: (_: unknown, args: EndpointInput, ctx: RequestContext) => createEndpoint(args, ctx),
  updateWebhookEndpoint: (_: unknown, args: Parameters<typeof updateEndpoint>[0], ctx: RequestContext) => updateEndpoint(args, ctx),
  deleteWebhookEndpoint: (_: unknown, args: { id: string }, ctx: RequestContext) => deleteEndpoint(args.id, ctx),
  rotateWebhookSecret: (_: unknown, args: { id: string }, ctx: RequestContext) => rotateSecret(args.id, ctx),
};
