import { expect } from 'chai';
import {
  CALENDAR_COVERAGE,
  ROLL_SKIP_AFTER_DAYS,
  computeClosedDays,
  isBusinessDay,
  isKnownCalendarId,
  isWithinCalendarCoverage,
  primeClosedDays,
  rollForward,
  rollLastDay,
} from '../../domain/calendar';

// Holiday facts below were checked by hand against the public calendars of each country.
describe('domain/calendar', () => {
  describe('isKnownCalendarId', () => {
    it('knows countries and subdivisions, rejects unknown ones', () => {
      expect(isKnownCalendarId('US')).to.equal(true);
      expect(isKnownCalendarId('DE-BY')).to.equal(true);
      expect(isKnownCalendarId('CA-QC')).to.equal(true);
      expect(isKnownCalendarId('DE-ZZ')).to.equal(false);
      expect(isKnownCalendarId('XX')).to.equal(false);
      expect(isKnownCalendarId('DE-BY-ZZ-1')).to.equal(false);
    });
  });

  describe('isBusinessDay', () => {
    it('treats Saturdays and Sundays as closed', () => {
      expect(isBusinessDay('2026-02-28', 'US')).to.equal(false); // Saturday
      expect(isBusinessDay('2030-05-05', 'US')).to.equal(false); // Sunday
      expect(isBusinessDay('2026-05-05', 'US')).to.equal(true); // Tuesday
    });
    it('treats public holidays as closed', () => {
      expect(isBusinessDay('2025-07-04', 'US')).to.equal(false); // Independence Day, a Friday
      expect(isBusinessDay('2026-05-25', 'US')).to.equal(false); // Memorial Day (last Monday of May)
      expect(isBusinessDay('2025-12-26', 'GB-ENG')).to.equal(false); // Boxing Day, a Friday
    });
    it('honours subdivisions: Epiphany is a holiday in Bavaria but not everywhere in Germany', () => {
      expect(isBusinessDay('2025-01-06', 'DE-BY')).to.equal(false);
      expect(isBusinessDay('2025-01-06', 'DE')).to.equal(true);
    });
    it('honours a spec with extra holiday types and recurring closure days', () => {
      const jpo = { id: 'JP', closedHolidayTypes: ['public', 'bank'] as const, extraClosedDays: ['12-29', '12-30'] };
      expect(isBusinessDay('2025-12-29', jpo)).to.equal(false); // Monday, JPO year-end closure
      expect(isBusinessDay('2025-12-29', 'JP')).to.equal(true);
      expect(isBusinessDay('2024-12-31', jpo)).to.equal(false); // 'bank' day in date-holidays
      expect(isBusinessDay('2024-12-31', 'JP')).to.equal(true);
    });
    it('throws on an unknown calendar', () => {
      expect(() => isBusinessDay('2025-01-06', 'XX')).to.throw(RangeError);
    });
    it('closes the days a multi-day holiday runs into the next year (Kurban Bayramı, Turkey: 31 December 2006 to 3 January 2007)', () => {
      const closed = computeClosedDays('TR', { from: 2007, to: 2007 }).get(2007) ?? [];
      expect(closed).to.include.members(['2007-01-01', '2007-01-02', '2007-01-03']);
      expect(isBusinessDay('2007-01-02', 'TR')).to.equal(false); // a Tuesday
      expect(isBusinessDay('2007-01-03', 'TR')).to.equal(false); // a Wednesday
      expect(computeClosedDays('TR', { from: 2006, to: 2006 }).get(2006))
        .to.include('2006-12-31')
        .and.not.include('2007-01-02');
    });
    it('closes the days of a Bayram and not the day after it (Law 2429 art. 2: Ramazan Bayramı three days, Kurban Bayramı four, each from the eve at 13:00)', () => {
      // 2025: Ramazan Bayramı 30 March to 1 April, Kurban Bayramı 6 to 9 June; 2026: 20 to 22 March, 27 to 30 May.
      for (const day of ['2025-03-31', '2025-04-01', '2025-06-06', '2025-06-09', '2026-03-20', '2026-05-27', '2026-05-29'])
        expect(isBusinessDay(day, 'TR'), day).to.equal(false);
      // The weekdays after them, and the eves (open in the morning).
      for (const day of ['2025-04-02', '2025-06-10', '2026-03-23', '2026-03-19', '2026-05-26']) expect(isBusinessDay(day, 'TR'), day).to.equal(true);
    });
    it('closes on the holidays a spec adds in date-holidays rules, from the year they begin (Canada: 30 September since 2021; US: Inauguration Day, 5 U.S.C. 6103(c))', () => {
      const cipo = { id: 'CA-QC', extraHolidays: [{ rule: '09-30 since 2021', name: 'National Day for Truth and Reconciliation' }] };
      expect(isBusinessDay('2030-09-30', cipo)).to.equal(false); // a Monday
      expect(isBusinessDay('2020-09-30', cipo)).to.equal(true); // a Wednesday, before the holiday existed
      expect(isBusinessDay('2030-09-30', 'CA-QC')).to.equal(true); // date-holidays alone: an observance in CA, absent in QC
      const uspto = { id: 'US', extraHolidays: [{ rule: '01-20 and if sunday then next monday every 4 years since 1965', name: 'Inauguration Day' }] };
      expect(isBusinessDay('2033-01-20', uspto)).to.equal(false); // a Thursday
      expect(isBusinessDay('2041-01-21', uspto)).to.equal(false); // the 20th is a Sunday: observed Monday the 21st
      expect(isBusinessDay('2034-01-20', uspto)).to.equal(true); // a Friday, not an inauguration year
    });
    it('keeps an office open on the holidays of part of the people its calendar names, and on part-day holidays (China: State Council measures, art. 3)', () => {
      const cnipa = { id: 'CN', closedHolidayTypes: ['public'] as const, openHolidays: ['六一儿童节'] };
      // Women's Day, Youth Day, Children's Day, Army Day of 2025: a Saturday, a Sunday, a Sunday and a Friday.
      expect(isBusinessDay('2025-08-01', cnipa)).to.equal(true); // Army Day: a half day for servicemen
      expect(isBusinessDay('2029-06-01', cnipa)).to.equal(true); // Children's Day, a Friday: children under 14
      expect(isBusinessDay('2027-03-08', cnipa)).to.equal(true); // Women's Day, a Monday: half a day for women
      expect(isBusinessDay('2029-06-01', 'CN')).to.equal(false); // without openHolidays, a public holiday closes
      expect(isBusinessDay('2025-10-01', cnipa)).to.equal(false); // National Day closes for all
    });
  });

  describe('weekend days an office works', () => {
    it('counts the days a spec lists as open, and only those: China moved working days onto Saturday 2025-02-08 and Sunday 2025-01-26', () => {
      const cnipa = { id: 'CN', extraOpenDays: ['2025-01-26', '2025-02-08'] };
      expect(isBusinessDay('2025-02-08', cnipa)).to.equal(true);
      expect(isBusinessDay('2025-01-26', cnipa)).to.equal(true);
      expect(isBusinessDay('2025-02-15', cnipa)).to.equal(false); // the next Saturday
      expect(isBusinessDay('2025-02-08', 'CN')).to.equal(false); // without the list, a Saturday
      // A last day on such a Saturday is not rolled.
      expect(rollForward('2025-02-08', cnipa)).to.include({ date: '2025-02-08', rolled: false });
    });
  });

  describe('primeClosedDays', () => {
    it('makes a calendar answer from the closed days it is given for those years, and compute the others', () => {
      // A spec no other test uses, so the primed year stays this test's own.
      const spec = { id: 'NO', closedHolidayTypes: ['public'] as const, extraClosedDays: ['11-11'] };
      primeClosedDays(spec, { '2099': ['2099-06-16'] });
      expect(isBusinessDay('2099-06-16', spec)).to.equal(false); // a Tuesday, closed by the primed list
      expect(isBusinessDay('2099-11-11', spec)).to.equal(true); // the recurring closure is not in the primed list
      expect(isBusinessDay('2098-11-11', spec)).to.equal(false); // a Tuesday: 2098 is computed, with the recurring closure
      expect(isBusinessDay('2097-05-17', spec)).to.equal(false); // a Friday: Norway's Constitution Day, computed
    });
  });

  describe('rollForward', () => {
    it('leaves a business day alone', () => {
      expect(rollForward('2026-05-05', 'US')).to.deep.equal({ date: '2026-05-05', rolled: false, covered: true });
    });
    it('rolls a weekend to Monday', () => {
      expect(rollForward('2026-02-28', 'ES')).to.deep.equal({ date: '2026-03-02', rolled: true, covered: true });
    });
    it('rolls a Friday holiday over the weekend', () => {
      expect(rollForward('2025-07-04', 'US').date).to.equal('2025-07-07');
    });
    it('rolls across Christmas, Boxing Day and a weekend', () => {
      expect(rollForward('2025-12-25', 'GB-ENG').date).to.equal('2025-12-29');
    });
    it('rolls across Labour Day after a Sunday (CA-QC, 2030)', () => {
      expect(rollForward('2030-09-01', 'CA-QC').date).to.equal('2030-09-03');
    });
    it('rolls through the JPO year-end closure', () => {
      const jpo = { id: 'JP', closedHolidayTypes: ['public', 'bank'] as const, extraClosedDays: ['12-29', '12-30'] };
      expect(rollForward('2025-12-29', jpo).date).to.equal('2026-01-05');
    });
    it('reports coverage', () => {
      expect(rollForward('1995-07-08', 'US')).to.deep.equal({ date: '1995-07-10', rolled: true, covered: false });
      expect(rollForward(`${CALENDAR_COVERAGE.lastYear + 1}-01-07`, 'US').covered).to.equal(false);
    });
  });

  describe('coverage', () => {
    it('covers the documented year range inclusively', () => {
      expect(isWithinCalendarCoverage(`${CALENDAR_COVERAGE.firstYear}-01-01`)).to.equal(true);
      expect(isWithinCalendarCoverage(`${CALENDAR_COVERAGE.lastYear}-12-31`)).to.equal(true);
      expect(isWithinCalendarCoverage(`${CALENDAR_COVERAGE.firstYear - 1}-12-31`)).to.equal(false);
      expect(isWithinCalendarCoverage(`${CALENDAR_COVERAGE.lastYear + 1}-01-01`)).to.equal(false);
    });
  });

  describe('rollLastDay', () => {
    it('rolls a last day inside coverage however long ago it was', () => {
      expect(rollLastDay('2010-02-28', 'US', '2025-06-01')).to.deep.equal({
        nominal: '2010-02-28',
        date: '2010-03-01',
        rolled: true,
        roll_skipped: false,
        covered: true,
      });
    });
    it(`skips the roll for a day outside coverage that is more than ${ROLL_SKIP_AFTER_DAYS} days past`, () => {
      // 1995-07-08 was a Saturday.
      expect(rollLastDay('1995-07-08', 'US', '2025-06-01')).to.deep.equal({
        nominal: '1995-07-08',
        date: '1995-07-08',
        rolled: false,
        roll_skipped: true,
        covered: false,
      });
    });
    it('still rolls a day outside coverage that is at most 14 days past, or in the future', () => {
      expect(rollLastDay('1995-07-08', 'US', '1995-07-22').date).to.equal('1995-07-10'); // exactly 14 days
      expect(rollLastDay('1995-07-08', 'US', '1995-07-23').date).to.equal('1995-07-08'); // 15 days
      // 2040-01-01 is a Sunday; New Year's Day is then observed on Monday 2 January (5 U.S.C. 6103).
      expect(rollLastDay('2040-01-01', 'US', '2025-06-01')).to.include({ date: '2040-01-03', rolled: true, covered: false });
    });
    it('does not roll without a calendar and reports it as uncovered', () => {
      expect(rollLastDay('2026-02-28', null, '2025-06-01')).to.deep.equal({
        nominal: '2026-02-28',
        date: '2026-02-28',
        rolled: false,
        roll_skipped: false,
        covered: false,
      });
    });
  });
});
