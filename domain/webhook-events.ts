/**
 * The event types of an organization's event log, which webhooks deliver and `GET /v1/events`
 * lists (spec: Events; it shows `alert.created` only, the rest is this service's design). Each
 * type has a description and the JSON Schema of its `data`; `GET /v1/event-types` and the
 * OpenAPI document's `webhooks` section both read this one list.
 *
 * Every event, in the feed and as a webhook body, has the same shape: `{id, object: "event",
 * type, created_at, data}`; a webhook's `webhook-id` header is the event's `id`.
 */
import { ALERT_TRIGGER_TYPES, WATCH_STATUSES, WATCH_TYPES, type EventDoc } from './records';

/** A JSON Schema, as plain data (domain/ has no schema builder; rest/ renders these as they are). */
export type PayloadSchema = Record<string, unknown>;

export interface WebhookEventType {
  type: string;
  description: string;
  data: PayloadSchema;
}

const str = (description: string, nullable = false): PayloadSchema => ({ type: nullable ? ['string', 'null'] : 'string', description });
const objectOf = (properties: Record<string, PayloadSchema>): PayloadSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const WINDOW_STATUSES = ['not_published', 'not_started', 'open', 'closed', 'no_rule'];

const watchData = objectOf({
  watch_id: str('The watch (wch_...).'),
  watch_type: { type: 'string', enum: WATCH_TYPES },
  status: { type: 'string', enum: [...WATCH_STATUSES, 'deleted'], description: 'The watch status after the change: deleted for watch.deleted.' },
});

const watchEvent = (verb: string, when: string): WebhookEventType => ({
  type: `watch.${verb}`,
  description: `A watch was ${verb}: ${when}.`,
  data: watchData,
});

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  {
    type: 'alert.created',
    description:
      'A watch produced a new alert: a mark it watches changed, or a new or changed mark matched its query. Read the whole alert with GET /v1/alerts/{alert_id}.',
    data: objectOf({
      alert_id: str('The alert (alt_...).'),
      watch_id: str('The watch that produced it (wch_...).'),
      trademark_id: str('The mark the alert is about (tm_...).'),
      trademark_record_id: { ...str('Deprecated duplicate of trademark_id, kept for older receivers.'), deprecated: true },
      trigger: { type: 'string', enum: ALERT_TRIGGER_TYPES, description: 'What happened to the mark.' },
      record_version: { type: 'integer', description: 'The version of the mark that triggered the alert.' },
      score: { type: ['number', 'null'], description: 'similarity watches: the score (0 to 1); null otherwise.' },
      must_act_by: {
        type: ['string', 'null'],
        format: 'date',
        description:
          'The last day to oppose (the opposition window close), approximate for windows that closed long ago; renewal alerts: the renewal due date.',
      },
      opposition_window_status: { type: 'string', enum: WINDOW_STATUSES, description: "The mark's opposition window when the alert was made." },
    }),
  },
  watchEvent('created', 'POST /v1/watches or the bulk route'),
  watchEvent('updated', 'PATCH /v1/watches/{id}'),
  watchEvent('paused', 'POST /v1/watches/{id}/pause'),
  watchEvent('resumed', 'POST /v1/watches/{id}/resume; it evaluates changes from now on'),
  watchEvent('deleted', 'DELETE /v1/watches/{id}; its alerts stay readable'),
  {
    type: 'webhook_endpoint.disabled',
    description:
      'An endpoint was disabled automatically after its deliveries kept failing (see the retry schedule); it receives nothing until PATCH /v1/webhooks/{id} sets status active. Delivered to your other endpoints that subscribe to it.',
    data: objectOf({
      endpoint_id: str('The disabled endpoint (whk_...).'),
      url: str('Its URL.'),
      consecutive_failures: { type: 'integer', description: 'Failed attempts in a row when it was disabled.' },
      failing_since: { type: 'string', format: 'date-time', description: 'The first failed attempt of that run.' },
    }),
  },
  {
    type: 'webhook.test',
    description:
      'Sent by POST /v1/webhooks/{id}/test to that endpoint alone, whatever its enabled_events: one attempt, never retried, logged as a delivery; not in GET /v1/events.',
    data: objectOf({ endpoint_id: str('The endpoint tested (whk_...).'), message: str('A fixed text.') }),
  },
];

const WEBHOOK_EVENT_TYPE_NAMES: readonly string[] = WEBHOOK_EVENT_TYPES.map((eventType) => eventType.type);

/** Event types an endpoint may subscribe to (webhook.test needs no subscription: it is sent on request). */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = WEBHOOK_EVENT_TYPE_NAMES.filter((type) => type !== 'webhook.test');

/** An event as `GET /v1/events` lists it and as a webhook's body carries it. */
export function eventObject(event: EventDoc) {
  return { id: event._id, object: 'event', type: event.type, created_at: event.created_at, data: event.data };
}
