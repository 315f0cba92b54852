/**
 * What the generator knows about each office: how often it is chosen, its application and
 * registration number formats, its timing (publication delay, opposition period), how the term
 * of a registration is counted, when it joined the Madrid system, and its source formats.
 *
 * Number ranges and Madrid accession dates are approximations from memory, meant to look
 * plausible (a 2023 US serial starts with 97/98, a 2020 EUTM with 018), not to be exact.
 */
import offices from '../../../data/offices.json';
import { addMonths, addYears, dayOf, startOfYear, TODAY, yearOf } from './dates';
import { type Random, WeightedTable } from './random';

interface NumberSegment {
  from: number;
  start: number;
  end: number;
  /** Counter restarts every year and the year is part of the number (e.g. JP 2023-012345). */
  yearly: boolean;
  render: (counter: number, year: number) => string;
}

export type Render = NumberSegment['render'];
export type NumberSeries = readonly NumberSegment[];

export const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/** A counter that grows linearly between anchor dates and keeps growing across them. */
export function continuous(render: Render, anchors: ReadonlyArray<readonly [string, number]>): NumberSeries {
  return anchors.map(([from, start], i) => ({
    from: dayOf(from),
    start,
    end: anchors[i + 1]?.[1] ?? start,
    yearly: false,
    render,
  }));
}

/** Number series that restart at given dates (e.g. new US serial-number series). */
export function eras(render: Render, segments: ReadonlyArray<readonly [string, number, number]>): NumberSeries {
  return segments.map(([from, start, end]) => ({ from: dayOf(from), start, end, yearly: false, render }));
}

export function yearly(from: string, perYear: number, render: Render): NumberSegment {
  return { from: dayOf(from), start: 1, end: perYear, yearly: true, render };
}

export type TermBasis = 'filing' | 'registration';

/** A term law an office had until a reform: registrations entered, and terms ending, before `until` follow it. */
export interface EarlierTerm {
  until: number;
  basis: TermBasis;
  years: number;
}

export interface OfficeProfile {
  code: string;
  jurisdictionCode: string;
  /** Relative share of direct (non-Madrid) filings; WO's share is the share of Madrid families. */
  weight: number;
  nationalRoute: 'national' | 'regional' | 'madrid';
  scopeKind: 'national' | 'regional' | 'international';
  /** First day a Madrid designation of this office is possible; null: not designatable. */
  madridFrom: number | null;
  /** Countries most of this office's direct filers come from. */
  homeCountries: readonly string[];
  applicationSeries: NumberSeries;
  /** Application numbers of Madrid designations, when the office numbers them apart (US 79…). */
  designationSeries: NumberSeries | null;
  /** null: the registration keeps the application number. */
  registrationSeries: NumberSeries | null;
  /** Ten-year terms run from the filing date (EUIPO, UKIPO, DPMA, INPI, IPI, IP Australia, India) or from registration. */
  term: TermBasis;
  /** The term law before a reform within the generated years, as data/rules.json states it. */
  earlierTerm?: EarlierTerm;
  /**
   * Whether third parties oppose the application, before registration (most offices), or the
   * registration once it is published (JP, DE, CH: their opposition rules in data/rules.json
   * run from registration_publication).
   */
  opposes: 'applications' | 'registrations';
  publicationDelayDays: readonly [number, number];
  oppositionMonths: number;
  /** Source format of the first observation, then of later refreshes. */
  sourceFormats: readonly [string, string];
  /** Prefix of the opaque `source_locator` for non-US sources. */
  locatorPrefix: string;
  /** Earliest possible filing day (EUIPO opened on 1996-04-01). */
  minFilingDay: number;
}

const US_SERIAL: Render = (n) => pad(n, 8);
const PLAIN: Render = (n) => String(n);

