/**
 * The webhook dispatcher driven directly, with a pinned clock and a scripted `send` in place of
 * the HTTP client, so the retry schedule, auto-disable and the per-endpoint pool can be checked
 * exactly. The schedule and the disable rule are the documented ones (domain/webhook-retries.ts,
 * README): retries 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after a failure; disabled after 8
 * failures in a row spanning at least 24 hours.
 */
import { expect } from 'chai';
import { setTimeout as delay } from 'node:timers/promises';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import type { DocumentStore } from '../../../datasources/ports';
import { COLLECTIONS, type EventDoc, type WebhookDeliveryDoc, type WebhookEndpointDoc } from '../../../domain/records';
import { WEBHOOK_DISPATCHER_CHECKPOINT_ID } from '../../../workers/feed-checkpoints';
import { WebhookDispatcher, type SendOutcome } from '../../../workers/webhooks/dispatcher';
import { alertEvents, endpointDoc } from '../../support/webhook-fixtures';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

interface Call {
  url: string;
  at: number;
  headers: Record<string, string>;
}

describe('workers/webhooks/dispatcher', function () {
  this.timeout(30_000);
  let store: DocumentStore;
  let clock: number;
  let calls: Call[];
  /** The answer to a call; 200 unless a test says otherwise. */
  let answer: (call: Call) => SendOutcome | Promise<SendOutcome>;
  let dispatcher: WebhookDispatcher;
  const organizationId = 'org_dispatcher_test';

  beforeEach(async () => {
    store = createEmbeddedDocumentStore({ path: ':memory:' });
    clock = Date.parse('2026-11-02T09:00:00Z');
    calls = [];
    answer = () => ({ ok: true, status: 200, body: '' });
    dispatcher = new WebhookDispatcher(
      store,
      async (url, _body, headers) => {
        const call = { url, at: clock, headers };
        calls.push(call);
        return answer(call);
      },
      { now: () => new Date(clock), random: () => 0.5, onError: (error) => expect.fail(String(error)) },
    );
    await dispatcher.initialize();
  });
  afterEach(async () => store.close());

  const endpoints = () => store.collection<WebhookEndpointDoc>(COLLECTIONS.webhookEndpoints);
  const deliveries = () => store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries);
  const addEndpoint = async (url: string): Promise<WebhookEndpointDoc> => {
    const endpoint = endpointDoc(organizationId, url, new Date(clock));
    await endpoints().insertOne(endpoint);
    return endpoint;
  };
  const addEvents = async (count: number): Promise<EventDoc[]> => {
    const events = alertEvents(organizationId, count, new Date(clock));
    await store.collection<EventDoc>(COLLECTIONS.events).insertMany(events);
    // They were made one millisecond apart: the clock moves past the last.
    clock += count;
    return events;
  };
  /** Moves the clock to each due attempt in turn until nothing is pending (a disabled endpoint's rows wait). */
  const runToTheEnd = async (): Promise<void> => {
    for (;;) {
      await dispatcher.runUntilIdle();
      const disabled = (await endpoints().find({ status: 'disabled' })).map((endpoint) => endpoint._id);
      const [next] = await deliveries().find({ status: 'pending', endpoint_id: { $nin: disabled } }, { sort: { due_at: 1 }, limit: 1 });
      if (next === undefined) return;
      clock = Math.max(clock, Date.parse(next.due_at as string));
    }
  };

  it('N failures then a success: N + 1 attempts of the same event, each after the scheduled delay', async () => {
    await addEndpoint('http://receiver.test/a');
    const [event] = await addEvents(1);
    answer = () => (calls.length <= 3 ? { ok: true, status: 500, body: '' } : { ok: true, status: 200, body: '' });
    const started = clock;
    await runToTheEnd();
    expect(calls.map((call) => call.at - started)).to.deep.equal([0, 5 * SECOND, 5 * SECOND + 5 * MINUTE, 5 * SECOND + 35 * MINUTE]);
    expect(new Set(calls.map((call) => call.headers['webhook-id']))).to.deep.equal(new Set([event?._id]));
    expect(new Set(calls.map((call) => call.headers['webhook-attempt-id'])).size).to.equal(4);
    const rows = await deliveries().find({}, { sort: { attempt: 1 } });
    expect(rows.map((row) => [row.attempt, row.status])).to.deep.equal([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
      [4, 'delivered'],
    ]);
    expect((await endpoints().find({}))[0]).to.include({ consecutive_failures: 0, failing_since: null, status: 'active' });
  });

  it('jitter spreads a retry over ±20 % of its delay', async () => {
    for (const [random, expected] of [
      [0, 4 * SECOND],
      [0.75, 5.5 * SECOND],
    ] as const) {
      const spread = new WebhookDispatcher(store, async () => ({ ok: false, error: 'timeout', message: '' }), {
        now: () => new Date(clock),
        random: () => random,
      });
      await spread.initialize();
      const endpoint = await addEndpoint(`http://receiver.test/${random}`);
      await addEvents(1);
      const from = clock;
      await spread.runUntilIdle();
      const [retry] = await deliveries().find({ endpoint_id: endpoint._id, attempt: 2 });
      expect(Date.parse(retry?.due_at as string) - from).to.equal(expected);
      await deliveries().deleteMany({ endpoint_id: endpoint._id });
      await endpoints().deleteOne({ _id: endpoint._id });
    }
  });

  it('an endpoint that keeps failing for a day is disabled with a webhook_endpoint.disabled event; a burst of failures in one outage is not', async () => {
    const flaky = await addEndpoint('http://receiver.test/flaky');
    answer = () => ({ ok: false, error: 'connection_failed', message: 'ECONNREFUSED' });
    // Twenty events failing within a minute: twenty failures in a row, but not for 24 hours.
    await addEvents(20);
    for (let i = 0; i < 20; i++) {
      await dispatcher.runUntilIdle();
      clock += 2 * SECOND;
    }
    const afterBurst = await endpoints().findOne({ _id: flaky._id });
    expect(afterBurst?.consecutive_failures).to.be.at.least(20);
    expect(afterBurst?.status).to.equal('active');

    await runToTheEnd();
    const disabled = await endpoints().findOne({ _id: flaky._id });
    expect(disabled).to.include({ status: 'disabled', disabled_reason: 'failing' });
    const notices = await store.collection<EventDoc>(COLLECTIONS.events).find({ type: 'webhook_endpoint.disabled' });
    expect(notices).to.have.length(1);
    expect(notices[0]?.data).to.include({ endpoint_id: flaky._id, url: flaky.url });
    // Disabled once the run of failures had lasted 24 hours, not before.
    const failingSince = Date.parse(notices[0]?.data.failing_since as string);
    expect(Date.parse(notices[0]?.created_at as string) - failingSince).to.be.at.least(24 * HOUR);
    // The event that used up its 8 attempts is exhausted; the others wait, queued, for a re-enable.
    const exhausted = await deliveries().find({ status: 'exhausted' });
    expect(exhausted.length).to.be.at.least(1);
    expect(exhausted.every((row) => row.attempt === 8)).to.equal(true);
    const before = calls.length;
    clock += 48 * HOUR;
    await dispatcher.runUntilIdle();
    expect(calls.length, 'nothing is sent to a disabled endpoint').to.equal(before);
  });

  it('one slow receiver holds up neither the other endpoints nor the loop; each endpoint gets one attempt at a time', async () => {
    const slow = await addEndpoint('http://receiver.test/slow');
    await addEndpoint('http://receiver.test/fast');
    await addEvents(3);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = async (call) => {
      if (call.url === slow.url) await held;
      return { ok: true, status: 200, body: '' };
    };
    dispatcher.start();
    try {
      // The fast endpoint's three events go one after another while the slow one's first hangs.
      for (let tries = 0; tries < 500 && (await deliveries().find({ status: 'delivered' })).length < 3; tries++) await delay(10);
      const delivered = await deliveries().find({ status: 'delivered' });
      expect(delivered.map((row) => row.endpoint_id)).to.deep.equal(Array(3).fill(delivered[0]?.endpoint_id));
      expect(delivered[0]?.endpoint_id).not.to.equal(slow._id);
      expect(calls.filter((call) => call.url === slow.url)).to.have.length(1);
    } finally {
      release();
    }
    for (let tries = 0; tries < 500 && (await deliveries().find({ status: 'delivered' })).length < 6; tries++) await delay(10);
    await dispatcher.stop();
    expect(calls.filter((call) => call.url === slow.url)).to.have.length(3);
    expect(await deliveries().find({ status: 'delivered' })).to.have.length(6);
  });

  it('failing endpoints hold at most half the pool: with more dead receivers than slots, and older rows, an answering endpoint is still served', async () => {
    const pooled = new WebhookDispatcher(
      store,
      async (url, _body, headers) => {
        const call = { url, at: clock, headers };
        calls.push(call);
        return answer(call);
      },
      { now: () => new Date(clock), random: () => 0.5, concurrency: 4, onError: (error) => expect.fail(String(error)) },
    );
    await pooled.initialize();
    // Six receivers that failed before (their last attempt timed out) and now hang again.
    const dead: WebhookEndpointDoc[] = [];
    for (let i = 0; i < 6; i++) {
      const endpoint = await addEndpoint(`http://receiver.test/dead-${i}`);
      await endpoints().updateOne({ _id: endpoint._id }, { $set: { consecutive_failures: 1 } });
      dead.push(endpoint);
    }
    await addEvents(2);
    await pooled.fanOut();
    const healthy = await addEndpoint('http://receiver.test/healthy');
    await addEvents(1);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    answer = async (call) => {
      if (call.url !== healthy.url) await held;
      return { ok: true, status: 200, body: '' };
    };
    pooled.start();
    try {
      for (let tries = 0; tries < 500 && (await deliveries().find({ endpoint_id: healthy._id, status: 'delivered' })).length < 1; tries++) await delay(10);
      expect(await deliveries().find({ endpoint_id: healthy._id, status: 'delivered' })).to.have.length(1);
      // Half of the pool of 4 went to the dead receivers, one attempt each, the oldest rows first.
      const deadCalls = calls.filter((call) => call.url !== healthy.url);
      expect(deadCalls).to.have.length(2);
      expect(new Set(deadCalls.map((call) => call.url)).size).to.equal(2);
    } finally {
      release();
      await pooled.stop();
    }
  });

  it('fan-out read again from an older checkpoint (a crash before the checkpoint) makes no second row', async () => {
    await addEndpoint('http://receiver.test/a');
    const position = await store.latestPosition();
    await addEvents(5);
    expect(await dispatcher.fanOut()).to.equal(5);
    await store.collection<{ _id: string; position: string | null }>(COLLECTIONS.meta).replaceOne({ _id: WEBHOOK_DISPATCHER_CHECKPOINT_ID, position });
    const replay = new WebhookDispatcher(store, async () => ({ ok: true, status: 200, body: '' }), { now: () => new Date(clock) });
    expect(await replay.fanOut()).to.equal(0);
    expect(await deliveries().find({})).to.have.length(5);
  });
});
