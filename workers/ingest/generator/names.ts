/**
 * Brand-like mark texts (and deliberate near-duplicates of them), company names and person names.
 * All word lists are ordinary vocabulary chosen for this generator.
 */
import { LEGAL_FORMS, PARTNERSHIP_FORMS } from '../../../domain/party-names';
import { type Random, WeightedTable } from './random';

const ONSETS = [
  'b',
  'br',
  'c',
  'cl',
  'cr',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gr',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pr',
  'pl',
  'r',
  's',
  'st',
  'sk',
  't',
  'tr',
  'v',
  'z',
  'x',
  'qu',
  'sh',
  'ch',
  'h',
  'j',
  'w',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'o', 'ai', 'ea', 'io', 'y', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 'x', 's', 'l', 'm', 'k', 't', 'nt', 'rt', 'v', 'z'];
const ENDINGS = ['ia', 'ex', 'ify', 'ora', 'ix', 'o', 'us', 'a', 'on', 'ly', 'io', 'ara', 'ent', 'iva', 'eon', 'ux', 'ine', 'ella', 'ico', 'um'];

const WORDS = [
  'BLUE',
  'RED',
  'GOLDEN',
  'SILVER',
  'NORTH',
  'SUMMIT',
  'RIVER',
  'STONE',
  'OAK',
  'FOX',
  'LION',
  'EAGLE',
  'WAVE',
  'PEAK',
  'NOVA',
  'ZEN',
  'PURE',
  'FRESH',
  'SMART',
  'URBAN',
  'WILD',
  'SUN',
  'MOON',
  'STAR',
  'IRON',
  'CLOUD',
  'ROOT',
  'LEAF',
  'BEAR',
  'WOLF',
  'HAWK',
  'PIXEL',
  'QUANTUM',
  'VELVET',
  'COPPER',
  'MAPLE',
  'CEDAR',
  'HARBOR',
  'ATLAS',
  'ORBIT',
  'ECHO',
  'BRIGHT',
  'SWIFT',
  'HAPPY',
  'LITTLE',
  'BIG',
  'ROYAL',
  'COASTAL',
  'ALPINE',
  'PRIME',
  'TRUE',
  'BOLD',
  'CLEAR',
  'NEST',
  'FORGE',
  'CRAFT',
  'WORKS',
  'LAB',
  'HOUSE',
  'FIELD',
  'GARDEN',
  'BRIDGE',
  'TRAIL',
  'PATH',
  'SPARK',
  'FLAME',
  'FROST',
  'STORM',
  'THUNDER',
  'LIGHT',
  'SHADOW',
  'CROWN',
  'SHIELD',
  'ARROW',
  'ANCHOR',
  'COMPASS',
  'BEACON',
  'PILOT',
  'ROCKET',
  'PANDA',
  'TIGER',
  'FALCON',
  'DOLPHIN',
  'LOTUS',
  'JADE',
  'AMBER',
  'INDIGO',
  'SAGE',
  'MINT',
  'HONEY',
  'COCOA',
  'OLIVE',
  'BERRY',
  'PEPPER',
  'SALT',
  'GRAIN',
  'MILL',
  'BAKERY',
  'KITCHEN',
  'TABLE',
  'HOME',
  'CITY',
  'METRO',
  'VISTA',
  'HORIZON',
  'ZENITH',
  'APEX',
  'VERTEX',
  'FUSION',
  'NEXUS',
  'VECTOR',
  'SIGNAL',
  'PULSE',
  'RHYTHM',
  'NOBLE',
];
const SUFFIX_WORDS = ['PRO', 'X', 'PLUS', 'GO', 'ONE', 'MAX', 'LITE', 'AIR', 'HUB', 'LAB', 'NOW', 'LIFE', 'CARE', 'TECH'];
const FIGURES = ['7', '9', '24', '360', '365', '101', '3', '5', '88', '2000', '1', '4', '10', '99'];

