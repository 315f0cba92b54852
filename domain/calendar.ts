/**
 * Business days on a date-holidays calendar, used to roll a last day (due date, grace expiry,
 * opposition close) that falls on a weekend or holiday forward to the next business day.
 *
 * A calendar id is a date-holidays country, optionally with a subdivision: `US`, `DE-BY`,
 * `CA-QC`, `GB-ENG`. A `BusinessCalendarSpec` can refine it with the holiday types that close the
 * office (date-holidays types: public, bank, optional, school, observance; default public only),
 * the holidays of those types during which it stays open, holidays date-holidays lacks (its rule
 * syntax: `09-30 since 2021`), office closure days that recur every year (`MM-DD`, e.g. JPO's
 * 29-30 December), and weekend days the office works (China's make-up working days).
 */
import Holidays, { type HolidaysTypes } from 'date-holidays';
import { addDays, dayOfWeek, toDayNumber, yearOf, type IsoDate } from './dates';

export type HolidayType = HolidaysTypes.HolidayType;
export const HOLIDAY_TYPES: readonly HolidayType[] = ['public', 'bank', 'optional', 'school', 'observance'];

export interface BusinessCalendarSpec {
  /** date-holidays country code, optionally `-STATE` and `-REGION`: `US`, `DE-BY`. */
  id: string;
  /** Holiday types on which the office is closed; default `['public']`. */
  closedHolidayTypes?: readonly HolidayType[];
  /** Holidays of a closed type during which the office is open, by date-holidays name. */
  openHolidays?: readonly string[];
  /** Holidays date-holidays lacks that close the office: a date-holidays rule and a name. */
  extraHolidays?: readonly ExtraHoliday[];
  /** Closure days recurring every year, `MM-DD`. */
  extraClosedDays?: readonly string[];
  /** Days the office works though they are weekend days (or holidays): `YYYY-MM-DD`. */
  extraOpenDays?: readonly IsoDate[];
  /**
   * The last year date-holidays lists all of the calendar's holidays for, when before
   * CALENDAR_COVERAGE ends (its lunar holidays run out sooner for some countries): later years
   * are outside the calendar's coverage.
   */
  holidaysKnownThrough?: number;
}

export interface ExtraHoliday {
  /** In date-holidays' rule syntax: `09-30 since 2021`, `01-20 every 4 years since 1965`. */
  rule: string;
  name: string;
}

/** Whether date-holidays reads `rule` (checked when the rule corpus loads). */
export function isHolidayRule(rule: string): boolean {
  return new Holidays().setHoliday(rule, { name: { en: 'check' }, type: 'public' });
}

/**
 * Years whose holidays we trust date-holidays for. date-holidays computes any year from rules,
 * but a rule is only as good as its history: the package records when holidays were introduced
 * or moved for recent decades (US Juneteenth from 2021, Japan's Mountain Day from 2016, the UK's
 * one-off 2022 bank holidays) and far less reliably before 2000 (Japan's Happy Monday moves of
 * 2000/2003 are the oldest changes we checked). After 2035 — about ten years past the package's
 * data — new holidays, one-off closures and the yearly State Council schedules in China are
 * unknowable. A date outside this range is "outside calendar coverage": it is still rolled when
 * it matters (a future or recent last day), but results built on it are flagged approximate, and
 * a long-past close date outside coverage is not rolled at all (see the spec's Versioning note).
 */
export const CALENDAR_COVERAGE = { firstYear: 2000, lastYear: 2035 } as const;

export function isWithinCalendarCoverage(date: IsoDate): boolean {
  const year = yearOf(date);
  return year >= CALENDAR_COVERAGE.firstYear && year <= CALENDAR_COVERAGE.lastYear;
}

const catalog = new Holidays();

/** True when date-holidays knows the country (and subdivisions) named by `id`. */
export function isKnownCalendarId(id: string): boolean {
  const [country, state, region, ...rest] = id.split('-');
  if (!country || rest.length > 0 || !catalog.getCountries()[country]) return false;
  if (state === undefined) return true;
  if (!catalog.getStates(country)?.[state]) return false;
  return region === undefined || Boolean(catalog.getRegions(country, state)?.[region]);
}

interface CalendarState {
  holidays: Holidays;
  closedTypes: ReadonlySet<HolidayType>;
  openHolidays: ReadonlySet<string>;
  /** Names of the spec's extra holidays: they close whatever the closed types. */
  extraHolidays: ReadonlySet<string>;
  extraClosedDays: readonly string[];
  openDays: ReadonlySet<IsoDate>;
  /** The last year the open days are known for (the latest year listed), or null: no worked weekends. */
  openDaysThrough: number | null;
  /** The last year of this calendar's coverage. */
  coveredThrough: number;
  closedDaysByYear: Map<number, ReadonlySet<IsoDate>>;
}

/** One date-holidays instance and one closed-day set per year, per distinct spec, built lazily. */
const statesByKey = new Map<string, CalendarState>();
/** The same states by spec object, so a caller reusing its spec objects skips building the key. */
const statesBySpec = new WeakMap<BusinessCalendarSpec, CalendarState>();

