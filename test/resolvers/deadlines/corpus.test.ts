import { expect } from 'chai';
import { version as dateHolidaysVersion } from 'date-holidays/package.json';
import closedDaysJson from '../../../data/closed-days.json';
import { primeCorpusCalendars, ruleCorpus, type ClosedDaysTable } from '../../../resolvers/deadlines/corpus';

// The server reads closed days from data/closed-days.json only when the table still describes
// what the installed date-holidays would compute for the corpus's calendars; otherwise the
// calendar computes them itself. (Priming again with the shipped table changes nothing.)
const table = closedDaysJson as ClosedDaysTable;

describe('resolvers/deadlines/corpus: the closed-days table', () => {
  it('primes every corpus calendar from a table built by the installed date-holidays', () => {
    expect(primeCorpusCalendars(table).sort()).to.deep.equal(Object.keys(ruleCorpus.calendars).sort());
  });

  it('ignores a table built by another date-holidays release', () => {
    expect(primeCorpusCalendars(table, `${dateHolidaysVersion}-other`)).to.deep.equal([]);
  });

  it('skips a calendar whose definition in the table is not the corpus definition', () => {
    const edited: ClosedDaysTable = {
      ...table,
      calendars: { ...table.calendars, JP: { ...table.calendars.JP!, spec: { ...table.calendars.JP!.spec, extraClosedDays: [] } } },
    };
    const primed = primeCorpusCalendars(edited);
    expect(primed).to.not.include('JP');
    expect(primed).to.have.length(Object.keys(ruleCorpus.calendars).length - 1);
  });
});