/** Coined word from 2–3 syllables, e.g. "ZORVAX", "BRELIO". */
export function coinedWord(random: Random): string {
  const syllables = random.int(1, 2);
  let word = '';
  for (let i = 0; i < syllables; i++) word += random.pick(ONSETS) + random.pick(VOWELS) + random.pick(CODAS);
  word += random.chance(0.6) ? random.pick(ENDINGS) : random.pick(ONSETS) + random.pick(VOWELS);
  return word.toUpperCase();
}

type MarkTextShape = 'coined' | 'compound' | 'two_words' | 'coined_word' | 'with_figure';
const MARK_TEXT_SHAPES = new WeightedTable<MarkTextShape>([
  { value: 'coined', weight: 34 },
  { value: 'compound', weight: 20 },
  { value: 'two_words', weight: 24 },
  { value: 'coined_word', weight: 12 },
  { value: 'with_figure', weight: 10 },
]);

/** A brand-like word-mark text in the register's usual capitals. */
export function markText(random: Random): string {
  switch (MARK_TEXT_SHAPES.pick(random)) {
    case 'coined':
      return coinedWord(random);
    case 'compound':
      return random.pick(WORDS) + random.pick(WORDS);
    case 'two_words':
      return `${random.pick(WORDS)} ${random.pick(WORDS)}`;
    case 'coined_word':
      return random.chance(0.5) ? `${coinedWord(random)} ${random.pick(SUFFIX_WORDS)}` : `${random.pick(WORDS)} ${coinedWord(random)}`;
    case 'with_figure':
      return random.chance(0.6) ? `${random.pick(WORDS)}${random.pick(FIGURES)}` : `${random.pick(FIGURES)} ${random.pick(WORDS)}`;
  }
}

const VOWEL_LETTERS = 'AEIOU';
const LOOKALIKE: Record<string, string> = { C: 'K', K: 'C', S: 'Z', Z: 'S', I: 'Y', Y: 'I', V: 'W', W: 'V', X: 'KS', F: 'PH', O: '0', E: '3' };

function letterPositions(text: string, test: (letter: string) => boolean): number[] {
  const positions: number[] = [];
  [...text].forEach((letter, i) => {
    if (test(letter)) positions.push(i);
  });
  return positions;
}

function replaceAt(text: string, position: number, replacement: string): string {
  return text.slice(0, position) + replacement + text.slice(position + 1);
}

type VariantKind = 'plural' | 'vowel_swap' | 'doubled_letter' | 'lookalike' | 'word_order' | 'added_suffix' | 'joined' | 'dropped_letter';
const VARIANT_KINDS = new WeightedTable<VariantKind>([
  { value: 'plural', weight: 16 },
  { value: 'vowel_swap', weight: 18 },
  { value: 'doubled_letter', weight: 12 },
  { value: 'lookalike', weight: 14 },
  { value: 'word_order', weight: 8 },
  { value: 'added_suffix', weight: 16 },
  { value: 'joined', weight: 6 },
  { value: 'dropped_letter', weight: 10 },
]);

/**
 * A near-duplicate of `text` (plural, vowel swap, doubled letter, look-alike letter, word order,
 * added suffix, joined words, dropped letter), so similarity search has conflicts to find. Falls
 * back to an added suffix when the chosen change does not apply.
 */
export function nearDuplicate(text: string, random: Random): string {
  const words = text.split(' ');
  switch (VARIANT_KINDS.pick(random)) {
    case 'plural':
      if (!text.endsWith('S') && /[A-Z]$/.test(text)) return `${text}S`;
      break;
    case 'vowel_swap': {
      const vowels = letterPositions(text, (letter) => VOWEL_LETTERS.includes(letter));
      if (vowels.length > 0) {
        const position = random.pick(vowels);
        const others = VOWEL_LETTERS.replace(text.charAt(position), '');
        return replaceAt(text, position, random.pick(others.split('')));
      }
      break;
    }
    case 'doubled_letter': {
      const consonants = letterPositions(text, (letter) => /[B-DF-HJ-NP-TV-Z]/.test(letter));
      if (consonants.length > 0) {
        const position = random.pick(consonants);
        return text.slice(0, position + 1) + text.charAt(position) + text.slice(position + 1);
      }
      break;
    }
    case 'lookalike': {
      const candidates = letterPositions(text, (letter) => letter in LOOKALIKE);
      if (candidates.length > 0) {
        const position = random.pick(candidates);
        return replaceAt(text, position, LOOKALIKE[text.charAt(position)] as string);
      }
      break;
    }
    case 'word_order':
      if (words.length === 2) return `${words[1]} ${words[0]}`;
      break;
    case 'joined':
      if (words.length === 2) return words.join('');
      break;
    case 'dropped_letter':
      if (text.length > 4)
        return replaceAt(text, random.int(1, text.length - 2), '')
          .replace(/\s{2,}/g, ' ')
          .trim();
      break;
    case 'added_suffix':
      break;
  }
  return `${text} ${random.pick(SUFFIX_WORDS)}`;
}

