/**
 * Watches of an organization: create (one or in bulk), list, read, change, pause, resume,
 * delete, and their diagnostics. A watch of another organization does not exist (404). Each
 * lifecycle step appends its event (`watch.created`, `watch.updated`, `watch.paused`,
 * `watch.resumed`, `watch.deleted`) to the organization's event log.
 *
 * Pausing stops evaluation; resuming sets `evaluating_since` to now: changes that occurred while
 * the watch was paused are not replayed (an alert about a months-old filing, produced at resume,
 * would be noise; the preview finds them on demand). The pause is recorded as a period, so a
 * change that occurred before it is still the watch's when the evaluator reads it late. Likewise a
 * replaced query is kept with the instant it was replaced (not in the watch object), so a change
 * that occurred before a PATCH is matched with the query the watch had then.
 */
import type { Filter } from '../../datasources/ports';
import { ApiError, invalid, notFound } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import { withStatusChange } from '../../domain/watch-periods';
import { withQuery } from '../../domain/watch-queries';
import { COLLECTIONS, WATCH_STATUSES, WATCH_TYPES, type EventDoc, type WatchDoc, type WatchQuery } from '../../domain/records';
import { parseId, truncate } from '../../domain/validation';
import { mergeMetadata, parseMetadata } from '../accounts/metadata';
import { pageOf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { checkWatchQuery, checkWatchType } from './query';
import { resolveReferences } from './references';
import { assertResourceQuota } from '../organization/resource-quota';

export const WATCH_NAME_MAX_LENGTH = 200;
/** Watches per bulk request. */
export const MAX_BULK_WATCHES = 100;

const watchesOf = (ctx: RequestContext) => ctx.services.store.collection<WatchDoc>(COLLECTIONS.watches);

/** The public watch object. */
export function watchObject(watch: WatchDoc) {
  return {
    id: watch._id,
    object: 'watch',
    name: watch.name,
    watch_type: watch.watch_type,
    status: watch.status,
    query: watch.query,
    metadata: watch.metadata,
    evaluating_since: watch.evaluate_from,
    created_at: watch.created_at,
    updated_at: watch.updated_at,
  };
}

export interface WatchInput {
  watch_type?: unknown;
  name?: unknown;
  query?: unknown;
  metadata?: unknown;
}

function checkName(raw: unknown, name: string): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > WATCH_NAME_MAX_LENGTH)
    throw invalid(name, `must be 1 to ${WATCH_NAME_MAX_LENGTH} characters`);
  return raw;
}

/** A checked new watch (not yet stored); `prefix` names bulk items (`items[2].`). */
function newWatch(input: WatchInput, ctx: RequestContext, prefix = ''): WatchDoc {
  const type = checkWatchType(input.watch_type, `${prefix}watch_type`);
  const query = checkWatchQuery(type, input.query, `${prefix}query`);
  const at = ctx.services.now().toISOString();
  return {
    _id: randomId('wch_', ctx.services.now().getTime()),
    organization_id: ctx.caller.organizationId,
    name: checkName(input.name, `${prefix}name`),
    watch_type: type,
    status: 'active',
    query,
    metadata: input.metadata === undefined || input.metadata === null ? {} : parseMetadata(`${prefix}metadata`, input.metadata),
    evaluate_from: at,
    paused_periods: [],
    created_at: at,
    updated_at: at,
  };
}

/** Appends a watch lifecycle event to the organization's event log. */
function watchEvent(watch: WatchDoc, type: string, at: string): EventDoc {
  return {
    _id: randomId('evt_', Date.parse(at)),
    organization_id: watch.organization_id,
    type,
    // The status after the change, which for a deletion is none of the stored ones.
    data: { watch_id: watch._id, watch_type: watch.watch_type, status: type === 'watch.deleted' ? 'deleted' : watch.status },
    created_at: at,
  };
}

/** Stores new watches with their created events; answers them as stored (references resolved). */
async function storeWatches(checked: readonly WatchDoc[], ctx: RequestContext): Promise<WatchDoc[]> {
  const { store } = ctx.services;
  const watches: WatchDoc[] = [];
  for (const [i, watch] of checked.entries()) {
    watches.push({ ...watch, query: await resolveReferences(watch.query, ctx, checked.length > 1 ? `items[${i}].query` : undefined) });
  }
  await store.transaction(async () => {
    await assertResourceQuota(ctx, 'watches', watches.length);
    await watchesOf(ctx).insertMany(watches);
    await store.collection<EventDoc>(COLLECTIONS.events).insertMany(watches.map((watch) => watchEvent(watch, 'watch.created', watch.created_at)));
  });
  return watches;
}

async function createWatch(input: WatchInput, ctx: RequestContext) {
  const [watch] = await storeWatches([newWatch(input, ctx)], ctx);
  return watchObject(watch as WatchDoc);
}

/**
 * All or nothing: every item is checked first, and one invalid item refuses the request with
 * its error named `items[i].field`; then all are created together.
 */
async function createWatchesBulk(args: { items: readonly WatchInput[] }, ctx: RequestContext) {
  if (!Array.isArray(args.items) || args.items.length === 0) throw invalid('items', 'must list at least one watch');
  if (args.items.length > MAX_BULK_WATCHES) {
    throw new ApiError('batch_too_large', `items: at most ${MAX_BULK_WATCHES} watches per request (got ${args.items.length})`, {
      item_count: args.items.length,
      item_count_limit: MAX_BULK_WATCHES,
    });
  }
  const watches = await storeWatches(
    args.items.map((item, i) => newWatch(item, ctx, `items[${i}].`)),
    ctx,
  );
  return { data: watches.map(watchObject) };
}

