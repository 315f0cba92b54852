/**
 * An endpoint's delivery log (spec: Webhook delivery; GET /v1/webhooks/{id}/deliveries): list
 * newest first with `since`, read one, and redeliver one. Rows are kept 30 days; a `since`
 * before that retention answers an empty list (spec), not an error.
 *
 * A redelivery is a new row for the same event (so the same `webhook-id`: receivers that already
 * processed it deduplicate), numbered after the event's last attempt, tried once and not retried;
 * it is sent even while the endpoint is disabled, like a test event, so a fixed receiver can be
 * checked before the endpoint is re-enabled. A test event (POST /v1/webhooks/{id}/test) is queued
 * here too: one attempt of a `webhook.test` event.
 */
import { invalid, notFound } from '../../domain/errors';
import { randomId, UUID_PATTERN } from '../../domain/ids';
import { COLLECTIONS, type WebhookDeliveryDoc } from '../../domain/records';
import { retentionCutoff } from '../../domain/retention';
import { parseTimestamp, truncate } from '../../domain/validation';
import { DELIVERY_RETENTION_DAYS, newDelivery } from '../../domain/webhook-deliveries';
import { eventObject } from '../../domain/webhook-events';
import { pageOf, paginationOf, totalIf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { requireEndpoint } from './endpoints';

const deliveriesOf = (ctx: RequestContext) => ctx.services.store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries);

/** The public delivery row (the body sent is not repeated: it is the event, GET /v1/events). */
export function deliveryObject(delivery: WebhookDeliveryDoc) {
  return {
    id: delivery._id,
    object: 'webhook_delivery',
    endpoint_id: delivery.endpoint_id,
    alert_id: delivery.alert_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    attempt: delivery.attempt,
    delivery_attempt_id: delivery.delivery_attempt_id,
    status: delivery.status,
    http_status: delivery.http_status,
    response_body: delivery.response_body,
    error: delivery.error,
    signature_timestamp: delivery.signature_timestamp,
    next_retry_at: delivery.next_retry_at,
    delivered_at: delivery.delivered_at,
    created_at: delivery.created_at,
  };
}

function checkDeliveryId(raw: string): string {
  const id = raw.toLowerCase();
  if (!UUID_PATTERN.test(id)) throw invalid('delivery_id', `must be a delivery ID (a UUID such as 0b7d…-…; got '${truncate(raw)}')`);
  return id;
}

interface DeliveryListArgs {
  id: string;
  since?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

async function listDeliveries(args: DeliveryListArgs, ctx: RequestContext) {
  const endpoint = await requireEndpoint(args.id, ctx);
  const since = args.since === undefined || args.since === null ? null : parseTimestamp(args.since);
  if (args.since && since === null) throw invalid('since', `must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z (got '${truncate(args.since)}')`);
  const binding = { list: 'webhook_deliveries', endpoint: endpoint._id, since };
  const limit = pageLimit(args.limit);
  if (since !== null && since < retentionCutoff(ctx.services.now(), DELIVERY_RETENTION_DAYS)) {
    return { data: [], has_more: false, pagination: paginationOf(null, await totalIf(args.include_total, () => 0)) };
  }
  const filter = { endpoint_id: endpoint._id, ...(since === null ? {} : { created_at: { $gte: since } }) };
  const page = await pageOf(deliveriesOf(ctx), filter, limit, args.cursor ?? null, binding, ctx.services.cursors, {
    orderField: 'created_at',
    includeTotal: args.include_total,
  });
  return { ...page, data: page.data.map(deliveryObject) };
}

/** The caller's endpoint and one of its deliveries, or 404. */
async function requireDelivery(args: { id: string; delivery_id: string }, ctx: RequestContext) {
  const endpoint = await requireEndpoint(args.id, ctx);
  const deliveryId = checkDeliveryId(args.delivery_id);
  const delivery = await deliveriesOf(ctx).findOne({ _id: deliveryId, endpoint_id: endpoint._id });
  if (!delivery) throw notFound(`delivery ${deliveryId} of webhook endpoint ${endpoint._id}`);
  return { endpoint, delivery };
}

async function redeliver(args: { id: string; delivery_id: string }, ctx: RequestContext) {
  const { endpoint, delivery: original } = await requireDelivery(args, ctx);
  return ctx.services.store.transaction(async () => {
    const [last] = await deliveriesOf(ctx).find({ endpoint_id: endpoint._id, event_id: original.event_id }, { sort: { attempt: -1 }, limit: 1 });
    const attempt = (last?.attempt ?? original.attempt) + 1;
    const delivery = newDelivery(
      endpoint,
      { eventId: original.event_id, eventType: original.event_type, alertId: original.alert_id, body: original.body },
      { attempt, maxAttempts: attempt, now: ctx.services.now(), requested: true },
    );
    await deliveriesOf(ctx).insertOne(delivery);
    return deliveryObject(delivery);
  });
}

/**
 * Queues one `webhook.test` event for this endpoint alone (whatever its enabled_events, also
 * while it is disabled): one attempt, never retried, logged as a delivery. Answers the queued
 * delivery; its outcome is read with GET /v1/webhooks/{id}/deliveries/{delivery_id}.
 */
async function sendTestEvent(id: string, ctx: RequestContext) {
  const endpoint = await requireEndpoint(id, ctx);
  const now = ctx.services.now();
  const event = {
    _id: randomId('evt_', now.getTime()),
    organization_id: endpoint.organization_id,
    type: 'webhook.test',
    data: { endpoint_id: endpoint._id, message: 'A test event from Marque: your endpoint received and can verify it.' },
    created_at: now.toISOString(),
  };
  const delivery = newDelivery(
    endpoint,
    { eventId: event._id, eventType: event.type, alertId: null, body: JSON.stringify(eventObject(event)) },
    {
      attempt: 1,
      maxAttempts: 1,
      requested: true,
      now,
    },
  );
  await ctx.services.store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries).insertOne(delivery);
  return deliveryObject(delivery);
}

export const webhookDeliveryQueryResolvers = {
  webhookDeliveries: (_: unknown, args: DeliveryListArgs, ctx: RequestContext) => listDeliveries(args, ctx),
  webhookDelivery: async (_: unknown, args: { id: string; delivery_id: string }, ctx: RequestContext) =>
    deliveryObject((await requireDelivery(args, ctx)).delivery),
};

export const webhookDeliveryMutationResolvers = {
  redeliverWebhook: (_: unknown, args: { id: string; delivery_id: string }, ctx: RequestContext) => redeliver(args, ctx),
  sendWebhookTest: (_: unknown, args: { id: string }, ctx: RequestContext) => sendTestEvent(args.id, ctx),
};
