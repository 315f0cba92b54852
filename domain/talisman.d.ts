/** Types of the talisman modules Marque uses (the package ships none). */
declare module 'talisman/phonetics/double-metaphone' {
  /** The primary and secondary Double Metaphone codes of a word. */
  export default function doubleMetaphone(word: string): [string, string];
}

declare module 'talisman/metrics/damerau-levenshtein' {
  /** The Damerau-Levenshtein distance (insertions, deletions, substitutions, adjacent transpositions). */
  export default function damerauLevenshtein(a: string, b: string): number;
}

declare module 'talisman/metrics/jaro-winkler' {
  /** Jaro-Winkler similarity, 0 to 1. */
  export default function jaroWinkler(a: string, b: string): number;
}
