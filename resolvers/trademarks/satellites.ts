/**
 * Query fields of the trademark sub-resources /history, /related and /coverage.
 */
import type { RequestContext } from '../context';
import { trademarkCoverage } from './coverage';
import { trademarkHistory, type HistoryArgs } from './history';
import { relatedTrademarks } from './related';

export const trademarkSatelliteResolvers = {
  trademarkHistory: (_: unknown, args: HistoryArgs, ctx: RequestContext) => trademarkHistory(args, ctx),
  relatedTrademarks: (_: unknown, args: { id: string }, ctx: RequestContext) => relatedTrademarks(args.id, ctx),
  trademarkCoverage: (_: unknown, args: { id: string }, ctx: RequestContext) => trademarkCoverage(args.id, ctx),
};
