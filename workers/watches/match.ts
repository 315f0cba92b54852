/**
 * Which active watches a changed mark concerns, and the alert each one gets. The watches of one
 * evaluation pass are compiled once into lookup tables (marks watched by ID, phonetic, visual and
 * trigram keys of protected marks), so a change is tested only against the watches that could
 * match it; the filters and the similarity score then decide.
 *
 * A watch is compiled once per query it has had (its current one and the earlier ones it keeps),
 * each entry carrying the period that query was in force: the evaluator uses an entry only for a
 * change that occurred in its period, so a change read after a PATCH is matched as it would have
 * been before it.
 */
import type { IndexDocument, SearchFilter } from '../../datasources/ports';
import { scoreSimilarity, type SimilarityResult } from '../../domain/similarity';
import { markKeys, trigrams } from '../../domain/mark-keys';
import type { WatchDoc, WatchQuery } from '../../domain/records';
import { queryPeriods, type QueryPeriod } from '../../domain/watch-queries';
import { watchSearchFilters } from '../../resolvers/watches/query';
import { matchesAll } from './filter-match';

export interface CompiledWatch {
  watch: WatchDoc;
  /** The query compiled here: the watch's current one, or one it had before. */
  query: WatchQuery;
  /** When that query was in force: the changes this entry may alert on occurred in it. */
  period: Pick<QueryPeriod, 'from' | 'until'>;
  filters: SearchFilter[];
  /** similarity watches: the protected mark and its threshold. */
  similarity: { q: string; threshold: number } | null;
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export class WatchTable {
  /** trademark watches by watched mark ID. */
  private readonly byMark = new Map<string, CompiledWatch[]>();
  /**
   * filter watches by the office they require (most name one or a few), and those that require
   * none: a change is tested only against the watches of its office and the office-less ones.
   */
  private readonly filterWatchesByOffice = new Map<string, CompiledWatch[]>();
  private readonly anyOfficeFilterWatches: CompiledWatch[] = [];
  /** similarity watches by phonetic/visual key, and by trigram. */
  private readonly byKey = new Map<string, CompiledWatch[]>();
  private readonly byTrigram = new Map<string, CompiledWatch[]>();
  private readonly trigramCount = new Map<CompiledWatch, number>();
  /** Watches whose query could not be compiled, with the reason. */
  readonly failures = new Map<string, string>();

  constructor(watches: readonly WatchDoc[], portfolioMarks: ReadonlyMap<string, readonly string[]>) {
    for (const watch of watches) {
      for (const { query, from, until } of queryPeriods(watch)) {
        let filters: SearchFilter[];
        try {
          filters = watchSearchFilters(query);
        } catch (error) {
          // A query stored before a rule tightened: skipped. Only the current one is reported, as
          // diagnostics describe the watch as it is; an earlier one just alerts no more.
          if (until === null) this.failures.set(watch._id, error instanceof Error ? error.message : String(error));
          continue;
        }
        this.add(
          {
            watch,
            query,
            period: { from, until },
            filters,
            similarity: watch.watch_type === 'similarity' && query.q ? { q: query.q, threshold: query.score_threshold ?? 0 } : null,
          },
          portfolioMarks,
        );
      }
    }
  }

  /** Files a compiled query where the changes that could match it will look. */
  private add(compiled: CompiledWatch, portfolioMarks: ReadonlyMap<string, readonly string[]>): void {
    const { watch, query } = compiled;
    if (watch.watch_type === 'trademark') {
      const ids = query.trademark_ids ?? portfolioMarks.get(query.portfolio_id ?? '') ?? [];
      for (const id of ids) push(this.byMark, id, compiled);
    } else if (watch.watch_type === 'filter') {
      const offices = requiredOffices(compiled.filters);
      if (offices === null) this.anyOfficeFilterWatches.push(compiled);
      else for (const office of offices) push(this.filterWatchesByOffice, office, compiled);
    } else if (compiled.similarity) {
      for (const key of markKeys(compiled.similarity.q)) push(this.byKey, key, compiled);
      const grams = trigrams(compiled.similarity.q);
      this.trigramCount.set(compiled, grams.length);
      for (const gram of grams) push(this.byTrigram, gram, compiled);
    }
  }

  /** trademark watches naming this mark. */
  trademarkWatches(markId: string): readonly CompiledWatch[] {
    return this.byMark.get(markId) ?? [];
  }

  /** filter watches whose filters the mark meets. */
  matchingFilterWatches(doc: IndexDocument): CompiledWatch[] {
    const candidates = [...(this.filterWatchesByOffice.get(String(doc.office_code)) ?? []), ...this.anyOfficeFilterWatches];
    return candidates.filter((compiled) => matchesAll(doc, compiled.filters));
  }

  /**
   * similarity watches whose protected mark scores at least the watch's threshold against the
   * mark (and whose filters it meets). Candidates share a phonetic or visual key, or at least
   * half the protected mark's trigrams (containment, typos).
   */
  matchingSimilarityWatches(doc: IndexDocument, classes: readonly number[]): Array<{ compiled: CompiledWatch; result: SimilarityResult }> {
    const text = String(doc.mark_text ?? '');
    const candidates = new Set<CompiledWatch>();
    for (const key of markKeys(text)) for (const compiled of this.byKey.get(key) ?? []) candidates.add(compiled);
    const hits = new Map<CompiledWatch, number>();
    for (const gram of trigrams(text)) for (const compiled of this.byTrigram.get(gram) ?? []) hits.set(compiled, (hits.get(compiled) ?? 0) + 1);
    for (const [compiled, count] of hits) if (count * 2 >= (this.trigramCount.get(compiled) ?? 1)) candidates.add(compiled);
    const matches: Array<{ compiled: CompiledWatch; result: SimilarityResult }> = [];
    for (const compiled of candidates) {
      if (!compiled.similarity || !matchesAll(doc, compiled.filters)) continue;
      const watchedClasses = (compiled.query.filters?.niceClasses as number[] | undefined) ?? [];
      const result = scoreSimilarity({ text: compiled.similarity.q, niceClasses: watchedClasses }, { text, niceClasses: classes });
      if (result.score >= compiled.similarity.threshold) matches.push({ compiled, result });
    }
    return matches;
  }
}

/** The offices a mark must be of to meet these filters (a top-level office filter), or null when any office may. */
function requiredOffices(filters: readonly SearchFilter[]): string[] | null {
  for (const filter of filters) {
    if (filter.op === 'eq' && filter.field === 'office_code') return [String(filter.value)];
    if (filter.op === 'in' && filter.field === 'office_code') return filter.values.map(String);
  }
  return null;
}
