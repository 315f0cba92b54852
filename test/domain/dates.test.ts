import { expect } from 'chai';
import fc from 'fast-check';
import {
  addDays,
  addMonths,
  compareDates,
  dayOfWeek,
  daysBetween,
  fromDayNumber,
  isIsoDate,
  parseIsoDate,
  toDayNumber,
  todayInTimeZone,
} from '../../domain/dates';

const isoDate = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

describe('domain/dates', () => {
  describe('parseIsoDate / isIsoDate', () => {
    it('accepts real dates and rejects impossible ones', () => {
      expect(parseIsoDate('2024-02-29')).to.deep.equal({ year: 2024, month: 2, day: 29 });
      expect(isIsoDate('2025-02-29')).to.equal(false);
      expect(isIsoDate('2025-13-01')).to.equal(false);
      expect(isIsoDate('2025-04-31')).to.equal(false);
      expect(isIsoDate('2025-4-01')).to.equal(false);
      expect(isIsoDate('2025-04-01T00:00:00Z')).to.equal(false);
      expect(isIsoDate(20250401)).to.equal(false);
    });
  });

  describe('addMonths', () => {
    it('keeps the day of month when it exists', () => {
      expect(addMonths('2020-05-05', 72)).to.equal('2026-05-05');
      expect(addMonths('2025-01-07', -1)).to.equal('2024-12-07');
    });
    it('clamps to the last day of a shorter month', () => {
      expect(addMonths('2021-08-31', 6)).to.equal('2022-02-28');
      expect(addMonths('2027-08-31', 6)).to.equal('2028-02-29'); // leap year
      expect(addMonths('2024-10-31', 1)).to.equal('2024-11-30');
      expect(addMonths('2025-03-31', -1)).to.equal('2025-02-28');
    });
    it('puts a 29 February anniversary on 28 February in non-leap years and on 29 in leap years', () => {
      expect(addMonths('2000-02-29', 72)).to.equal('2006-02-28');
      expect(addMonths('2000-02-29', 240)).to.equal('2020-02-29');
      expect(addMonths('2000-02-29', 1200)).to.equal('2100-02-28'); // 2100 is not a leap year
      expect(addMonths('2000-02-29', 4800)).to.equal('2400-02-29');
    });
    it('clamps afresh on each call (chained calls can drift, single calls do not)', () => {
      expect(addMonths(addMonths('2025-01-31', 1), 1)).to.equal('2025-03-28');
      expect(addMonths('2025-01-31', 2)).to.equal('2025-03-31');
    });
    it('throws on an invalid date', () => {
      expect(() => addMonths('2025-02-30', 1)).to.throw(RangeError);
    });
    it('round-trips when no clamping happens (property)', () => {
      fc.assert(
        fc.property(isoDate, fc.integer({ min: -600, max: 600 }), (date, months) => {
          const day = Number(date.slice(8));
          fc.pre(day <= 28);
          expect(addMonths(addMonths(date, months), -months)).to.equal(date);
        }),
      );
    });
    it('never moves the day of month up and lands in the right month (property)', () => {
      fc.assert(
        fc.property(isoDate, fc.integer({ min: -600, max: 600 }), (date, months) => {
          const from = parseIsoDate(date)!;
          const to = parseIsoDate(addMonths(date, months))!;
          expect(to.year * 12 + to.month - (from.year * 12 + from.month)).to.equal(months);
          expect(to.day).to.be.at.most(from.day);
        }),
      );
    });
  });

  describe('addDays / daysBetween / compare', () => {
    it('crosses month, year and leap-day boundaries', () => {
      expect(addDays('2024-02-27', 30)).to.equal('2024-03-28');
      expect(addDays('2025-12-30', 30)).to.equal('2026-01-29');
      expect(addDays('2024-02-28', 1)).to.equal('2024-02-29');
      expect(addDays('2025-01-01', -1)).to.equal('2024-12-31');
      expect(daysBetween('2024-01-01', '2025-01-01')).to.equal(366);
      expect(daysBetween('2025-01-01', '2024-01-01')).to.equal(-366);
    });
    it('is unaffected by daylight-saving transitions (dates only)', () => {
      expect(daysBetween('2025-03-08', '2025-03-10')).to.equal(2); // US DST starts 2025-03-09
      expect(daysBetween('2025-10-25', '2025-10-27')).to.equal(2); // EU DST ends 2025-10-26
    });
    it('addDays and daysBetween agree, and compare matches (property)', () => {
      fc.assert(
        fc.property(isoDate, fc.integer({ min: -20000, max: 20000 }), (date, days) => {
          const later = addDays(date, days);
          expect(daysBetween(date, later)).to.equal(days);
          expect(compareDates(date, later)).to.equal(Math.sign(days) === 0 ? 0 : (-Math.sign(days) as -1 | 1));
          expect(fromDayNumber(toDayNumber(date))).to.equal(date);
        }),
      );
    });
  });

  describe('dayOfWeek', () => {
    it('matches known weekdays', () => {
      expect(dayOfWeek('1970-01-01')).to.equal(4); // Thursday
      expect(dayOfWeek('2000-02-29')).to.equal(2); // Tuesday
      expect(dayOfWeek('2026-02-28')).to.equal(6); // Saturday
      expect(dayOfWeek('2030-05-05')).to.equal(0); // Sunday
      expect(dayOfWeek('1969-12-31')).to.equal(3); // Wednesday, before the epoch
    });
  });

  describe('todayInTimeZone', () => {
    const instant = new Date('2026-01-01T03:00:00Z');
    it('is still 31 December in New York at 03:00 UTC on 1 January', () => {
      expect(todayInTimeZone('America/New_York', instant)).to.equal('2025-12-31');
    });
    it('is already 1 January in Tokyo and in UTC', () => {
      expect(todayInTimeZone('Asia/Tokyo', instant)).to.equal('2026-01-01');
      expect(todayInTimeZone('UTC', instant)).to.equal('2026-01-01');
    });
    it('handles half-hour zones', () => {
      // 2025-06-30T19:00Z is 00:30 on 1 July in Kolkata (UTC+05:30).
      expect(todayInTimeZone('Asia/Kolkata', new Date('2025-06-30T19:00:00Z'))).to.equal('2025-07-01');
      expect(todayInTimeZone('Asia/Kolkata', new Date('2025-06-30T18:29:00Z'))).to.equal('2025-06-30');
    });
    it('throws on an unknown zone', () => {
      expect(() => todayInTimeZone('Mars/Olympus', instant)).to.throw(RangeError);
    });
  });
});
