/**
 * The lookup keys of a mark text for similarity candidates: its phonetic and visual keys
 * (domain/similarity; a Cyrillic or Greek mark's include those of its Latin reading), tagged by
 * kind, as the trademark index stores them (`mark_keys`) and the watch evaluator files similarity
 * watches under them; and its trigrams, which catch what the keys miss (containment, typos inside
 * a word), in the mark's own script.
 */
import { similarityKeys } from './similarity';
import { foldText } from './text';

export function markKeys(text: string): string[] {
  const { phonetic, visual } = similarityKeys(text);
  return [...new Set([...phonetic.map((key) => `p:${key}`), ...visual.map((key) => `v:${key}`)])];
}

/** Trigrams of the folded text with spaces removed (`nova tec` → nov, ova, vat, ate, tec). */
export function trigrams(text: string): string[] {
  const compact = foldText(text).replace(/\s+/g, '');
  if (compact.length < 3) return compact.length === 0 ? [] : [compact];
  return [...new Set(Array.from({ length: compact.length - 2 }, (_, i) => compact.slice(i, i + 3)))];
}
