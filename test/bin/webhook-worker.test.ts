/**
 * `marque worker webhooks` killed with SIGKILL in the middle of a queue of deliveries and started
 * again: every event reaches every endpoint (nothing acknowledged is lost), and whatever is sent
 * twice (an attempt cut off before its outcome was recorded) carries the same webhook-id and the
 * same webhook-attempt-id, so receivers deduplicate it; no delivery gets a new identity. And two
 * of them started on one data directory: one sends (it holds the dispatcher's lease), the other
 * stands by, so nothing is sent twice, and it finishes the queue after the first is killed.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { closeAdapters, openAdapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';
import { COLLECTIONS, type EventDoc, type WebhookDeliveryDoc, type WebhookEndpointDoc } from '../../domain/records';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { WebhookDispatcher } from '../../workers/webhooks/dispatcher';
import { alertEvents, endpointDoc } from '../support/webhook-fixtures';
import { WebhookReceiver } from '../support/webhook-receiver';
import { MARQUE } from '../support/serve-process';

const ENDPOINTS = 3;
const EVENTS = 200;
/** Short, so the standby takes over quickly once the holder is killed. */
const LEASE_MS = 2_000;

function startWorker(dataDir: string) {
  const child = spawn(process.execPath, [MARQUE, 'worker', 'webhooks'], {
    env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent', MARQUE_WORKER_LEASE_MS: String(LEASE_MS) },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

interface Queue {
  dataDir: string;
  receiver: WebhookReceiver;
  events: EventDoc[];
  endpoints: WebhookEndpointDoc[];
}

/** A data directory whose dispatcher has ENDPOINTS × EVENTS deliveries ahead of it, to a slow receiver. */
async function queueDeliveries(): Promise<Queue> {
  const dataDir = mkdtempSync(join(tmpdir(), 'marque-webhook-worker-'));
  const receiver = await WebhookReceiver.start();
  // A slow customer: each answer takes 10 ms, so the queue is still long when the worker dies.
  receiver.latencyMs = 10;
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
  try {
    const org = await createOrganization(adapters.store, { name: 'Webhook worker test', plan: 'pro' });
    const now = new Date();
    const endpoints = Array.from({ length: ENDPOINTS }, (_, i) => endpointDoc(org._id, `${receiver.url}/${i}`, now));
    await adapters.store.collection<WebhookEndpointDoc>(COLLECTIONS.webhookEndpoints).insertMany(endpoints);
    // The dispatcher's checkpoint is set before the events, as a running service would have it.
    await new WebhookDispatcher(adapters.store, async () => ({ ok: true, status: 200, body: '' })).initialize();
    const events = alertEvents(org._id, EVENTS, new Date(now.getTime() + 1));
    for (const event of events) await adapters.store.collection<EventDoc>(COLLECTIONS.events).insertOne(event);
    return { dataDir, receiver, events, endpoints };
  } finally {
    await closeAdapters(adapters);
  }
}

/** Waits until every endpoint has received every event at least once (or a minute has passed). */
async function untilAllReceived({ receiver }: Queue): Promise<void> {
  const distinct = () => new Set(receiver.received.map((request) => `${request.path} ${request.headers['webhook-id']}`)).size;
  for (let tries = 0; tries < 1_200 && distinct() < ENDPOINTS * EVENTS; tries++) await delay(50);
  await delay(500);
}

/** Every endpoint got every event; every delivery row is delivered at its first attempt, and each request carried a row's attempt ID. */
async function expectAllDelivered({ dataDir, receiver, events, endpoints }: Queue): Promise<void> {
  const byEndpoint = new Map<string, Set<string>>();
  for (const request of receiver.received) {
    const got = byEndpoint.get(request.path) ?? new Set<string>();
    got.add(request.headers['webhook-id'] as string);
    byEndpoint.set(request.path, got);
  }
  const eventIds = events.map((event) => event._id).sort();
  for (const endpoint of endpoints) expect([...(byEndpoint.get(new URL(endpoint.url).pathname) ?? [])].sort()).to.deep.equal(eventIds);
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
  try {
    const rows = await adapters.store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries).find({});
    expect(rows).to.have.length(ENDPOINTS * EVENTS);
    expect(rows.every((row) => row.status === 'delivered' && row.attempt === 1)).to.equal(true);
    const attemptIds = new Set(rows.map((row) => row.delivery_attempt_id));
    for (const request of receiver.received) expect(attemptIds.has(request.headers['webhook-attempt-id'] as string)).to.equal(true);
  } finally {
    await closeAdapters(adapters);
  }
}

/**
 * The pid of the worker holding the dispatcher's lease (its holder is host/pid/random), read until someone holds it, for up to one
 * lease time: on a loaded machine a holder's renewal can come late enough for the lease to lapse
 * for a moment before it is taken again.
 */
async function heldLeasePid(dataDir: string): Promise<number | null> {
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
  try {
    const until = Date.now() + LEASE_MS;
    for (;;) {
      const holder = await adapters.kv.get('worker-lease:webhooks');
      if (holder !== null) return Number(holder.split('/')[1]);
      if (Date.now() >= until) return null;
      await delay(100);
    }
  } finally {
    await closeAdapters(adapters);
  }
}

describe('bin: marque worker webhooks', function () {
  this.timeout(180_000);
  let queue: Queue;

  beforeEach(async () => {
    queue = await queueDeliveries();
  });

  afterEach(async () => {
    await queue.receiver.close();
    rmSync(queue.dataDir, { recursive: true, force: true });
  });

  it('delivers every event to every endpoint after a restart, any repeat with the same identity', async () => {
    const { dataDir, receiver } = queue;
    const total = ENDPOINTS * EVENTS;
    const first = startWorker(dataDir);
    await receiver.waitFor(total / 4, 60_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = receiver.received.length;
    expect(atKill, 'killed mid-queue').to.be.below(total);

    const second = startWorker(dataDir);
    try {
      await untilAllReceived(queue);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }

    await expectAllDelivered(queue);
    // Repeats are the attempts in flight at the kill (one per endpoint at most), with their identity.
    const repeats = receiver.received.length - total;
    expect(repeats).to.be.within(0, ENDPOINTS);
  });

  it('sends each delivery from one of them, and the other takes over within the lease after the first is killed', async () => {
    const { dataDir, receiver } = queue;
    const total = ENDPOINTS * EVENTS;
    const workers = [startWorker(dataDir), startWorker(dataDir)];
    try {
      await receiver.waitFor(total / 4, 60_000);
      // Both ran side by side all along: had both sent, every delivery so far would have gone twice.
      const sent = receiver.received.map((request) => `${request.path} ${request.headers['webhook-id']}`);
      expect(new Set(sent).size, 'no delivery sent twice while both run').to.equal(sent.length);

      const holderPid = await heldLeasePid(dataDir);
      const holder = workers.find((worker) => worker.child.pid === holderPid);
      expect(holder, 'one of the two holds the lease').to.not.equal(undefined);
      holder!.child.kill('SIGKILL');
      await holder!.exited;
      const atKill = receiver.received.length;
      expect(atKill, 'killed mid-queue').to.be.below(total);

      await untilAllReceived(queue);
      expect(await heldLeasePid(dataDir)).to.equal(workers.find((worker) => worker !== holder)!.child.pid);
    } finally {
      for (const worker of workers) worker.child.kill('SIGTERM');
      await Promise.all(workers.map((worker) => worker.exited));
    }

    await expectAllDelivered(queue);
    // Repeats: only the attempts in flight at the kill (one per endpoint at most).
    expect(receiver.received.length - total).to.be.within(0, ENDPOINTS);
  });
});
