/**
 * Webhook endpoints, deliveries and the event feed, black-box over HTTP (issue 16): endpoints are
 * managed through /v1/webhooks, alerts come from marks written through the one write path and the
 * watch evaluator, and a real HTTP receiver on a loopback port gets the deliveries, verifying them
 * with the `standardwebhooks` library a customer would use. The harness clock is pinned (an
 * offset from real time) so retries and the rotation overlap can be reached without waiting.
 *
 * Expected values come from the contract (spec: Webhook endpoint, Webhook delivery, Events), the
 * Standard Webhooks specification and the documented retry schedule (domain/webhook-retries.ts).
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { COLLECTIONS } from '../../domain/records';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { addMark, updateMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send } from '../support/http';
import { signaturesOf, standardSignature, WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';

interface Endpoint {
  id: string;
  object: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: string;
  secret_version: number;
  consecutive_failures: number;
  last_success_at: string | null;
  last_failure_at: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
  secret?: string;
  request_id?: string;
}

interface Delivery {
  id: string;
  object: string;
  endpoint_id: string;
  alert_id: string | null;
  event_id: string;
  event_type: string;
  attempt: number;
  delivery_attempt_id: string;
  status: string;
  http_status: number | null;
  response_body: string | null;
  error: string | null;
  signature_timestamp: string | null;
  next_retry_at: string | null;
  delivered_at: string | null;
  created_at: string;
}

interface EventObject {
  id: string;
  object: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

interface List<T> {
  object: string;
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null };
}

const HOUR_MS = 3_600_000;
const today = (): string => new Date().toISOString().slice(0, 10);
const daysAgo = (days: number): string => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

describe('webhooks: endpoints, signed deliveries and the event feed (issue 16)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let writer: MarkWriter;
  let receiver: WebhookReceiver;
  /** The harness clock runs this far ahead of real time. */
  let offsetMs = 0;

  before(async () => {
    app = await startTestApp({
      marks: 200,
      now: () => new Date(Date.now() + offsetMs),
      organization: { plan: 'pro' },
      // Jitter pinned to its middle: each retry comes exactly the documented delay later.
      webhooks: { random: () => 0.5 },
    });
    writer = new MarkWriter(app.adapters.store, () => new Date(Date.now() + offsetMs));
  });
  after(async () => app.close());
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    // Back to real time: the store stamps the change feed with the real clock, and a watch hears of
    // changes stamped after its creation on the harness clock.
    offsetMs = 0;
    // Nothing of one test is left for the next to deliver: endpoints go with their deliveries.
    for (const endpoint of (await ok<List<Endpoint>>(await send(app, 'GET', '/v1/webhooks?limit=100'))).data) {
      await ok(await send(app, 'DELETE', `/v1/webhooks/${endpoint.id}`));
    }
    await receiver.close();
  });

  const createEndpoint = async (body: Record<string, unknown> = {}, key?: string): Promise<Endpoint> =>
    ok<Endpoint>(await send(app, 'POST', '/v1/webhooks', { url: receiver.url, ...body }, key), 201);
  const deliveriesOf = async (endpointId: string, query = ''): Promise<Delivery[]> =>
    (await ok<List<Delivery>>(await send(app, 'GET', `/v1/webhooks/${endpointId}/deliveries?limit=100${query}`))).data;
  const dispatch = () => app.server.webhookDispatcher.runUntilIdle();

  /** A new US mark under a trademark watch. */
  async function markUnderWatch(markText: string): Promise<{ trademarkId: string; watchId: string }> {
    const { trademark_id: trademarkId } = await addMark(app.adapters.store, writer, {
      markText,
      officeCode: 'US',
      classes: [9],
      ownerName: 'Webhook Test Ltd',
      status: 'pending',
      today: today(),
    });
    const watch = await ok<{ id: string }>(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { trademark_ids: [trademarkId] } }), 201);
    await app.server.watchEvaluator.catchUp();
    return { trademarkId, watchId: watch.id };
  }

  /** Publishes a watched mark: one alert, hence one alert.created event. */
  async function publish(trademarkId: string): Promise<void> {
    await updateMark(app.adapters.store, writer, trademarkId, { status: 'published', eventType: null, publicationDate: daysAgo(2), today: today() });
    await app.server.watchEvaluator.catchUp();
  }

  async function alertOnNewMark(markText: string): Promise<{ trademarkId: string; watchId: string }> {
    const marked = await markUnderWatch(markText);
    await publish(marked.trademarkId);
    return marked;
  }

  describe('alert.created, delivered', () => {
    it('reaches the receiver once, signed per Standard Webhooks, with the payload the contract names and the OpenAPI document describes', async () => {
      const endpoint = await createEndpoint({ description: 'docketing' });
      const { trademarkId, watchId } = await alertOnNewMark('Quartz Falcon');
      await dispatch();
      await dispatch();
      expect(receiver.received).to.have.length(1);
      const [request] = receiver.received as [ReceivedWebhook];

      // The customer's verification: the library checks the signature and the 5-minute timestamp window.
      const verified = new Webhook(endpoint.secret as string).verify(request.body, request.headers) as EventObject;
      expect(request.headers['content-type']).to.match(/^application\/json/);
      expect(verified).to.include({ object: 'event', type: 'alert.created', id: request.headers['webhook-id'] });
      const [alert] = (
        await ok<List<{ id: string; must_act_by: string; opposition_window_status: string }>>(await send(app, 'GET', `/v1/watches/${watchId}/alerts`))
      ).data;
      expect(verified.data).to.include({
        alert_id: alert?.id,
        watch_id: watchId,
        trademark_id: trademarkId,
        trademark_record_id: trademarkId,
        must_act_by: alert?.must_act_by,
        opposition_window_status: alert?.opposition_window_status,
      });
      expect(verified.data.opposition_window_status).to.equal('open');

      // The body matches the schema the OpenAPI document publishes for this event type.
      const doc = await ok<{ webhooks: Record<string, { post: { requestBody: { content: { 'application/json': { schema: object } } } } }> }>(
        await app.get('/v1/openapi.json', null),
      );
      const ajv = new Ajv({ strict: false });
      addFormats(ajv);
      const validate = ajv.compile(doc.webhooks['alert.created']!.post.requestBody.content['application/json'].schema);
      expect(validate(verified), JSON.stringify(validate.errors)).to.equal(true);

      // Logged as one delivered row whose event_id and signature_timestamp are the headers (rule 1).
      const [row, ...more] = await deliveriesOf(endpoint.id);
      expect(more).to.have.length(0);
      expect(row).to.include({
        object: 'webhook_delivery',
        endpoint_id: endpoint.id,
        alert_id: alert?.id,
        event_id: request.headers['webhook-id'],
        event_type: 'alert.created',
        attempt: 1,
        status: 'delivered',
        http_status: 200,
        response_body: 'ok',
        next_retry_at: null,
        delivery_attempt_id: request.headers['webhook-attempt-id'],
      });
      expect(row?.signature_timestamp).to.equal(new Date(Number(request.headers['webhook-timestamp']) * 1000).toISOString());
      expect(row?.delivered_at).to.be.a('string');
      expect(row?.id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(await ok<Delivery>(await send(app, 'GET', `/v1/webhooks/${endpoint.id}/deliveries/${row?.id}`))).to.deep.include(row as Delivery);
      const after = await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${endpoint.id}`));
      expect(after.last_success_at).to.be.a('string');
      expect(after.consecutive_failures).to.equal(0);

      // The feed carries the very object the webhook carried.
      const feed = await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?type=alert.created'));
      expect(feed.data.find((event) => event.id === verified.id)).to.deep.equal(verified);
    });

    it('goes by the endpoint as it was when the event was created, however late the dispatcher reads it', async () => {
      const endpoint = await createEndpoint();
      const patch = (body: Record<string, unknown>) => send(app, 'PATCH', `/v1/webhooks/${endpoint.id}`, body);
      // Created while the endpoint was active; the endpoint is disabled before the dispatcher reads it.
      await alertOnNewMark('Quartz Marten');
      await ok(await patch({ status: 'disabled' }));
      await dispatch();
      expect(receiver.received, 'a disabled endpoint is sent nothing').to.have.length(0);
      // Created while it was disabled: an event of that time, never its.
      await alertOnNewMark('Quartz Stoat');
      await ok(await patch({ status: 'active' }));
      await dispatch();
      const events = receiver.received.map((request) => new Webhook(endpoint.secret as string).verify(request.body, request.headers) as EventObject);
      expect(events).to.have.length(1);
      const alert = await ok<{ trademark: { mark_text: string } }>(await send(app, 'GET', `/v1/alerts/${String(events[0]?.data.alert_id)}`));
      expect(alert.trademark.mark_text).to.equal('Quartz Marten');
      // Unsubscribed from alert.created before the dispatcher reads the event: not its either.
      await ok(await patch({ enabled_events: ['watch.paused'] }));
      await alertOnNewMark('Quartz Weasel');
      await ok(await patch({ enabled_events: ['alert.created'] }));
      await dispatch();
      expect(receiver.received).to.have.length(1);
    });

    it('goes only to endpoints subscribed to the type, and to every one of them', async () => {
      const subscribed = await createEndpoint();
      const other = await WebhookReceiver.start();
      try {
        const unsubscribed = await createEndpoint({ url: other.url, enabled_events: ['watch.paused'] });
        const second = await createEndpoint({ url: `${receiver.url}?second` });
        await alertOnNewMark('Quartz Otter');
        await dispatch();
        expect(other.received).to.have.length(0);
        expect(receiver.received.map((request) => request.headers['webhook-id'])).to.have.length(2);
        expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).to.equal(1);
        expect(await deliveriesOf(unsubscribed.id)).to.have.length(0);
        for (const endpoint of [subscribed, second]) expect((await deliveriesOf(endpoint.id)).map((row) => row.status)).to.deep.equal(['delivered']);
      } finally {
        await other.close();
      }
    });

    it('a watch lifecycle event reaches an endpoint that subscribes to it', async () => {
      const endpoint = await createEndpoint({ enabled_events: ['watch.paused', 'watch.resumed', 'watch.deleted'] });
      const { watchId } = await alertOnNewMark('Quartz Lynx');
      await ok(await send(app, 'POST', `/v1/watches/${watchId}/pause`), 200);
      await ok(await send(app, 'POST', `/v1/watches/${watchId}/resume`), 200);
      await ok(await send(app, 'DELETE', `/v1/watches/${watchId}`), 200);
      await dispatch();
      const events = receiver.received.map((request) => new Webhook(endpoint.secret as string).verify(request.body, request.headers) as EventObject);
      // Each says the watch's status after the change.
      expect(events.map((event) => [event.type, event.data.watch_id, event.data.status])).to.deep.equal([
        ['watch.paused', watchId, 'paused'],
        ['watch.resumed', watchId, 'active'],
        ['watch.deleted', watchId, 'deleted'],
      ]);
    });
  });

  describe('retries and auto-disable', () => {
    it('a failed attempt is retried 5 s later with the same webhook-id; the row says failed with next_retry_at; 1 KB of the answer is kept', async () => {
      const endpoint = await createEndpoint();
      receiver.respond = (_, index) => (index === 0 ? { status: 503, body: 'x'.repeat(3000) } : { status: 204 });
      await alertOnNewMark('Quartz Marten');
      await dispatch();
      expect(receiver.received).to.have.length(1);
      // The next attempt is queued as its own pending row beside the failed one.
      const [next, first] = await deliveriesOf(endpoint.id);
      expect(next).to.include({ attempt: 2, status: 'pending', http_status: null, signature_timestamp: null });
      expect(first).to.include({ attempt: 1, status: 'failed', http_status: 503, delivered_at: null });
      expect(first?.response_body).to.equal('x'.repeat(1024));
      const failedAt = Date.parse(first?.signature_timestamp as string);
      expect(Date.parse(first?.next_retry_at as string) - failedAt).to.be.within(5_000, 6_000);
      expect((await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${endpoint.id}`))).consecutive_failures).to.equal(1);

      // Not due yet: nothing is sent. Six seconds on, the retry goes.
      await dispatch();
      expect(receiver.received).to.have.length(1);
      offsetMs += 6_000;
      await dispatch();
      expect(receiver.received).to.have.length(2);
      const [one, two] = receiver.received as [ReceivedWebhook, ReceivedWebhook];
      expect(two.headers['webhook-id']).to.equal(one.headers['webhook-id']);
      expect(two.headers['webhook-attempt-id']).not.to.equal(one.headers['webhook-attempt-id']);
      expect(two.body).to.equal(one.body);
      const rows = await deliveriesOf(endpoint.id);
      expect(rows.map((row) => [row.attempt, row.status, row.http_status])).to.deep.equal([
        [2, 'delivered', 204],
        [1, 'failed', 503],
      ]);
      expect(rows[1]?.event_id).to.equal(rows[0]?.event_id);
      expect((await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${endpoint.id}`))).consecutive_failures).to.equal(0);
    });

    it('a receiver that always fails: 8 attempts over the schedule, the last exhausted; the endpoint is disabled, says so in an event, and PATCH status active resets its failures', async () => {
      const failing = await createEndpoint();
      // Watched now, published once the endpoint is disabled (the store stamps changes with the real clock).
      const later = await markUnderWatch('Quartz Weasel');
      const watcher = await WebhookReceiver.start();
      try {
        const monitor = await createEndpoint({ url: watcher.url, enabled_events: ['webhook_endpoint.disabled'] });
        receiver.respond = () => ({ status: 500 });
        await alertOnNewMark('Quartz Badger');
        // The documented delays before attempts 2..8 (README, OpenAPI): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
        const delays = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000].map((seconds) => seconds * 1000);
        await dispatch();
        for (const delay of delays) {
          offsetMs += delay;
          await dispatch();
        }
        offsetMs += 36_000_000;
        await dispatch();
        expect(receiver.received).to.have.length(8);
        const rows = (await deliveriesOf(failing.id)).reverse();
        expect(rows.map((row) => row.attempt)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
        expect(rows.map((row) => row.status)).to.deep.equal([...Array<string>(7).fill('failed'), 'exhausted']);
        expect(rows[7]?.next_retry_at).to.equal(null);
        const gaps = rows.slice(1).map((row, i) => Date.parse(row.signature_timestamp as string) - Date.parse(rows[i]?.signature_timestamp as string));
        gaps.forEach((gap, i) => expect(gap, `before attempt ${i + 2}`).to.be.within(delays[i] as number, (delays[i] as number) + 1_000));

        const disabled = await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${failing.id}`));
        expect(disabled).to.include({ status: 'disabled', consecutive_failures: 8 });
        expect(disabled.last_failure_at).to.be.a('string');
        const [notice] = (await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?type=webhook_endpoint.disabled'))).data;
        expect(notice?.data).to.include({ endpoint_id: failing.id, url: failing.url, consecutive_failures: 8 });
        // The notice reached the endpoint that subscribes to it, signed with its secret (checked by
        // hand: it was signed at the pinned clock, hours ahead of the library's 5-minute window).
        await watcher.waitFor(1);
        const [request] = watcher.received as [ReceivedWebhook];
        expect(signaturesOf(request)).to.deep.equal([standardSignature(monitor.secret as string, request)]);
        expect(JSON.parse(request.body)).to.deep.equal(notice);
      } finally {
        await watcher.close();
      }

      // Disabled: a new alert queues nothing for it.
      await publish(later.trademarkId);
      expect((await ok<List<unknown>>(await send(app, 'GET', `/v1/watches/${later.watchId}/alerts`))).data).to.have.length(1);
      await dispatch();
      expect(receiver.received).to.have.length(8);
      expect(await deliveriesOf(failing.id)).to.have.length(8);

      const reenabled = await ok<Endpoint>(await send(app, 'PATCH', `/v1/webhooks/${failing.id}`, { status: 'active' }));
      expect(reenabled).to.include({ status: 'active', consecutive_failures: 0 });
    });
  });

  describe('endpoints: create, read, change, delete', () => {
    it('creation shows the Standard Webhooks secret once; no read, list, GraphQL answer or request log ever has it again', async () => {
      const created = await createEndpoint({ metadata: { team: 'docketing' } });
      expect(created).to.include({
        object: 'webhook_endpoint',
        url: receiver.url,
        description: null,
        status: 'active',
        secret_version: 1,
        consecutive_failures: 0,
      });
      expect(created.id).to.match(/^whk_/);
      // Subscribed to alerts when the body names no events (the service's default, documented).
      expect(created.enabled_events).to.deep.equal(['alert.created']);
      expect(created.metadata).to.deep.equal({ team: 'docketing' });
      const secret = created.secret as string;
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).to.have.length(32);

      const read = await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${created.id}`));
      const listed = await ok<List<Endpoint>>(await send(app, 'GET', '/v1/webhooks'));
      const patched = await ok<Endpoint>(await send(app, 'PATCH', `/v1/webhooks/${created.id}`, { description: 'x' }));
      for (const answer of [read, patched, ...listed.data]) expect(answer).not.to.have.property('secret');
      expect(JSON.stringify([read, listed, patched])).not.to.contain(secret.slice('whsec_'.length));
      const { secret: _, ...withoutSecret } = created;
      expect(read).to.deep.include({ ...withoutSecret, updated_at: read.updated_at, request_id: read.request_id });

      const graphql = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${app.keys.full}` },
        body: JSON.stringify({ query: `{ webhookEndpoint(id: "${created.id}") { id secret } webhookEndpoints { data { secret } } }` }),
      });
      const body = (await graphql.json()) as {
        data: { webhookEndpoint: { id: string; secret: string | null }; webhookEndpoints: { data: Array<{ secret: string | null }> } };
      };
      expect(body.data.webhookEndpoint).to.deep.equal({ id: created.id, secret: null });
      expect(body.data.webhookEndpoints.data.every((endpoint) => endpoint.secret === null)).to.equal(true);

      await app.flushRequestLogs();
      const logs = await app.adapters.store.collection(COLLECTIONS.requestLogs).find({});
      expect(JSON.stringify(logs)).not.to.contain(secret.slice('whsec_'.length));
    });

    it('a creation retried with the same Idempotency-Key answers the same endpoint and secret, and makes one endpoint', async () => {
      const headers = { 'idempotency-key': 'create-hook-once' };
      const first = await ok<Endpoint>(await send(app, 'POST', '/v1/webhooks', { url: receiver.url }, undefined, headers), 201);
      const again = await ok<Endpoint>(await send(app, 'POST', '/v1/webhooks', { url: receiver.url }, undefined, headers), 201);
      expect([again.id, again.secret]).to.deep.equal([first.id, first.secret]);
      expect((await ok<List<Endpoint>>(await send(app, 'GET', '/v1/webhooks'))).data.map((endpoint) => endpoint.id)).to.deep.equal([first.id]);
    });

    it('creation refuses what the contract refuses, naming the field', async () => {
      await fails(await send(app, 'POST', '/v1/webhooks', {}), 400, 'validation_error', 'url');
      await fails(await send(app, 'POST', '/v1/webhooks', { url: 'ftp://example.com/hook' }), 400, 'validation_error', 'url');
      await fails(await send(app, 'POST', '/v1/webhooks', { url: 'not a url' }), 400, 'validation_error', 'url');
      await fails(await send(app, 'POST', '/v1/webhooks', { url: 'https://user:pw@example.com/hook' }), 400, 'validation_error', 'url');
      await fails(await send(app, 'POST', '/v1/webhooks', { url: receiver.url, enabled_events: ['alert.sent'] }), 400, 'validation_error', 'enabled_events');
      await fails(await send(app, 'POST', '/v1/webhooks', { url: receiver.url, enabled_events: [] }), 400, 'validation_error', 'enabled_events');
      // webhook.test is sent on request, not subscribed to.
      await fails(await send(app, 'POST', '/v1/webhooks', { url: receiver.url, enabled_events: ['webhook.test'] }), 400, 'validation_error', 'enabled_events');
      await fails(await send(app, 'POST', '/v1/webhooks', { url: receiver.url, description: 7 }), 400, 'validation_error', 'description');
      expect((await ok<List<Endpoint>>(await send(app, 'GET', '/v1/webhooks'))).data).to.have.length(0);
    });

    it('PATCH: omitted fields unchanged, null clears description, enabled_events replaces, unknown type or status is 400, metadata merges', async () => {
      const created = await createEndpoint({ description: 'first', enabled_events: ['alert.created', 'watch.paused'], metadata: { a: '1' } });
      const patch = async (body: unknown) => ok<Endpoint>(await send(app, 'PATCH', `/v1/webhooks/${created.id}`, body));

      const described = await patch({ description: 'second' });
      expect(described).to.include({ description: 'second', url: created.url, status: 'active' });
      expect(described.enabled_events).to.deep.equal(['alert.created', 'watch.paused']);
      expect((await patch({ description: null })).description).to.equal(null);
      expect((await patch({ enabled_events: ['watch.deleted'] })).enabled_events).to.deep.equal(['watch.deleted']);
      expect((await patch({ metadata: { b: '2' } })).metadata).to.deep.equal({ a: '1', b: '2' });
      const moved = await patch({ url: `${receiver.url}/v2` });
      expect(moved.url).to.equal(`${receiver.url}/v2`);

      await fails(
        await send(app, 'PATCH', `/v1/webhooks/${created.id}`, { enabled_events: ['alert.created', 'mark.sold'] }),
        400,
        'validation_error',
        'enabled_events',
      );
      await fails(await send(app, 'PATCH', `/v1/webhooks/${created.id}`, { status: 'paused' }), 400, 'validation_error', 'status');
      await fails(await send(app, 'PATCH', `/v1/webhooks/${created.id}`, { url: 'gopher://x' }), 400, 'validation_error', 'url');
      // A field that cannot be cleared: null is refused, not read as "leave it" (the client would think it changed).
      for (const field of ['url', 'status', 'enabled_events']) {
        const refused = await fails(await send(app, 'PATCH', `/v1/webhooks/${created.id}`, { [field]: null }), 400, 'validation_error', field);
        expect(refused.error.detail).to.contain('cannot be cleared');
      }
      expect((await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${created.id}`))).url).to.equal(`${receiver.url}/v2`);
      expect((await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${created.id}`))).enabled_events).to.deep.equal(['watch.deleted']);

      // A disabled endpoint receives nothing; enabled again, it does.
      await patch({ status: 'disabled', enabled_events: ['alert.created'] });
      await alertOnNewMark('Quartz Heron');
      await dispatch();
      expect(receiver.received).to.have.length(0);
      expect((await patch({ status: 'active' })).status).to.equal('active');
      await alertOnNewMark('Quartz Crane');
      await dispatch();
      expect(receiver.received).to.have.length(1);
    });

    it('DELETE removes the endpoint and its delivery log', async () => {
      const created = await createEndpoint();
      await alertOnNewMark('Quartz Stoat');
      await dispatch();
      expect(await ok(await send(app, 'DELETE', `/v1/webhooks/${created.id}`))).to.include({ id: created.id, object: 'webhook_endpoint', deleted: true });
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}`), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries`), 404, 'not_found');
      expect(await app.adapters.store.collection(COLLECTIONS.webhookDeliveries).find({ endpoint_id: created.id })).to.have.length(0);
    });

    it("another organization's endpoint is 404 on every route and absent from its list; an ID of another kind is id_type_mismatch", async () => {
      const created = await createEndpoint();
      await alertOnNewMark('Quartz Vole');
      await dispatch();
      const [delivery] = await deliveriesOf(created.id);
      const other = app.keys.otherOrg;
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'PATCH', `/v1/webhooks/${created.id}`, { description: 'mine' }, other), 404, 'not_found');
      await fails(await send(app, 'POST', `/v1/webhooks/${created.id}/rotate`, {}, other), 404, 'not_found');
      await fails(await send(app, 'POST', `/v1/webhooks/${created.id}/test`, {}, other), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries/${delivery?.id}`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'POST', `/v1/webhooks/${created.id}/deliveries/${delivery?.id}/redeliver`, {}, other), 404, 'not_found');
      await fails(await send(app, 'DELETE', `/v1/webhooks/${created.id}`, undefined, other), 404, 'not_found');
      expect((await ok<List<Endpoint>>(await send(app, 'GET', '/v1/webhooks', undefined, other))).data).to.have.length(0);
      const theirEvents = await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?limit=100', undefined, other));
      expect(theirEvents.data.map((event) => event.id)).not.to.include(delivery?.event_id);
      // Still there, unchanged, for its owner.
      expect((await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${created.id}`))).description).to.equal(null);
      await fails(await send(app, 'GET', '/v1/webhooks/wch_01m89anx9728jf1m11smthkh'), 400, 'id_type_mismatch', 'id');
    });
  });

  describe('the delivery log', () => {
    it('lists newest first with since and a cursor; a since older than the 30-day retention is an empty list; bad values are 400', async () => {
      const created = await createEndpoint();
      await alertOnNewMark('Quartz Shrike');
      await alertOnNewMark('Quartz Kestrel');
      await dispatch();
      const rows = await deliveriesOf(created.id);
      expect(rows).to.have.length(2);
      expect(rows[0]!.created_at >= rows[1]!.created_at).to.equal(true);

      const first = await ok<List<Delivery>>(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries?limit=1`));
      expect(first.has_more).to.equal(true);
      const second = await ok<List<Delivery>>(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries?limit=1&cursor=${first.pagination.cursor}`));
      expect([...first.data, ...second.data].map((row) => row.id)).to.deep.equal(rows.map((row) => row.id));
      expect(second.has_more).to.equal(false);

      const oldest = rows[1] as Delivery;
      const since = (at: string) => `&since=${encodeURIComponent(at)}`;
      expect((await deliveriesOf(created.id, since(oldest.created_at))).map((row) => row.id)).to.deep.equal(rows.map((row) => row.id));
      const justAfter = new Date(Date.parse(rows[0]!.created_at) + 1).toISOString();
      expect(await deliveriesOf(created.id, since(justAfter))).to.have.length(0);
      const longAgo = new Date(Date.now() - 31 * 86_400_000).toISOString();
      const old = await ok<List<Delivery>>(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries?since=${encodeURIComponent(longAgo)}`));
      expect(old).to.deep.include({ object: 'list', data: [], has_more: false });

      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries?since=yesterday`), 400, 'validation_error', 'since');
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries?limit=101`), 400, 'validation_error', 'limit');
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries/not-a-uuid`), 400, 'validation_error', 'delivery_id');
      await fails(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries/00000000-0000-4000-8000-000000000000`), 404, 'not_found');
    });

    it('redeliver: a new attempt row for the same event, so the same webhook-id; a failed redelivery is not retried', async () => {
      const created = await createEndpoint();
      await alertOnNewMark('Quartz Plover');
      await dispatch();
      const [original] = (await deliveriesOf(created.id)) as [Delivery];
      const queued = await ok<Delivery>(await send(app, 'POST', `/v1/webhooks/${created.id}/deliveries/${original.id}/redeliver`, {}), 202);
      expect(queued).to.include({ event_id: original.event_id, event_type: 'alert.created', alert_id: original.alert_id, attempt: 2, status: 'pending' });
      expect(queued.id).not.to.equal(original.id);
      await dispatch();
      expect(receiver.received).to.have.length(2);
      const [first, again] = receiver.received as [ReceivedWebhook, ReceivedWebhook];
      expect(again.headers['webhook-id']).to.equal(first.headers['webhook-id']);
      expect(again.body).to.equal(first.body);
      expect(new Webhook(created.secret as string).verify(again.body, again.headers)).to.deep.equal(JSON.parse(first.body));
      expect(await ok<Delivery>(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries/${queued.id}`))).to.include({
        status: 'delivered',
        http_status: 200,
      });

      receiver.respond = () => ({ status: 502 });
      const failing = await ok<Delivery>(await send(app, 'POST', `/v1/webhooks/${created.id}/deliveries/${original.id}/redeliver`, {}), 202);
      expect(failing.attempt).to.equal(3);
      await dispatch();
      offsetMs += 3 * HOUR_MS;
      await dispatch();
      expect(receiver.received).to.have.length(3);
      const rows = await deliveriesOf(created.id);
      expect(rows.map((row) => [row.attempt, row.status])).to.deep.equal([
        [3, 'exhausted'],
        [2, 'delivered'],
        [1, 'delivered'],
      ]);
    });
  });

  describe('secret rotation', () => {
    it('a new secret, shown once, secret_version + 1; for 24 hours both secrets sign each delivery, then only the new one', async () => {
      const created = await createEndpoint();
      const later = await markUnderWatch('Quartz Sparrow');
      const rotated = await ok<Endpoint>(await send(app, 'POST', `/v1/webhooks/${created.id}/rotate`, {}));
      expect(rotated.secret_version).to.equal(2);
      expect(rotated.secret).to.match(/^whsec_/);
      expect(rotated.secret).not.to.equal(created.secret);
      const read = await ok<Endpoint>(await send(app, 'GET', `/v1/webhooks/${created.id}`));
      expect(read).to.include({ secret_version: 2 });
      expect(read).not.to.have.property('secret');

      await alertOnNewMark('Quartz Finch');
      await dispatch();
      const [during] = receiver.received as [ReceivedWebhook];
      expect(signaturesOf(during)).to.have.members([standardSignature(rotated.secret as string, during), standardSignature(created.secret as string, during)]);
      // Receivers on either secret accept it.
      for (const secret of [created.secret, rotated.secret])
        expect(new Webhook(secret as string).verify(during.body, during.headers)).to.have.property('type', 'alert.created');

      offsetMs += 25 * HOUR_MS;
      await publish(later.trademarkId);
      await dispatch();
      const after = receiver.received[1] as ReceivedWebhook;
      expect(signaturesOf(after)).to.deep.equal([standardSignature(rotated.secret as string, after)]);
    });
  });

  describe('test events', () => {
    it('POST /test delivers a signed webhook.test whatever enabled_events says, logs it, never retries it, and keeps it out of the event feed', async () => {
      const created = await createEndpoint({ enabled_events: ['watch.deleted'] });
      const queued = await ok<Delivery>(await send(app, 'POST', `/v1/webhooks/${created.id}/test`, {}), 202);
      expect(queued).to.include({
        object: 'webhook_delivery',
        endpoint_id: created.id,
        event_type: 'webhook.test',
        attempt: 1,
        status: 'pending',
        alert_id: null,
      });
      await dispatch();
      const [request] = receiver.received as [ReceivedWebhook];
      const event = new Webhook(created.secret as string).verify(request.body, request.headers) as EventObject;
      expect(event).to.include({ type: 'webhook.test', id: queued.event_id });
      expect(event.data).to.include({ endpoint_id: created.id });
      expect(await ok<Delivery>(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries/${queued.id}`))).to.include({
        status: 'delivered',
        http_status: 200,
      });
      const feed = await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?limit=100'));
      expect(feed.data.map((entry) => entry.id)).not.to.include(queued.event_id);

      receiver.respond = () => ({ status: 500 });
      const failing = await ok<Delivery>(await send(app, 'POST', `/v1/webhooks/${created.id}/test`, {}), 202);
      await dispatch();
      offsetMs += HOUR_MS;
      await dispatch();
      expect(receiver.received).to.have.length(2);
      expect(await ok<Delivery>(await send(app, 'GET', `/v1/webhooks/${created.id}/deliveries/${failing.id}`))).to.include({
        status: 'exhausted',
        http_status: 500,
        next_retry_at: null,
      });
    });
  });

  describe('the event feed, GET /v1/events', () => {
    it('newest first, cursor-paginated, filtered by type and created_at; an unknown type is 400', async () => {
      const { watchId } = await alertOnNewMark('Quartz Wren');
      await ok(await send(app, 'POST', `/v1/watches/${watchId}/pause`), 200);
      const all = await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?limit=100'));
      const ours = all.data.filter((event) => event.data.watch_id === watchId);
      expect(ours.map((event) => event.type)).to.deep.equal(['watch.paused', 'alert.created', 'watch.created']);
      const times = all.data.map((event) => event.created_at);
      expect(times).to.deep.equal([...times].sort().reverse());
      for (const event of all.data) expect(event.object).to.equal('event');

      const paused = await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?type=watch.paused&limit=100'));
      expect(paused.data.length).to.be.greaterThan(0);
      expect(paused.data.every((event) => event.type === 'watch.paused')).to.equal(true);

      const page1 = await ok<List<EventObject>>(await send(app, 'GET', '/v1/events?limit=2'));
      const page2 = await ok<List<EventObject>>(await send(app, 'GET', `/v1/events?limit=2&cursor=${page1.pagination.cursor}`));
      expect([...page1.data, ...page2.data].map((event) => event.id)).to.deep.equal(all.data.slice(0, 4).map((event) => event.id));

      const pausedAt = ours[0]!.created_at;
      const since = await ok<List<EventObject>>(await send(app, 'GET', `/v1/events?created_at_gte=${encodeURIComponent(pausedAt)}&limit=100`));
      expect(since.data.map((event) => event.id)).to.include(ours[0]!.id);
      expect(since.data.every((event) => event.created_at >= pausedAt)).to.equal(true);
      const before = await ok<List<EventObject>>(await send(app, 'GET', `/v1/events?created_at_lt=${encodeURIComponent(pausedAt)}&limit=100`));
      expect(before.data.map((event) => event.id)).not.to.include(ours[0]!.id);

      await fails(await send(app, 'GET', '/v1/events?type=alert.sent'), 400, 'validation_error', 'type');
      await fails(await send(app, 'GET', '/v1/events?created_at_gte=soon'), 400, 'validation_error', 'created_at_gte');
    });

    it('needs events:read: a key without it is 403 forbidden', async () => {
      const { secret } = await createApiKey(app.adapters.store, { organizationId: app.organizationId, name: 'no events', scopes: ['portfolios:manage'] });
      await fails(await send(app, 'GET', '/v1/events', undefined, secret), 403, 'forbidden', 'events:read');
      await ok(await send(app, 'GET', '/v1/webhooks', undefined, secret));
    });
  });

  describe('the running dispatcher', () => {
    it('delivers on its own, and the first retry comes within 10 seconds', async () => {
      await createEndpoint();
      receiver.respond = (_, index) => ({ status: index === 0 ? 500 : 200 });
      app.server.webhookDispatcher.start();
      try {
        await alertOnNewMark('Quartz Robin');
        await receiver.waitFor(1, 5_000);
        await receiver.waitFor(2, 10_000);
        const [first, retry] = receiver.received as [ReceivedWebhook, ReceivedWebhook];
        expect(retry.headers['webhook-id']).to.equal(first.headers['webhook-id']);
        // The documented first delay: 5 s ± 20 % (jitter pinned to its middle here).
        expect(retry.at - first.at).to.be.at.least(4_000);
      } finally {
        await app.server.webhookDispatcher.stop();
      }
    });
  });
});

describe('webhooks on a plan without the event feed, in production (issue 16)', function () {
  this.timeout(60_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp({ marks: 20, organization: { plan: 'starter' }, webhooks: { environment: 'production' } });
  });
  after(async () => app.close());

  it('GET /v1/events is 403 plan_upgrade_required on a plan without the feed; webhooks are part of monitoring', async () => {
    await fails(await send(app, 'GET', '/v1/events'), 403, 'plan_upgrade_required');
    await ok(await send(app, 'GET', '/v1/webhooks'));
  });

  it('production refuses http, loopback, private, link-local and metadata addresses, naming url', async () => {
    for (const url of [
      'http://hooks.example.com/marque',
      'https://127.0.0.1/hook',
      'https://10.0.0.7/hook',
      'https://192.168.1.20/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://localhost/hook',
    ]) {
      await fails(await send(app, 'POST', '/v1/webhooks', { url }), 400, 'validation_error', 'url');
    }
    expect((await ok<List<Endpoint>>(await send(app, 'GET', '/v1/webhooks'))).data).to.have.length(0);
  });
});
