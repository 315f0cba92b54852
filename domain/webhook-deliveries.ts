/**
 * Delivery rows (spec: Webhook delivery): one row per attempt to deliver one event to one
 * endpoint. The first attempt's row ID is derived from endpoint + event, so the dispatcher,
 * reading an event again after a crash, finds the row it already made instead of making a
 * second; later attempts, redeliveries and tests get random IDs, written in the same transaction
 * as the outcome that called for them.
 */
import { randomUUID } from 'node:crypto';
import { derivedUuid } from './ids';
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from './records';

/** Delivery rows are kept this long (spec: Other constants). */
export const DELIVERY_RETENTION_DAYS = 30;
/** The first bytes of a receiver's answer kept on the row (spec: first 1 KB). */
export const RESPONSE_BODY_BYTES = 1024;

export interface DeliveryEvent {
  eventId: string;
  eventType: string;
  alertId: string | null;
  /** The exact body to send: the event object as JSON. */
  body: string;
}

/** A pending attempt of `event` to `endpoint`, due at `dueAt` (default now). */
export function newDelivery(
  endpoint: Pick<WebhookEndpointDoc, '_id' | 'organization_id'>,
  event: DeliveryEvent,
  options: { attempt: number; maxAttempts: number; now: Date; dueAt?: Date; derived?: boolean; requested?: boolean },
): WebhookDeliveryDoc {
  const id = options.derived ? derivedUuid(`delivery:${endpoint._id}:${event.eventId}:${options.attempt}`) : randomUUID();
  return {
    _id: id,
    organization_id: endpoint.organization_id,
    endpoint_id: endpoint._id,
    event_id: event.eventId,
    event_type: event.eventType,
    alert_id: event.alertId,
    attempt: options.attempt,
    max_attempts: options.maxAttempts,
    requested: options.requested ?? false,
    delivery_attempt_id: options.derived ? derivedUuid(`attempt:${endpoint._id}:${event.eventId}:${options.attempt}`) : randomUUID(),
    status: 'pending',
    due_at: (options.dueAt ?? options.now).toISOString(),
    http_status: null,
    response_body: null,
    error: null,
    signature_timestamp: null,
    next_retry_at: null,
    delivered_at: null,
    body: event.body,
    created_at: options.now.toISOString(),
  };
}
