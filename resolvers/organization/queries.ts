/**
 * Query fields of the organization area: usage, plan and request logs (scope billing:read).
 */
import type { RequestContext } from '../context';
import { plan } from './plan';
import { requestLogs, type RequestLogArgs } from './request-logs';
import { usage } from './usage';

export const organizationQueryResolvers = {
  usage: (_: unknown, _args: unknown, ctx: RequestContext) => usage(ctx),
  plan: (_: unknown, _args: unknown, ctx: RequestContext) => plan(ctx),
  requestLogs: (_: unknown, args: RequestLogArgs, ctx: RequestContext) => requestLogs(args, ctx),
};
