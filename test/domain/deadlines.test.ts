import { expect } from 'chai';
import fc from 'fast-check';
import corpusJson from '../../data/rules.json';
import { isBusinessDay, rollForward } from '../../domain/calendar';
import {
  CRITICAL_DAYS,
  DEAD_STATUSES,
  DUE_SOON_DAYS,
  computeDeadlines,
  computeDeadlinesBatch,
  nominalOccurrence,
  type ComputedDeadline,
  type DeadlineInput,
  type DeadlineOptions,
} from '../../domain/deadlines';
import { calendarSpecFor, loadRuleCorpus, TRIGGER_FIELDS, type DeadlineRule } from '../../domain/rules';
import { addDays } from '../../domain/dates';

const corpus = loadRuleCorpus(corpusJson);
const ruleById = (id: string): DeadlineRule => corpus.deadline_rules.find((rule) => rule.id === id)!;
const ruleByName = (name: string): DeadlineRule => corpus.deadline_rules.find((rule) => rule.name === name)!;
const options = (overrides: Partial<DeadlineOptions> = {}): DeadlineOptions => ({
  asOfDate: '2025-06-01',
  horizonYears: 5,
  includeOptional: true,
  includeMissed: false,
  ...overrides,
});
const only = (input: DeadlineInput, opts: Partial<DeadlineOptions>, type: string): ComputedDeadline[] =>
  computeDeadlines(corpus, input, options(opts)).deadlines.filter((d) => d.type === type);

/** "2030-05-05 is a Sunday: rolled due date 2030-05-06" style pairs in an example's notes. */
function rolledPairs(notes: string | null): Array<[string, string]> {
  const pattern = /(\d{4}-\d{2}-\d{2}) is a [^;.]*?rolled[a-z ]*?(\d{4}-\d{2}-\d{2})/g;
  return [...(notes ?? '').matchAll(pattern)].map((match) => [match[1]!, match[2]!]);
}

