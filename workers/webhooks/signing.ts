/**
 * Standard Webhooks signing (https://www.standardwebhooks.com), with the reference library: the
 * `webhook-signature` header is `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under
 * each secret that still signs (the current one, and during a rotation overlap the previous one),
 * space-separated, as the specification allows several signatures in one header.
 */
import { Webhook } from 'standardwebhooks';
import type { WebhookSecret } from '../../domain/records';

/** The secrets that sign at `at`: the current one and any whose overlap has not ended. */
export function signingSecrets(secrets: readonly WebhookSecret[], at: Date): WebhookSecret[] {
  const now = at.toISOString();
  return secrets.filter((secret) => secret.expires_at === null || secret.expires_at > now);
}

/** The three Standard Webhooks headers of one attempt; `timestamp` is whole seconds. */
export function signedHeaders(secrets: readonly WebhookSecret[], eventId: string, timestamp: Date, body: string): Record<string, string> {
  const signature = signingSecrets(secrets, timestamp)
    .map((secret) => new Webhook(secret.secret).sign(eventId, timestamp, body))
    .join(' ');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': signature,
  };
}