const PROFILES: ReadonlyArray<Omit<OfficeProfile, 'jurisdictionCode'>> = [
  {
    code: 'US',
    weight: 19,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2003-11-02'),
    homeCountries: ['US'],
    applicationSeries: eras(US_SERIAL, [
      ['1989-11-16', 74000001, 74999000],
      ['1995-05-01', 75000001, 75999000],
      ['2000-01-01', 78000001, 78990000],
      ['2006-10-01', 77000001, 77999000],
      ['2009-11-01', 85000001, 85999000],
      ['2013-06-01', 86000001, 86999000],
      ['2016-06-01', 87000001, 87999000],
      ['2018-07-01', 88000001, 88999000],
      ['2020-04-01', 90000001, 90999000],
      ['2021-09-01', 97000001, 97999000],
      ['2023-07-01', 98000001, 98999000],
      ['2025-06-01', 99000001, 99500000],
    ]),
    designationSeries: eras(US_SERIAL, [['2003-11-02', 79000001, 79450000]]),
    registrationSeries: continuous(PLAIN, [
      ['1990-01-01', 1575000],
      ['2000-01-01', 2305000],
      ['2010-01-01', 3730000],
      ['2015-01-01', 4665000],
      ['2020-01-01', 6000000],
      ['2023-01-01', 6950000],
      ['2026-11-01', 7950000],
    ]),
    term: 'registration',
    opposes: 'applications',
    publicationDelayDays: [200, 330],
    oppositionMonths: 1,
    sourceFormats: ['xml_dtd', 'xml_st96'],
    locatorPrefix: 'uspto',
    minFilingDay: 0,
  },
  {
    code: 'EM',
    weight: 9,
    nationalRoute: 'regional',
    scopeKind: 'regional',
    madridFrom: dayOf('2004-10-01'),
    homeCountries: ['DE', 'FR', 'IT', 'ES', 'NL', 'SE', 'BE', 'AT', 'DK', 'IE'],
    applicationSeries: continuous(
      (n) => pad(n, 9),
      [
        ['1996-04-01', 1],
        ['2005-01-01', 4200000],
        ['2010-01-01', 8800000],
        ['2015-01-01', 13600000],
        ['2019-01-01', 18000001],
        ['2026-11-01', 19300000],
      ],
    ),
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [25, 80],
    oppositionMonths: 3,
    sourceFormats: ['json', 'json'],
    locatorPrefix: 'euipo',
    minFilingDay: dayOf('1996-04-01'),
  },
  {
    code: 'WO',
    weight: 6,
    nationalRoute: 'madrid',
    scopeKind: 'international',
    madridFrom: null,
    homeCountries: [],
    applicationSeries: continuous(PLAIN, [
      ['1990-01-01', 550000],
      ['2000-01-01', 730000],
      ['2010-01-01', 1030000],
      ['2015-01-01', 1250000],
      ['2020-01-01', 1540000],
      ['2026-11-01', 1900000],
    ]),
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [20, 60],
    oppositionMonths: 0,
    sourceFormats: ['xml_st96', 'xml_st96'],
    locatorPrefix: 'wipo-madrid',
    minFilingDay: 0,
  },
  {
    code: 'GB',
    weight: 5,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('1996-04-01'),
    homeCountries: ['GB'],
    applicationSeries: continuous(
      (n) => `UK0000${pad(n, 7)}`,
      [
        ['1990-01-01', 1410000],
        ['2000-01-01', 2218000],
        ['2012-07-01', 2630000],
        ['2013-07-01', 3010000],
        ['2020-01-01', 3480000],
        ['2026-11-01', 4150000],
      ],
    ),
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [20, 60],
    oppositionMonths: 2,
    sourceFormats: ['json', 'json'],
    locatorPrefix: 'ukipo',
    minFilingDay: 0,
  },
  {
    code: 'CN',
    weight: 17,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('1990-01-01'),
    homeCountries: ['CN'],
    applicationSeries: continuous(PLAIN, [
      ['1990-01-01', 500000],
      ['2000-01-01', 1400000],
      ['2005-01-01', 4400000],
      ['2010-01-01', 8000000],
      ['2015-01-01', 16000000],
      ['2018-01-01', 28000000],
      ['2020-01-01', 43000000],
      ['2022-01-01', 62000000],
      ['2024-01-01', 76000000],
      ['2026-11-01', 86000000],
    ]),
    designationSeries: null,
    registrationSeries: null,
    term: 'registration',
    opposes: 'applications',
    publicationDelayDays: [180, 300],
    oppositionMonths: 3,
    sourceFormats: ['json', 'json'],
    locatorPrefix: 'cnipa',
    minFilingDay: 0,
  },
  {
    code: 'JP',
    weight: 5,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2000-03-14'),
    homeCountries: ['JP'],
    applicationSeries: [yearly('1990-01-01', 170000, (n, year) => `${year}-${pad(n, 6)}`)],
    designationSeries: null,
    registrationSeries: continuous(PLAIN, [
      ['1990-01-01', 2200000],
      ['2000-01-01', 4370000],
      ['2010-01-01', 5300000],
      ['2020-01-01', 6250000],
      ['2026-11-01', 6950000],
    ]),
    term: 'registration',
    opposes: 'registrations',
    publicationDelayDays: [20, 60],
    oppositionMonths: 2,
    sourceFormats: ['xml_dtd', 'xml_dtd'],
    locatorPrefix: 'jpo',
    minFilingDay: 0,
  },
  {
    code: 'KR',
    weight: 5,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2003-04-10'),
    homeCountries: ['KR'],
    applicationSeries: [yearly('1990-01-01', 200000, (n, year) => `40-${year}-${pad(n, 7)}`)],
    designationSeries: null,
    registrationSeries: continuous(
      (n) => `40-${pad(n, 7)}`,
      [
        ['1990-01-01', 190000],
        ['2000-01-01', 470000],
        ['2010-01-01', 830000],
        ['2020-01-01', 1600000],
        ['2026-11-01', 2350000],
      ],
    ),
    term: 'registration',
    opposes: 'applications',
    publicationDelayDays: [120, 300],
    oppositionMonths: 2,
    sourceFormats: ['xml_dtd', 'xml_dtd'],
    locatorPrefix: 'kipris',
    minFilingDay: 0,
  },
  {
    code: 'CA',
    weight: 3,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2019-06-17'),
    homeCountries: ['CA'],
    applicationSeries: continuous(
      (n) => pad(n, 7),
      [
        ['1990-01-01', 650000],
        ['2000-01-01', 1042000],
        ['2010-01-01', 1465000],
        ['2020-01-01', 2000000],
        ['2026-11-01', 2420000],
      ],
    ),
    designationSeries: null,
    registrationSeries: continuous(
      (n) => `TMA${n}`,
      [
        ['1990-01-01', 365000],
        ['2000-01-01', 530000],
        ['2010-01-01', 770000],
        ['2020-01-01', 1070000],
        ['2026-11-01', 1290000],
      ],
    ),
    term: 'registration',
    opposes: 'applications',
    // Trademarks Act before 17 June 2019: 15-year terms, renewed for 15 (rules: CA.national.renewal_transitional_15yr, …_legacy).
    earlierTerm: { until: dayOf('2019-06-17'), basis: 'registration', years: 15 },
    publicationDelayDays: [400, 900],
    oppositionMonths: 2,
    sourceFormats: ['xml_st96', 'xml_st96'],
    locatorPrefix: 'cipo',
    minFilingDay: 0,
  },
  {
    code: 'AU',
    weight: 3,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2001-07-11'),
    homeCountries: ['AU'],
    applicationSeries: continuous(PLAIN, [
      ['1990-01-01', 530000],
      ['2000-01-01', 820000],
      ['2010-01-01', 1330000],
      ['2020-01-01', 2060000],
      ['2026-11-01', 2600000],
    ]),
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [100, 250],
    oppositionMonths: 2,
    sourceFormats: ['json', 'json'],
    locatorPrefix: 'ipaustralia',
    minFilingDay: 0,
  },
  {
    code: 'DE',
    weight: 4,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('1990-01-01'),
    homeCountries: ['DE'],
    applicationSeries: [
      yearly('1990-01-01', 75000, (n, year) => `3${pad(year % 100, 2)}${pad(n, 5)}`),
      yearly('2004-01-01', 80000, (n, year) => `30${year}${pad(n, 6)}`),
    ],
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'registrations',
    publicationDelayDays: [60, 180],
    oppositionMonths: 3,
    sourceFormats: ['xml_st96', 'xml_st96'],
    locatorPrefix: 'dpma',
    minFilingDay: 0,
  },
  {
    code: 'FR',
    weight: 4,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('1990-01-01'),
    homeCountries: ['FR'],
    applicationSeries: [
      yearly('1990-01-01', 90000, (n, year) => `${pad(year % 100, 2)}${pad(n, 6)}`),
      ...eras(PLAIN, [
        ['2000-01-01', 3000001, 3970000],
        ['2013-01-01', 4000001, 4930000],
        ['2023-01-01', 5000001, 5350000],
      ]),
    ],
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [30, 60],
    oppositionMonths: 2,
    sourceFormats: ['xml_dtd', 'xml_dtd'],
    locatorPrefix: 'inpi-fr',
    minFilingDay: 0,
  },
  {
    code: 'IN',
    weight: 6,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2013-07-08'),
    homeCountries: ['IN'],
    applicationSeries: continuous(PLAIN, [
      ['1990-01-01', 530000],
      ['2000-01-01', 900000],
      ['2010-01-01', 1950000],
      ['2015-01-01', 2880000],
      ['2020-01-01', 4400000],
      ['2026-11-01', 7100000],
    ]),
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [100, 600],
    oppositionMonths: 4,
    sourceFormats: ['json', 'json'],
    locatorPrefix: 'ipindia',
    minFilingDay: 0,
  },
  {
    code: 'BR',
    weight: 4.5,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2019-10-02'),
    homeCountries: ['BR'],
    applicationSeries: continuous(PLAIN, [
      ['1990-01-01', 815000000],
      ['2000-01-01', 822500000],
      ['2010-01-01', 830000000],
      ['2015-01-01', 909000000],
      ['2020-01-01', 919000000],
      ['2026-11-01', 936000000],
    ]),
    designationSeries: null,
    registrationSeries: null,
    term: 'registration',
    opposes: 'applications',
    publicationDelayDays: [20, 60],
    oppositionMonths: 2,
    sourceFormats: ['xml_dtd', 'xml_dtd'],
    locatorPrefix: 'inpi-br',
    minFilingDay: 0,
  },
  {
    code: 'MX',
    weight: 3.5,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('2013-02-19'),
    homeCountries: ['MX'],
    applicationSeries: continuous(
      (n) => pad(n, 7),
      [
        ['1990-01-01', 90000],
        ['2000-01-01', 430000],
        ['2010-01-01', 1070000],
        ['2020-01-01', 2380000],
        ['2026-11-01', 3100000],
      ],
    ),
    designationSeries: null,
    registrationSeries: continuous(PLAIN, [
      ['1990-01-01', 380000],
      ['2000-01-01', 660000],
      ['2010-01-01', 1150000],
      ['2020-01-01', 2150000],
      ['2026-11-01', 2850000],
    ]),
    term: 'registration',
    opposes: 'applications',
    // Before the reform of 10 August 2018 a term ran from the filing date (rules: MX.national.renewal_10yr_legacy).
    earlierTerm: { until: dayOf('2018-08-10'), basis: 'filing', years: 10 },
    publicationDelayDays: [30, 120],
    oppositionMonths: 1,
    sourceFormats: ['json', 'json'],
    locatorPrefix: 'impi',
    minFilingDay: 0,
  },
  {
    code: 'CH',
    weight: 2,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('1990-01-01'),
    homeCountries: ['CH'],
    applicationSeries: [yearly('1990-01-01', 20000, (n, year) => `${pad(n, 5)}/${year}`)],
    designationSeries: null,
    registrationSeries: continuous(PLAIN, [
      ['1990-01-01', 380000],
      ['2000-01-01', 475000],
      ['2010-01-01', 600000],
      ['2020-01-01', 750000],
      ['2026-11-01', 845000],
    ]),
    term: 'filing',
    opposes: 'registrations',
    publicationDelayDays: [60, 200],
    oppositionMonths: 3,
    sourceFormats: ['xml_st96', 'xml_st96'],
    locatorPrefix: 'swissreg',
    minFilingDay: 0,
  },
  {
    code: 'ES',
    weight: 2,
    nationalRoute: 'national',
    scopeKind: 'national',
    madridFrom: dayOf('1990-01-01'),
    homeCountries: ['ES'],
    applicationSeries: continuous(
      (n) => `M${pad(n, 7)}`,
      [
        ['1990-01-01', 1300000],
        ['2000-01-01', 2300000],
        ['2010-01-01', 2900000],
        ['2020-01-01', 4050000],
        ['2026-11-01', 4600000],
      ],
    ),
    designationSeries: null,
    registrationSeries: null,
    term: 'filing',
    opposes: 'applications',
    publicationDelayDays: [20, 60],
    oppositionMonths: 2,
    sourceFormats: ['xml_dtd', 'xml_dtd'],
    locatorPrefix: 'oepm',
    minFilingDay: 0,
  },
];

