/**
 * The `alertCreated` subscription (graphql-yoga serves it as server-sent events): follows the
 * change feed for `alert.created` entries of the caller's organization's event log and yields
 * each alert. It reads the feed rather than an in-process emitter, so it sees alerts whichever
 * process evaluated them (`marque worker watches` included). Starts at the feed's end: a new
 * subscriber gets alerts created from then on (the alerts list has the earlier ones). The key is
 * read again before each alert sent and at every wake-up: a key revoked, expired, rotated or
 * narrowed meanwhile ends the stream with an `unauthorized` error, and no later alert reaches it.
 */
import { COLLECTIONS, type AlertDoc, type EventDoc } from '../../domain/records';
import { keyStillStanding } from '../accounts/api-keys';
import type { RequestContext } from '../context';
import { alertObject } from './alerts';

const WAIT_MS = 15_000;

async function* alertsCreated(ctx: RequestContext): AsyncGenerator<{ alertCreated: ReturnType<typeof alertObject> }> {
  const { store } = ctx.services;
  const requireKey = await keyStillStanding(store, ctx.caller, ctx.services.now);
  let position = await store.latestPosition();
  for (;;) {
    await requireKey();
    const batch = await store.readChanges(position, 100, [COLLECTIONS.events]);
    position = batch.position;
    const ids = batch.events
      .map((event) => event.document as EventDoc | null)
      .filter((event): event is EventDoc => event !== null && event.type === 'alert.created' && event.organization_id === ctx.caller.organizationId)
      .map((event) => String(event.data.alert_id));
    if (ids.length > 0) {
      const alerts = new Map((await store.collection<AlertDoc>(COLLECTIONS.alerts).findByIds(ids)).map((alert) => [alert._id, alert]));
      for (const id of ids) {
        const alert = alerts.get(id);
        if (!alert) continue;
        await requireKey();
        yield { alertCreated: alertObject(alert) };
      }
    }
    if (batch.events.length === 0) await store.waitForChanges(position, WAIT_MS);
  }
}

export const alertSubscriptionResolvers = {
  alertCreated: { subscribe: (_: unknown, __: unknown, ctx: RequestContext) => alertsCreated(ctx) },
};
