/**
 * Watch preview (spec: Watch preview): a dry run of a watch query over the marks already in the
 * catalog. Answers a page of matching marks (trademark summary shape, best first for similarity)
 * and `estimated_match_count`; `count_only` answers the number alone.
 *
 * - filter: the watch's filters as a trademark search; the count is exact up to the search's
 *   10,000 cap, past it `estimate_basis: lower_bound` (a decision: the spec names only the
 *   upper-bound basis, and a capped count is a lower bound).
 * - similarity: candidates from the SearchIndex, by the mark's words (full text), by either half
 *   of its text or, for a short mark, any of its trigrams (one letter off) and by its phonetic and
 *   visual keys (`mark_keys`), within the
 *   filters (marks in another script come by the keys alone: those of a Cyrillic or Greek mark
 *   include its Latin reading's); each scored with the evaluator's own scoring, kept from
 *   `score_threshold` up. When candidates were capped or the budget ran out while scoring, the
 *   unscored candidates count as matches: `candidacy_upper_bound`.
 * - trademark: the marks named (or the portfolio's), in the order given.
 *
 * A portfolio or saved search the query names must be the organization's own, as on create
 * (references.ts); a saved search's filters are the query's.
 *
 * Budget: the services' `previewBudgetMs` (about 20 s; MARQUE_PREVIEW_BUDGET_MS). Past it before
 * any candidate is found: 504 preview_timeout. One preview per organization at a time: a second
 * concurrent one is 429 with Retry-After.
 */
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter } from '../../datasources/ports';
import { ApiError } from '../../domain/errors';
import { markKeys, trigrams } from '../../domain/mark-keys';
import type { TrademarkDoc, WatchDoc, WatchQuery } from '../../domain/records';
import { scoreSimilarity } from '../../domain/similarity';
import { foldText } from '../../domain/text';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { pageLimit } from '../page-limit';
import { portfolioMarksOf } from './portfolio-marks';
import { checkWatchQuery, checkWatchType, watchSearchFilters } from './query';
import { resolveReferences } from './references';

/** Similarity candidates fetched per kind (text matches, key matches). */
export const SIMILARITY_CANDIDATES = 2_000;
const COUNT_CAP = 10_000;

export type EstimateBasis = 'candidacy_upper_bound' | 'lower_bound';

interface Preview {
  marks: TrademarkDoc[];
  count: number;
  basis: EstimateBasis | null;
  scores: Map<string, number>;
}

export interface PreviewArgs {
  watch_type?: unknown;
  query?: unknown;
  limit?: number | null;
  count_only?: boolean | null;
}

const timedOut = (): ApiError =>
  new ApiError('preview_timeout', 'query: the preview ran out of its time budget before finding candidates; narrow query.filters or query.q');

class Budget {
  private readonly endsAt: number;
  constructor(ms: number) {
    this.endsAt = performance.now() + ms;
  }
  get spent(): boolean {
    return performance.now() >= this.endsAt;
  }
  /**
   * Runs the candidate search `work`, refusing with 504 if the budget ends first. A search that
   * blocks (the embedded SQLite index) cannot be overtaken by the timer, so the budget is also
   * checked when it returns: candidates found too late count as none found in time.
   */
  async within<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut()), Math.max(0, this.endsAt - performance.now()));
    });
    try {
      const result = await Promise.race([work, timeout]);
      if (this.spent) throw timedOut();
      return result;
    } finally {
      clearTimeout(timer);
    }
  }
}

async function previewFilter(query: WatchQuery, limit: number, budget: Budget, ctx: RequestContext): Promise<Preview> {
  const result = await budget.within(
    ctx.services.search.search({
      index: TRADEMARK_INDEX.name,
      filters: watchSearchFilters(query),
      sort: [{ field: 'filing_date', direction: 'desc' }],
      limit,
      countUpTo: COUNT_CAP,
    }),
  );
  const total = result.total ?? { value: result.hits.length, approximate: false };
  return {
    marks: await loadPresent(
      ctx.loaders.trademarks,
      result.hits.map((hit) => hit.id),
    ),
    count: total.value,
    basis: total.approximate ? 'lower_bound' : null,
    scores: new Map(),
  };
}

/** Halves shorter than this match too many marks to be worth a candidate search. */
const MIN_HALF_LENGTH = 4;

/**
 * What a mark one letter off (one changed, added or dropped) still holds whole, where it holds
 * neither the word nor, often, its phonetic or visual key: either half of the folded mark text
 * (KENTRIVOX for ZENTRIVOX), or, for a text too short to halve, one of its trigrams (PIKE for
 * NIKE). The evaluator catches such marks by shared trigrams (workers/watches/match.ts), so the
 * preview must find them too.
 */
function candidateFragments(q: string): string[] {
  const folded = foldText(q);
  const middle = Math.floor(folded.length / 2);
  const halves = [folded.slice(0, middle).trim(), folded.slice(middle).trim()].filter((half) => half.replace(/\s+/g, '').length >= MIN_HALF_LENGTH);
  return halves.length > 0 ? halves : trigrams(q);
}

