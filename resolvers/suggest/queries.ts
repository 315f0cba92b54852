/**
 * Query fields of the suggest endpoints: mark-text completion, typed completion across marks and
 * parties, and goods/services text → Nice classes or standard terms (data/nice_terms.json and
 * the class headings). Candidates come from the search indexes; domain/suggest ranks them.
 */
import { ATTORNEY_INDEX, FIRM_INDEX, OWNER_INDEX, TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter } from '../../datasources/ports';
import { invalid } from '../../domain/errors';
import type { AttorneyDoc, FirmDoc, OwnerDoc, TrademarkDoc } from '../../domain/records';
import { rankClasses, rankCompletions, rankTerms, type StandardTerm } from '../../domain/suggest';
import type { RequestContext } from '../context';
import { pageLimit } from '../page-limit';
import { officeByCode } from '../../domain/offices';
import { NICE_CLASSES, NICE_TERMS } from '../reference-data';
import { CURRENT_NICE_VERSION, NICE_VERSIONS } from '../reference/queries';
import { suggestCandidates } from './candidates';

export const SUGGEST_TYPES = ['trademark', 'owner', 'attorney', 'firm'] as const;
export type SuggestType = (typeof SUGGEST_TYPES)[number];
export const MAX_SUGGESTIONS = 20;
export const MAX_GOODS_TEXT = 2000;

const STANDARD_TERMS: readonly StandardTerm[] = NICE_TERMS.map((t) => ({ term: t.term, nice_class: t.class, basic_number: t.basic_number }));
const notMerged: SearchFilter = { op: 'not', filter: { field: 'is_merged', op: 'eq', value: true } };

function checkQuery(q: string, name = 'q'): string {
  const trimmed = q.trim();
  if (trimmed.length === 0) throw invalid(name, 'must not be empty');
  if (trimmed.length > 100) throw invalid(name, 'must be at most 100 characters');
  return trimmed;
}

interface Suggestion {
  object: 'suggestion';
  type: SuggestType;
  id: string;
  text: string;
  /** Office code for marks, country code for parties. */
  detail: string | null;
  match: string;
  score: number;
}

async function markCompletions(q: string, limit: number, filters: SearchFilter[], ctx: RequestContext) {
  const marks = await suggestCandidates<TrademarkDoc>(q, { index: TRADEMARK_INDEX.name, field: 'mark_text', filters, loader: ctx.loaders.trademarks }, ctx);
  return rankCompletions(q, marks, (m) => m.mark_text, limit);
}

async function trademarkSuggest(args: { q: string; office?: string | null; limit?: number | null }, ctx: RequestContext) {
  const q = checkQuery(args.q);
  const limit = pageLimit(args.limit, MAX_SUGGESTIONS, 10);
  const filters: SearchFilter[] = [];
  if (args.office != null) {
    const office = officeByCode(args.office);
    if (!office) throw invalid('office', `is not a known office code (got '${args.office}')`);
    filters.push({ field: 'office_code', op: 'eq', value: office.office_code });
  }
  const ranked = await markCompletions(q, limit, filters, ctx);
  const data = ranked.map(({ item, match, score }) => ({
    object: 'trademark_suggestion',
    id: item._id,
    mark_text: item.mark_text,
    office_code: item.office_code,
    status: item.status,
    match,
    score,
  }));
  return { data, has_more: false, pagination: { cursor: null } };
}

type PartyDoc = OwnerDoc | AttorneyDoc | FirmDoc;

async function partyCompletions(type: Exclude<SuggestType, 'trademark'>, q: string, limit: number, ctx: RequestContext): Promise<Suggestion[]> {
  const index = { owner: OWNER_INDEX, attorney: ATTORNEY_INDEX, firm: FIRM_INDEX }[type].name;
  const loader = { owner: ctx.loaders.owners, attorney: ctx.loaders.attorneys, firm: ctx.loaders.firms }[type];
  const docs = await suggestCandidates<PartyDoc>(q, { index, field: 'name', filters: [notMerged], loader }, ctx);
  return rankCompletions(q, docs, (d) => d.name, limit).map(({ item, match, score }) => ({
    object: 'suggestion',
    type,
    id: item._id,
    text: item.name,
    detail: item.country_code,
    match,
    score,
  }));
}

