/**
 * How confusingly similar two marks' texts are, as a score from 0 to 1 with the signals behind
 * it. Pure; the watch evaluator, the watch preview and the index keys all use it.
 *
 * The model follows how examiners and courts compare word marks: visually, aurally and
 * conceptually, by overall impression, with the goods as a factor. Each signal is one of those
 * tests that can fire, with a strength (how strongly it alone suggests confusion):
 *
 * - exact: the same letters once case, accents, spaces and punctuation are folded away (1.0);
 * - visual: the same once look-alike characters are read alike (0/O, 1/l/I, 5/S, rn/m, vv/w, and
 *   Cyrillic or Greek letters drawn as Latin ones: АРРLE / APPLE, νolvo / VOLVO): 0.95;
 * - phonetic: the same Double Metaphone code for the whole mark (LEXUS/LEXIS, KWIK/QUICK): 0.9;
 *   or for some of the protected mark's words: 0.85 × the share of its words that sound alike;
 * - word_order: the same words in another order (SUN RISE / RISE SUN): 0.9;
 * - typo: a small Damerau-Levenshtein distance on the look-alike forms, relative to length
 *   (from 0.75 up: one slip in four letters);
 * - containment: one mark's words all inside the other, or one mark inside the other's letters
 *   (APPLE / APPLE MUSIC, NOVA / NOVATEC): 0.6 plus up to 0.3 for how much of the longer it is;
 * - transliteration: a mark in Cyrillic or Greek compared through its Latin readings
 *   (domain/transliteration: its reading and those of the other customary romanizations, at most
 *   eight, so ШКОДА reads SHKODA and, in ISO 9, SKODA), as examiners compare marks in different
 *   scripts: the strongest of the signals above between the readings, at most 0.9, so НОВАЛЮКС /
 *   NOVALUX (the readings NOVALYUKS and NOVALUX sound alike) scores as a phonetic match. A reading is heard, never
 *   seen: readings are compared by their letters without the look-alike rules (KORN is not KOM),
 *   and a shared Double Metaphone code counts only when their spoken spellings are alike too
 *   (МИР, read MIR, and MARIO share the code MR but not their vowels). It is not 1 even when the
 *   readings are the same letters (letters drawn alike in both scripts are the visual signal's).
 *   It is named only when it is stronger than what the marks' own letters show (two Cyrillic
 *   marks differing by a letter are a typo either way). CJK and other scripts are not read.
 *
 * The textual score is the strongest signal, or, when none fires, 0.8 × the Jaro-Winkler
 * similarity of the folded texts, or of their Latin readings (a soft floor that keeps unrelated
 * marks low and ranks near misses). Classes then adjust it when both marks have them: shared Nice classes add 0.05 (the
 * class_overlap signal), none shared multiply by 0.85, as unrelated goods weigh against confusion
 * without excluding it (a famous mark reaches across classes).
 */
import doubleMetaphone from 'talisman/phonetics/double-metaphone';
import damerauLevenshtein from 'talisman/metrics/damerau-levenshtein';
import jaroWinkler from 'talisman/metrics/jaro-winkler';
import { foldedWords } from './text';
import { latinReadings } from './transliteration';

/** Every signal type, in the order the public contract lists them (alert `signals[].type`). */
export const SIMILARITY_SIGNAL_TYPES = ['exact', 'phonetic', 'visual', 'typo', 'containment', 'word_order', 'transliteration', 'class_overlap'] as const;
export type SimilaritySignalType = (typeof SIMILARITY_SIGNAL_TYPES)[number];

export interface SimilaritySignal {
  type: SimilaritySignalType;
  /** 0..1: how strongly this signal alone suggests confusion. */
  strength: number;
  /** Human-readable, e.g. "LEXIS sounds like LEXUS (Double Metaphone LKS)". */
  detail: string;
}

export interface SimilarityInput {
  text: string;
  niceClasses?: readonly number[];
}

export interface SimilarityResult {
  /** 0..1, rounded to 3 decimals. */
  score: number;
  /** The signals that fired, strongest first. */
  signals: SimilaritySignal[];
}

/** The score from which a similarity watch alerts unless it sets its own threshold. */
export const DEFAULT_SCORE_THRESHOLD = 0.75;

const TYPO_FLOOR = 0.75;
const CLASS_OVERLAP_BONUS = 0.05;
const NO_CLASS_OVERLAP_FACTOR = 0.85;
const JARO_WINKLER_WEIGHT = 0.8;
/** The transliteration signal's ceiling: the phonetic match's strength (see the module comment). */
const TRANSLITERATION_CEILING = 0.9;
/**
 * How alike two readings' spoken spellings must be (Jaro-Winkler) for their shared Double Metaphone
 * code to count: the code drops vowels and stops at four letters, so МИР (MIR) and MARIO, КОТ and
 * CAT share one; a transliteration is a heard comparison, and vowels are heard.
 */
