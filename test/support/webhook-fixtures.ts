/**
 * Webhook rows for worker tests that drive the dispatcher without the HTTP API: an endpoint as
 * POST /v1/webhooks stores it, and alert.created events as the watch evaluator appends them.
 */
import { randomBytes } from 'node:crypto';
import { randomId } from '../../domain/ids';
import type { EventDoc, WebhookEndpointDoc } from '../../domain/records';

export function endpointDoc(organizationId: string, url: string, at: Date, overrides: Partial<WebhookEndpointDoc> = {}): WebhookEndpointDoc {
  return {
    _id: randomId('whk_', at.getTime()),
    organization_id: organizationId,
    url,
    description: null,
    enabled_events: ['alert.created'],
    status: 'active',
    disabled_reason: null,
    secrets: [{ version: 1, secret: `whsec_${randomBytes(32).toString('base64')}`, expires_at: null }],
    secret_version: 1,
    consecutive_failures: 0,
    failing_since: null,
    last_success_at: null,
    last_failure_at: null,
    metadata: {},
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    ...overrides,
  };
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