/** The caller's watch, or 404 (also for another organization's). */
export async function requireWatch(id: string, ctx: RequestContext, parameter = 'id'): Promise<WatchDoc> {
  const watchId = parseId(parameter, id, 'wch_');
  const watch = await watchesOf(ctx).findOne({ _id: watchId, organization_id: ctx.caller.organizationId });
  if (!watch) throw notFound(`watch ${watchId}`, parameter === 'id' ? undefined : parameter);
  return watch;
}

function oneOf<T extends string>(name: string, value: string | null | undefined, allowed: readonly T[]): T | null {
  if (value === null || value === undefined) return null;
  if (!(allowed as readonly string[]).includes(value)) throw invalid(name, `must be one of ${allowed.join(', ')} (got '${truncate(value)}')`);
  return value as T;
}

async function listWatches(
  args: { status?: string | null; watch_type?: string | null; limit?: number | null; cursor?: string | null; include_total?: boolean | null },
  ctx: RequestContext,
) {
  const status = oneOf('status', args.status, WATCH_STATUSES);
  const watchType = oneOf('watch_type', args.watch_type, WATCH_TYPES);
  const organizationId = ctx.caller.organizationId;
  const filter: Filter = { organization_id: organizationId, ...(status ? { status } : {}), ...(watchType ? { watch_type: watchType } : {}) };
  const binding = { list: 'watches', organization: organizationId, status, watchType };
  const page = await pageOf(watchesOf(ctx), filter, pageLimit(args.limit), args.cursor ?? null, binding, ctx.services.cursors, {
    includeTotal: args.include_total,
  });
  return { ...page, data: page.data.map(watchObject) };
}

/** Writes a changed watch and its lifecycle event together. */
async function saveWatch(watch: WatchDoc, eventType: string, ctx: RequestContext) {
  await ctx.services.store.transaction(async () => {
    await watchesOf(ctx).replaceOne(watch);
    await ctx.services.store.collection<EventDoc>(COLLECTIONS.events).insertOne(watchEvent(watch, eventType, watch.updated_at));
  });
  return watchObject(watch);
}

/** PATCH: name, query (checked for the watch's own type), metadata (merged; null removes a key). */
async function updateWatch(args: { id: string; name?: unknown; query?: unknown; metadata?: unknown }, ctx: RequestContext) {
  const watch = await requireWatch(args.id, ctx);
  const at = ctx.services.now().toISOString();
  const query: WatchQuery =
    args.query === undefined || args.query === null ? watch.query : await resolveReferences(checkWatchQuery(watch.watch_type, args.query), ctx);
  const name = args.name === undefined ? watch.name : checkName(args.name, 'name');
  const metadata = args.metadata === undefined || args.metadata === null ? watch.metadata : mergeMetadata('metadata', watch.metadata, args.metadata);
  return saveWatch({ ...watch, ...withQuery(watch, query, at), name, metadata, updated_at: at }, 'watch.updated', ctx);
}

async function setWatchStatus(id: string, status: WatchDoc['status'], ctx: RequestContext) {
  const watch = await requireWatch(id, ctx);
  if (watch.status === status) return watchObject(watch);
  const at = ctx.services.now().toISOString();
  const resumed = status === 'active' ? { evaluate_from: at } : {};
  return saveWatch(
    { ...watch, ...resumed, ...withStatusChange(watch, status, at), status, updated_at: at },
    status === 'active' ? 'watch.resumed' : 'watch.paused',
    ctx,
  );
}

/** Deletes the watch; its alerts stay readable (they are the organization's history). */
async function deleteWatch(id: string, ctx: RequestContext) {
  const watch = await requireWatch(id, ctx);
  const at = ctx.services.now().toISOString();
  await ctx.services.store.transaction(async () => {
    await watchesOf(ctx).deleteOne({ _id: watch._id });
    await ctx.services.store.collection<EventDoc>(COLLECTIONS.events).insertOne(watchEvent(watch, 'watch.deleted', at));
  });
  return { id: watch._id, object: 'watch', deleted: true };
}

export const watchQueryResolvers = {
  watches: (_: unknown, args: Parameters<typeof listWatches>[0], ctx: RequestContext) => listWatches(args, ctx),
  watch: async (_: unknown, args: { id: string }, ctx: RequestContext) => watchObject(await requireWatch(args.id, ctx)),
};

export const watchMutationResolvers = {
  createWatch: (_: unknown, args: WatchInput, ctx: RequestContext) => createWatch(args, ctx),
  createWatchesBulk: (_: unknown, args: { items: WatchInput[] }, ctx: RequestContext) => createWatchesBulk(args, ctx),
  updateWatch: (_: unknown, args: Parameters<typeof updateWatch>[0], ctx: RequestContext) => updateWatch(args, ctx),
  pauseWatch: (_: unknown, args: { id: string }, ctx: RequestContext) => setWatchStatus(args.id, 'paused', ctx),
  resumeWatch: (_: unknown, args: { id: string }, ctx: RequestContext) => setWatchStatus(args.id, 'active', ctx),
  deleteWatch: (_: unknown, args: { id: string }, ctx: RequestContext) => deleteWatch(args.id, ctx),
};