function stateForSpec(spec: BusinessCalendarSpec): CalendarState {
  const closedTypes = spec.closedHolidayTypes ?? ['public'];
  const openHolidays = spec.openHolidays ?? [];
  const extraHolidays = spec.extraHolidays ?? [];
  const extraClosedDays = spec.extraClosedDays ?? [];
  const extraOpenDays = spec.extraOpenDays ?? [];
  const coveredThrough = Math.min(CALENDAR_COVERAGE.lastYear, spec.holidaysKnownThrough ?? CALENDAR_COVERAGE.lastYear);
  const key = [
    spec.id,
    closedTypes,
    openHolidays,
    extraHolidays.map(({ rule, name }) => `${rule}=${name}`),
    extraClosedDays,
    extraOpenDays,
    coveredThrough,
  ].join('|');
  let state = statesByKey.get(key);
  if (!state) {
    if (!isKnownCalendarId(spec.id)) throw new RangeError(`unknown holiday calendar: ${spec.id}`);
    const [country, subdivision, region] = spec.id.split('-') as [string, string | undefined, string | undefined];
    const holidays =
      subdivision === undefined
        ? new Holidays(country)
        : region === undefined
          ? new Holidays(country, subdivision)
          : new Holidays(country, subdivision, region);
    for (const { rule, name } of extraHolidays) {
      if (!holidays.setHoliday(rule, { name: { en: name }, type: 'public' })) throw new RangeError(`not a date-holidays rule: ${rule}`);
    }
    state = {
      holidays,
      closedTypes: new Set(closedTypes),
      openHolidays: new Set(openHolidays),
      extraHolidays: new Set(extraHolidays.map(({ name }) => name)),
      extraClosedDays,
      openDays: new Set(extraOpenDays),
      openDaysThrough: extraOpenDays.length === 0 ? null : Math.max(...extraOpenDays.map(yearOf)),
      coveredThrough,
      closedDaysByYear: new Map(),
    };
    statesByKey.set(key, state);
  }
  return state;
}

function stateFor(calendar: string | BusinessCalendarSpec): CalendarState {
  if (typeof calendar === 'string') return stateForSpec({ id: calendar });
  let state = statesBySpec.get(calendar);
  if (!state) {
    state = stateForSpec(calendar);
    statesBySpec.set(calendar, state);
  }
  return state;
}

/** A year range, both ends included. */
export interface YearRange {
  from: number;
  to: number;
}

/** Slack for a day made shorter or longer by a daylight-saving change. */
const DAY_SLACK_MS = 2 * 3_600_000;

/**
 * The closed days of each year in `years`, as date-holidays computes them: the holidays of the
 * closed types (less the office's open ones), and the recurring closure days. A holiday closes
 * the whole days it spans from its date on: date-holidays starts a holiday of the Islamic
 * calendar at the sunset before (Turkey's Ramazan Bayramı of 2026 runs from the 19 March
 * evening to noon on the 23rd: it closes the 20th to the 22nd, not the 23rd), and a part-day
 * holiday (China's half-day Women's Day from noon) closes no day, since the office is open the
 * rest of it. A holiday that starts in the year before and runs into the range closes its days in
 * the range too (Turkey's Kurban Bayramı from 31 December 2006 closed 1 to 3 January 2007).
 */
function computeClosedDaysOf(state: CalendarState, years: YearRange): Map<number, Set<IsoDate>> {
  const byYear = new Map<number, Set<IsoDate>>();
  for (let year = years.from; year <= years.to; year += 1) {
    const yearText = String(year).padStart(4, '0');
    byYear.set(year, new Set(state.extraClosedDays.map((monthDay) => `${yearText}-${monthDay}`)));
  }
  for (let year = years.from - 1; year <= years.to; year += 1) {
    for (const holiday of state.holidays.getHolidays(year)) {
      const closes = state.closedTypes.has(holiday.type) || state.extraHolidays.has(holiday.name);
      if (!closes || state.openHolidays.has(holiday.name)) continue;
      const first = holiday.date.slice(0, 10);
      const wholeDays = Math.floor((holiday.end.getTime() - holiday.start.getTime() + DAY_SLACK_MS) / 86_400_000);
      for (let offset = 0; offset < wholeDays; offset += 1) {
        const day = addDays(first, offset);
        byYear.get(yearOf(day))?.add(day);
      }
    }
  }
  return byYear;
}

/** `computeClosedDaysOf` for a calendar, each year's days in date order: what data/closed-days.json holds. */
export function computeClosedDays(calendar: string | BusinessCalendarSpec, years: YearRange): Map<number, IsoDate[]> {
  const byYear = computeClosedDaysOf(stateFor(calendar), years);
  return new Map([...byYear].map(([year, days]) => [year, [...days].sort()]));
}

