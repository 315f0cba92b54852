/**
 * Response shapes of webhook endpoints, their deliveries and the event feed (spec: Webhook
 * endpoint, Webhook delivery, Events). The spec shows the endpoint and delivery records in full;
 * `error` on a delivery, and the event object, are this service's design.
 */
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_ENDPOINT_STATUSES } from '../../domain/records';
import { arrayOf, constant, freeObject, int, nullableInt, nullableStr, nullableTimestamp, object, str, timestamp, type JsonSchema, named } from './json-schema';

const endpointProperties: Record<string, JsonSchema> = {
  id: str('Webhook endpoint ID (whk_...).'),
  object: constant('webhook_endpoint'),
  url: str('Where events are POSTed (HTTPS in production).'),
  description: nullableStr(),
  enabled_events: arrayOf(str(), 'The event types it receives (GET /v1/event-types?category=webhook).'),
  status: { type: 'string', enum: WEBHOOK_ENDPOINT_STATUSES, description: 'active, or disabled (by a PATCH, or automatically after failing).' },
  secret_version: int('The signing secret version: 1 at creation, + 1 per rotation.'),
  consecutive_failures: int('Failed attempts since the last success.'),
  last_success_at: nullableTimestamp(),
  last_failure_at: nullableTimestamp(),
  metadata: freeObject('String-to-string map.'),
  created_at: timestamp(),
  updated_at: timestamp(),
};

/** The endpoint as every read returns it: the signing secret is never in it. */
export const webhookEndpointSchema: JsonSchema = named('WebhookEndpoint', object(endpointProperties, 'A webhook endpoint; its signing secret is redacted.'));

/** The answer of creation and rotation: the only time the secret is shown. */
export const webhookEndpointWithSecretSchema: JsonSchema = named(
  'WebhookEndpointWithSecret',
  object(
    {
      ...endpointProperties,
      secret: str('The signing secret, whsec_ + base64 of 32 random bytes (Standard Webhooks). Shown this once: store it now.'),
    },
    'A webhook endpoint with its new signing secret.',
  ),
);

export const webhookDeliverySchema: JsonSchema = named(
  'WebhookDelivery',
  object(
    {
      id: str('The delivery row (a UUID).'),
      object: constant('webhook_delivery'),
      endpoint_id: str('whk_...'),
      alert_id: nullableStr('alert.created deliveries: the alert (alt_...).'),
      event_id: str('The event (evt_...): the webhook-id header of every attempt, so receivers deduplicate on it.'),
      event_type: str('alert.created, watch.paused, …'),
      attempt: int('1 for the first attempt; retries and redeliveries count on.'),
      delivery_attempt_id: str('This attempt (a UUID), also sent as the webhook-attempt-id header.'),
      status: {
        type: 'string',
        enum: WEBHOOK_DELIVERY_STATUSES,
        description: 'pending (queued or being sent), delivered (2xx), failed (with next_retry_at when a retry follows), exhausted (the last attempt failed).',
      },
      http_status: nullableInt("The receiver's status code; null when no answer came."),
      response_body: nullableStr("The first 1 KB of the receiver's answer."),
      error: nullableStr('When no HTTP answer came: timeout, connection_failed or forbidden_address (production: the URL resolved to a private address).'),
      signature_timestamp: nullableTimestamp('The webhook-timestamp header of this attempt (null while pending).'),
      next_retry_at: nullableTimestamp('failed: when the next attempt is due.'),
      delivered_at: nullableTimestamp(),
      created_at: timestamp(),
    },
    'One attempt to deliver one event to one endpoint; rows are kept 30 days.',
  ),
);

export const eventSchema: JsonSchema = named(
  'WebhookEvent',
  object(
    {
      id: str('Event ID (evt_...): the webhook-id header of its deliveries.'),
      object: constant('event'),
      type: str('The event type (GET /v1/event-types?category=webhook).'),
      created_at: timestamp(),
      data: freeObject("The event's data; its schema per type is in GET /v1/event-types and this document's webhooks section."),
    },
    "An entry of the organization's event log: exactly the body its webhooks carry.",
  ),
);
