/**
 * A new webhook endpoint record (spec: Webhook endpoint): active, secret version 1, no failures
 * yet. The one place that knows every field a fresh endpoint starts with.
 */
import type { WebhookEndpointDoc } from './records';

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
    created_at: at,
    updated_at: at,
  };
}
