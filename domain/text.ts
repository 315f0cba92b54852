/**
 * Text folding: the one normalisation every text key and every query key goes through (index
 * documents, search terms, suggest ranking, party canonical names), so the key a record is
 * indexed under and the key a query looks for can never diverge.
 */

/** Lowercase, accents and punctuation folded to single spaces: "  Café-Crème, S.A. " → "cafe creme s a". */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of the folded text, in order, duplicates kept. */
export function foldedWords(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}