async function previewSimilarity(query: WatchQuery, limit: number, budget: Budget, ctx: RequestContext): Promise<Preview> {
  const q = query.q ?? '';
  const filters = watchSearchFilters(query);
  const { search } = ctx.services;
  const keyFilter: SearchFilter = { field: 'mark_keys', op: 'in', values: markKeys(q) };
  const fragments = candidateFragments(q);
  const fragmentFilter: SearchFilter = { op: 'or', filters: fragments.map((text): SearchFilter => ({ field: 'mark_text', op: 'match', text })) };
  const [byText, byKeys, byFragments] = await budget.within(
    Promise.all([
      search.search({
        index: TRADEMARK_INDEX.name,
        text: q,
        textFields: ['mark_text'],
        filters,
        sort: [{ field: '_score', direction: 'desc' }],
        limit: SIMILARITY_CANDIDATES,
      }),
      search.search({ index: TRADEMARK_INDEX.name, filters: [...filters, keyFilter], sort: [], limit: SIMILARITY_CANDIDATES }),
      fragments.length === 0
        ? { hits: [] }
        : search.search({ index: TRADEMARK_INDEX.name, filters: [...filters, fragmentFilter], sort: [], limit: SIMILARITY_CANDIDATES }),
    ]),
  );
  const capped = [byText, byKeys, byFragments].some((result) => result.hits.length >= SIMILARITY_CANDIDATES);
  const candidateIds = [...new Set([...byText.hits, ...byKeys.hits, ...byFragments.hits].map((hit) => hit.id))];
  const classes = (query.filters?.niceClasses as number[] | undefined) ?? [];
  const threshold = query.score_threshold ?? 0;
  const scores = new Map<string, number>();
  let scored = 0;
  for (let i = 0; i < candidateIds.length && !budget.spent; i += 500) {
    const marks = await loadPresent(ctx.loaders.trademarks, candidateIds.slice(i, i + 500));
    for (const mark of marks) {
      const { score } = scoreSimilarity(
        { text: q, niceClasses: classes },
        { text: mark.mark_text, niceClasses: mark.classifications.map((c) => c.nice_class) },
      );
      if (score >= threshold) scores.set(mark._id, score);
    }
    scored = Math.min(candidateIds.length, i + 500);
  }
  const unscored = candidateIds.length - scored;
  const best = [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
  return {
    marks: await loadPresent(
      ctx.loaders.trademarks,
      best.map(([id]) => id),
    ),
    count: scores.size + unscored,
    basis: capped || unscored > 0 ? 'candidacy_upper_bound' : null,
    scores,
  };
}

async function previewTrademarks(query: WatchQuery, limit: number, ctx: RequestContext): Promise<Preview> {
  const ids = query.trademark_ids ?? (await portfolioMarksOf(ctx.services.store, [{ query }])).get(query.portfolio_id ?? '') ?? [];
  const marks = await loadPresent(ctx.loaders.trademarks, ids);
  return { marks: marks.slice(0, limit), count: marks.length, basis: null, scores: new Map() };
}

/** The marks a watch query matches now (also the diagnostics' marks); no concurrency slot. */
export async function matchingMarks(type: WatchDoc['watch_type'], query: WatchQuery, limit: number, budgetMs: number, ctx: RequestContext): Promise<Preview> {
  const budget = new Budget(budgetMs);
  if (type === 'filter') return previewFilter(query, limit, budget, ctx);
  if (type === 'similarity') return previewSimilarity(query, limit, budget, ctx);
  return previewTrademarks(query, limit, ctx);
}

async function previewWatch(args: PreviewArgs, ctx: RequestContext) {
  const type = checkWatchType(args.watch_type);
  const query = await resolveReferences(checkWatchQuery(type, args.query), ctx);
  const limit = pageLimit(args.limit);
  const { kv, previewBudgetMs } = ctx.services;
  const slot = `watch-preview:${ctx.caller.organizationId}`;
  if (!(await kv.set(slot, '1', { onlyIfAbsent: true, ttlMs: previewBudgetMs + 5_000 }))) {
    throw new ApiError('rate_limited', 'Another watch preview of your organization is running; one runs at a time.', {}, 1);
  }
  try {
    const preview = await matchingMarks(type, query, limit, previewBudgetMs, ctx);
    return {
      object: 'watch_preview',
      watch_type: type,
      query,
      data: args.count_only ? null : preview.marks,
      scores:
        args.count_only || type !== 'similarity' ? null : preview.marks.map((mark) => ({ trademark_id: mark._id, score: preview.scores.get(mark._id) ?? 0 })),
      estimated_match_count: preview.count,
      estimate_basis: preview.basis,
    };
  } finally {
    await kv.delete(slot);
  }
}

export const watchPreviewResolvers = {
  previewWatch: (_: unknown, args: PreviewArgs, ctx: RequestContext) => previewWatch(args, ctx),
};
