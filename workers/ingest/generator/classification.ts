/**
 * Nice classes for a mark (popular classes more often, related classes together) and their
 * goods/services text, built only from the official terms in data/nice_terms.json.
 */
import niceTerms from '../../../data/nice_terms.json';
import type { Classification } from '../../../domain/records';
import { niceEditionFor, SERVICE_CLASSES_SPLIT_FROM } from '../../../domain/nice-edition';
import { isoDate } from './dates';
import { type Random, WeightedTable } from './random';

const TERMS_BY_CLASS: ReadonlyMap<number, readonly string[]> = (() => {
  const byClass = new Map<number, string[]>();
  for (const entry of niceTerms) {
    const list = byClass.get(entry.class);
    if (list === undefined) byClass.set(entry.class, [entry.term]);
    else list.push(entry.term);
  }
  return byClass;
})();

/** Rough share of each class among filings (goods of class 9 and services of 35 lead everywhere). */
const CLASS_POPULARITY: Readonly<Record<number, number>> = {
  9: 10,
  35: 10,
  42: 6,
  25: 6,
  41: 5,
  3: 4,
  5: 4,
  30: 3.5,
  16: 3,
  18: 2.5,
  28: 2.5,
  43: 2.5,
  44: 2.5,
  29: 2.5,
  32: 2,
  36: 2,
  21: 2,
  14: 2,
  11: 2,
  7: 2,
  20: 1.8,
  10: 1.5,
  12: 1.5,
  33: 1.5,
  31: 1.5,
  1: 1.5,
  37: 1.5,
  39: 1.5,
  45: 1.2,
  38: 1.2,
  40: 1,
  6: 1,
  8: 1,
  24: 1,
  19: 0.8,
  26: 0.6,
  27: 0.5,
  34: 0.6,
  17: 0.6,
  2: 0.6,
  4: 0.5,
  13: 0.3,
  15: 0.4,
  22: 0.4,
  23: 0.3,
};

/** Classes commonly claimed together with a given class. */
const RELATED_CLASSES: Readonly<Record<number, readonly number[]>> = {
  9: [42, 35, 38, 28],
  42: [9, 35],
  35: [9, 41, 42, 16],
  25: [18, 14, 35, 26],
  18: [25, 14],
  14: [25, 18],
  3: [5, 21, 44],
  5: [3, 10, 44],
  29: [30, 43, 32],
  30: [29, 43, 32],
  43: [30, 29, 41],
  32: [33, 30],
  33: [32],
  41: [9, 16, 35],
  16: [41, 9],
  28: [9, 25],
  44: [3, 5, 10],
  36: [35, 42],
  11: [7, 21],
  7: [11, 9],
  12: [37, 9],
};

const CLASS_TABLE = new WeightedTable(Object.entries(CLASS_POPULARITY).map(([nice, weight]) => ({ value: Number(nice), weight })));
const CLASS_COUNT = new WeightedTable([
  { value: 1, weight: 50 },
  { value: 2, weight: 25 },
  { value: 3, weight: 15 },
  { value: 4, weight: 10 },
]);

/** 1–4 distinct classes in ascending order; `primary` (when given) is always among them. */
export function pickClasses(random: Random, primary: number | null = null): number[] {
  const first = primary ?? CLASS_TABLE.pick(random);
  const classes = new Set<number>([first]);
  const wanted = CLASS_COUNT.pick(random);
  const related = RELATED_CLASSES[first] ?? [];
  for (let attempt = 0; classes.size < wanted && attempt < 12; attempt++) {
    classes.add(related.length > 0 && random.chance(0.6) ? random.pick(related) : CLASS_TABLE.pick(random));
  }
  return [...classes].sort((a, b) => a - b);
}

/** The classes as a filing of `filingDay` names them: before NCL 8, the services of 43 to 45 were class 42. */
export function classesInForce(classes: readonly number[], filingDay: number): number[] {
  if (isoDate(filingDay) >= SERVICE_CLASSES_SPLIT_FROM) return [...classes];
  return [...new Set(classes.map((nice) => (nice > 42 ? 42 : nice)))].sort((a, b) => a - b);
}

export function termsOfClass(niceClass: number): readonly string[] {
  return TERMS_BY_CLASS.get(niceClass) ?? [];
}

export function classification(random: Random, niceClass: number, filingDay: number): Classification {
  const terms = random.sample(termsOfClass(niceClass), random.int(2, 7));
  return { nice_class: niceClass, goods_services_text: terms.join('; '), nice_edition: niceEditionFor(isoDate(filingDay)) };
}
