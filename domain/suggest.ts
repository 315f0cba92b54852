/**
 * Ranking for the suggest endpoints, as pure functions over candidate lists: completion of mark
 * and party names (prefix first, then typo-tolerant), goods/services text → standard terms, and
 * goods/services text → Nice classes. Resolvers fetch candidates; the order is decided here only.
 */
import { foldText } from './text';

/** Levenshtein distance (insertions, deletions, substitutions each cost 1). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** 1 − distance / longer length of the folded texts: 1 for equal texts, 0 for nothing in common. */
export function editSimilarity(a: string, b: string): number {
  const x = foldText(a);
  const y = foldText(b);
  const longer = Math.max(x.length, y.length);
  return longer === 0 ? 1 : 1 - levenshtein(x, y) / longer;
}

/** The distinct 3-character substrings of the folded text (what a trigram index can look up). */
export function trigramsOf(text: string): string[] {
  const folded = foldText(text);
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= folded.length; i++) {
    const gram = folded.slice(i, i + 3);
    if (!gram.includes(' ')) grams.add(gram);
  }
  return [...grams];
}

/** Typos a completion tolerates: none below 4 characters, one up to 7, two from 8. */
export function allowedTypos(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

export type CompletionMatch = 'exact' | 'prefix' | 'word_prefix' | 'fuzzy';

export interface Completion<T> {
  item: T;
  match: CompletionMatch;
  /** 0 to 1; exact 1, prefix 0.8–0.9, word prefix 0.6–0.7, fuzzy at most 0.5. */
  score: number;
}

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

/** Fewest edits turning `query` into some prefix of `word` (a prefix one shorter or longer counts). */
function prefixDistance(query: string, word: string): number {
  let best = Infinity;
  for (let length = Math.max(0, query.length - 1); length <= query.length + 1 && length <= word.length; length++) {
    best = Math.min(best, levenshtein(query, word.slice(0, length)));
  }
  return best;
}

function completionOf(query: string, text: string): { match: CompletionMatch; score: number } | null {
  const folded = foldText(text);
  if (folded.length === 0) return null;
  const coverage = Math.min(1, query.length / folded.length);
  if (folded === query) return { match: 'exact', score: 1 };
  if (folded.startsWith(query)) return { match: 'prefix', score: 0.8 + 0.1 * coverage };
  const words = folded.split(' ');
  if (words.some((word, i) => i > 0 && word.startsWith(query))) return { match: 'word_prefix', score: 0.6 + 0.1 * coverage };
  const allowed = allowedTypos(query.length);
  if (allowed === 0) return null;
  // The whole text counts as one "word" too, so multi-word queries can match with a typo.
  const distance = Math.min(prefixDistance(query, folded), ...words.map((word) => prefixDistance(query, word)));
  if (distance > allowed) return null;
  return { match: 'fuzzy', score: 0.5 - 0.1 * distance - 0.05 * (1 - coverage) };
}

/**
 * Completions of `query` among `items`: exact text, then texts starting with the query, then texts
 * with a later word starting with it, then texts within `allowedTypos` edits of a prefix. Ties go
 * to the shorter text, then alphabetical order, then input order.
 */
export function rankCompletions<T>(query: string, items: readonly T[], textOf: (item: T) => string, limit: number): Array<Completion<T>> {
  const folded = foldText(query);
  if (folded.length === 0) return [];
  const ranked: Array<Completion<T> & { text: string; index: number }> = [];
  items.forEach((item, index) => {
    const found = completionOf(folded, textOf(item));
    if (found) ranked.push({ item, match: found.match, score: round4(found.score), text: foldText(textOf(item)), index });
  });
  ranked.sort((a, b) => b.score - a.score || a.text.length - b.text.length || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0) || a.index - b.index);
  return ranked.slice(0, limit).map(({ item, match, score }) => ({ item, match, score }));
}

// -----------------------------------------------------------------------------------------------
// Goods and services
// -----------------------------------------------------------------------------------------------

/** Words that carry no meaning for matching goods and services. */
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'being',
  'for',
  'from',
  'in',
  'including',
  'namely',
  'not',
  'of',
  'on',
  'or',
  'other',
  'the',
  'than',
  'to',
  'with',
  'by',
]);

/** A light English stemmer: plural endings only (shirts → shirt, batteries → battery, boxes → box). */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Meaningful, stemmed words of a goods/services text, in order, without repeats. */
export function goodsWords(text: string): string[] {
  return [
    ...new Set(
      foldText(text)
        .split(' ')
        .filter((w) => w.length > 0 && !STOP_WORDS.has(w))
        .map(stem),
    ),
  ];
}

export interface StandardTerm {
  term: string;
  nice_class: number;
  basic_number: string;
}

export interface TermMatch {
  term: StandardTerm;
  /** 0 to 1. */
  score: number;
  /** Words of the term found in the text (stemmed). */
  matched_words: string[];
}