const JURISDICTION_BY_OFFICE = new Map(offices.map((office) => [office.office_code, office.jurisdiction_code]));

export const OFFICE_PROFILES: readonly OfficeProfile[] = PROFILES.map((profile) => {
  const jurisdictionCode = JURISDICTION_BY_OFFICE.get(profile.code);
  if (jurisdictionCode === undefined) throw new Error(`office ${profile.code} missing from data/offices.json`);
  return { ...profile, jurisdictionCode };
});

export const OFFICE_BY_CODE: ReadonlyMap<string, OfficeProfile> = new Map(OFFICE_PROFILES.map((p) => [p.code, p]));

export const OFFICE_TABLE = new WeightedTable(OFFICE_PROFILES.map((profile) => ({ value: profile, weight: profile.weight })));

/** Offices a Madrid holder may designate on `day` (never WO, never the office of origin). */
export function designatableOffices(day: number, originCode: string): OfficeProfile[] {
  return OFFICE_PROFILES.filter((p) => p.madridFrom !== null && p.madridFrom <= day && p.code !== originCode);
}

function segmentAt(series: NumberSeries, day: number): { segment: NumberSegment; fraction: number } {
  let index = 0;
  while (index + 1 < series.length && (series[index + 1] as NumberSegment).from <= day) index++;
  const segment = series[index] as NumberSegment;
  if (segment.yearly) {
    const yearStart = startOfYear(yearOf(day));
    return { segment, fraction: (day - yearStart) / 366 };
  }
  const until = series[index + 1]?.from ?? TODAY + 1;
  const fraction = Math.min(1, Math.max(0, (day - segment.from) / Math.max(1, until - segment.from)));
  return { segment, fraction };
}

