/**
 * Feedback reports: filed by any valid key of an organization (never billed), listed and read
 * only within that organization; status moves by the service team (transitions.ts).
 */
import type { Filter } from '../../datasources/ports';
import { invalid, notFound } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import { COLLECTIONS, FEEDBACK_STATUSES, FEEDBACK_TYPES, type FeedbackDoc } from '../../domain/records';
import { parseId, truncate } from '../../domain/validation';
import { pageOf } from '../pages';
import { pageLimit } from '../page-limit';
import type { RequestContext } from '../context';
import { requestSnapshot, resourceSnapshot } from './context-snapshots';
import { checkFeedback, type FeedbackInput } from './rules';
import { transitionFeedback } from './transitions';

/** The public feedback object. */
export function feedbackObject(report: FeedbackDoc) {
  const { _id, organization_id: _organization, ...fields } = report;
  return { id: _id, object: 'feedback', ...fields };
}

const reportsOf = (ctx: RequestContext) => ctx.services.store.collection<FeedbackDoc>(COLLECTIONS.feedback);

async function createFeedback(input: FeedbackInput, ctx: RequestContext) {
  const checked = checkFeedback(input);
  const { store } = ctx.services;
  const organizationId = ctx.caller.organizationId;
  const [request, resource] = await Promise.all([
    checked.requestRef === null ? undefined : requestSnapshot(store, organizationId, checked.requestRef),
    checked.resourceId === null || checked.resourceKind === null ? undefined : resourceSnapshot(store, checked.resourceKind, checked.resourceId),
  ]);
  const at = ctx.services.now().toISOString();
  const report: FeedbackDoc = {
    _id: randomId('fbk_'),
    organization_id: organizationId,
    api_key_id: ctx.caller.apiKeyId,
    type: checked.type,
    status: 'open',
    message: checked.message,
    resource_id: checked.resourceId,
    request_ref: checked.requestRef,
    field: checked.field,
    expected_value: checked.expectedValue,
    context: { ...(request === undefined ? {} : { request }), ...(resource === undefined ? {} : { resource }) },
    resolution_note: null,
    metadata: checked.metadata,
    created_at: at,
    updated_at: at,
    resolved_at: null,
  };
  await reportsOf(ctx).insertOne(report);
  return feedbackObject(report);
}

interface ListArgs {
  status?: string | null;
  type?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

function oneOf(name: string, value: string | null | undefined, allowed: readonly string[]): string | null {
  if (value === null || value === undefined) return null;
  if (!allowed.includes(value)) throw invalid(name, `must be one of ${allowed.join(', ')} (got '${truncate(value)}')`);
  return value;
}

async function listFeedback(args: ListArgs, ctx: RequestContext) {
  const status = oneOf('status', args.status, FEEDBACK_STATUSES);
  const type = oneOf('type', args.type, FEEDBACK_TYPES);
  const limit = pageLimit(args.limit);
  const organizationId = ctx.caller.organizationId;
  const filter: Filter = { organization_id: organizationId, ...(status ? { status } : {}), ...(type ? { type } : {}) };
  const binding = { list: 'feedback', organization: organizationId, status, type };
  const page = await pageOf(reportsOf(ctx), filter, limit, args.cursor ?? null, binding, ctx.services.cursors, { includeTotal: args.include_total });
  return { ...page, data: page.data.map(feedbackObject) };
}

async function getFeedback(id: string, ctx: RequestContext) {
  parseId('id', id, 'fbk_');
  const report = await reportsOf(ctx).findOne({ _id: id, organization_id: ctx.caller.organizationId });
  if (!report) throw notFound(`feedback report ${id}`);
  return feedbackObject(report);
}

/** Admin only (the route's scope, checked before execution): reports of every organization, since the service team triages them all. */
async function updateFeedbackStatus(args: { id: string; status: string; resolution_note?: string | null }, ctx: RequestContext) {
  parseId('id', args.id, 'fbk_');
  const report = await transitionFeedback(ctx.services.store, args.id, { status: args.status, resolutionNote: args.resolution_note }, ctx.services.now());
  return feedbackObject(report);
}

export const feedbackQueryResolvers = {
  feedbackReports: (_: unknown, args: ListArgs, ctx: RequestContext) => listFeedback(args, ctx),
  feedbackReport: (_: unknown, args: { id: string }, ctx: RequestContext) => getFeedback(args.id, ctx),
};

export const feedbackMutationResolvers = {
  createFeedback: (_: unknown, args: FeedbackInput, ctx: RequestContext) => createFeedback(args, ctx),
  updateFeedbackStatus: (_: unknown, args: { id: string; status: string; resolution_note?: string | null }, ctx: RequestContext) =>
    updateFeedbackStatus(args, ctx),
};
