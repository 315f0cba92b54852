/**
 * Route-table entries of webhook endpoints, their deliveries (scope portfolios:manage, monitoring
 * pool, plans with monitoring) and the event feed (scope events:read, plans with events).
 * Creating, changing, deleting, rotating, testing and redelivering need an Idempotency-Key.
 */
import { UUID_PATTERN } from '../../domain/ids';
import { RESOURCE_QUOTAS } from '../../domain/resource-quotas';
import { RETRY_POLICY_TEXT } from '../../domain/webhook-retries';
import { SUBSCRIBABLE_EVENT_TYPES } from '../../domain/webhook-events';
import { METADATA_RULE } from '../../resolvers/accounts/metadata';
import { DEFAULT_ENABLED_EVENTS, ROTATION_OVERLAP_HOURS, WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_URL_MAX_LENGTH } from '../../resolvers/webhooks/endpoints';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { deletedObjectSchema } from '../schemas/json-schema';
import { eventSchema, webhookDeliverySchema, webhookEndpointSchema, webhookEndpointWithSecretSchema } from '../schemas/webhooks';
import { countedPageParams } from './paging-params';

const endpointIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'whk_' }, required: true, description: 'Webhook endpoint ID (whk_...).' };
const deliveryIdParam: ParamSpec = {
  name: 'delivery_id',
  kind: { type: 'string', maxLength: 36, pattern: UUID_PATTERN, patternRule: 'must be a delivery ID (a UUID)' },
  required: true,
  description: 'Delivery row ID (a UUID).',
};

const webhooks = { kind: 'operation', scope: 'portfolios:manage', pool: 'monitoring', feature: 'monitoring', tag: 'Webhooks' } as const;
const write = { tier: 'writes', idempotency: 'required', query: [] } as const;
const read = { tier: 'reads', idempotency: 'none' } as const;

const SIGNING =
  'Each delivery is a POST of the event object ({id, object: event, type, created_at, data}, the same as GET /v1/events lists) signed per Standard Webhooks: ' +
  'headers webhook-id (the event_id, the same on every attempt and redelivery: deduplicate on it), webhook-timestamp (unix seconds, the delivery row signature_timestamp) and ' +
  'webhook-signature (v1, + base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" with the secret; during a rotation overlap two signatures, space-separated), ' +
  'verifiable with the standardwebhooks libraries. ';

const URL_RULE =
  `url: up to ${WEBHOOK_URL_MAX_LENGTH} characters, http or https without user:password; in production (MARQUE_ENV=production) https only, ` +
  'and never a host that resolves to a private, loopback, link-local, unique-local, carrier-grade NAT or cloud metadata address: checked here and again on the resolved address of every delivery (DNS rebinding). ';

const endpointFields = (creating: boolean): ParamSpec[] => [
  { name: 'url', kind: { type: 'string', maxLength: WEBHOOK_URL_MAX_LENGTH }, required: creating, description: 'Where events are POSTed.' },
  {
    name: 'description',
    kind: { type: 'string', maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH },
    nullable: !creating,
    description: creating ? `Your label, up to ${WEBHOOK_DESCRIPTION_MAX_LENGTH} characters.` : 'A new label; null clears it.',
  },
  {
    name: 'enabled_events',
    kind: { type: 'enum', values: SUBSCRIBABLE_EVENT_TYPES },
    array: true,
    maxItems: SUBSCRIBABLE_EVENT_TYPES.length,
    description: creating
      ? `The event types to receive (default ${DEFAULT_ENABLED_EVENTS.join(', ')}); an unknown type is 400.`
      : 'Replaces the list of event types; an unknown type is 400.',
  },
  {
    name: 'metadata',
    kind: { type: 'stringMap', nullValues: !creating },
    description: creating ? `String-to-string map: ${METADATA_RULE}.` : `Merged into the metadata; null removes a key. ${METADATA_RULE}.`,
  },
];