/**
 * Hands out office numbers that look like the office's numbers for the date and are unique per
 * office and series (numeric keys in a Set: about 20 bytes per mark, the one structure that grows
 * with the run).
 */
export class NumberAllocator {
  private readonly used = new Map<string, Set<number>>();

  allocate(scope: string, series: NumberSeries, day: number, random: Random): string {
    const { segment, fraction } = segmentAt(series, day);
    const year = yearOf(day);
    const spread = Math.max(2, Math.floor((segment.end - segment.start) / 4000));
    let counter = Math.floor(segment.start + fraction * (segment.end - segment.start)) + random.int(0, spread);
    let usedKeys = this.used.get(scope);
    if (usedKeys === undefined) {
      usedKeys = new Set<number>();
      this.used.set(scope, usedKeys);
    }
    const keyOf = (value: number): number => (segment.yearly ? year * 1e8 + value : value);
    while (usedKeys.has(keyOf(counter))) counter++;
    usedKeys.add(keyOf(counter));
    return segment.render(counter, year);
  }
}

export const TERM_YEARS = 10;

/**
 * The end of the term a registration entered on `registrationDay` is in: the first term from its
 * basis (a designation's from its IR), passed over by whole terms while it ended before the
 * registration (a term counted from a filing long before).
 */
export function firstExpiry(profile: OfficeProfile, filingDay: number, registrationDay: number, internationalDay: number | null): number {
  const earlier = profile.earlierTerm;
  const law =
    internationalDay !== null
      ? { start: internationalDay, years: TERM_YEARS }
      : earlier !== undefined && registrationDay < earlier.until
        ? { start: earlier.basis === 'filing' ? filingDay : registrationDay, years: earlier.years }
        : { start: profile.term === 'filing' ? filingDay : registrationDay, years: TERM_YEARS };
  let expiry = addYears(law.start, law.years);
  while (expiry <= registrationDay) expiry = addYears(expiry, law.years);
  return expiry;
}

