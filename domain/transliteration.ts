/**
 * The Latin reading of a mark written in Cyrillic or Greek: how an examiner compares НОВАЛЮКС or
 * ΝΟΒΑΛΟΥΞ with NOVALUX, by transliteration. domain/similarity scores and keys marks through it.
 * Only Cyrillic and Greek letters are read; other scripts (CJK among them) are left as they are.
 *
 * The letters come from any-ascii, chosen over `transliteration` (both compared on Russian,
 * Ukrainian, Bulgarian and Greek): any-ascii follows the usual romanizations letter by letter
 * (ц ts, х kh, є ie, ґ g, Kazakh қ q; Greek as ELOT 743: β v, η i, υ y, χ ch, ξ x), has no
 * dependencies and is a small table per Unicode block; `transliteration` writes ц as c, χ as h,
 * ґ and Kazakh қ with an apostrophe (G'ANOK), which folding turns into a word break, and ә as @.
 * Both map one character at a time, so neither knows the digraphs and positions below, which the
 * standards give and which change how a mark sounds; they are applied first:
 *
 * - Bulgarian (Streamlined System, Transliteration Act 2009): щ sht, ъ a, х h, ьо yo. х is read h
 *   for Russian too: in marks it mostly writes a foreign h (ХОНДА, ХИЛТОН), where kh would not
 *   sound like the Latin mark. A ъ before е, ё, ю or я is the Russian separating sign, silent.
 * - Russian and Ukrainian ь elsewhere: dropped (BGN/PCGN write a prime, which folding drops;
 *   any-ascii writes an apostrophe, which would split the word).
 * - Ukrainian (national system, Cabinet of Ministers resolution 55 of 2010): є ye and ї yi at a
 *   word's start (ie and i inside a word, as any-ascii writes them).
 * - Greek (ELOT 743, the UN-approved system, with the positional forms the EU's English Style
 *   Guide gives beside it, which write the sound): ου ou; μπ b and ντ d at a word's start or end,
 *   mp and nt inside; γκ g at a word's start, nk elsewhere; γγ ng, γξ nx, γχ nch; αυ, ευ, ηυ av,
 *   ev, iv before a vowel or β γ δ ζ λ μ ν ρ, af, ef, if before θ κ ξ π σ τ φ χ ψ or at the end.
 *
 * A run of Cyrillic or Greek letters counts as a word: marks are rarely written in two scripts
 * within one word.
 */
import anyAscii from 'any-ascii';

const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
const CYRILLIC_OR_GREEK_RUN = /[\p{Script=Cyrillic}\p{Script=Greek}]+/gu;
const GREEK_VOICELESS = 'θκξπστφχψ';

/** Rules on lowercase text, in order; `^` and `$` are the ends of a run. */
const RULES: ReadonlyArray<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  [/щ/g, 'sht'],
  [/х/g, 'h'],
  [/ъ(?=[еёюя])/g, ''],
  [/ъ/g, 'a'],
  [/ьо/g, 'yo'],
  [/ь/g, ''],
  [/^є/, 'ye'],
  [/^ї/, 'yi'],
  [/ου/g, 'ou'],
  [/^μπ|μπ$/g, 'b'],
  [/μπ/g, 'mp'],
  [/^ντ|ντ$/g, 'd'],
  [/ντ/g, 'nt'],
  [/^γκ/, 'g'],
  [/γγ/g, 'ng'],
  [/γ(?=[κξχ])/g, 'n'],
  [/([αεη])υ(.?)/g, (_, vowel: string, next: string) => `${vowel}${next === '' || GREEK_VOICELESS.includes(next) ? 'φ' : 'β'}${next}`],
];

/** Greek tonos (an acute in NFD) marks stress, not a letter; Cyrillic й, ё and ї keep their marks. */
const withoutGreekTonos = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/(\p{Script=Greek})\u0301/gu, '$1')
    .normalize('NFC');

function readRun(run: string): string {
  const lower = run.toLowerCase();
  const read = RULES.reduce(
    (text, [pattern, replacement]) => (typeof replacement === 'string' ? text.replace(pattern, replacement) : text.replace(pattern, replacement)),
    lower,
  );
  const latin = anyAscii(read);
  // The reading keeps the run's case (capitals, a capital first, or none), as details quote it.
  if (run === run.toUpperCase()) return latin.toUpperCase();
  return run[0] === run[0]?.toUpperCase() ? `${latin.charAt(0).toUpperCase()}${latin.slice(1)}` : latin;
}

/** The text with its Cyrillic and Greek letters read in Latin ones; null when it has none. */
export function latinReading(text: string): string | null {
  if (!CYRILLIC_OR_GREEK.test(text)) return null;
  return withoutGreekTonos(text).replace(CYRILLIC_OR_GREEK_RUN, readRun);
}
