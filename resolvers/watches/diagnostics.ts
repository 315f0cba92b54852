/**
 * Watch diagnostics (spec: GET /v1/watches/{id}/diagnostics): the watch's evaluation state and,
 * for the marks it matches now (the first page a preview would show), the opposition window
 * computed as trademark detail computes it: `window_status` `closed` for windows closed long
 * ago, marks published before 2024 included.
 */
import { COLLECTIONS, type PortfolioDoc, type WatchDoc, type WatchStatsDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { oppositionWindowFor } from '../trademarks/opposition-window';
import { matchingMarks } from './preview';
import { requireWatch } from './watches';

/** Marks listed in diagnostics. */
export const DIAGNOSTIC_MARKS = 20;

/** What stops a trademark watch from watching anything now: the portfolio it follows is gone. */
async function standingError(watch: WatchDoc, ctx: RequestContext): Promise<string | null> {
  const portfolioId = watch.query.portfolio_id;
  if (portfolioId === undefined) return null;
  const [portfolio] = await ctx.services.store.collection<PortfolioDoc>(COLLECTIONS.portfolios).findByIds([portfolioId]);
  return portfolio === undefined
    ? `query.portfolio_id: the portfolio ${portfolioId} was deleted, so this watch follows no marks; point query.portfolio_id at another portfolio or delete the watch`
    : null;
}

async function watchDiagnostics(id: string, ctx: RequestContext) {
  const watch = await requireWatch(id, ctx);
  const now = ctx.services.now();
  const stats = await ctx.services.store.collection<WatchStatsDoc>(COLLECTIONS.watchStats).findOne({ _id: watch._id });
  const matches = await matchingMarks(watch.watch_type, watch.query, DIAGNOSTIC_MARKS, ctx.services.previewBudgetMs, ctx);
  return {
    object: 'watch_diagnostics',
    watch_id: watch._id,
    status: watch.status,
    evaluation: {
      evaluating_since: watch.evaluate_from,
      last_change_processed_at: stats?.last_change_at ?? null,
      alerts_created: stats?.alerts_created ?? 0,
      last_error: (await standingError(watch, ctx)) ?? stats?.last_error ?? null,
    },
    estimated_match_count: matches.count,
    marks: matches.marks.map((mark) => {
      const window = oppositionWindowFor(mark, now);
      return {
        trademark_id: mark._id,
        mark_text: mark.mark_text,
        office_code: mark.office_code,
        publication_date: mark.publication_date,
        opposition_window: {
          window_status: window.status,
          trigger_event: window.trigger_event,
          publication_date: window.publication_date,
          window_opens: window.window_opens,
          window_closes: window.window_closes,
          must_act_by: window.must_act_by,
          days_remaining: window.days_remaining,
          approximate: window.approximate,
        },
      };
    }),
  };
}

export const watchDiagnosticsResolvers = {
  watchDiagnostics: (_: unknown, args: { id: string }, ctx: RequestContext) => watchDiagnostics(args.id, ctx),
};