/** The end of the term a renewal of the term ending on `expiry` gives. */
export function renewedExpiry(profile: OfficeProfile, expiry: number): number {
  const earlier = profile.earlierTerm;
  return addYears(expiry, earlier !== undefined && expiry < earlier.until ? earlier.years : TERM_YEARS);
}

/**
 * Offices where a registration can be revoked for non-use only after five years without use (EU
 * law: Art. 58(1)(a) EUTMR and the national laws under Directive 2015/2436, UK s.46(1) TMA 1994,
 * Switzerland, Brazil; India five years and three months); the others three (US abandonment
 * presumption, Japan, China, Korea, Canada, Australia, Mexico).
 */
const FIVE_YEAR_NON_USE: ReadonlySet<string> = new Set(['EM', 'GB', 'DE', 'FR', 'ES', 'CH', 'BR', 'IN']);

/** Mexico asks for a declaration of use of registrations granted since the 2018 reform. */
const MX_DECLARATIONS_FROM = dayOf('2018-08-10');

/** A declaration of use a registration owes: filed from `opens` for up to `lastDays` days; late after `graceEnd`. */
export interface OwedDeclaration {
  opens: number;
  lastDays: number;
  graceEnd: number;
}

/**
 * The declarations of use a registration owes up to `lastDay`, as the rule corpus has them
 * (data/rules.json): the US section 8 (71 for a Madrid designation) in the year before its sixth
 * anniversary, and a designation's section 71 in the year before every tenth (a national mark's
 * ten-year section 8 goes with its renewal); Mexico's in the three months after the third
 * anniversary of a grant made on or after 2018-08-10 (MX.national and
 * MX.madrid.declaration_of_use_3yr).
 */
