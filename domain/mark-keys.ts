/**
 * The lookup keys of a mark text: for similarity candidates, its phonetic and visual keys
 * (domain/similarity), tagged by kind, as the trademark index stores them (`mark_keys`) and the
 * watch evaluator files similarity watches under them, and its trigrams, which catch what the
 * keys miss (containment, typos inside a word); for search, the whole text as an exact query
 * compares it.
 */
import { similarityKeys } from './similarity';
import { foldedWords } from './text';

export function markKeys(text: string): string[] {
  const { phonetic, visual } = similarityKeys(text);
  return [...new Set([...phonetic.map((key) => `p:${key}`), ...visual.map((key) => `v:${key}`)])];
}

/**
 * The folded text with spaces removed: `H & M`, `h&m` and `HM` are all `hm`, and a search whose
 * whole text has a mark's key ranks that mark first.
 */
export function markTextKey(text: string): string {
  return foldedWords(text).join('');
}

/** Trigrams of the folded text with spaces removed (`nova tec` → nov, ova, vat, ate, tec). */
export function trigrams(text: string): string[] {
  const compact = markTextKey(text);
  if (compact.length < 3) return compact.length === 0 ? [] : [compact];
  return [...new Set(Array.from({ length: compact.length - 2 }, (_, i) => compact.slice(i, i + 3)))];
}
