/**
 * The organization's event feed (GET /v1/events; scope events:read, plan feature `events`):
 * every event of its event log, newest first by `created_at`, with the very object a webhook
 * delivers as its body. Filters: `type`, `created_at` range. Events are kept as long as the
 * alerts and watches they tell of; test events (webhook.test) are not in the feed.
 */
import { truncate } from '../../domain/validation';
import { invalid } from '../../domain/errors';
import { COLLECTIONS, type EventDoc } from '../../domain/records';
import { SUBSCRIBABLE_EVENT_TYPES, eventObject } from '../../domain/webhook-events';
import type { Filter } from '../../datasources/ports';
import { pageOf } from '../pages';
import { createdAtRange, type CreatedAtArgs } from '../created-at-range';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';

interface EventListArgs extends CreatedAtArgs {
  type?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

async function listEvents(args: EventListArgs, ctx: RequestContext) {
  if (args.type && !SUBSCRIBABLE_EVENT_TYPES.includes(args.type)) {
    throw invalid('type', `unknown event type '${truncate(args.type)}'; the types are ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`);
  }
  const { gte, lt, filter: createdAt } = createdAtRange(args);
  const organizationId = ctx.caller.organizationId;
  const filter: Filter = { organization_id: organizationId, ...(args.type ? { type: args.type } : {}), ...createdAt };
  const binding = { list: 'events', organization: organizationId, type: args.type ?? null, gte, lt };
  const events = ctx.services.store.collection<EventDoc>(COLLECTIONS.events);
  const page = await pageOf(events, filter, pageLimit(args.limit), args.cursor ?? null, binding, ctx.services.cursors, {
    orderField: 'created_at',
    includeTotal: args.include_total,
  });
  return { ...page, data: page.data.map(eventObject) };
}

export const eventQueryResolvers = {
  events: (_: unknown, args: EventListArgs, ctx: RequestContext) => listEvents(args, ctx),
};
