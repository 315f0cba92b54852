/**
 * Which edition of the Nice Classification a filing is classified under, as `edition-version`
 * (NCL 10 on, WIPO publishes a yearly version: 10-2012 … 13-2026; earlier editions had one, named
 * here by the year they entered into force). Editions from NCL 6 (1 January 1992) on; null before.
 * Dates: WIPO, Nice Classification editions and versions (data/SOURCES.md).
 */
import type { IsoDate } from './dates';

/** The year each edition entered into force on 1 January, and from when it had yearly versions. */
const EDITIONS: ReadonlyArray<{ edition: number; from: number; yearlyVersions: boolean }> = [
  { edition: 13, from: 2026, yearlyVersions: true },
  { edition: 12, from: 2023, yearlyVersions: true },
  { edition: 11, from: 2017, yearlyVersions: true },
  { edition: 10, from: 2012, yearlyVersions: true },
  { edition: 9, from: 2007, yearlyVersions: false },
  { edition: 8, from: 2002, yearlyVersions: false },
  { edition: 7, from: 1997, yearlyVersions: false },
  { edition: 6, from: 1992, yearlyVersions: false },
];

/** Classes 43 to 45 exist from NCL 8 (2002); before, their services were in class 42. */
export const SERVICE_CLASSES_SPLIT_FROM: IsoDate = '2002-01-01';

export function niceEditionFor(filingDate: IsoDate): string | null {
  const year = Number(filingDate.slice(0, 4));
  const edition = EDITIONS.find((entry) => year >= entry.from);
  if (edition === undefined) return null;
  return `${edition.edition}-${edition.yearlyVersions ? year : edition.from}`;
}
