/**
 * GET /v1/trademarks/{id}/related: marks of the same family, each row saying why.
 *
 * - madrid_family: shares the mark's international registration number (the IR and its designations);
 * - series: shares the mark's series_id;
 * - same_owner_similar_text: has an owner in common and a similar mark text (domain/suggest
 *   markTextSimilarity: folded edit similarity ≥ 0.7, or the shorter text's words all occur in
 *   the longer). Candidates are the owners' marks sharing at least one trigram of the text.
 *
 * At most MAX_RELATED rows: family, then series, then similar marks by similarity.
 */
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter } from '../../datasources/ports';
import { markTextSimilarity, trigramsOf } from '../../domain/suggest';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import type { RequestContext } from '../context';
import { loadPresent } from '../loaders';
import { madridFamily } from './family';
import { requireTrademark } from './load';

export const MAX_RELATED = 100;
/** Same-owner marks sharing a trigram with the text that are compared in full. */
const SIMILAR_CANDIDATES = 300;

export type Relation = 'madrid_family' | 'series' | 'same_owner_similar_text';

interface RelatedRow {
  object: 'related_trademark';
  relations: Relation[];
  similarity: number | null;
  trademark: TrademarkDoc;
}

async function seriesMembers(mark: TrademarkDoc, ctx: RequestContext): Promise<TrademarkDoc[]> {
  if (mark.series_id === null) return [];
  return ctx.services.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ series_id: mark.series_id }, { limit: MAX_RELATED + 1 });
}

function textCandidatesFilter(text: string): SearchFilter {
  const grams = trigramsOf(text);
  if (grams.length === 0) return { field: 'mark_text', op: 'match', text };
  return { op: 'or', filters: grams.map((gram): SearchFilter => ({ field: 'mark_text', op: 'match', text: gram })) };
}

async function similarOwnedMarks(mark: TrademarkDoc, ctx: RequestContext): Promise<Array<{ doc: TrademarkDoc; similarity: number }>> {
  if (mark.owner_ids.length === 0) return [];
  const result = await ctx.services.search.search({
    index: TRADEMARK_INDEX.name,
    filters: [{ field: 'owner_ids', op: 'in', values: mark.owner_ids }, textCandidatesFilter(mark.mark_text)],
    sort: [],
    limit: SIMILAR_CANDIDATES,
  });
  const candidates = await loadPresent(
    ctx.loaders.trademarks,
    result.hits.map((hit) => hit.id).filter((id) => id !== mark._id),
  );
  return candidates
    .map((doc) => ({ doc, ...markTextSimilarity(mark.mark_text, doc.mark_text) }))
    .filter((c) => c.similar)
    .sort((a, b) => b.similarity - a.similarity || (a.doc._id < b.doc._id ? -1 : 1));
}

export async function relatedTrademarks(id: string, ctx: RequestContext) {
  const mark = await requireTrademark(id, ctx);
  const [family, series, similar] = await Promise.all([madridFamily(mark, ctx), seriesMembers(mark, ctx), similarOwnedMarks(mark, ctx)]);
  const rows = new Map<string, RelatedRow>();
  const add = (doc: TrademarkDoc, relation: Relation, similarity: number | null) => {
    if (doc._id === mark._id) return;
    const row = rows.get(doc._id) ?? { object: 'related_trademark' as const, relations: [], similarity: null, trademark: doc };
    row.relations.push(relation);
    if (similarity !== null) row.similarity = similarity;
    rows.set(doc._id, row);
  };
  [...family].sort((a, b) => a.office_code.localeCompare(b.office_code)).forEach((doc) => add(doc, 'madrid_family', null));
  series.forEach((doc) => add(doc, 'series', null));
  similar.forEach(({ doc, similarity }) => add(doc, 'same_owner_similar_text', similarity));
  const data = [...rows.values()].slice(0, MAX_RELATED);
  return { data, has_more: false, pagination: { cursor: null } };
}