/** Creating an endpoint, with what the caller is told of its secret (REST and MCP differ there). */
const createEndpointDescription = (secret: string): string =>
  'Registers a URL for your events. ' +
  secret +
  SIGNING +
  URL_RULE +
  RETRY_POLICY_TEXT +
  ' Endpoints an organization may keep, by plan: ' +
  Object.entries(RESOURCE_QUOTAS)
    .filter(([, quota]) => quota.webhook_endpoints > 0)
    .map(([plan, quota]) => `${plan} ${quota.webhook_endpoints}`)
    .join(', ') +
  ' (past it, 403 resource_limit_exceeded).';

export const webhookRoutes: readonly RouteDef[] = [
  {
    ...webhooks,
    ...write,
    id: 'createWebhookEndpoint',
    contract: 'named-without-detail',
    mcpTool: 'marque_webhooks_create',
    method: 'POST',
    path: '/v1/webhooks',
    operation: 'CreateWebhookEndpoint',
    summary: 'Create a webhook endpoint',
    description: createEndpointDescription(
      'The answer carries the signing secret in secret (whsec_ + base64 of 32 random bytes), shown this once: no read returns it again (a retry of this request with the same Idempotency-Key within 24 hours replays the same answer, secret included, so a client whose connection dropped still gets it). ',
    ),
    mcpDescription: createEndpointDescription(
      "Signing secrets never reach tools: this tool's answer carries secret redacted, so read one through the REST API, where POST /v1/webhooks/{id}/rotate issues a new secret and answers it once. ",
    ),
    pathParams: [],
    body: endpointFields(true),
    successStatus: 201,
    envelope: 'single',
    response: webhookEndpointWithSecretSchema,
    errors: [400, 409],
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...webhooks,
    ...read,
    id: 'listWebhookEndpoints',
    mcpTool: 'marque_webhooks_list',
    method: 'GET',
    path: '/v1/webhooks',
    operation: 'ListWebhookEndpoints',
    summary: 'List webhook endpoints',
    description: "Your organization's endpoints, newest first, secrets redacted.",
    pathParams: [],
    query: [...countedPageParams],
    successStatus: 200,
    envelope: 'list',
    response: webhookEndpointSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...webhooks,
    ...read,
    id: 'getWebhookEndpoint',
    contract: 'named-without-detail',
    mcpTool: 'marque_webhooks_get',
    method: 'GET',
    path: '/v1/webhooks/:id',
    operation: 'GetWebhookEndpoint',
    summary: 'Retrieve a webhook endpoint',
    description: "One of your endpoints, secret redacted; other organizations' are 404.",
    pathParams: [endpointIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: webhookEndpointSchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...webhooks,
    ...write,
    id: 'updateWebhookEndpoint',
    mcpTool: 'marque_webhooks_update',
    method: 'PATCH',
    path: '/v1/webhooks/:id',
    operation: 'UpdateWebhookEndpoint',
    summary: 'Update a webhook endpoint',
    description:
      'Partial update; omitted fields unchanged. status active or disabled: re-enabling an endpoint that was disabled automatically resets consecutive_failures to 0; while disabled it receives nothing (its pending retries wait, new events are not queued for it). ' +
      URL_RULE,
    pathParams: [endpointIdParam],
    body: [...endpointFields(false), { name: 'status', kind: { type: 'enum', values: ['active', 'disabled'] }, description: 'active or disabled.' }],
    successStatus: 200,
    envelope: 'single',
    response: webhookEndpointSchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
  {
    ...webhooks,
    ...write,
    id: 'deleteWebhookEndpoint',
    contract: 'unnamed',
    mcpTool: 'marque_webhooks_delete',
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    operation: 'DeleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint',
    description: 'Nothing more is sent to it; its delivery log goes with it. The events stay in GET /v1/events.',
    pathParams: [endpointIdParam],
    successStatus: 200,
    envelope: 'single',
    response: deletedObjectSchema('webhook_endpoint'),
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...webhooks,
    ...write,
    id: 'rotateWebhookSecret',
    contract: 'unnamed',
    method: 'POST',
    path: '/v1/webhooks/:id/rotate',
    operation: 'RotateWebhookSecret',
    summary: 'Rotate the signing secret',
    description: `A new secret, shown this once in secret; secret_version + 1. For ${ROTATION_OVERLAP_HOURS} hours the previous secret keeps signing too (webhook-signature then carries two signatures, space-separated), so a receiver verifies with either while it switches; after that, only the new one.`,
    pathParams: [endpointIdParam],
    successStatus: 200,
    envelope: 'single',
    response: webhookEndpointWithSecretSchema,
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...webhooks,
    ...write,
    id: 'sendWebhookTest',
    contract: 'named-without-detail',
    mcpTool: 'marque_webhooks_test',
    method: 'POST',
    path: '/v1/webhooks/:id/test',
    operation: 'SendWebhookTest',
    summary: 'Send a test event',
    description:
      'Queues one webhook.test event for this endpoint alone, whatever its enabled_events and also while it is disabled: one attempt within about a second, never retried, logged as a delivery. ' +
      'Answers 202 with the pending delivery; read its outcome with GET /v1/webhooks/{id}/deliveries/{delivery_id}.',
    pathParams: [endpointIdParam],
    successStatus: 202,
    envelope: 'single',
    response: webhookDeliverySchema,
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...webhooks,
    ...read,
    id: 'listWebhookDeliveries',
    mcpTool: 'marque_webhooks_list_deliveries',
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    operation: 'ListWebhookDeliveries',
    summary: "List an endpoint's deliveries",
    description:
      'Every attempt, newest first. Rows are kept 30 days; since keeps rows created at or after it, and a since older than 30 days answers an empty list (the rows are gone), not an error. Alert history beyond 30 days: GET /v1/alerts.',
    pathParams: [endpointIdParam],
    query: [{ name: 'since', kind: { type: 'timestamp' }, description: 'Rows created at or after this instant (ISO 8601).' }, ...countedPageParams],
    successStatus: 200,
    envelope: 'list',
    response: webhookDeliverySchema,
    errors: [400, 404],
    variables: ({ path, query }) => ({ ...query, id: path.id }),
  },
  {
    ...webhooks,
    ...read,
    id: 'getWebhookDelivery',
    contract: 'named-without-detail',
    mcpTool: 'marque_webhooks_get_delivery',
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries/:delivery_id',
    operation: 'GetWebhookDelivery',
    summary: 'Retrieve a delivery',
    description: 'One attempt of one of your endpoints.',
    pathParams: [endpointIdParam, deliveryIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: webhookDeliverySchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id, delivery_id: path.delivery_id }),
  },
  {
    ...webhooks,
    ...write,
    id: 'redeliverWebhook',
    contract: 'named-without-detail',
    mcpTool: 'marque_webhooks_redeliver',
    method: 'POST',
    path: '/v1/webhooks/:id/deliveries/:delivery_id/redeliver',
    operation: 'RedeliverWebhook',
    summary: 'Redeliver an event',
    description:
      "Queues one more attempt of the delivery's event: a new row numbered after the event's last attempt, with the same event_id and so the same webhook-id (receivers that processed it already deduplicate). One attempt, not retried; sent also while the endpoint is disabled. Answers 202 with the pending row.",
    pathParams: [endpointIdParam, deliveryIdParam],
    successStatus: 202,
    envelope: 'single',
    response: webhookDeliverySchema,
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id, delivery_id: path.delivery_id }),
  },
  {
    kind: 'operation',
    scope: 'events:read',
    pool: 'monitoring',
    feature: 'events',
    tag: 'Events',
    ...read,
    id: 'listEvents',
    contract: 'named-without-detail',
    mcpTool: 'list_events',
    method: 'GET',
    path: '/v1/events',
    operation: 'ListEvents',
    summary: 'List events',
    description:
      "Your organization's event log, newest first: alert.created, watch.created/updated/paused/resumed/deleted, webhook_endpoint.disabled. Each event is exactly the body its webhook delivery carries; the data schemas are in GET /v1/event-types?category=webhook. Test events are not listed.",
    pathParams: [],
    query: [
      { name: 'type', kind: { type: 'enum', values: SUBSCRIBABLE_EVENT_TYPES }, description: 'Keep events of this type.' },
      { name: 'created_at_gte', kind: { type: 'timestamp' }, description: 'Created at or after this instant.' },
      { name: 'created_at_lt', kind: { type: 'timestamp' }, description: 'Created before this instant.' },
      ...countedPageParams,
    ],
    successStatus: 200,
    envelope: 'list',
    response: eventSchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
];