async function suggest(args: { q: string; types?: readonly string[] | null; limit?: number | null }, ctx: RequestContext) {
  const q = checkQuery(args.q);
  const limit = pageLimit(args.limit, MAX_SUGGESTIONS, 10);
  const types = args.types && args.types.length > 0 ? [...new Set(args.types)] : [...SUGGEST_TYPES];
  for (const type of types)
    if (!(SUGGEST_TYPES as readonly string[]).includes(type)) throw invalid('types', `must list values of ${SUGGEST_TYPES.join(', ')} (got '${type}')`);
  const perType = await Promise.all(
    (types as SuggestType[]).map(async (type): Promise<Suggestion[]> => {
      if (type !== 'trademark') return partyCompletions(type, q, limit, ctx);
      return (await markCompletions(q, limit, [], ctx)).map(({ item, match, score }) => ({
        object: 'suggestion',
        type,
        id: item._id,
        text: item.mark_text,
        detail: item.office_code,
        match,
        score,
      }));
    }),
  );
  const order = (type: SuggestType) => SUGGEST_TYPES.indexOf(type);
  // Each type's list is ranked already; merging by score keeps each type's own order.
  const data = perType
    .flat()
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.score - a.s.score || order(a.s.type) - order(b.s.type) || a.i - b.i)
    .slice(0, limit)
    .map(({ s }) => s);
  return { data, has_more: false, pagination: { cursor: null } };
}

function goodsText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw invalid('text', 'must not be empty');
  if (trimmed.length > MAX_GOODS_TEXT) throw invalid('text', `must be at most ${MAX_GOODS_TEXT} characters`);
  return trimmed;
}

const termRow = (t: { term: StandardTerm; score: number; matched_words: string[] }) => ({
  term: t.term.term,
  class: t.term.nice_class,
  basic_number: t.term.basic_number,
  score: t.score,
  matched_words: t.matched_words,
});

function classificationSuggest(args: { text: string; limit?: number | null; version?: string | null }) {
  const text = goodsText(args.text);
  const limit = pageLimit(args.limit, 45, 5);
  const version = args.version ?? CURRENT_NICE_VERSION;
  if (!(NICE_VERSIONS as readonly string[]).includes(version)) throw invalid('version', `must be one of ${NICE_VERSIONS.join(', ')} (got '${version}')`);
  const headingOf = (c: (typeof NICE_CLASSES)[number]) => (version === '13-2026' ? c.heading_ncl13_2026 : c.heading);
  const headings = NICE_CLASSES.map((c) => ({ nice_class: c.class, heading: headingOf(c) }));
  const ranked = rankClasses(text, STANDARD_TERMS, headings, limit);
  const data = ranked.map((r) => {
    const niceClass = NICE_CLASSES.find((c) => c.class === r.nice_class);
    return {
      object: 'class_suggestion',
      class: r.nice_class,
      kind: niceClass?.kind ?? null,
      heading: niceClass ? headingOf(niceClass) : null,
      version,
      score: r.score,
      matched_terms: r.matched_terms.map(termRow),
      matched_heading_words: r.matched_heading_words,
    };
  });
  return { data, has_more: false, pagination: { cursor: null } };
}

function goodsServicesSuggest(args: { text: string; nice_classes?: readonly number[] | null; limit?: number | null }) {
  const text = goodsText(args.text);
  const limit = pageLimit(args.limit, 50, 10);
  const classes = args.nice_classes && args.nice_classes.length > 0 ? new Set(args.nice_classes) : null;
  for (const c of classes ?? []) if (!Number.isInteger(c) || c < 1 || c > 45) throw invalid('nice_classes', `must list Nice classes from 1 to 45 (got ${c})`);
  const terms = classes === null ? STANDARD_TERMS : STANDARD_TERMS.filter((t) => classes.has(t.nice_class));
  const data = rankTerms(text, terms, limit).map((t) => ({ object: 'goods_services_suggestion', ...termRow(t) }));
  return { data, has_more: false, pagination: { cursor: null } };
}

export const suggestQueryResolvers = {
  trademarkSuggestions: (_: unknown, args: { q: string; office?: string | null; limit?: number | null }, ctx: RequestContext) => trademarkSuggest(args, ctx),
  suggestions: (_: unknown, args: { q: string; types?: string[] | null; limit?: number | null }, ctx: RequestContext) => suggest(args, ctx),
  classificationSuggestions: (_: unknown, args: { text: string; limit?: number | null; version?: string | null }) => classificationSuggest(args),
  goodsServicesSuggestions: (_: unknown, args: { text: string; nice_classes?: number[] | null; limit?: number | null }) => goodsServicesSuggest(args),
};
