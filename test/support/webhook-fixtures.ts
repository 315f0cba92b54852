/**
 * Webhook rows for worker tests that drive the dispatcher without the HTTP API: an endpoint as
 * POST /v1/webhooks stores it, and alert.created events as the watch evaluator appends them.
 */
import { randomBytes } from 'node:crypto';
import { randomId } from '../../domain/ids';
import type { EventDoc, WebhookEndpointDoc } from '../../domain/records';
import { newEndpointDoc } from '../../domain/webhook-endpoints';

export function endpointDoc(organizationId: string, url: string, at: Date, overrides: Partial<WebhookEndpointDoc> = {}): WebhookEndpointDoc {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const id = randomId('whk_', at.getTime());
  return { ...newEndpointDoc({ id, organizationId, url, description: null, enabledEvents: ['alert.created'], secret, metadata: {}, at }), ...overrides };
}

/** `count` alert.created events of `organizationId`, one millisecond apart from `at` on. */
export function alertEvents(organizationId: string, count: number, at: Date): EventDoc[] {
  return Array.from({ length: count }, (_, i) => {
    const created = new Date(at.getTime() + i);
    const alertId = randomId('alt_', created.getTime());
    const trademarkId = `tm_fixture${String(i).padStart(11, '0')}`;
    return {
      _id: randomId('evt_', created.getTime()),
      organization_id: organizationId,
      type: 'alert.created',
      data: {
        alert_id: alertId,
        watch_id: 'wch_fixture',
        trademark_id: trademarkId,
        trademark_record_id: trademarkId,
        trigger: 'new_filing',
        record_version: 1,
        score: null,
        must_act_by: null,
        opposition_window_status: 'not_published',
      },
      created_at: created.toISOString(),
    };
  });
}
