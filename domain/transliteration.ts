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
 *
 * That is the reading (`latinReading`). Letters with other customary romanizations give other
 * readings (`latinReadings`), one per convention below (BGN/PCGN, ICAO 9303, the Ukrainian
 * system, ISO 9, foreign names as Cyrillic and Greek spell them, French), at most MAX_READINGS:
 * a Latin mark and its Cyrillic or Greek spelling often meet in one of them only (ШКОДА / SKODA,
 * ДЖИП / JEEP, ГОВЕРЛА / HOVERLA, ΜΑΡΛΜΠΟΡΟ / MARLBORO). A convention's letters that make native
 * words read as unrelated Latin ones are left out where noted. Greek χ is read ch (ELOT 743, ISO
 * 843, UN) and kh (BGN/PCGN), never h (no standard writes it so, and short Greek words then sound
 * like English ones: ΧΟΡΟΣ HOROS, HORSE) nor x (that is ξ; ΧΕΡΟΧ looks like XEROX, which is the
 * look-alike signal's, not a reading).
 */
import anyAscii from 'any-ascii';

const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
const CYRILLIC_OR_GREEK_RUN = /[\p{Script=Cyrillic}\p{Script=Greek}]+/gu;
const GREEK_VOICELESS = 'θκξπστφχψ';

type Rule = readonly [RegExp, string | ((match: string, ...groups: string[]) => string)];

/** The Russian separating ъ before е, ё, ю or я is silent in every convention; applied first. */
const SEPARATING_SIGN: readonly Rule[] = [[/ъ(?=[еёюя])/g, '']];

/** The reading's own rules, on lowercase text, in order; `^` and `$` are the ends of a run. */
const RULES: readonly Rule[] = [
  [/щ/g, 'sht'],
  [/х/g, 'h'],
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

/**
 * The other customary romanizations, each read as a whole (a mark is spelled from one language,
 * so its letters follow one convention): their rules run before the reading's own, which then
 * read the letters they leave. A Latin mark spelled from a Cyrillic or Greek one, or the Cyrillic
 * or Greek spelling of a Latin mark, follows one of them more often than the reading's letters:
 * ШКОДА is ŠKODA in ISO 9, ДЖИП JIP in English, ГОВЕРЛА HOVERLA in Ukrainian, ΧΟΝΤΑ HONTA as
 * Greek writes a foreign h. Accents the conventions write (š, ž, č) are dropped, as the fold
 * drops them from Latin marks (ŠKODA is SKODA).
 */
interface Convention {
  rules: readonly Rule[];
  /** Whether the convention applies to the text (a language's letters it lacks rule it out). */
  applies?: (text: string) => boolean;
}

const CONVENTIONS: readonly Convention[] = [
  // BGN/PCGN (Russian 1947, Greek 1962): х kh, щ shch, Greek χ kh.
  {
    rules: [
      [/х/g, 'kh'],
      [/щ/g, 'shch'],
      [/χ/g, 'kh'],
    ],
  },
  // ICAO Doc 9303 (machine-readable passports; Russian ones since 2013): х kh, щ shch, й i, ю iu,
  // я ia, ъ ie.
  {
    rules: [
      [/х/g, 'kh'],
      [/щ/g, 'shch'],
      [/й/g, 'i'],
      [/ю/g, 'iu'],
      [/я/g, 'ia'],
      [/ъ/g, 'ie'],
    ],
  },
  // Ukrainian national system (Cabinet of Ministers resolution 55, 2010): г h, и y, х kh, щ shch;
  // є ye, ї yi, й y, ю yu, я ya at a word's start, ie, i, i, iu, ia elsewhere (ГОВЕРЛА HOVERLA;
  // Russian writes a foreign h as г too in older loans: ГЕРБАЛАЙФ HERBALIFE). Not for a text with
  // a letter Ukrainian lacks (ы, э, ё, ъ).
  {
    applies: (text) => !/[ыэёъ]/i.test(text),
    rules: [
      [/^є/, 'ye'],
      [/^ї/, 'yi'],
      [/^й/, 'y'],
      [/^ю/, 'yu'],
      [/^я/, 'ya'],
      [/г/g, 'h'],
      [/и/g, 'y'],
      [/х/g, 'kh'],
      [/щ/g, 'shch'],
      [/є/g, 'ie'],
      [/ї/g, 'i'],
      [/й/g, 'i'],
      [/ю/g, 'iu'],
      [/я/g, 'ia'],
    ],
  },
  // ISO 9 (1995): ж ž, ш š, щ ŝ, folded as Latin marks are (ШКОДА ŠKODA, SKODA); ц c where a
  // Latin c is soft too, before e, i, y (ЦЕНТРУМ CENTRUM), as a reading is heard and a c before
  // a, o, u is a k. Not its č for ч, for the same reason, nor its j, û, â for й, ю, я, which a
  // reader hears as the English j, u and a.
  {
    rules: [
      [/ж/g, 'z'],
      [/ш/g, 's'],
      [/щ/g, 's'],
      [/ц(?=[еёиійыэєїюя])/g, 'c'],
    ],
  },
  // Foreign names as the scripts spell them: Cyrillic writes дж for an English j and й for the i
  // of a diphthong (ДЖИП JEEP, ДЖОНСОН JOHNSON, ЛУКОЙЛ LUKOIL); Greek writes a foreign b, d, g as
  // μπ, ντ, γκ wherever they stand (ΜΑΡΛΜΠΟΡΟ MARLBORO, ΒΟΝΤΑΦΟΝ VODAFONE), a j as τζ and a u as ου
  // (ΣΑΜΣΟΥΝΓΚ SAMSUNG).
  {
    rules: [
      [/дж/g, 'j'],
      [/й/g, 'i'],
      [/μπ/g, 'b'],
      [/ντ/g, 'd'],
      [/γκ/g, 'g'],
      [/τζ/g, 'j'],
      [/ου/g, 'u'],
    ],
  },
  // The same in Greek with mb, nd, ng inside a word, as ISO 843's transcription writes them after
  // a vowel (ΧΟΝΤΑ CHONDA, beside HONDA).
  {
    rules: [
      [/^μπ/, 'b'],
      [/^ντ/, 'd'],
      [/^γκ/, 'g'],
      [/μπ/g, 'mb'],
      [/ντ/g, 'nd'],
      [/γκ/g, 'ng'],
      [/τζ/g, 'j'],
      [/ου/g, 'u'],
    ],
  },
  // French (the customary romanization in French texts): ш ch, дж dj, ч tch, щ chtch, х kh, й i
  // (АШАН AUCHAN). Not its j for ж, nor ou for у, which read ЖАР as JAR and ЛУК as LOUK.
  {
    rules: [
      [/дж/g, 'dj'],
      [/щ/g, 'chtch'],
      [/ш/g, 'ch'],
      [/ч/g, 'tch'],
      [/х/g, 'kh'],
      [/й/g, 'i'],
    ],
  },
];

/** At most this many readings of a mark (the reading and its alternatives), so scoring and keys stay bounded. */
export const MAX_READINGS = 8;

/** Greek tonos (an acute in NFD) marks stress, not a letter; Cyrillic й, ё and ї keep their marks. */
const withoutGreekTonos = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/(\p{Script=Greek})\u0301/gu, '$1')
    .normalize('NFC');

const applyRules = (text: string, rules: readonly Rule[]): string =>
  rules.reduce(
    (read, [pattern, replacement]) => (typeof replacement === 'string' ? read.replace(pattern, replacement) : read.replace(pattern, replacement)),
    text,
  );

function readRun(run: string, convention: readonly Rule[]): string {
  const read = applyRules(applyRules(applyRules(run.toLowerCase(), SEPARATING_SIGN), convention), RULES);
  const latin = anyAscii(read);
  // The reading keeps the run's case (capitals, a capital first, or none), as details quote it.
  if (run === run.toUpperCase()) return latin.toUpperCase();
  return run[0] === run[0]?.toUpperCase() ? `${latin.charAt(0).toUpperCase()}${latin.slice(1)}` : latin;
}

/** The text with its Cyrillic and Greek letters read in Latin ones (the first of `latinReadings`); null when it has none. */
export function latinReading(text: string): string | null {
  return latinReadings(text)[0] ?? null;
}

/**
 * The text's Latin readings: `latinReading` first, then those of the other customary conventions
 * that read it otherwise, at most MAX_READINGS in all; empty when it has no Cyrillic or Greek letter.
 */
export function latinReadings(text: string): string[] {
  if (!CYRILLIC_OR_GREEK.test(text)) return [];
  const plain = withoutGreekTonos(text);
  const readings = [[], ...CONVENTIONS.filter((convention) => convention.applies?.(plain) ?? true).map((convention) => convention.rules)].map((rules) =>
    plain.replace(CYRILLIC_OR_GREEK_RUN, (run) => readRun(run, rules)),
  );
  return [...new Set(readings)].slice(0, MAX_READINGS);
}
