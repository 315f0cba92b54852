/**
 * The webhook dispatcher: turns each new entry of the organizations' event logs into a delivery
 * to every active endpoint of that organization subscribed to its type, sends the due deliveries
 * signed per Standard Webhooks, and records each attempt as a delivery row (spec: Events).
 *
 * Two steps, each resumable after a crash (also `kill -9`):
 * - Fan-out reads the `events` collection from the change feed after its persisted checkpoint;
 *   a batch's first-attempt rows and the checkpoint commit in one transaction, and each row's ID
 *   is derived from endpoint + event, so a batch read again makes no second row.
 * - Sending picks pending rows that are due. A row stays `pending` until its outcome is
 *   committed, so a send cut off by a crash is sent again: at-least-once, with the same
 *   `webhook-id` (the event ID), which is how receivers deduplicate. The outcome, the next
 *   attempt's row, the endpoint's counters and a `webhook_endpoint.disabled` event commit together.
 *
 * One slow or dead receiver never holds up the others: at most one attempt per endpoint is in
 * flight (so an endpoint receives its events in order), at most `concurrency` in all, and every
 * attempt has a connect and a response timeout (the outbound client's). Endpoints whose last
 * attempt failed hold at most half the pool between them, and their due rows are passed over
 * while that half is taken: however many receivers of any organizations are dead (each holding a
 * slot for a whole timeout), the endpoints that answer keep the other half. Sends do not block
 * the loop: it goes on fanning out and starting other endpoints' attempts while they run.
 *
 * One dispatcher runs per data store (in `serve`, or alone as `marque worker webhooks` with
 * MARQUE_FEED_WORKERS leaving it out of serve): two would both send each due row. Its lease
 * (workers/worker-lease.ts) sees to it; a second copy stands by.
 */
import type { DocumentStore, Filter } from '../../datasources/ports';
import { derivedTimeId } from '../../domain/ids';
import { COLLECTIONS, type EventDoc, type WebhookDeliveryDoc, type WebhookEndpointDoc } from '../../domain/records';
import { newDelivery } from '../../domain/webhook-deliveries';
import { receivesEvent, withDeliveryState } from '../../domain/webhook-endpoints';
import { eventObject } from '../../domain/webhook-events';
import { MAX_ATTEMPTS, nextAttemptAt, shouldDisableEndpoint } from '../../domain/webhook-retries';
import { WEBHOOK_DISPATCHER_CHECKPOINT_ID, WEBHOOK_DISPATCHER_FEED } from '../feed-checkpoints';
import { FeedConsumer } from '../feed-consumer';
import { FeedLoop } from '../feed-loop';
import { signedHeaders } from './signing';

/** What one HTTP attempt came to (the outbound client's answer; it never throws). */
export type SendOutcome = { ok: true; status: number; body: string } | { ok: false; error: string; message: string };

/** POSTs `body` with `headers` to `url`, within the client's timeouts and address rules, reading at most RESPONSE_BODY_BYTES of the answer. */
export type SendWebhook = (url: string, body: string, headers: Record<string, string>) => Promise<SendOutcome>;

export interface DispatcherOptions {
  now?: () => Date;
  /** In [0, 1): the retry jitter (Math.random; tests pin it). */
  random?: () => number;
  /** Attempts in flight at once, across endpoints. */
  concurrency?: number;
  onError?: (error: unknown) => void;
}

/** Rows read per pass when looking for due deliveries. */
const DUE_BATCH = 200;

/** Whether the endpoint's last attempt failed (a dead or slow receiver, most likely). */
const isFailing = (endpoint: Pick<WebhookEndpointDoc, 'consecutive_failures'>): boolean => endpoint.consecutive_failures > 0;

export class WebhookDispatcher {
  private readonly loop: FeedLoop;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly onError: (error: unknown) => void;
  private readonly feed: FeedConsumer;
  /** Between start and stop: a finished attempt starts the next due one without waiting for the loop. */
  private running = false;
  /** Attempts in flight, by endpoint. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** The endpoints in flight whose last attempt had failed when theirs started. */
  private readonly failingInFlight = new Set<string>();
  /** Slots the failing endpoints may hold between them. */
  private readonly failingShare: number;
  /** startDue calls run one after another, so a row is never started twice. */
  private starting: Promise<unknown> = Promise.resolve();
  /** The last startDue left due rows waiting for a free slot. */
  private poolWasFull = false;

