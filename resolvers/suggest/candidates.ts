/**
 * Candidate records for name completion, read from a SearchIndex: the index's own text matches
 * (substrings of 3+ letters, word prefixes below that) plus, for queries long enough to carry a
 * typo, records sharing at least one trigram of the query. domain/suggest ranks them.
 */
import type DataLoader from 'dataloader';
import type { SearchFilter } from '../../datasources/ports';
import { allowedTypos, trigramsOf } from '../../domain/suggest';
import { foldText } from '../../domain/text';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';

/** Records fetched per query kind; ranking picks the best of these. */
const CANDIDATES_PER_QUERY = 200;

export interface CandidateQuery<T> {
  index: string;
  /** The text field holding the name. */
  field: string;
  filters: readonly SearchFilter[];
  loader: DataLoader<string, T | null>;
}

export async function suggestCandidates<T>(q: string, query: CandidateQuery<T>, ctx: RequestContext): Promise<T[]> {
  const searches = [
    ctx.services.search.search({
      index: query.index,
      text: q,
      textFields: [query.field],
      filters: query.filters,
      sort: [{ field: '_score', direction: 'desc' }],
      limit: CANDIDATES_PER_QUERY,
    }),
  ];
  const grams = trigramsOf(q);
  if (allowedTypos(foldText(q).length) > 0 && grams.length > 0) {
    const anyGram: SearchFilter = { op: 'or', filters: grams.map((text): SearchFilter => ({ field: query.field, op: 'match', text })) };
    searches.push(ctx.services.search.search({ index: query.index, filters: [...query.filters, anyGram], sort: [], limit: CANDIDATES_PER_QUERY }));
  }
  const ids = [...new Set((await Promise.all(searches)).flatMap((result) => result.hits.map((hit) => hit.id)))];
  return loadPresent(query.loader, ids);
}
