/**
 * A real HTTP receiver for webhook tests: listens on a loopback port, records every request
 * (headers and raw body) and answers what the test says, as a customer's endpoint would.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

export interface ReceivedWebhook {
  /** The request path (with its query), which tells endpoints sharing one receiver apart. */
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the request had been read. */
  at: number;
}

export interface ReceiverAnswer {
  status: number;
  body?: string;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** The answer to the `index`-th request (0-based); 200 unless a test says otherwise. */
  respond: (request: ReceivedWebhook, index: number) => ReceiverAnswer = () => ({ status: 200, body: 'ok' });
  /** Milliseconds the receiver takes before answering (a slow customer endpoint). */
  latencyMs = 0;

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(path = '/hooks/marque'): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        const received: ReceivedWebhook = { path: request.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const self = receiver as WebhookReceiver;
        self.received.push(received);
        const answer = self.respond(received, self.received.length - 1);
        const reply = () => response.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
        if (self.latencyMs > 0) setTimeout(reply, self.latencyMs);
        else reply();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`);
    return receiver;
  }

  /** Waits until `count` requests have arrived; throws after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`the receiver had ${this.received.length} of ${count} requests after ${timeoutMs} ms`);
      await delay(20);
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The signatures `secret` makes for a request, computed by hand from the Standard Webhooks
 * specification (HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}", keyed with the
 * base64 after `whsec_`), so a test can check a signature without the library's clock check.
 */
export function standardSignature(secret: string, request: ReceivedWebhook): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

/** The signatures in a request's `webhook-signature` header (space-separated). */
export function signaturesOf(request: ReceivedWebhook): string[] {
  return (request.headers['webhook-signature'] ?? '').split(' ').filter((part) => part !== '');
}