/** Devices for figurative marks, with the Vienna division (data/vienna_categories.json) each shows. */
export const DEVICES: ReadonlyArray<{ text: string; vienna: string }> = [
  { text: 'DEVICE OF A LION', vienna: '03.01' },
  { text: 'DEVICE OF A BEAR', vienna: '03.01' },
  { text: 'DEVICE OF A HORSE', vienna: '03.03' },
  { text: 'DEVICE OF AN EAGLE', vienna: '03.07' },
  { text: 'DEVICE OF A BIRD IN FLIGHT', vienna: '03.07' },
  { text: 'DEVICE OF A DOLPHIN', vienna: '03.09' },
  { text: 'DEVICE OF A BEE', vienna: '03.13' },
  { text: 'DEVICE OF A DRAGON', vienna: '04.03' },
  { text: 'DEVICE OF A STAR', vienna: '01.01' },
  { text: 'DEVICE OF A RISING SUN', vienna: '01.03' },
  { text: 'DEVICE OF A GLOBE', vienna: '01.05' },
  { text: 'DEVICE OF A CRESCENT MOON', vienna: '01.07' },
  { text: 'DEVICE OF A TREE', vienna: '05.01' },
  { text: 'DEVICE OF A LEAF', vienna: '05.03' },
  { text: 'DEVICE OF A FLOWER', vienna: '05.05' },
  { text: 'DEVICE OF A CROWN', vienna: '24.09' },
  { text: 'DEVICE OF A SHIELD', vienna: '24.01' },
  { text: 'DEVICE OF AN ARROW', vienna: '24.15' },
  { text: 'DEVICE OF A CIRCLE', vienna: '26.01' },
  { text: 'DEVICE OF A TRIANGLE', vienna: '26.03' },
  { text: 'DEVICE OF A STYLIZED MAN', vienna: '02.01' },
  { text: 'DEVICE OF A STYLIZED WOMAN', vienna: '02.03' },
];

/** Vienna divisions that accompany word elements in combined marks (stylized letters, colours). */
export const COMBINED_MARK_VIENNA = ['27.05', '29.01', '26.01', '26.04', '26.11', '25.01'];

// ------------------------------------------------------------------------------------------------
// Parties
// ------------------------------------------------------------------------------------------------

/** Name style of a country (which given/family name list to use). */
type NameStyle = 'en' | 'de' | 'fr' | 'it' | 'es' | 'pt' | 'nl' | 'sv' | 'ja' | 'zh' | 'ko' | 'hi' | 'tr';

const NAME_STYLE_BY_COUNTRY: Record<string, NameStyle> = {
  US: 'en',
  GB: 'en',
  CA: 'en',
  AU: 'en',
  IE: 'en',
  NZ: 'en',
  SG: 'en',
  IL: 'en',
  DE: 'de',
  AT: 'de',
  CH: 'de',
  FR: 'fr',
  BE: 'fr',
  IT: 'it',
  ES: 'es',
  MX: 'es',
  BR: 'pt',
  NL: 'nl',
  SE: 'sv',
  DK: 'sv',
  JP: 'ja',
  CN: 'zh',
  TW: 'zh',
  HK: 'zh',
  KR: 'ko',
  IN: 'hi',
  TR: 'tr',
};