const READINGS_SOUND_ALIKE_FLOOR = 0.85;

/** Look-alike characters and pairs, read as the one they pass for. */
const LOOKALIKES: ReadonlyArray<[RegExp, string]> = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/0/g, 'o'],
  [/[1i|!]/g, 'l'],
  [/5/g, 's'],
  [/\$/g, 's'],
  [/3/g, 'e'],
  [/4/g, 'a'],
  [/@/g, 'a'],
  [/8/g, 'b'],
  [/7/g, 't'],
];

const round = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;

/** Folded words with the look-alike symbols kept as letters (foldedWords drops `$`, `@`, `|`). */
function wordsOf(text: string): string[] {
  return foldedWords(text.replace(/[$@|!]/g, (symbol) => ({ $: 's', '@': 'a', '|': 'l', '!': 'l' })[symbol] ?? symbol));
}

/**
 * Cyrillic and Greek capitals drawn as a Latin capital: the entries of Unicode's confusables.txt
 * (UTS #39, "MA" mixed-script confusables) whose source is a capital of either script and whose
 * prototype is one Latin letter (І and Ι map to l there, which the look-alikes make of I anyway).
 * Marks are compared in capitals, so a letter is looked up by its capital: ВОСН looks like BOCH,
 * АРРLE (Cyrillic А and Р) like APPLE, ΚΑΡΡΑ like KAPPA. No library does only this: the npm
 * packages for confusables are profanity filters that also read Ж as X and Л as N.
 */
const LATIN_LOOKING_CAPITALS: Readonly<Record<string, string>> = {
  А: 'A',
  В: 'B',
  Е: 'E',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ү: 'Y',
  Ѵ: 'V',
  Ԍ: 'G',
  Ԝ: 'W',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};

/**
 * Small Cyrillic and Greek letters drawn as a Latin letter unlike what their capital is drawn as
 * (the same table's small-letter entries: ν looks like v where Ν is N, υ like u, г like r, σ like
 * o), so a mark written in small letters (νolvo) is read as it is written; other small letters
 * are looked up by their capital. η is not one of them: the table maps it to ƞ (U+019E, n with a
 * long right leg), not to n, so ηike is a typo of NIKE, not a look-alike.
 */
const LATIN_LOOKING_SMALL_LETTERS: Readonly<Record<string, string>> = {
  α: 'a',
  γ: 'y',
  ι: 'i',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  σ: 'o',
  υ: 'u',
  а: 'a',
  г: 'r',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ѵ: 'v',
  ү: 'y',
  һ: 'h',
  ӏ: 'i',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
};

/** The text with its Cyrillic and Greek letters drawn as the Latin letters they look like (accents apart). */
function withLatinLookingLetters(text: string): string {
  return text
    .normalize('NFD')
    .replace(
      /[\p{Script=Cyrillic}\p{Script=Greek}]/gu,
      (letter) => LATIN_LOOKING_SMALL_LETTERS[letter] ?? LATIN_LOOKING_CAPITALS[letter.toUpperCase()] ?? letter,
    );
}

/** The mark as it looks: folded, spaces gone, look-alikes read alike (across scripts too). */
export function visualForm(text: string): string {
  return LOOKALIKES.reduce((form, [pattern, letter]) => form.replace(pattern, letter), wordsOf(withLatinLookingLetters(text)).join(''));
}

