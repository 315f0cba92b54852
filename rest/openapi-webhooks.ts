/**
 * The OpenAPI 3.1 `webhooks` section: one entry per webhook event type, generated from the one
 * list in domain/webhook-events.ts (as GET /v1/event-types is), with the Standard Webhooks
 * headers, the body (the event object with that type's `data`), how to verify the signature and
 * the retry policy.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../domain/webhook-events';
import { RETRY_POLICY_TEXT } from '../domain/webhook-retries';
import { ROTATION_OVERLAP_HOURS } from '../resolvers/webhooks/endpoints';

const VERIFYING = `
Every delivery is a POST with a JSON body signed per Standard Webhooks (https://www.standardwebhooks.com):
verify it with the endpoint's secret (\`whsec_...\`) using any Standard Webhooks library, e.g.
\`new Webhook(secret).verify(rawBody, headers)\` from the npm package \`standardwebhooks\`, over the raw body
as received. During the ${ROTATION_OVERLAP_HOURS} hours after POST /v1/webhooks/{id}/rotate, \`webhook-signature\`
carries one signature per secret (old and new), space-separated; a receiver accepts the delivery when
any of them verifies. Answer 2xx within 10 seconds. Deliveries are at least once: deduplicate on
\`webhook-id\` (the event ID, the same in every attempt and redelivery). ${RETRY_POLICY_TEXT}
`.trim();

const header = (description: string, example: string) => ({ required: true, schema: { type: 'string' }, description, example });

const HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    ...header('The event ID (evt_...): the same on every attempt and redelivery; deduplicate on it.', 'evt_01JD8X3N5Q4M2Z7Y9W6V5T3R1P'),
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    ...header('When this attempt was signed, in Unix seconds; reject it when far from now (Standard Webhooks libraries allow 5 minutes).', '1764072000'),
  },
  {
    name: 'webhook-signature',
    in: 'header',
    ...header(
      'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">, space-separated when two secrets sign during a rotation.',
      'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    ),
  },
  {
    name: 'webhook-attempt-id',
    in: 'header',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description: 'This attempt (the delivery row), for support requests; not signed.',
  },
];

function webhookOperation(eventType: WebhookEventType) {
  return {
    post: {
      operationId: `webhook_${eventType.type.replace(/\./g, '_')}`,
      summary: eventType.type,
      description: `${eventType.description}\n\n${VERIFYING}`,
      tags: ['Webhooks'],
      // Deliveries carry no credential: the receiver verifies the signature instead (above).
      security: [],
      parameters: HEADERS,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['id', 'object', 'type', 'created_at', 'data'],
              additionalProperties: false,
              properties: {
                id: { type: 'string', description: 'The event ID; equals the webhook-id header.' },
                object: { const: 'event' },
                type: { const: eventType.type },
                created_at: { type: 'string', format: 'date-time' },
                data: eventType.data,
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received. Any 2xx ends the delivery; the first 1 KB of the answer is kept on the delivery row.' },
        default: { description: 'Anything else (or no answer within 10 s) is a failed attempt, retried on the schedule above (webhook.test excepted).' },
      },
    },
  };
}

/** `webhooks` of the OpenAPI document, keyed by event type. */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(WEBHOOK_EVENT_TYPES.map((eventType) => [eventType.type, webhookOperation(eventType)]));
}