const GIVEN_NAMES: Record<NameStyle, string[]> = {
  en: [
    'James',
    'Mary',
    'John',
    'Patricia',
    'Robert',
    'Jennifer',
    'Michael',
    'Linda',
    'David',
    'Sarah',
    'Daniel',
    'Emily',
    'Thomas',
    'Laura',
    'Andrew',
    'Rachel',
    'Mark',
    'Olivia',
    'Peter',
    'Hannah',
  ],
  de: ['Lukas', 'Anna', 'Jonas', 'Lena', 'Felix', 'Marie', 'Stefan', 'Julia', 'Matthias', 'Katrin', 'Tobias', 'Sabine', 'Florian', 'Claudia', 'Andreas'],
  fr: ['Jean', 'Marie', 'Pierre', 'Camille', 'Louis', 'Claire', 'Nicolas', 'Sophie', 'Antoine', 'Julie', 'Olivier', 'Isabelle', 'Mathieu', 'Chloé'],
  it: ['Marco', 'Giulia', 'Luca', 'Francesca', 'Alessandro', 'Chiara', 'Matteo', 'Sara', 'Giorgio', 'Elena', 'Paolo', 'Valentina'],
  es: ['José', 'María', 'Carlos', 'Lucía', 'Javier', 'Carmen', 'Miguel', 'Ana', 'Alejandro', 'Laura', 'Diego', 'Sofía', 'Fernando', 'Isabel'],
  pt: ['João', 'Ana', 'Pedro', 'Mariana', 'Lucas', 'Beatriz', 'Rafael', 'Camila', 'Gabriel', 'Juliana', 'Thiago', 'Fernanda'],
  nl: ['Jan', 'Emma', 'Daan', 'Sanne', 'Bram', 'Lotte', 'Pieter', 'Eva', 'Sem', 'Fleur'],
  sv: ['Erik', 'Anna', 'Lars', 'Karin', 'Johan', 'Maria', 'Anders', 'Eva', 'Magnus', 'Ingrid'],
  ja: ['Hiroshi', 'Yuki', 'Takeshi', 'Akiko', 'Kenji', 'Yumi', 'Satoshi', 'Naoko', 'Daisuke', 'Emi', 'Haruto', 'Sakura'],
  zh: ['Wei', 'Fang', 'Lei', 'Jing', 'Jun', 'Li', 'Ming', 'Xiu', 'Hao', 'Yan', 'Tao', 'Mei'],
  ko: ['Min-jun', 'Seo-yeon', 'Ji-hoon', 'Ji-woo', 'Hyun-woo', 'Soo-jin', 'Dong-hyun', 'Eun-ji', 'Sung-min', 'Hye-jin'],
  hi: ['Rahul', 'Priya', 'Amit', 'Anjali', 'Vikram', 'Neha', 'Arjun', 'Pooja', 'Sanjay', 'Kavita', 'Rohan', 'Divya'],
  tr: ['Mehmet', 'Ayşe', 'Mustafa', 'Fatma', 'Ahmet', 'Elif', 'Emre', 'Zeynep', 'Burak', 'Merve'],
};

