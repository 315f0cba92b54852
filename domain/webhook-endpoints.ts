/**
 * A new webhook endpoint record (spec: Webhook endpoint): active, secret version 1, no failures
 * yet. The one place that knows every field a fresh endpoint starts with.
 */
import type { EndpointDeliveryState, WebhookEndpointDoc } from './records';

export interface NewEndpoint {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
  /** The signing secret (whsec_...), version 1. */
  secret: string;
  metadata: Record<string, string>;
  at: Date;
}

export function newEndpointDoc(input: NewEndpoint): WebhookEndpointDoc {
  const at = input.at.toISOString();
  return {
    _id: input.id,
    organization_id: input.organizationId,
    url: input.url,
    description: input.description,
    enabled_events: input.enabledEvents,
    status: 'active',
    disabled_reason: null,
    secrets: [{ version: 1, secret: input.secret, expires_at: null }],
    secret_version: 1,
    consecutive_failures: 0,
    failing_since: null,
    last_success_at: null,
    last_failure_at: null,
    metadata: input.metadata,
    delivery_states: [{ at, status: 'active', enabled_events: input.enabledEvents }],
    created_at: at,
    updated_at: at,
  };
}

/** Delivery states kept per endpoint; an event older than the oldest kept is judged by that one. */
const KEPT_DELIVERY_STATES = 50;

/** `endpoint` with its current status and subscriptions recorded as its delivery state from `at` on (when they changed). */
export function withDeliveryState(endpoint: WebhookEndpointDoc, at: string): WebhookEndpointDoc {
  const states = endpoint.delivery_states ?? [];
  const last = states[states.length - 1];
  const current: EndpointDeliveryState = { at, status: endpoint.status, enabled_events: endpoint.enabled_events };
  if (last !== undefined && last.status === current.status && last.enabled_events.join('\n') === current.enabled_events.join('\n')) return endpoint;
  return { ...endpoint, delivery_states: [...states, current].slice(-KEPT_DELIVERY_STATES) };
}

/**
 * Whether an event of `type` created at `createdAt` is the endpoint's: it existed then, was active
 * and subscribed to the type. Judged by the state of that moment, however late fan-out runs: an
 * endpoint disabled since still gets its row (sent once it is enabled again), and events of a
 * time it was disabled or unsubscribed are not its.
 */
export function receivesEvent(endpoint: WebhookEndpointDoc, type: string, createdAt: string): boolean {
  if (createdAt < endpoint.created_at) return false;
  const states = endpoint.delivery_states ?? [];
  const then = states.findLast((state) => state.at <= createdAt) ?? states[0] ?? endpoint;
  return then.status === 'active' && then.enabled_events.includes(type);
}
