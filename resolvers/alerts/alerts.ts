/**
 * Alerts of an organization: listed (all, or one watch's), read, looked up in bulk, and triaged.
 * An alert is immutable apart from its triage status: `open` → `acknowledged` or `dismissed`,
 * and back to `open`. Another organization's alert does not exist (404; absent from lookups).
 */
import type { Filter } from '../../datasources/ports';
import { invalid, notFound } from '../../domain/errors';
import { isWellFormedId } from '../../domain/ids';
import { ALERT_STATUSES, COLLECTIONS, type AlertDoc, type AlertStatus } from '../../domain/records';
import { publicChangedFields } from '../../domain/trademark-changes';
import { parseId, truncate } from '../../domain/validation';
import { pageOf } from '../pages';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { createdAtRange, type CreatedAtArgs } from '../created-at-range';
import { requireWatch } from '../watches/watches';

/** IDs per lookup request. */
export const MAX_ALERT_LOOKUP_IDS = 100;

const alertsOf = (ctx: RequestContext) => ctx.services.store.collection<AlertDoc>(COLLECTIONS.alerts);

/**
 * The public alert object; `trademark` (summary shape) is resolved by the schema from trademark_id.
 * Alerts stored before change records used the contract's names list them under the public ones.
 */
export function alertObject(alert: AlertDoc) {
  const { _id, organization_id: _organization, trigger, ...fields } = alert;
  const changedFields = publicChangedFields(trigger.changed_fields);
  return { id: _id, object: 'alert', ...fields, trigger: changedFields === trigger.changed_fields ? trigger : { ...trigger, changed_fields: changedFields } };
}

export interface AlertListArgs extends CreatedAtArgs {
  watch_id?: string | null;
  status?: string | null;
  trademark_id?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

async function listAlerts(args: AlertListArgs, ctx: RequestContext) {
  const organizationId = ctx.caller.organizationId;
  const watchId = args.watch_id ? await requireWatchOrDeleted(args.watch_id, ctx) : null;
  if (args.status && !(ALERT_STATUSES as readonly string[]).includes(args.status)) {
    throw invalid('status', `must be one of ${ALERT_STATUSES.join(', ')} (got '${truncate(args.status)}')`);
  }
  const trademarkId = args.trademark_id ? parseId('trademark_id', args.trademark_id, 'tm_') : null;
  const { gte, lt, filter: createdAt } = createdAtRange(args);
  const filter: Filter = {
    organization_id: organizationId,
    ...(watchId ? { watch_id: watchId } : {}),
    ...(args.status ? { status: args.status } : {}),
    ...(trademarkId ? { trademark_id: trademarkId } : {}),
    ...createdAt,
  };
  const binding = { list: 'alerts', organization: organizationId, watchId, status: args.status ?? null, trademarkId, gte, lt };
  const page = await pageOf(alertsOf(ctx), filter, pageLimit(args.limit), args.cursor ?? null, binding, ctx.services.cursors, {
    includeTotal: args.include_total,
  });
  return { ...page, data: page.data.map(alertObject) };
}

/**
 * A watch filter on alerts: the watch must be the caller's, or be gone with alerts of the caller
 * left (alerts outlive their watch).
 */
async function requireWatchOrDeleted(id: string, ctx: RequestContext): Promise<string> {
  const watchId = parseId('watch_id', id, 'wch_');
  const left = await alertsOf(ctx).findOne({ watch_id: watchId, organization_id: ctx.caller.organizationId });
  if (left) return watchId;
  return (await requireWatch(watchId, ctx, 'watch_id'))._id;
}

async function requireAlert(id: string, ctx: RequestContext): Promise<AlertDoc> {
  const alertId = parseId('id', id, 'alt_');
  const alert = await alertsOf(ctx).findOne({ _id: alertId, organization_id: ctx.caller.organizationId });
  if (!alert) throw notFound(`alert ${alertId}`);
  return alert;
}

/** Up to 100 alerts by ID, found ones in request order; unknown and other organizations' IDs in not_found. */
async function lookupAlerts(args: { ids: readonly string[] }, ctx: RequestContext) {
  if (!Array.isArray(args.ids) || args.ids.length === 0 || args.ids.length > MAX_ALERT_LOOKUP_IDS) {
    throw invalid('ids', `must list 1 to ${MAX_ALERT_LOOKUP_IDS} alert IDs`);
  }
  args.ids.forEach((id, i) => {
    if (!isWellFormedId(id, 'alt_')) parseId(`ids[${i}]`, id, 'alt_');
  });
  const found = new Map(
    (await alertsOf(ctx).findByIds([...new Set(args.ids)]))
      .filter((alert) => alert.organization_id === ctx.caller.organizationId)
      .map((alert) => [alert._id, alert]),
  );
  return {
    data: args.ids.flatMap((id) => {
      const alert = found.get(id);
      return alert ? [alertObject(alert)] : [];
    }),
    not_found: [...new Set(args.ids.filter((id) => !found.has(id)))],
  };
}

async function triageAlert(args: { id: string; status: string }, ctx: RequestContext) {
  const alert = await requireAlert(args.id, ctx);
  if (!(ALERT_STATUSES as readonly string[]).includes(args.status)) throw invalid('status', `must be one of ${ALERT_STATUSES.join(', ')}`);
  const status = args.status as AlertStatus;
  if (alert.status === status) return alertObject(alert);
  if (alert.status !== 'open' && status !== 'open') throw invalid('status', `an alert that is ${alert.status} goes back to open before it is ${status}`);
  const updated: AlertDoc = { ...alert, status, updated_at: ctx.services.now().toISOString() };
  await alertsOf(ctx).updateOne({ _id: alert._id }, { $set: { status, updated_at: updated.updated_at } });
  return alertObject(updated);
}

export const alertQueryResolvers = {
  alerts: (_: unknown, args: AlertListArgs, ctx: RequestContext) => listAlerts(args, ctx),
  watchAlerts: async (_: unknown, args: AlertListArgs & { id: string }, ctx: RequestContext) => {
    const { id, ...rest } = args;
    const watch = await requireWatch(id, ctx);
    return listAlerts({ ...rest, watch_id: watch._id }, ctx);
  },
  alert: async (_: unknown, args: { id: string }, ctx: RequestContext) => alertObject(await requireAlert(args.id, ctx)),
  lookupAlerts: (_: unknown, args: { ids: string[] }, ctx: RequestContext) => lookupAlerts(args, ctx),
};

export const alertMutationResolvers = {
  updateAlert: (_: unknown, args: { id: string; status: string }, ctx: RequestContext) => triageAlert(args, ctx),
};

export const alertFieldResolvers = {
  trademark: (alert: { trademark_id: string }, _: unknown, ctx: RequestContext) => ctx.loaders.trademarks.load(alert.trademark_id),
};