const FAMILY_NAMES: Record<NameStyle, string[]> = {
  en: [
    'Smith',
    'Johnson',
    'Williams',
    'Brown',
    'Jones',
    'Miller',
    'Davis',
    'Wilson',
    'Anderson',
    'Taylor',
    'Thomas',
    'Moore',
    'Martin',
    'Jackson',
    'Thompson',
    'White',
    'Harris',
    'Clark',
    'Lewis',
    'Walker',
    'Hall',
    'Young',
    'King',
    'Wright',
    'Baker',
    'Carter',
    'Mitchell',
    'Turner',
    'Parker',
    'Collins',
  ],
  de: [
    'Müller',
    'Schmidt',
    'Schneider',
    'Fischer',
    'Weber',
    'Meyer',
    'Wagner',
    'Becker',
    'Schulz',
    'Hoffmann',
    'Koch',
    'Richter',
    'Klein',
    'Wolf',
    'Neumann',
    'Braun',
  ],
  fr: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefebvre', 'Michel', 'Garnier'],
  it: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo'],
  es: ['García', 'Martínez', 'López', 'Sánchez', 'Pérez', 'Gómez', 'Fernández', 'Díaz', 'Moreno', 'Álvarez', 'Romero', 'Torres', 'Ruiz', 'Hernández'],
  pt: ['Silva', 'Santos', 'Oliveira', 'Souza', 'Pereira', 'Costa', 'Rodrigues', 'Almeida', 'Nascimento', 'Lima', 'Carvalho', 'Ribeiro'],
  nl: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder'],
  sv: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson', 'Svensson', 'Lindberg'],
  ja: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada'],
  zh: ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou', 'Xu', 'Sun'],
  ko: ['Kim', 'Lee', 'Park', 'Choi', 'Jung', 'Kang', 'Cho', 'Yoon', 'Jang', 'Lim'],
  hi: ['Sharma', 'Patel', 'Singh', 'Kumar', 'Gupta', 'Mehta', 'Reddy', 'Iyer', 'Nair', 'Joshi', 'Rao', 'Desai'],
  tr: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Aydın', 'Öztürk', 'Arslan', 'Doğan'],
};

function nameStyle(countryCode: string): NameStyle {
  return NAME_STYLE_BY_COUNTRY[countryCode] ?? 'en';
}

export interface PersonName {
  given: string;
  family: string;
  /** As a register shows it: family name first for East Asian names. */
  display: string;
}

export function personName(random: Random, countryCode: string): PersonName {
  const style = nameStyle(countryCode);
  const given = random.pick(GIVEN_NAMES[style]);
  const family = random.pick(FAMILY_NAMES[style]);
  const familyFirst = style === 'zh' || style === 'ko';
  return { given, family, display: familyFirst ? `${family} ${given}` : `${given} ${family}` };
}

export function familyName(random: Random, countryCode: string): string {
  return random.pick(FAMILY_NAMES[nameStyle(countryCode)]);
}

const INDUSTRY_WORDS = [
  'Holdings',
  'Technologies',
  'Foods',
  'Pharma',
  'Industries',
  'Group',
  'International',
  'Labs',
  'Brands',
  'Systems',
  'Apparel',
  'Beverages',
  'Cosmetics',
  'Software',
  'Electronics',
  'Trading',
  'Retail',
  'Motors',
  'Media',
  'Health',
];

function titleCase(word: string): string {
  return word.charAt(0) + word.slice(1).toLowerCase();
}

export function legalForm(random: Random, countryCode: string): string {
  return random.pick(LEGAL_FORMS[countryCode] ?? ['Ltd.']);
}

/** The distinctive part of a company name, e.g. "Zorvex Technologies" or "Blue Harbor". */
export function companyStem(random: Random): string {
  const roll = random.next();
  if (roll < 0.45) return `${titleCase(coinedWord(random))} ${random.pick(INDUSTRY_WORDS)}`;
  if (roll < 0.75) return `${titleCase(random.pick(WORDS))} ${titleCase(random.pick(WORDS))}`;
  return titleCase(coinedWord(random));
}

export function companyName(random: Random, countryCode: string): string {
  return `${companyStem(random)} ${legalForm(random, countryCode)}`;
}

export function partnershipName(random: Random, countryCode: string): string {
  const form = PARTNERSHIP_FORMS[countryCode] ?? 'Partnership';
  return `${familyName(random, countryCode)} & ${familyName(random, countryCode)} ${form}`;
}

/** Another spelling of the same company, as a different office or filing renders it (never equal). */
export function nameVariant(name: string, random: Random): string {
  const roll = random.next();
  const variant = roll < 0.4 ? name.toUpperCase() : roll < 0.7 ? name.replace(/ (Inc\.|Ltd\.?|LLC|Corp\.|Co\., Ltd\.)$/, ', $1') : name.replace(/\./g, '');
  return variant === name ? name.toUpperCase() : variant;
}