/**
 * Hands a calendar the closed days of years computed ahead (data/closed-days.json), so that no
 * request pays for date-holidays: one calendar-year costs up to 70 ms (the lunisolar calendars
 * of TW, HK, VN and CN), during which the event loop answers nothing else.
 */
export function primeClosedDays(calendar: BusinessCalendarSpec, closedDaysByYear: Readonly<Record<string, readonly IsoDate[]>>): void {
  const state = stateFor(calendar);
  for (const [year, days] of Object.entries(closedDaysByYear)) state.closedDaysByYear.set(Number(year), new Set(days));
}

function closedDaysOf(state: CalendarState, year: number): ReadonlySet<IsoDate> {
  let days = state.closedDaysByYear.get(year);
  if (!days) {
    days = computeClosedDaysOf(state, { from: year, to: year }).get(year) as Set<IsoDate>;
    state.closedDaysByYear.set(year, days);
  }
  return days;
}

export function isWeekend(date: IsoDate): boolean {
  const weekday = dayOfWeek(date);
  return weekday === 0 || weekday === 6;
}

export function isBusinessDay(date: IsoDate, calendar: string | BusinessCalendarSpec): boolean {
  return isBusinessDayIn(stateFor(calendar), date);
}

function isBusinessDayIn(state: CalendarState, date: IsoDate): boolean {
  if (state.openDays.has(date)) return true;
  if (isWeekend(date)) return false;
  return !closedDaysOf(state, yearOf(date)).has(date);
}

export interface RollResult {
  /** The first business day on or after the input date. */
  date: IsoDate;
  /** True when `date` differs from the input. */
  rolled: boolean;
  /**
   * True when both the input and the result lie within CALENDAR_COVERAGE and the calendar's own
   * (holidaysKnownThrough), and the roll passed no weekend day that may yet be announced as a
   * working day (mayBeWorkedWeekend).
   */
  covered: boolean;
}

/** No real calendar closes an office for this long; the bound only guards against a bad spec. */
const MAX_ROLL_DAYS = 60;

/** Within CALENDAR_COVERAGE and the years the calendar's holidays are known for. */
function isCoveredBy(state: CalendarState, date: IsoDate): boolean {
  return isWithinCalendarCoverage(date) && yearOf(date) <= state.coveredThrough;
}

/**
 * Whether `date`, a weekend day, might be a working day nobody has announced yet: the calendar
 * lists worked weekend days (China's make-up working days, set each year by the State Council),
 * and not yet for this year.
 */
function mayBeWorkedWeekend(state: CalendarState, date: IsoDate): boolean {
  return state.openDaysThrough !== null && yearOf(date) > state.openDaysThrough && isWeekend(date);
}

export function rollForward(date: IsoDate, calendar: string | BusinessCalendarSpec): RollResult {
  const state = stateFor(calendar);
  let candidate = date;
  let passedUnknownWeekend = false;
  for (let step = 0; !isBusinessDayIn(state, candidate); step += 1) {
    if (step >= MAX_ROLL_DAYS) throw new RangeError(`no business day within ${MAX_ROLL_DAYS} days after ${date}`);
    passedUnknownWeekend ||= mayBeWorkedWeekend(state, candidate);
    candidate = addDays(candidate, 1);
  }
  return {
    date: candidate,
    rolled: candidate !== date,
    covered: isCoveredBy(state, date) && isCoveredBy(state, candidate) && !passedUnknownWeekend,
  };
}

/**
 * A last day that closed more than this many days before the as-of date is history: when it is
 * also outside calendar coverage it is not rolled (the spec's rule for marks published before
 * 2024), because the roll would rest on holiday data we do not trust and changes nothing a
 * docketing team can still act on.
 */
export const ROLL_SKIP_AFTER_DAYS = 14;

export interface LastDay {
  /** The date the period arithmetic gives. */
  nominal: IsoDate;
  /** The day by which to act: `nominal` rolled to a business day unless the roll was skipped. */
  date: IsoDate;
  rolled: boolean;
  /** True when the roll was skipped because the day is long past and outside coverage. */
  roll_skipped: boolean;
  /** False when no calendar applies, a date involved lies outside CALENDAR_COVERAGE, or the roll passed a weekend day that may yet be worked. */
  covered: boolean;
}

/** Rolls a LAST day (due date, grace expiry, opposition close) per the corpus conventions. */
export function rollLastDay(nominal: IsoDate, calendar: string | BusinessCalendarSpec | null, asOfDate: IsoDate): LastDay {
  if (calendar === null) return { nominal, date: nominal, rolled: false, roll_skipped: false, covered: false };
  const covered = isWithinCalendarCoverage(nominal);
  if (!covered && toDayNumber(asOfDate) - toDayNumber(nominal) > ROLL_SKIP_AFTER_DAYS) {
    return { nominal, date: nominal, rolled: false, roll_skipped: true, covered: false };
  }
  const roll = rollForward(nominal, calendar);
  return { nominal, date: roll.date, rolled: roll.rolled, roll_skipped: false, covered: roll.covered };
}