  constructor(
    private readonly store: DocumentStore,
    private readonly send: SendWebhook,
    options: DispatcherOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.concurrency = options.concurrency ?? 32;
    this.failingShare = Math.max(1, Math.floor(this.concurrency / 2));
    this.onError = options.onError ?? ((error) => console.error('webhook dispatcher:', error));
    this.loop = new FeedLoop(store, () => this.pass(), this.onError);
    this.feed = new FeedConsumer(store, WEBHOOK_DISPATCHER_CHECKPOINT_ID, WEBHOOK_DISPATCHER_FEED);
  }

  private get endpoints() {
    return this.store.collection<WebhookEndpointDoc>(COLLECTIONS.webhookEndpoints);
  }

  private get deliveries() {
    return this.store.collection<WebhookDeliveryDoc>(COLLECTIONS.webhookDeliveries);
  }

  /**
   * Loads the checkpoint, or on the very first run sets it to the feed's end: endpoints hear of
   * events from now on (earlier ones are in GET /v1/events).
   */
  initialize(): Promise<void> {
    return this.feed.initialize();
  }

  /** Queues a delivery of every event after the checkpoint; returns how many rows it made. */
  async fanOut(batchSize = 500): Promise<number> {
    let made = 0;
    await this.feed.consume(
      batchSize,
      (change) => change.operation === 'insert' && change.document !== null,
      async (changes, position) => {
        made += await this.queueDeliveries(
          changes.map((change) => change.document as unknown as EventDoc),
          position,
        );
      },
    );
    return made;
  }

  /** First-attempt rows for `events` and the checkpoint, in one transaction; rows already made are skipped. */
  private async queueDeliveries(events: readonly EventDoc[], position: string | null): Promise<number> {
    const organizations = [...new Set(events.map((event) => event.organization_id))];
    const endpoints = await this.endpoints.find({ organization_id: { $in: organizations } });
    const now = this.now();
    const rows = events.flatMap((event) =>
      endpoints
        // By the endpoint's state when the event was created, however late the fan-out runs.
        .filter((endpoint) => endpoint.organization_id === event.organization_id && receivesEvent(endpoint, event.type, event.created_at))
        .map((endpoint) =>
          newDelivery(
            endpoint,
            {
              eventId: event._id,
              eventType: event.type,
              alertId: typeof event.data.alert_id === 'string' ? event.data.alert_id : null,
              body: JSON.stringify(eventObject(event)),
            },
            // Due since the event happened: due rows go out oldest event first.
            { attempt: 1, maxAttempts: MAX_ATTEMPTS, now, dueAt: new Date(event.created_at), derived: true },
          ),
        ),
    );
    return this.store.transaction(async () => {
      const existing = new Set((await this.deliveries.findByIds(rows.map((row) => row._id))).map((row) => row._id));
      const fresh = rows.filter((row) => !existing.has(row._id));
      if (fresh.length > 0) await this.deliveries.insertMany(fresh);
      await this.feed.saveCheckpoint(position);
      return fresh.length;
    });
  }

  /**
   * Starts an attempt of each due row whose endpoint has none in flight, up to the pool size.
   * Rows of a disabled endpoint wait (tests and redeliveries excepted). Returns the attempts
   * started; `drain` waits for them.
   */
  startDue(): Promise<number> {
    const run = this.starting.then(() => this.startDueNow());
    this.starting = run.catch(() => undefined);
    return run;
  }