/** A term word matches a text word when equal, or one edit apart when both have 5+ letters. */
function wordWeight(termWord: string, textWords: ReadonlySet<string>): number {
  if (textWords.has(termWord)) return 1;
  if (termWord.length < 5) return 0;
  for (const word of textWords) if (word.length >= 5 && levenshtein(word, termWord) <= 1) return 0.8;
  return 0;
}

function scoreTerm(term: StandardTerm, textWords: ReadonlySet<string>): TermMatch | null {
  const words = goodsWords(term.term);
  if (words.length === 0) return null;
  let weight = 0;
  const matched: string[] = [];
  for (const word of words) {
    const w = wordWeight(word, textWords);
    if (w > 0) matched.push(word);
    weight += w;
  }
  if (matched.length === 0) return null;
  // Mostly how much of the term the text covers; partly how much of the text the term explains.
  const score = 0.7 * (weight / words.length) + 0.3 * Math.min(1, weight / textWords.size);
  return { term, score: round4(score), matched_words: matched };
}

/**
 * Standard terms ranked by how well `text` covers them: score desc, then more matched words, then
 * the shorter term, then alphabetical. Terms sharing no word with the text are left out.
 */
export function rankTerms(text: string, terms: readonly StandardTerm[], limit: number): TermMatch[] {
  const textWords = new Set(goodsWords(text));
  if (textWords.size === 0) return [];
  const matches = terms.map((term) => scoreTerm(term, textWords)).filter((m): m is TermMatch => m !== null);
  matches.sort(
    (a, b) =>
      b.score - a.score ||
      b.matched_words.length - a.matched_words.length ||
      a.term.term.length - b.term.term.length ||
      (a.term.term < b.term.term ? -1 : a.term.term > b.term.term ? 1 : 0),
  );
  return matches.slice(0, limit);
}

export interface ClassHeading {
  nice_class: number;
  heading: string;
}

export interface ClassMatch {
  nice_class: number;
  score: number;
  /** The class's best matching terms, best first (at most `termsPerClass`). */
  matched_terms: TermMatch[];
  /** Words of the text found in the class heading (stemmed). */
  matched_heading_words: string[];
}

/**
 * Nice classes ranked for a goods/services text. A class scores the larger of its best term's
 * score and 0.8 × the share of the text's words its heading contains, plus 0.05 for each further
 * matching term (at most four). Ties go to the lower class number.
 */
export function rankClasses(text: string, terms: readonly StandardTerm[], headings: readonly ClassHeading[], limit: number, termsPerClass = 5): ClassMatch[] {
  const textWords = new Set(goodsWords(text));
  if (textWords.size === 0) return [];
  const termMatches = rankTerms(text, terms, terms.length);
  const byClass = new Map<number, TermMatch[]>();
  for (const match of termMatches) {
    const list = byClass.get(match.term.nice_class) ?? [];
    list.push(match);
    byClass.set(match.term.nice_class, list);
  }
  const classes: ClassMatch[] = [];
  for (const { nice_class, heading } of headings) {
    const headingWords = new Set(goodsWords(heading));
    const inHeading = [...textWords].filter((word) => headingWords.has(word));
    const matched = byClass.get(nice_class) ?? [];
    if (matched.length === 0 && inHeading.length === 0) continue;
    const best = matched[0]?.score ?? 0;
    const score = Math.max(best, 0.8 * (inHeading.length / textWords.size)) + 0.05 * Math.min(4, Math.max(0, matched.length - 1));
    classes.push({ nice_class, score: round4(score), matched_terms: matched.slice(0, termsPerClass), matched_heading_words: inHeading });
  }
  classes.sort((a, b) => b.score - a.score || a.nice_class - b.nice_class);
  return classes.slice(0, limit);
}

// -----------------------------------------------------------------------------------------------
// Related marks
// -----------------------------------------------------------------------------------------------

/** Edit similarity at or above which two mark texts count as similar. */
export const SIMILAR_TEXT_THRESHOLD = 0.7;

/**
 * Whether two mark texts are similar: folded edit similarity of at least 0.7 (SPARKLY ~ SPARKLE),
 * or every word of the shorter text (3+ letters in all) occurring as a word of the longer one
 * (SPARK ~ SPARK TECH). Returns the edit similarity either way.
 */
export function markTextSimilarity(a: string, b: string): { similar: boolean; similarity: number } {
  const similarity = round4(editSimilarity(a, b));
  const [shorter, longer] = [foldText(a), foldText(b)].sort((x, y) => x.length - y.length) as [string, string];
  const longerWords = new Set(longer.split(' '));
  const contained = shorter.replace(/ /g, '').length >= 3 && shorter.split(' ').every((word) => longerWords.has(word));
  return { similar: similarity >= SIMILAR_TEXT_THRESHOLD || contained, similarity };
}
