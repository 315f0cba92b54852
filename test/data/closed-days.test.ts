import { expect } from 'chai';
import { version as dateHolidaysVersion } from 'date-holidays/package.json';
import closedDaysJson from '../../data/closed-days.json';
import { buildClosedDaysTable } from '../../bin/closed-days';
import { calendarSpecFor } from '../../domain/rules';
import { CLOSED_DAYS_YEARS, ruleCorpus, type ClosedDaysTable } from '../../resolvers/deadlines/corpus';

// The server takes every corpus calendar's closed days from this table instead of computing them
// (resolvers/deadlines/corpus.ts), so it must say exactly what date-holidays says. When a test
// here fails after a date-holidays upgrade or a calendar edit, run `npm run data:closed-days`.
const table = closedDaysJson as ClosedDaysTable;

describe('data/closed-days.json', () => {
  it('was computed by the installed date-holidays', () => {
    expect(table.date_holidays_version).to.equal(dateHolidaysVersion);
  });

  it('holds every calendar of data/rules.json, as the corpus defines it, for every year of CLOSED_DAYS_YEARS', () => {
    expect(Object.keys(table.calendars).sort()).to.deep.equal(Object.keys(ruleCorpus.calendars).sort());
    expect(table.years).to.deep.equal(CLOSED_DAYS_YEARS);
    const years = Array.from({ length: CLOSED_DAYS_YEARS.to - CLOSED_DAYS_YEARS.from + 1 }, (_, i) => String(CLOSED_DAYS_YEARS.from + i));
    for (const [id, entry] of Object.entries(table.calendars)) {
      expect(entry.spec, id).to.deep.equal(calendarSpecFor(ruleCorpus, id));
      expect(Object.keys(entry.closed_days), id).to.deep.equal(years);
    }
  });

  it('lists, for each calendar and year, exactly the days date-holidays closes (computed again here)', function () {
    this.timeout(120_000); // about 15 s: every calendar-year through date-holidays, the lunisolar ones at up to 70 ms each
    expect(buildClosedDaysTable().calendars).to.deep.equal(table.calendars);
  });
});
