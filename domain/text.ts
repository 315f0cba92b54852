/**
 * Text folding: the one normalisation every text key and every query key goes through (index
 * documents, search terms, suggest ranking, party canonical names), so the key a record is
 * indexed under and the key a query looks for can never diverge.
 *
 * Latin letters with no Unicode decomposition (ø, ł, đ, ð, ħ, æ, œ, ß, þ, ı, ŀ, ŧ, ĸ, ŋ …) are
 * folded to their usual ASCII forms by fold-to-ascii, a port of Apache Lucene's ASCIIFoldingFilter:
 * the table of Elasticsearch's `asciifolding`, and for these letters the same as Unicode CLDR's
 * Latin-ASCII transform (ø→o, ł→l, đ/ð→d, ħ→h, æ→ae, œ→oe, ß→ss, þ→th, ı→i, ĸ→q, ŋ→n), so an
 * attorney's "orsted" finds ØRSTED. The table covers Latin letters, digits and punctuation only:
 * Cyrillic, Greek and other scripts pass through unchanged and keep matching themselves.
 *
 * Changing this function changes stored keys: the search indexes' `revision`
 * (datasources/index-definitions.ts) and the party keys' fold version (domain/party-keys.ts)
 * must move with it.
 */
// Called through the module: its functions are static methods that use `this`, so a bare named import would break them.
import * as asciiFolder from 'fold-to-ascii';

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Lowercase, accents, Latin special letters and punctuation folded: "  Café-Crème, S.A. " →
 * "cafe creme s a", "ØRSTED Straße" → "orsted strasse".
 */
export function foldText(text: string): string {
  // Lowercased before the table, which folds some capitals and not their small letters (and the
  // reverse: Ʀ and ʀ, Ɩ and ɩ): a fold must not depend on case, and folding a folded text must
  // change nothing, or a party key refolded at an upgrade would differ from a key computed anew.
  const unaccented = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  // Most text is ASCII once its accents are gone; the table is looked up only when it is not.
  const latin = NON_ASCII.test(unaccented) ? asciiFolder.foldMaintaining(unaccented).toLowerCase() : unaccented;
  return latin.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The words of the folded text, in order, duplicates kept. */
export function foldedWords(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}