describe('domain/deadlines', () => {
  describe('every worked example in the corpus', () => {
    for (const rule of corpus.deadline_rules) {
      rule.examples.forEach((example, index) => {
        it(`${rule.id} example ${index + 1} (trigger ${example.trigger_date})`, () => {
          const first = nominalOccurrence(rule, example.trigger_date, 1, example.extensions_granted);
          expect(first).to.deep.equal({ window_opens: example.window_opens, due_date: example.due_date, grace_expiry: example.grace_expiry });
          const calendar = calendarSpecFor(corpus, rule.holiday_calendar!);
          for (const [nominal, rolled] of rolledPairs(example.notes)) {
            expect([first.due_date, first.grace_expiry], `${nominal} is a last day of the example`).to.include(nominal);
            expect(rollForward(nominal, calendar).date, `${nominal} rolls`).to.equal(rolled);
          }
          const next = /next occurrence(?: due)? (\d{4}-\d{2}-\d{2})/i.exec(example.notes ?? '');
          if (next) expect(nominalOccurrence(rule, example.trigger_date, 2).due_date).to.equal(next[1]);
        });
      });
    }

    it('finds the rolled dates in the notes (the parser above is not vacuous)', () => {
      const pairs = corpus.deadline_rules.flatMap((rule) => rule.examples.flatMap((example) => rolledPairs(example.notes)));
      expect(pairs.length).to.be.at.least(15);
    });

    it('US renewal from a 29 Feb registration: second occurrence from the example notes', () => {
      expect(nominalOccurrence(ruleById('US.national.section8_9_renewal_10yr'), '2000-02-29', 2)).to.deep.equal({
        window_opens: '2019-02-28',
        due_date: '2020-02-29',
        grace_expiry: '2020-08-29',
      });
    });
  });

  describe('through computeDeadlines', () => {
    it('lists US maintenance deadlines ordered by due date, rolled, with optional ones', () => {
      const result = computeDeadlines(corpus, { jurisdiction: 'us', registration_date: '2020-05-05' }, options());
      expect(result).to.include({
        object: 'deadline_computation',
        jurisdiction_code: 'US',
        filing_route: 'national',
        supported: true,
        unsupported_reason: null,
      });
      expect(result.deadlines.map((d) => [d.type, d.due_date])).to.deep.equal([
        ['declaration_of_use', '2026-05-05'],
        ['incontestability', '2026-05-05'],
        ['renewal', '2030-05-06'], // 2030-05-05 is a Sunday
      ]);
      expect(result.deadlines[0]).to.deep.equal({
        type: 'declaration_of_use',
        name: ruleById('US.national.section8_6yr').name,
        jurisdiction_code: 'US',
        trigger_date: '2020-05-05',
        trigger_field: 'registration_date',
        window_opens: '2025-05-05',
        due_date: '2026-05-05',
        grace_expiry: '2026-11-05',
        status: 'window_open',
        days_until_due: 338, // 2025-06-01 .. 2026-05-05
        days_until_grace_expiry: 522,
        urgency: 'routine',
        consequence_if_missed: 'cancellation',
        recurring: false,
        optional: false,
        approximate: false, // 2026 lies within calendar coverage (2000-2035)
      });
      expect(result.deadlines[2]).to.include({ window_opens: '2029-05-05', grace_expiry: '2030-11-05', status: 'future', recurring: true });
    });

    it('names the dates an item lacks that its rules count from, so an empty list reads as not computable', () => {
      const options = { asOfDate: '2025-06-01', horizonYears: 5, includeOptional: true, includeMissed: false };
      // EU renewal counts from the filing date; US sections 8 and 15 and renewal from registration.
      const eu = computeDeadlines(corpus, { jurisdiction: 'EU', registration_date: '2016-05-05' }, options);
      expect([eu.deadlines, eu.missing_trigger_fields]).to.deep.equal([[], ['filing_date']]);
      const us = computeDeadlines(corpus, { jurisdiction: 'US', filing_date: '2019-01-10' }, options);
      expect([us.deadlines, us.missing_trigger_fields]).to.deep.equal([[], ['registration_date']]);
      expect(computeDeadlines(corpus, { jurisdiction: 'US', registration_date: '2020-05-05' }, options).missing_trigger_fields).to.deep.equal([]);
      // A dead mark has no deadlines whatever its dates: nothing is missing.
      expect(computeDeadlines(corpus, { jurisdiction: 'EU', status: 'expired' }, options).missing_trigger_fields).to.deep.equal([]);
    });

    it('flags a deadline whose due date or grace expiry lies outside calendar coverage (2000-2035) as approximate', () => {
      // Registered 2029-06-10: section 8 due 2035-06-10, grace to 2035-12-10, both covered;
      // the renewal due 2039-06-10 is not. Registered 2030-03-10: section 8 due 2036-03-10, not covered.
      const flags = (registration_date: string) =>
        computeDeadlines(
          corpus,
          { jurisdiction: 'US', registration_date },
          { asOfDate: '2030-06-01', horizonYears: 15, includeOptional: false, includeMissed: false },
        ).deadlines.map((d) => [d.type, d.due_date.slice(0, 4), d.approximate]);
      expect(flags('2029-06-10')).to.deep.equal([
        ['declaration_of_use', '2035', false],
        ['renewal', '2039', true],
      ]);
      expect(flags('2030-03-10')[0]).to.deep.equal(['declaration_of_use', '2036', true]);
    });

    it('leaves optional deadlines out when asked', () => {
      const result = computeDeadlines(corpus, { jurisdiction: 'US', registration_date: '2020-05-05' }, options({ includeOptional: false }));
      expect(result.deadlines.map((d) => d.type)).to.deep.equal(['declaration_of_use', 'renewal']);
    });

    it('stops at the horizon', () => {
      const result = computeDeadlines(corpus, { jurisdiction: 'US', registration_date: '2020-05-05' }, options({ horizonYears: 4 }));
      expect(result.deadlines.map((d) => d.type)).to.deep.equal(['declaration_of_use', 'incontestability']);
    });

    it('rolls the grace expiry from the nominal due date, not the rolled one (EU 29 Feb example)', () => {
      const [renewal] = only({ jurisdiction: 'EU', filing_date: '2016-02-29' }, { asOfDate: '2025-06-01' }, 'renewal');
      expect(renewal).to.include({ window_opens: '2025-08-28', due_date: '2026-03-02', grace_expiry: '2026-08-28' });
    });

    it('rolls a due date on a public holiday (US, New Year 2026) and leaves window_opens alone', () => {
      const [declaration] = only({ jurisdiction: 'US', registration_date: '2020-01-01' }, {}, 'declaration_of_use');
      expect(declaration).to.include({ window_opens: '2025-01-01', due_date: '2026-01-02', grace_expiry: '2026-07-01' });
    });

    describe('status and urgency boundaries (US §8, due Tue 2026-05-05, grace Thu 2026-11-05, window 2025-05-05)', () => {
      const at = (asOfDate: string, includeMissed = false): ComputedDeadline | undefined =>
        only({ jurisdiction: 'US', registration_date: '2020-05-05' }, { asOfDate, includeMissed }, 'declaration_of_use')[0];
      const cases: Array<[string, string, string, number]> = [
        ['2025-05-04', 'future', 'routine', 366],
        ['2025-05-05', 'window_open', 'routine', 365],
        [addDays('2026-05-05', -(DUE_SOON_DAYS + 1)), 'window_open', 'routine', DUE_SOON_DAYS + 1],
        [addDays('2026-05-05', -DUE_SOON_DAYS), 'due_soon', 'upcoming', DUE_SOON_DAYS],
        [addDays('2026-05-05', -(CRITICAL_DAYS + 1)), 'due_soon', 'upcoming', CRITICAL_DAYS + 1],
        [addDays('2026-05-05', -CRITICAL_DAYS), 'due_soon', 'critical', CRITICAL_DAYS],
        ['2026-05-05', 'due_soon', 'critical', 0],
        ['2026-05-06', 'in_grace', 'in_grace', -1],
        [addDays('2026-11-05', -(CRITICAL_DAYS + 1)), 'in_grace', 'in_grace', -153],
        [addDays('2026-11-05', -CRITICAL_DAYS), 'in_grace', 'overdue', -154],
        ['2026-11-05', 'in_grace', 'overdue', -184],
      ];
      for (const [asOf, status, urgency, daysUntilDue] of cases) {
        it(`as of ${asOf}: ${status} / ${urgency}`, () => {
          expect(at(asOf)).to.include({ status, urgency, days_until_due: daysUntilDue });
        });
      }
      it('as of the day after grace expiry: missed, listed only with includeMissed', () => {
        expect(at('2026-11-06')).to.equal(undefined);
        expect(at('2026-11-06', true)).to.include({ status: 'missed', urgency: 'missed', days_until_grace_expiry: -1 });
      });
      it('thresholds are what the documentation says', () => {
        expect(DUE_SOON_DAYS).to.equal(90);
        expect(CRITICAL_DAYS).to.equal(30);
      });
    });

    it('a rule without an opening restriction is open from the start (JP installment)', () => {
      const [installment] = only({ jurisdiction: 'JP', registration_date: '2020-05-07' }, { asOfDate: '2021-01-01' }, 'installment_fee');
      expect(installment).to.include({ window_opens: null, due_date: '2025-05-07', status: 'window_open' });
    });

    it('a rule without grace is missed the day after its due date (MX declaration of use)', () => {
      const input = { jurisdiction: 'MX', registration_date: '2019-05-06' };
      expect(only(input, { asOfDate: '2022-08-08' }, 'declaration_of_use')[0]).to.include({
        due_date: '2022-08-08',
        grace_expiry: '2022-08-08',
        status: 'due_soon',
      });
      expect(only(input, { asOfDate: '2022-08-09', includeMissed: true }, 'declaration_of_use')[0]).to.include({ status: 'missed' });
    });

    describe('recurring renewals', () => {
      it('lists every occurrence up to the horizon and only the latest missed one', () => {
        const input = { jurisdiction: 'WIPO', international_registration_date: '2000-01-10' };
        const live = computeDeadlines(corpus, input, options({ horizonYears: 15 }));
        expect(live.jurisdiction_code).to.equal('WO');
        expect(live.filing_route).to.equal('madrid');
        expect(live.deadlines.map((d) => [d.due_date, d.status])).to.deep.equal([
          ['2030-01-10', 'future'],
          ['2040-01-10', 'future'],
        ]);
        const withMissed = computeDeadlines(corpus, input, options({ horizonYears: 15, includeMissed: true }));
        expect(withMissed.deadlines.map((d) => [d.due_date, d.status])).to.deep.equal([
          ['2020-01-10', 'missed'],
          ['2030-01-10', 'future'],
          ['2040-01-10', 'future'],
        ]);
      });
    });

    describe('trigger fallbacks and applicability', () => {
      it('uses a fallback field and names it', () => {
        const [declaration] = only({ jurisdiction: 'US', filing_route: 'madrid', protection_grant_date: '2020-01-07' }, {}, 'declaration_of_use');
        expect(declaration).to.include({ trigger_field: 'protection_grant_date', trigger_date: '2020-01-07', due_date: '2026-01-07' });
      });
      it('prefers the primary field when both are present', () => {
        const [renewal] = only({ jurisdiction: 'GB', filing_date: '2016-05-05', registration_date: '2016-09-01' }, {}, 'renewal');
        expect(renewal).to.include({ trigger_field: 'filing_date', due_date: '2026-05-05' });
      });
      it('gives no deadline when no trigger field is present', () => {
        expect(computeDeadlines(corpus, { jurisdiction: 'US', filing_date: '2019-01-01' }, options()).deadlines).to.deep.equal([]);
      });
      it('picks the Canadian rule by registration date', () => {
        expect(only({ jurisdiction: 'CA', registration_date: '2010-05-05' }, { asOfDate: '2025-01-01' }, 'renewal').map((d) => d.due_date)).to.deep.equal([
          '2025-05-05',
        ]);
        expect(
          only({ jurisdiction: 'CA', registration_date: '2020-05-05' }, { asOfDate: '2025-01-01', horizonYears: 6 }, 'renewal').map((d) => d.due_date),
        ).to.deep.equal(['2030-05-06']);
        expect(
          only({ jurisdiction: 'CA', registration_date: '1990-03-01', expiry_date: '2030-03-01' }, { asOfDate: '2025-01-01', horizonYears: 6 }, 'renewal').map(
            (d) => [d.trigger_field, d.due_date],
          ),
        ).to.deep.equal([['expiry_date', '2030-03-01']]);
      });
      it('judges the Mexican legacy rule on the grant date while counting from the filing date', () => {
        const input = { jurisdiction: 'MX', filing_date: '2010-05-05', grant_date: '2011-01-10' };
        expect(only(input, { asOfDate: '2025-06-01' }, 'renewal').map((d) => [d.trigger_field, d.due_date])).to.deep.equal([['filing_date', '2030-05-06']]);
      });
    });

    describe('statuses and jurisdictions', () => {
      for (const status of DEAD_STATUSES) {
        it(`dead status ${status}: supported, no deadlines`, () => {
          const result = computeDeadlines(corpus, { jurisdiction: 'US', status, registration_date: '2020-05-05' }, options());
          expect(result).to.deep.include({ supported: true, unsupported_reason: null, deadlines: [] });
        });
      }
      it('a pending application has no maintenance deadlines yet', () => {
        expect(computeDeadlines(corpus, { jurisdiction: 'US', status: 'examining', registration_date: '2020-05-05' }, options()).deadlines).to.deep.equal([]);
      });
      it('an unsupported jurisdiction says so', () => {
        expect(computeDeadlines(corpus, { jurisdiction: 'zz', registration_date: '2020-05-05' }, options())).to.deep.equal({
          object: 'deadline_computation',
          jurisdiction_code: 'ZZ',
          filing_route: 'national',
          supported: false,
          unsupported_reason: 'unsupported_jurisdiction',
          deadlines: [],
          missing_trigger_fields: [], // no rules, so no date they count from
        });
      });
      it('normalises EM to EU and picks its regional register for national or absent routes', () => {
        for (const filing_route of [undefined, 'national', 'regional'] as const) {
          const result = computeDeadlines(corpus, { jurisdiction: 'em', filing_route, filing_date: '2016-05-05' }, options());
          expect(result).to.include({ jurisdiction_code: 'EU', filing_route: 'regional' });
          expect(result.deadlines.map((d) => d.due_date)).to.deep.equal(['2026-05-05']);
        }
      });
      it('a route the jurisdiction has no rules for is supported with no deadlines', () => {
        expect(computeDeadlines(corpus, { jurisdiction: 'GB', filing_route: 'madrid', filing_date: '2016-05-05' }, options())).to.deep.include({
          supported: true,
          filing_route: 'madrid',
          deadlines: [],
        });
      });
    });

    describe('Madrid designations', () => {
      const designation = { filing_route: 'madrid' as const, international_registration_date: '2016-05-05' };
      it('a US designation gets its §71 declarations and the WIPO renewal', () => {
        const result = computeDeadlines(corpus, { jurisdiction: 'US', ...designation, registration_date: '2020-01-07' }, options());
        // §71 examples: registered 2020-01-07, due 2026-01-07 and (10-year) 2030-01-07, a Monday;
        // WO example: IR 2016-05-05, due 2026-05-05.
        expect(result.deadlines.map((d) => [d.jurisdiction_code, d.type, d.due_date])).to.deep.equal([
          ['US', 'declaration_of_use', '2026-01-07'],
          ['WO', 'renewal', '2026-05-05'],
          ['US', 'declaration_of_use', '2030-01-07'],
        ]);
      });
      it('a Mexican designation gets the declaration of use counted from the Mexican grant', () => {
        // MX.madrid example: granted 2021-03-10, due 2024-06-10; as of 2024-04-01 the window is open.
        const result = computeDeadlines(
          corpus,
          { jurisdiction: 'MX', ...designation, protection_grant_date: '2021-03-10' },
          options({ asOfDate: '2024-04-01' }),
        );
        expect(result.deadlines.map((d) => [d.jurisdiction_code, d.type, d.due_date, d.trigger_field])).to.deep.equal([
          ['MX', 'declaration_of_use', '2024-06-10', 'protection_grant_date'],
          ['WO', 'renewal', '2026-05-05', 'international_registration_date'],
        ]);
      });
      it('a national mark gets no WIPO renewal, and WO itself lists its renewal once', () => {
        const national = computeDeadlines(corpus, { jurisdiction: 'GB', filing_date: '2016-05-05', international_registration_date: '2016-05-05' }, options());
        expect(national.deadlines.map((d) => d.jurisdiction_code)).to.deep.equal(['GB']);
        const wo = computeDeadlines(corpus, { jurisdiction: 'WIPO', international_registration_date: '2016-05-05' }, options());
        expect(wo.deadlines.map((d) => [d.jurisdiction_code, d.due_date])).to.deep.equal([['WO', '2026-05-05']]);
      });
    });

    describe('new corpus conventions', () => {
      it('a term ending the day before the anniversary recurs from the anniversary (HK, due_offset_days -1)', () => {
        const rule = ruleById('HK.national.renewal_10yr');
        // Filed 2016-08-30: terms end 2026-08-29 and 2036-08-29 (s.50(4): each renewal runs from the expiry).
        expect(nominalOccurrence(rule, '2016-08-30', 2).due_date).to.equal('2036-08-29');
        // Filed 2016-03-01: the 10-year term ends on 2026-02-28.
        expect(nominalOccurrence(rule, '2016-03-01', 1).due_date).to.equal('2026-02-28');
      });
      it('Norway counts from the filing date for applications from 2010-07-01 and from registration before', () => {
        const due = (input: DeadlineInput) =>
          computeDeadlines(corpus, input, options({ horizonYears: 10 })).deadlines.map((d) => [d.trigger_field, d.due_date]);
        // Filed 2010-07-01, registered 2011-02-01: due 2030-07-01 (a Monday).
        expect(due({ jurisdiction: 'NO', filing_date: '2010-07-01', registration_date: '2011-02-01' })).to.deep.equal([['filing_date', '2030-07-01']]);
        // Filed 2010-06-30, registered 2011-02-01: due 2031-02-01 (a Saturday, rolled to Monday 2031-02-03), beyond the first renewal in 2021.
        expect(due({ jurisdiction: 'NO', filing_date: '2010-06-30', registration_date: '2011-02-01' })).to.deep.equal([['registration_date', '2031-02-03']]);
      });
      it('the Philippine 3-year declaration applies to pending applications too', () => {
        const result = computeDeadlines(corpus, { jurisdiction: 'PH', status: 'examining', filing_date: '2023-03-16' }, options());
        expect(result.deadlines.map((d) => [d.type, d.due_date, d.consequence_if_missed])).to.deep.equal([
          ['declaration_of_use', '2026-03-16', 'refusal_or_removal'],
        ]);
      });
    });

    describe('as-of date defaults to today in the office time zone', () => {
      // Registered 2020-01-01: §8 due 2026-01-01 (New Year's Day) rolls to Friday 2026-01-02.
      const instant = new Date('2026-01-01T03:00:00Z');
      it('in New York it is still 2025-12-31 at 03:00 UTC', () => {
        const [declaration] = only({ jurisdiction: 'US', registration_date: '2020-01-01' }, { asOfDate: undefined, now: instant }, 'declaration_of_use');
        expect(declaration!.days_until_due).to.equal(2);
      });
      it('in Tokyo it is already 2026-01-01', () => {
        const [renewal] = only({ jurisdiction: 'JP', registration_date: '2016-05-10' }, { asOfDate: undefined, now: instant }, 'renewal');
        expect(renewal!.days_until_due).to.equal(130); // 2026-01-01 .. rolled due 2026-05-11
      });
    });
  });

  describe('registrations in force, WIPO routes and 29 February terms', () => {
    describe('a registration under cancellation keeps its maintenance deadlines', () => {
      // Registered 2020-06-10, as of 2026-01-01, 5-year horizon (to 2031-01-01). By hand from the US
      // rules: §8 due 72 months on, 2026-06-10 (a Wednesday), window 12 months before (2025-06-10),
      // grace 6 months after (2026-12-10, a Thursday); §15 (optional, no grace) due the same day;
      // §8/§9 renewal 120 months on, 2030-06-10 (a Monday), window 2029-06-10, grace 2030-12-10 (a Tuesday).
      const input = { jurisdiction: 'US', registration_date: '2020-06-10' };
      const expected = [
        ['declaration_of_use', '2025-06-10', '2026-06-10', '2026-12-10'],
        ['incontestability', '2025-06-10', '2026-06-10', '2026-06-10'],
        ['renewal', '2029-06-10', '2030-06-10', '2030-12-10'],
      ];
      const summary = (status: string) =>
        computeDeadlines(corpus, { ...input, status }, options({ asOfDate: '2026-01-01' })).deadlines.map((d) => [
          d.type,
          d.window_opens,
          d.due_date,
          d.grace_expiry,
        ]);

      it('pending_cancellation (USPTO 790) gets the US registration deadlines', () => {
        expect(summary('pending_cancellation')).to.deep.equal(expected);
        expect(summary('registered')).to.deep.equal(expected);
      });

      it('a Philippine registration under cancellation keeps its declarations of use and renewal', () => {
        // Filed 2019-04-02, registered 2020-06-10, as of 2025-06-01, 6-year horizon (to 2031-06-01).
        // By hand: 3-year declaration from filing due 2022-04-02 (missed, not listed); 5th-anniversary
        // declaration due 72 months after registration, 2026-06-10 (a Wednesday); renewal due
        // 2030-06-10 (a Monday); the declaration with the renewal, 132 months on (2031-06-10), is
        // beyond the horizon.
        const result = computeDeadlines(
          corpus,
          { jurisdiction: 'PH', status: 'pending_cancellation', filing_date: '2019-04-02', registration_date: '2020-06-10' },
          options({ horizonYears: 6 }),
        );
        expect(result.deadlines.map((d) => [d.type, d.due_date])).to.deep.equal([
          ['declaration_of_use', '2026-06-10'],
          ['renewal', '2030-06-10'],
        ]);
      });

      for (const status of ['filed', 'opposition_period', 'pending_opposition', 'allowed', 'pending_issuance']) {
        it(`${status} is not a registration in force: no US registration deadlines`, () => {
          expect(summary(status)).to.deep.equal([]);
        });
      }

      it('unknown is read from the dates: with a registration date, the registration deadlines', () => {
        expect(summary('unknown')).to.deep.equal(expected);
      });
    });

    describe('WO reads the international register whatever the route', () => {
      // IR 2017-03-15, as of 2026-11-26. By hand from WO.madrid.renewal_10yr: due 120 months on,
      // 2027-03-15 (a Monday), window 6 months before (2026-09-15), grace 6 months after
      // (2027-09-15, a Wednesday); 19 days to 2026-12-15 plus 90 to 2027-03-15 = 109 days.
      for (const filing_route of [undefined, 'national', 'regional', 'madrid'] as const) {
        it(`filing_route ${filing_route ?? 'absent'}: the IR renewal, reported as route madrid`, () => {
          const result = computeDeadlines(
            corpus,
            { jurisdiction: 'WIPO', filing_route, international_registration_date: '2017-03-15' },
            options({ asOfDate: '2026-11-26' }),
          );
          expect(result).to.include({ jurisdiction_code: 'WO', filing_route: 'madrid', supported: true });
          expect(result.deadlines.map((d) => [d.jurisdiction_code, d.type, d.window_opens, d.due_date, d.grace_expiry, d.days_until_due])).to.deep.equal([
            ['WO', 'renewal', '2026-09-15', '2027-03-15', '2027-09-15', 109],
          ]);
        });
      }

      it('a jurisdiction with designation rules only has no own register: a national mark gets none of them', () => {
        // A corpus whose MX rules are the Madrid declaration alone: a national MX mark (route
        // national or absent) must not be read as a designation (no §-style declaration, no WIPO renewal).
        const designationsOnly = loadRuleCorpus({
          ...corpusJson,
          deadline_rules: corpusJson.deadline_rules.filter((rule) => rule.jurisdiction_code !== 'MX' || rule.filing_route === 'madrid'),
        });
        const mark = { jurisdiction: 'MX', registration_date: '2021-03-10', international_registration_date: '2021-01-05' };
        for (const filing_route of [undefined, 'national'] as const) {
          expect(computeDeadlines(designationsOnly, { ...mark, filing_route }, options())).to.deep.include({ filing_route: 'national', deadlines: [] });
        }
      });
    });

    describe('29 February and a term ending the day before its anniversary', () => {
      it('TW registered 2016-02-29: the term ends 2026-02-28 (no 29 Feb: anniversary 1 March), not 2026-02-27', () => {
        // Window 6 months before the nominal due date, grace 6 months after it.
        expect(nominalOccurrence(ruleById('TW.national.renewal_10yr'), '2016-02-29', 1)).to.deep.equal({
          window_opens: '2025-08-28',
          due_date: '2026-02-28',
          grace_expiry: '2026-08-28',
        });
        // 2036 is a leap year: the anniversary is 2036-02-29 and the term ends the day before.
        expect(nominalOccurrence(ruleById('TW.national.renewal_10yr'), '2016-02-29', 2)).to.deep.equal({
          window_opens: '2035-08-28',
          due_date: '2036-02-28',
          grace_expiry: '2036-08-28',
        });
      });

      it('HK filed 2016-02-29: due 2026-02-28, window 3 months before', () => {
        expect(nominalOccurrence(ruleById('HK.national.renewal_10yr'), '2016-02-29', 1)).to.deep.equal({
          window_opens: '2025-11-28',
          due_date: '2026-02-28',
          grace_expiry: '2026-08-28',
        });
      });

      it('a term begun on a 31st ends on the last day of a shorter month (rule offset 6 months, -1 day)', () => {
        const sixMonths: DeadlineRule = { ...ruleById('HK.national.renewal_10yr'), due_offset_months: 6, recurring_every_months: null };
        // 2016-08-31 + 6 months has no 31 February: anniversary 2017-03-01, term ends 2017-02-28.
        expect(nominalOccurrence(sixMonths, '2016-08-31', 1).due_date).to.equal('2017-02-28');
        // 2019-08-31 + 6 months: leap February, term ends 2020-02-29.
        expect(nominalOccurrence(sixMonths, '2019-08-31', 1).due_date).to.equal('2020-02-29');
        // A day the target month has is unaffected: 2016-08-28 -> anniversary 2017-02-28, ends 2017-02-27.
        expect(nominalOccurrence(sixMonths, '2016-08-28', 1).due_date).to.equal('2017-02-27');
      });

      it('reports the rolled last days: 2026-02-28 is a Saturday, due rolls to Monday 2026-03-02 (TW and HK)', () => {
        const asOf = { asOfDate: '2025-12-01' };
        expect(
          only({ jurisdiction: 'TW', registration_date: '2016-02-29' }, asOf, 'renewal').map((d) => [d.window_opens, d.due_date, d.grace_expiry]),
        ).to.deep.equal([['2025-08-28', '2026-03-02', '2026-08-28']]);
        expect(only({ jurisdiction: 'HK', filing_date: '2016-02-29' }, asOf, 'renewal').map((d) => [d.window_opens, d.due_date, d.grace_expiry])).to.deep.equal(
          [['2025-11-28', '2026-03-02', '2026-08-28']],
        );
      });

      it('rules without a negative day offset still clamp (US registered 2020-02-29)', () => {
        // §8: due 2026-02-28 (clamped; a Saturday, rolled to Monday 2026-03-02), window 12 months
        // before the nominal date (2025-02-28), grace 6 months after it (2026-08-28, a Friday).
        expect(nominalOccurrence(ruleById('US.national.section8_6yr'), '2020-02-29', 1)).to.deep.equal({
          window_opens: '2025-02-28',
          due_date: '2026-02-28',
          grace_expiry: '2026-08-28',
        });
        const [declaration] = only({ jurisdiction: 'US', registration_date: '2020-02-29' }, {}, 'declaration_of_use');
        expect(declaration).to.include({ window_opens: '2025-02-28', due_date: '2026-03-02', grace_expiry: '2026-08-28' });
      });
    });
  });

  describe('maintenance filings on record', () => {
    // US registration of 1996-11-17: renewals due 2006-11-17, 2016-11-17, 2026-11-17 (window from
    // 2025-11-17, grace to 2027-05-17) and 2036-11-17 (window from 2035-11-17); none is rolled.
    const us = (filings: DeadlineInput['maintenance_filings'], opts: Partial<DeadlineOptions> = {}) =>
      only(
        { jurisdiction: 'US', registration_date: '1996-11-17', maintenance_filings: filings },
        { asOfDate: '2026-11-27', horizonYears: 15, ...opts },
        'renewal',
      ).map((d) => [d.due_date, d.status]);

    it('a renewal filed in the window, or accepted after the grace period, meets that renewal and leaves the next', () => {
      expect(us([])).to.deep.equal([
        ['2026-11-17', 'in_grace'],
        ['2036-11-17', 'future'],
      ]);
      expect(us([{ type: 'renewal', filed_date: '2026-11-20' }])).to.deep.equal([['2036-11-17', 'future']]);
      expect(us([{ type: 'renewal', filed_date: '2025-11-17' }])).to.deep.equal([['2036-11-17', 'future']]);
      expect(us([{ type: 'renewal', filed_date: '2027-08-01' }])).to.deep.equal([['2036-11-17', 'future']]);
    });

    it('a filing before the window, of another type, or in the next window does not meet it', () => {
      expect(us([{ type: 'renewal', filed_date: '2025-11-16' }])).to.deep.equal([
        ['2026-11-17', 'in_grace'],
        ['2036-11-17', 'future'],
      ]);
      expect(us([{ type: 'declaration_of_use', filed_date: '2026-11-20' }])).to.have.length(2);
      expect(us([{ type: 'renewal', filed_date: '2035-12-01' }])).to.deep.equal([['2026-11-17', 'in_grace']]);
    });

    it('with include_missed, the latest missed renewal is the latest not met', () => {
      expect(us([{ type: 'renewal', filed_date: '2016-10-01' }], { includeMissed: true })).to.deep.equal([
        ['2006-11-17', 'missed'],
        ['2026-11-17', 'in_grace'],
        ['2036-11-17', 'future'],
      ]);
    });

    it('a rule without a window (ZA renewal): a filing meets the occurrence whose grace period it falls in or before, the last day included', () => {
      // Filed 2010-03-01: due 2020-03-01, a Sunday, rolled to Monday 2020-03-02; grace to 2020-09-01; next due 2030-03-01.
      const za = (filings: DeadlineInput['maintenance_filings']) =>
        only({ jurisdiction: 'ZA', filing_date: '2010-03-01', maintenance_filings: filings }, { asOfDate: '2020-07-01', horizonYears: 15 }, 'renewal').map(
          (d) => d.due_date,
        );
      expect(za([])).to.deep.equal(['2020-03-02', '2030-03-01']);
      expect(za([{ type: 'renewal', filed_date: '2020-06-01' }])).to.deep.equal(['2030-03-01']);
      expect(za([{ type: 'renewal', filed_date: '2020-09-01' }])).to.deep.equal(['2030-03-01']);
      expect(za([{ type: 'renewal', filed_date: '2020-09-02' }])).to.deep.equal(['2020-03-02']);
    });
  });

  describe('properties', () => {
    const jurisdictions = [...new Set(corpus.deadline_rules.map((rule) => rule.jurisdiction_code)), 'EM', 'WIPO', 'ZZ'];
    const day = (min: string, max: string) =>
      fc.date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T00:00:00Z`), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    const triggerDates = fc.record(Object.fromEntries(TRIGGER_FIELDS.map((field) => [field, fc.option(day('2000-01-01', '2030-12-31'), { nil: undefined })])));
    const inputArb: fc.Arbitrary<DeadlineInput> = fc
      .tuple(
        fc.constantFrom(...jurisdictions),
        fc.constantFrom(undefined, 'national' as const, 'regional' as const, 'madrid' as const),
        fc.constantFrom(undefined, 'registered', 'examining', 'expired'),
        triggerDates,
      )
      .map(([jurisdiction, filing_route, status, dates]) => ({ jurisdiction, filing_route, status, ...dates }));
    const optionsArb: fc.Arbitrary<DeadlineOptions> = fc.record({
      asOfDate: day('2015-01-01', '2030-12-31'),
      horizonYears: fc.integer({ min: 1, max: 15 }),
      includeOptional: fc.boolean(),
      includeMissed: fc.boolean(),
    });

    it('due dates never precede trigger dates; grace expiry never precedes the due date', () => {
      fc.assert(
        fc.property(inputArb, optionsArb, (input, opts) => {
          for (const deadline of computeDeadlines(corpus, input, opts).deadlines) {
            expect(deadline.due_date >= deadline.trigger_date, JSON.stringify(deadline)).to.equal(true);
            expect(deadline.grace_expiry >= deadline.due_date, JSON.stringify(deadline)).to.equal(true);
            if (deadline.window_opens !== null) expect(deadline.window_opens <= deadline.due_date).to.equal(true);
          }
        }),
        { numRuns: 300 },
      );
    });

    it("rolled last days are business days on the rule's calendar", () => {
      fc.assert(
        fc.property(inputArb, optionsArb, (input, opts) => {
          for (const deadline of computeDeadlines(corpus, input, opts).deadlines) {
            const calendar = calendarSpecFor(corpus, ruleByName(deadline.name).holiday_calendar!);
            expect(isBusinessDay(deadline.due_date, calendar), deadline.due_date).to.equal(true);
            expect(isBusinessDay(deadline.grace_expiry, calendar), deadline.grace_expiry).to.equal(true);
          }
        }),
        { numRuns: 300 },
      );
    });

    it('recurring occurrences are spaced by their period', () => {
      fc.assert(
        fc.property(inputArb, optionsArb, (input, opts) => {
          const byRule = new Map<string, ComputedDeadline[]>();
          for (const deadline of computeDeadlines(corpus, input, opts).deadlines) {
            if (deadline.recurring) byRule.set(deadline.name, [...(byRule.get(deadline.name) ?? []), deadline]);
          }
          for (const [name, deadlines] of byRule) {
            const rule = ruleByName(name);
            const calendar = calendarSpecFor(corpus, rule.holiday_calendar!);
            const trigger = deadlines[0]!.trigger_date;
            // Find the occurrence number of the first listed deadline, then each next one is n + 1.
            let occurrence = 1;
            while (rollForward(nominalOccurrence(rule, trigger, occurrence).due_date, calendar).date !== deadlines[0]!.due_date) occurrence += 1;
            deadlines.forEach((deadline, offset) => {
              const nominal = nominalOccurrence(rule, trigger, occurrence + offset);
              const previous = nominalOccurrence(rule, trigger, occurrence + offset - 1);
              expect(rollForward(nominal.due_date, calendar).date).to.equal(deadline.due_date);
              const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
              if (offset > 0) expect(monthIndex(nominal.due_date) - monthIndex(previous.due_date)).to.equal(rule.recurring_every_months);
            });
          }
        }),
        { numRuns: 300 },
      );
    });

    it('batch output order equals input order and is stable under permutation', () => {
      fc.assert(
        fc.property(
          fc
            .array(inputArb, { minLength: 1, maxLength: 20 })
            .chain((items) => fc.tuple(fc.constant(items), fc.shuffledSubarray([...items.keys()], { minLength: items.length, maxLength: items.length }))),
          optionsArb,
          ([items, permutation], opts) => {
            const direct = computeDeadlinesBatch(corpus, items, opts);
            expect(direct).to.have.length(items.length);
            direct.forEach((result, index) => expect(result).to.deep.equal(computeDeadlines(corpus, items[index]!, opts)));
            const permuted = computeDeadlinesBatch(
              corpus,
              permutation.map((index) => items[index]!),
              opts,
            );
            permutation.forEach((originalIndex, position) => expect(permuted[position]).to.deep.equal(direct[originalIndex]));
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