  private async startDueNow(): Promise<number> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return 0;
    const unusual = await this.endpoints.find({ $or: [{ status: 'disabled' }, { consecutive_failures: { $gt: 0 } }] });
    const disabled = unusual.filter((endpoint) => endpoint.status === 'disabled').map((endpoint) => endpoint._id);
    // While the failing half is taken, the failing endpoints' rows are not even read: a backlog of
    // them, older than every other row, would fill the batch.
    const passedOver = this.failingInFlight.size >= this.failingShare ? unusual.filter(isFailing).map((endpoint) => endpoint._id) : [];
    const busy = [...this.inFlight.keys(), ...passedOver];
    const due: Filter = { status: 'pending', due_at: { $lte: this.now().toISOString() } };
    const rows = await this.deliveries.find(
      { $and: [due, { $or: [{ endpoint_id: { $nin: [...busy, ...disabled] } }, { requested: true, endpoint_id: { $nin: busy } }] }] },
      { sort: { due_at: 1, event_id: 1 }, limit: DUE_BATCH },
    );
    const endpoints = new Map((await this.endpoints.findByIds([...new Set(rows.map((row) => row.endpoint_id))])).map((endpoint) => [endpoint._id, endpoint]));
    let started = 0;
    let waiting = passedOver.length > 0;
    for (const row of rows) {
      if (started >= free) break;
      const endpoint = endpoints.get(row.endpoint_id);
      if (endpoint === undefined || this.inFlight.has(endpoint._id)) continue;
      if (isFailing(endpoint) && this.failingInFlight.size >= this.failingShare) {
        waiting = true;
        continue;
      }
      this.launch(row, endpoint);
      started += 1;
    }
    // Rows left due for lack of a free slot start as slots free up (see launch).
    this.poolWasFull = waiting || (rows.some((row) => !this.inFlight.has(row.endpoint_id)) && this.inFlight.size >= this.concurrency);
    return started;
  }

  /**
   * Sends one attempt. When it ends, the same endpoint's next due row starts at once, found by one
   * indexed lookup of that endpoint's rows (not a scan of every due row, which under a backlog
   * would mostly read the rows of endpoints already busy); when the pool had been full, the
   * other endpoints' due rows are looked for too.
   */
  private launch(row: WebhookDeliveryDoc, endpoint: WebhookEndpointDoc): void {
    const attempt = this.attempt(row, endpoint)
      .catch(this.onError)
      .finally(() => {
        this.inFlight.delete(endpoint._id);
        this.failingInFlight.delete(endpoint._id);
        if (this.running) this.startNext(endpoint._id).catch(this.onError);
      });
    this.inFlight.set(endpoint._id, attempt);
    if (isFailing(endpoint)) this.failingInFlight.add(endpoint._id);
  }

  private startNext(endpointId: string): Promise<unknown> {
    const run = this.starting.then(async () => {
      if (this.poolWasFull) return this.startDueNow();
      if (this.inFlight.has(endpointId) || this.inFlight.size >= this.concurrency) return 0;
      const endpoint = await this.endpoints.findOne({ _id: endpointId });
      if (endpoint === null || (isFailing(endpoint) && this.failingInFlight.size >= this.failingShare)) return 0;
      const due = { endpoint_id: endpointId, status: 'pending', due_at: { $lte: this.now().toISOString() } };
      const [row] = await this.deliveries.find(endpoint.status === 'active' ? due : { ...due, requested: true }, {
        sort: { due_at: 1, event_id: 1 },
        limit: 1,
      });
      if (row === undefined) return 0;
      this.launch(row, endpoint);
      return 1;
    });
    this.starting = run.catch(() => undefined);
    return run;
  }

  /** Waits for every attempt in flight. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()]);
  }

  /** Fan-out, then due attempts until none is left due now (tests and benchmarks; the loop does this over time). */
  async runUntilIdle(): Promise<void> {
    await this.fanOut();
    while ((await this.startDue()) > 0) await this.drain();
  }

  /** One HTTP attempt of `row`, and its outcome recorded. */
  private async attempt(row: WebhookDeliveryDoc, endpoint: WebhookEndpointDoc): Promise<void> {
    const signedAt = new Date(Math.floor(this.now().getTime() / 1000) * 1000);
    const headers = { ...signedHeaders(endpoint.secrets, row.event_id, signedAt, row.body), 'webhook-attempt-id': row.delivery_attempt_id };
    const outcome = await this.send(endpoint.url, row.body, headers);
    await this.record(row, endpoint._id, outcome, signedAt);
  }

  private async record(row: WebhookDeliveryDoc, endpointId: string, outcome: SendOutcome, signedAt: Date): Promise<void> {
    const finishedAt = this.now();
    const at = finishedAt.toISOString();
    const delivered = outcome.ok && outcome.status >= 200 && outcome.status < 300;
    const next = delivered || row.attempt >= row.max_attempts ? null : nextAttemptAt(row.attempt, finishedAt, this.random());
    const answer = {
      http_status: outcome.ok ? outcome.status : null,
      response_body: outcome.ok ? outcome.body : null,
      error: outcome.ok ? null : outcome.error,
      signature_timestamp: signedAt.toISOString(),
      due_at: null,
    };
    await this.store.transaction(async () => {
      const status = delivered ? 'delivered' : next === null ? 'exhausted' : 'failed';
      const update = await this.deliveries.updateOne(
        { _id: row._id, status: 'pending' },
        { $set: { ...answer, status, delivered_at: delivered ? at : null, next_retry_at: next?.toISOString() ?? null } },
      );
      if (update.matchedCount === 0) return; // recorded already, or the endpoint was deleted meanwhile
      if (next !== null) {
        const event = { eventId: row.event_id, eventType: row.event_type, alertId: row.alert_id, body: row.body };
        await this.deliveries.insertOne(
          newDelivery({ _id: row.endpoint_id, organization_id: row.organization_id }, event, {
            attempt: row.attempt + 1,
            maxAttempts: row.max_attempts,
            now: finishedAt,
            dueAt: next,
          }),
        );
      }
      const endpoint = await this.endpoints.findOne({ _id: endpointId });
      if (endpoint === null) return;
      if (delivered) {
        await this.endpoints.updateOne({ _id: endpointId }, { $set: { consecutive_failures: 0, failing_since: null, last_success_at: at } });
        return;
      }
      const failures = endpoint.consecutive_failures + 1;
      const failingSince = endpoint.failing_since ?? at;
      const disable = endpoint.status === 'active' && shouldDisableEndpoint(failures, new Date(failingSince), finishedAt);
      await this.endpoints.updateOne(
        { _id: endpointId },
        {
          $set: {
            consecutive_failures: failures,
            failing_since: failingSince,
            last_failure_at: at,
            ...(disable
              ? {
                  status: 'disabled',
                  disabled_reason: 'failing',
                  delivery_states: withDeliveryState({ ...endpoint, status: 'disabled' }, at).delivery_states,
                  updated_at: at,
                }
              : {}),
          },
        },
      );
      if (disable) await this.store.collection<EventDoc>(COLLECTIONS.events).insertOne(disabledEvent(endpoint, failures, failingSince, finishedAt));
    });
  }

  /**
   * Runs fan-out and due attempts whenever the store reports writes (or a second passes), until
   * `stop`; fan-out goes on from the persisted checkpoint (another process may have run it meanwhile).
   */
  start(): void {
    this.running = true;
    this.feed.resume();
    this.loop.start();
  }

  /** Stops the loop and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop.stop();
    await this.drain();
  }

  private async pass(): Promise<string | null> {
    await this.fanOut();
    await this.startDue();
    return this.feed.consumedPosition ?? null;
  }
}

/** The `webhook_endpoint.disabled` event; its ID is derived, so a recording retried makes one. */
function disabledEvent(endpoint: WebhookEndpointDoc, failures: number, failingSince: string, at: Date): EventDoc {
  return {
    _id: derivedTimeId('evt_', at.getTime(), `webhook_endpoint.disabled:${endpoint._id}:${failingSince}`),
    organization_id: endpoint.organization_id,
    type: 'webhook_endpoint.disabled',
    data: { endpoint_id: endpoint._id, url: endpoint.url, consecutive_failures: failures, failing_since: failingSince },
    created_at: at.toISOString(),
  };
}
