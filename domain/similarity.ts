// TEMPORARY STUB for type-checking (not committed); replaced by the similarity branch.
import { foldText } from './text';
export type SimilaritySignalType = 'exact' | 'phonetic' | 'visual' | 'typo' | 'containment' | 'word_order' | 'class_overlap';
export interface SimilaritySignal {
  type: SimilaritySignalType;
  strength: number;
  detail: string;
}
export interface SimilarityInput {
  text: string;
  niceClasses?: readonly number[];
}
export interface SimilarityResult {
  score: number;
  signals: SimilaritySignal[];
}
export const DEFAULT_SCORE_THRESHOLD = 0.7;
export function scoreSimilarity(a: SimilarityInput, b: SimilarityInput): SimilarityResult {
  const same = foldText(a.text) === foldText(b.text);
  return same ? { score: 1, signals: [{ type: 'exact', strength: 1, detail: 'same text' }] } : { score: 0, signals: [] };
}
export function similarityKeys(text: string): { phonetic: string[]; visual: string[] } {
  return { phonetic: [], visual: [foldText(text).replace(/\s+/g, '')] };
}