/** Digits read as the letters they pass for, before a word is sounded out (letters stay letters). */
const DIGIT_LETTERS: Readonly<Record<string, string>> = { '0': 'o', '1': 'l', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b' };

/** Double Metaphone codes (primary, secondary) of a word. */
function soundOf(word: string): string[] {
  const letters = word.replace(/[0134578]/g, (digit) => DIGIT_LETTERS[digit] ?? digit);
  return [...new Set(doubleMetaphone(letters).filter((code) => code.length > 0))];
}

/**
 * A Latin reading's x is the sound ks (Greek ξ; Cyrillic кс is written ks already), and is sounded
 * so: Double Metaphone would take a final x after ou as silent (the French rule of BREAUX), and
 * ΝΟΒΑΛΟΥΞ, read NOVALOUX, would not sound like NOVALUX.
 */
const soundOfReading = (word: string): string[] => soundOf(word.replace(/x/g, 'ks'));

const soundsAlike = (a: readonly string[], b: readonly string[]): boolean => a.some((code) => b.includes(code));

interface Prepared {
  text: string;
  words: string[];
  compact: string;
  visual: string;
  sound: string[];
  wordSounds: string[][];
}

function prepare(text: string, sound: (word: string) => string[] = soundOf): Prepared {
  const words = wordsOf(text);
  const compact = words.join('');
  return { text, words, compact, visual: visualForm(text), sound: sound(compact), wordSounds: words.map(sound) };
}

/**
 * Latin spellings of one sound written alike (c/k before a, o, u; x/ks; ph/f; ee/i; w/v; y/i;
 * doubled letters once), so LEXUS and ЛЕКСУС (LEKSUS), COCA-COLA and КОКА-КОЛА (KOKA-KOLA), JEEP
 * and ДЖИП (JIP) compare equal letter by letter where a Double Metaphone code alone would also
 * pair MARIO with МИР (MR).
 */
function spokenSpelling(compact: string): string {
  return compact
    .replace(/ph/g, 'f')
    .replace(/ee/g, 'i')
    .replace(/ck/g, 'k')
    .replace(/c(?=[aou]|$)/g, 'k')
    .replace(/q/g, 'k')
    .replace(/x/g, 'ks')
    .replace(/w/g, 'v')
    .replace(/y/g, 'i')
    .replace(/(.)\1+/g, '$1');
}

/** A reading compared by its letters, not by look-alikes: a reading is heard, never seen. */
const asRead = (prepared: Prepared): Prepared => ({ ...prepared, visual: prepared.compact });

/** The mark's Latin readings (domain/transliteration: its reading first); none for a Latin mark. */
const prepareReadings = (text: string): Prepared[] => latinReadings(text).map((reading) => prepare(reading, soundOfReading));

function textualSignals(a: Prepared, b: Prepared): SimilaritySignal[] {
  const signals: SimilaritySignal[] = [];
  if (a.compact.length === 0 || b.compact.length === 0) return signals;
  if (a.compact === b.compact) {
    signals.push({ type: 'exact', strength: 1, detail: `${b.text} is ${a.text} once case, accents, spaces and punctuation are ignored` });
    return signals;
  }
  if (a.visual === b.visual)
    signals.push({ type: 'visual', strength: 0.95, detail: `${b.text} looks like ${a.text} (look-alike characters read alike: ${a.visual})` });
  if (soundsAlike(a.sound, b.sound)) {
    signals.push({
      type: 'phonetic',
      strength: 0.9,
      detail: `${b.text} sounds like ${a.text} (Double Metaphone ${a.sound.find((code) => b.sound.includes(code))})`,
    });
  } else if (a.words.length > 1 || b.words.length > 1) {
    const alike = a.wordSounds.filter((codes) => b.wordSounds.some((other) => soundsAlike(codes, other))).length;
    if (alike > 0) {
      const share = alike / a.words.length;
      signals.push({ type: 'phonetic', strength: 0.85 * share, detail: `${alike} of the ${a.words.length} words of ${a.text} sound like words of ${b.text}` });
    }
  }
  if (a.words.length > 1 && [...a.words].sort().join(' ') === [...b.words].sort().join(' ')) {
    signals.push({ type: 'word_order', strength: 0.9, detail: `${b.text} has the words of ${a.text} in another order` });
  }
  const distance = damerauLevenshtein(a.visual, b.visual);
  const closeness = 1 - distance / Math.max(a.visual.length, b.visual.length);
  if (distance > 0 && closeness >= TYPO_FLOOR) {
    signals.push({ type: 'typo', strength: closeness, detail: `${b.text} is ${distance} keystroke${distance === 1 ? '' : 's'} from ${a.text}` });
  }
  const [shorter, longer] = a.compact.length <= b.compact.length ? [a, b] : [b, a];
  const wordsInside = shorter.words.every((word) => longer.words.includes(word));
  if (shorter.compact.length >= 3 && (wordsInside || longer.compact.includes(shorter.compact))) {
    const strength = 0.6 + 0.3 * (shorter.compact.length / longer.compact.length);
    signals.push({ type: 'containment', strength, detail: `${longer.text} contains ${shorter.text}` });
  }
  return signals;
}

/** The strongest signal between two readings, heard (a shared code needs alike spoken spellings too). */
function readingSignal(readA: Prepared, readB: Prepared): SimilaritySignal | null {
  const [strongest] = textualSignals(asRead(readA), asRead(readB)).sort((x, y) => y.strength - x.strength);
  if (!strongest) return null;
  if (strongest.type === 'phonetic' && jaroWinkler(spokenSpelling(readA.compact), spokenSpelling(readB.compact)) < READINGS_SOUND_ALIKE_FLOOR) return null;
  return strongest;
}

/**
 * The transliteration signal: the strongest signal between the marks' Latin readings (a Latin
 * mark reads as itself; a Cyrillic or Greek one by each customary convention, each reading of one
 * mark against the other's first reading and the other way round), when it says more than the
 * signals of the marks' own letters.
 */
function transliterationSignal(
  a: Prepared,
  b: Prepared,
  readsA: readonly Prepared[],
  readsB: readonly Prepared[],
  own: readonly SimilaritySignal[],
): SimilaritySignal | null {
  const [firstA, firstB] = [readsA[0], readsB[0]];
  if (!firstA || !firstB) return null;
  const comparisons: Array<[Prepared, Prepared]> = [
    ...readsA.map((readA): [Prepared, Prepared] => [readA, firstB]),
    ...readsB.slice(1).map((readB): [Prepared, Prepared] => [firstA, readB]),
  ];
  let best: { strongest: SimilaritySignal; readA: Prepared; readB: Prepared } | null = null;
  for (const [readA, readB] of comparisons) {
    const signal = readingSignal(readA, readB);
    if (signal && (!best || signal.strength > best.strongest.strength)) best = { strongest: signal, readA, readB };
  }
  if (!best) return null;
  const { strongest, readA, readB } = best;
  const strength = Math.min(TRANSLITERATION_CEILING, strongest.strength);
  if (own.some((signal) => signal.strength >= strength)) return null;
  const pairs: Array<[Prepared, Prepared]> = [
    [a, readA],
    [b, readB],
  ];
  const readings = pairs.filter(([mark, reading]) => mark !== reading).map(([mark, reading]) => `${mark.text} reads ${reading.text}`);
  return { type: 'transliteration', strength, detail: `${readings.join(', ')} in Latin letters: ${strongest.detail}` };
}

export function scoreSimilarity(protectedMark: SimilarityInput, candidate: SimilarityInput): SimilarityResult {
  const a = prepare(protectedMark.text);
  const b = prepare(candidate.text);
  const signals = textualSignals(a, b);
  const [readingsA, readingsB] = [prepareReadings(a.text), prepareReadings(b.text)];
  // A Latin mark reads as itself, so a Latin pair's readings are the marks.
  const [readsA, readsB] = [readingsA.length > 0 ? readingsA : [a], readingsB.length > 0 ? readingsB : [b]];
  const [readA, readB] = [readsA[0] ?? a, readsB[0] ?? b];
  if (readingsA.length > 0 || readingsB.length > 0) {
    const transliteration = transliterationSignal(a, b, readsA, readsB, signals);
    if (transliteration) signals.push(transliteration);
  }
  const floor = readA.compact.length > 0 && readB.compact.length > 0 ? JARO_WINKLER_WEIGHT * jaroWinkler(readA.compact, readB.compact) : 0;
  let score = Math.max(floor, ...signals.map((signal) => signal.strength));
  const classesA = protectedMark.niceClasses ?? [];
  const classesB = candidate.niceClasses ?? [];
  if (classesA.length > 0 && classesB.length > 0) {
    const shared = classesA.filter((niceClass) => classesB.includes(niceClass));
    // Shared classes strengthen a textual resemblance; on their own (the Jaro-Winkler floor and
    // no signal) they must not make an alert that names no reason in the text.
    if (shared.length > 0 && signals.length > 0) {
      score += CLASS_OVERLAP_BONUS;
      signals.push({ type: 'class_overlap', strength: 1, detail: `both cover Nice class${shared.length === 1 ? '' : 'es'} ${shared.join(', ')}` });
    } else if (shared.length === 0) {
      score *= NO_CLASS_OVERLAP_FACTOR;
    }
  }
  const rounded = signals.map((signal) => ({ ...signal, strength: round(signal.strength) })).sort((x, y) => y.strength - x.strength);
  return { score: round(score), signals: rounded };
}

/**
 * Candidate keys of a mark: the Double Metaphone codes of each word and of the whole mark, and
 * its look-alike form; for a mark in Cyrillic or Greek, those of each of its Latin readings as
 * well. Two marks the scoring would call phonetic or visual matches, directly or through their
 * readings, share a key.
 */
export function similarityKeys(text: string): { phonetic: string[]; visual: string[] } {
  const forms = [prepare(text), ...prepareReadings(text)].filter((form) => form.compact.length > 0);
  return {
    phonetic: [...new Set(forms.flatMap((form) => [...form.sound, ...form.wordSounds.flat()]))],
    visual: [...new Set(forms.map((form) => form.visual))],
  };
}