export function declarationsOwed(profile: OfficeProfile, designation: boolean, registrationDay: number, lastDay: number): OwedDeclaration[] {
  const owed: OwedDeclaration[] = [];
  if (profile.code === 'US') {
    // Six months' grace after each due date.
    owed.push({ opens: addYears(registrationDay, 5), lastDays: 360, graceEnd: addMonths(addYears(registrationDay, 6), 6) });
    for (let years = 10; designation && addYears(registrationDay, years - 1) <= lastDay; years += 10) {
      owed.push({ opens: addYears(registrationDay, years - 1), lastDays: 360, graceEnd: addMonths(addYears(registrationDay, years), 6) });
    }
  }
  if (profile.code === 'MX' && registrationDay >= MX_DECLARATIONS_FROM) {
    owed.push({ opens: addMonths(registrationDay, 36), lastDays: 88, graceEnd: addMonths(registrationDay, 39) });
  }
  return owed.filter((declaration) => declaration.opens <= lastDay);
}

/** Years after registration before a revocation for non-use can be asked for. */
export const nonUseYears = (profile: OfficeProfile): number => (FIVE_YEAR_NON_USE.has(profile.code) ? 5 : 3);

export function oppositionEnd(profile: OfficeProfile, publicationDay: number): number {
  return addMonths(publicationDay, Math.max(1, profile.oppositionMonths));
}
