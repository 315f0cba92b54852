import { expect } from 'chai';
import corpusJson from '../../data/rules.json';
import { rollForward } from '../../domain/calendar';
import {
  computeOppositionWindow,
  findOppositionRules,
  nominalOppositionWindow,
  oppositionTriggerFor,
  type MarkOppositionFacts,
  type OppositionWindowInput,
} from '../../domain/opposition';
import { calendarSpecFor, loadRuleCorpus } from '../../domain/rules';

const corpus = loadRuleCorpus(corpusJson);

const us = (publication_date: string, as_of_date: string | null = '2025-01-20'): OppositionWindowInput => ({
  office_code: 'US',
  filing_route: 'domestic',
  trigger_event: 'application_publication',
  publication_date,
  as_of_date,
});

describe('domain/opposition', () => {
  describe('every worked example in the corpus', () => {
    for (const rule of corpus.opposition_rules) {
      rule.examples.forEach((example, index) => {
        it(`${rule.office_code} ${rule.filing_route} ${rule.trigger_event} example ${index + 1} (published ${example.publication_date})`, () => {
          const nominal = nominalOppositionWindow(rule, example.publication_date);
          expect(nominal.window_opens).to.equal(example.window_opens);
          expect(nominal.window_closes).to.equal(example.window_closes);
          const rolled = /rolled close (\d{4}-\d{2}-\d{2})/i.exec(example.notes ?? '');
          const window = computeOppositionWindow(corpus, {
            office_code: rule.office_code,
            filing_route: rule.filing_route,
            trigger_event: rule.trigger_event,
            publication_date: example.publication_date,
            as_of_date: example.publication_date,
          });
          expect(window.window_closes_nominal).to.equal(example.window_closes);
          if (rolled) expect(window.window_closes).to.equal(rolled[1]);
          else expect(window.window_closes).to.equal(rollForward(example.window_closes, calendarSpecFor(corpus, rule.holiday_calendar!)).date);
        });
      });
    }
  });

  describe('hand-checked windows', () => {
    it('US: 30 days from publication, as-of-right 30-day extension rolled off a Saturday', () => {
      expect(computeOppositionWindow(corpus, us('2025-01-07'))).to.deep.equal({
        object: 'opposition_window',
        office_code: 'US',
        jurisdiction_code: 'US',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2025-01-07',
        as_of_date: '2025-01-20',
        status: 'open',
        no_rule_reason: null,
        window_opens: '2025-01-07',
        window_closes: '2025-02-06',
        window_closes_nominal: '2025-02-06',
        extended_window_closes: '2025-03-10',
        extended_window_closes_nominal: '2025-03-08',
        days_remaining: 17,
        must_act_by: '2025-02-06',
        approximate: false,
        window_months: null,
        window_days: 30,
        window_starts_offset_months: null,
        window_starts_on: 'date_of_publication',
        office_time_zone: 'America/New_York',
        holiday_calendar: 'US',
        common_extension: corpus.opposition_rules[0]!.common_extension,
        applicable_from_date: null,
        verified: true,
        sources: corpus.opposition_rules[0]!.sources,
      });
    });

    it('status moves from not_started to open to closed', () => {
      expect(computeOppositionWindow(corpus, us('2025-01-07', '2025-01-06')).status).to.equal('not_started');
      expect(computeOppositionWindow(corpus, us('2025-01-07', '2025-01-07')).status).to.equal('open');
      expect(computeOppositionWindow(corpus, us('2025-01-07', '2025-02-06'))).to.include({ status: 'open', days_remaining: 0 });
      expect(computeOppositionWindow(corpus, us('2025-01-07', '2025-02-07'))).to.include({ status: 'closed', days_remaining: -1 });
    });

    it('a close on a Saturday stays open until the rolled Monday (EU, 2025-08-30)', () => {
      const input: OppositionWindowInput = {
        office_code: 'EM',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2025-05-30',
        as_of_date: '2025-09-01',
      };
      expect(computeOppositionWindow(corpus, input)).to.include({
        window_closes_nominal: '2025-08-30',
        window_closes: '2025-09-01',
        status: 'open',
        days_remaining: 0,
      });
    });

    it('a close on a public holiday rolls (US, New Year 2026)', () => {
      expect(computeOppositionWindow(corpus, us('2025-12-02', '2025-12-02'))).to.include({ window_closes_nominal: '2026-01-01', window_closes: '2026-01-02' });
    });

    it('honours window_starts_offset_months (EU designation: opens after one month, closes after four)', () => {
      const input: OppositionWindowInput = {
        office_code: 'eu',
        filing_route: 'madrid_designation',
        trigger_event: 'international_designation_publication',
        publication_date: '2025-01-07',
        as_of_date: '2025-01-20',
      };
      expect(computeOppositionWindow(corpus, input)).to.include({
        office_code: 'EM',
        jurisdiction_code: 'EU',
        window_opens: '2025-02-08',
        window_closes: '2025-05-07',
        status: 'not_started',
      });
    });

    it('a months extension counts from publication (GB TM7A: three months in total)', () => {
      const input: OppositionWindowInput = {
        office_code: 'gb',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2024-12-31',
        as_of_date: '2025-01-02',
      };
      expect(computeOppositionWindow(corpus, input)).to.include({
        window_closes: '2025-02-28',
        extended_window_closes_nominal: '2025-03-31',
        extended_window_closes: '2025-03-31',
      });
    });

    it('no fixed extension: extended dates are null but common_extension is reported', () => {
      const input: OppositionWindowInput = {
        office_code: 'CA',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2025-01-08',
        as_of_date: '2025-01-09',
      };
      const window = computeOppositionWindow(corpus, input);
      expect(window.extended_window_closes).to.equal(null);
      expect(window.common_extension).to.include({ as_of_right: false, days: null, months: null });
    });
  });

  describe('marks published before 2024', () => {
    it('inside calendar coverage: rolled, closed, not approximate (EU, close Sunday 2023-06-18)', () => {
      const input: OppositionWindowInput = {
        office_code: 'EM',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2023-03-18',
        as_of_date: '2025-06-01',
      };
      expect(computeOppositionWindow(corpus, input)).to.include({
        status: 'closed',
        window_closes_nominal: '2023-06-18',
        window_closes: '2023-06-19',
        must_act_by: '2023-06-19',
        approximate: false,
      });
    });

    it('outside coverage and closed more than 14 days ago: not rolled, approximate, still a real date', () => {
      // 1995-06-08 + 30 days = Saturday 1995-07-08.
      expect(computeOppositionWindow(corpus, us('1995-06-08', '2025-06-01'))).to.include({
        status: 'closed',
        window_closes_nominal: '1995-07-08',
        window_closes: '1995-07-08',
        must_act_by: '1995-07-08',
        approximate: true,
      });
    });

    it('outside coverage but as of within 14 days of the close: rolled, approximate', () => {
      expect(computeOppositionWindow(corpus, us('1995-06-08', '1995-07-10'))).to.include({
        status: 'open',
        window_closes: '1995-07-10',
        approximate: true,
      });
    });
  });

  describe('no rule', () => {
    it('no matching rule (China has no Madrid designation rule)', () => {
      const window = computeOppositionWindow(corpus, {
        office_code: 'cn',
        filing_route: 'madrid_designation',
        trigger_event: 'international_designation_publication',
        publication_date: '2025-01-07',
        as_of_date: '2025-02-01',
      });
      expect(window).to.include({
        status: 'no_rule',
        no_rule_reason: 'no_matching_rule',
        office_code: 'CN',
        jurisdiction_code: null,
        window_closes: null,
        must_act_by: null,
        days_remaining: null,
      });
      expect(window.sources).to.deep.equal([]);
    });
    it('publication before applicable_from_date', () => {
      const window = computeOppositionWindow(corpus, {
        office_code: 'EM',
        filing_route: 'madrid_designation',
        trigger_event: 'international_designation_publication',
        publication_date: '2015-01-07',
        as_of_date: '2025-02-01',
      });
      expect(window).to.include({ status: 'no_rule', no_rule_reason: 'before_applicable_from_date', applicable_from_date: '2016-03-23', window_opens: null });
    });
  });

  describe('as-of date defaults to today in the office time zone', () => {
    const instant = new Date('2026-01-01T03:00:00Z');
    it('New York: still 2025-12-31', () => {
      const window = computeOppositionWindow(corpus, us('2025-12-02', null), instant);
      expect(window).to.include({ as_of_date: '2025-12-31', status: 'open', days_remaining: 2 });
    });
    it('Tokyo: already 2026-01-01', () => {
      const window = computeOppositionWindow(
        corpus,
        { office_code: 'JP', filing_route: 'domestic', trigger_event: 'registration_publication', publication_date: '2025-11-01' },
        instant,
      );
      expect(window.as_of_date).to.equal('2026-01-01');
    });
  });

  describe("oppositionTriggerFor: the rule a mark's window runs from", () => {
    const mark = (
      office_code: string,
      publication_date: string | null,
      registration_date: string | null,
      filing_route: MarkOppositionFacts['filing_route'] = 'domestic',
    ): MarkOppositionFacts => ({ office_code, filing_route, publication_date, registration_date });

    it('JP, CH, DE, TW (registration_publication rules only): a registered mark is opposed from its registration', () => {
      // JP publishes the application too; the record keeps that first publication, so the
      // registration date stands in for the registration's gazette publication (estimated).
      expect(oppositionTriggerFor(corpus, mark('JP', '2015-08-04', '2016-03-11'))).to.deep.equal({
        filing_route: 'domestic',
        trigger_event: 'registration_publication',
        publication_date: '2016-03-11',
        estimated: true,
      });
      // A publication on or after the registration is the registration's own publication.
      expect(oppositionTriggerFor(corpus, mark('de', '2016-03-04', '2016-02-02'))).to.deep.equal({
        filing_route: 'domestic',
        trigger_event: 'registration_publication',
        publication_date: '2016-03-04',
        estimated: false,
      });
      expect(oppositionTriggerFor(corpus, mark('CH', null, '2023-11-30'))).to.include({
        trigger_event: 'registration_publication',
        publication_date: '2023-11-30',
        estimated: true,
      });
      expect(oppositionTriggerFor(corpus, mark('TW', '2020-01-06', '2020-01-06'))).to.include({
        trigger_event: 'registration_publication',
        publication_date: '2020-01-06',
        estimated: false,
      });
    });

    it('JP: a published application not yet registered has not reached its trigger (not published)', () => {
      expect(oppositionTriggerFor(corpus, mark('JP', '2025-03-04', null))).to.deep.equal({
        filing_route: 'domestic',
        trigger_event: 'registration_publication',
        publication_date: null,
        estimated: false,
      });
    });

    it('offices with an application_publication rule are unchanged, registered or not', () => {
      const us = { filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2019-05-07', estimated: false };
      expect(oppositionTriggerFor(corpus, mark('US', '2019-05-07', null))).to.deep.equal(us);
      expect(oppositionTriggerFor(corpus, mark('US', '2019-05-07', '2019-07-23'))).to.deep.equal(us);
      expect(oppositionTriggerFor(corpus, mark('US', null, null))).to.include({ trigger_event: 'application_publication', publication_date: null });
      // GB's rule applies from 2008-10-01: an earlier publication keeps the rule, and computes to no_rule.
      expect(oppositionTriggerFor(corpus, mark('GB', '2005-02-01', '2005-06-01'))).to.include({
        trigger_event: 'application_publication',
        publication_date: '2005-02-01',
      });
    });

    it("Madrid designations: the office's madrid_designation rule, whatever its trigger", () => {
      const madrid = (office: string, published: string | null, registered: string | null) =>
        oppositionTriggerFor(corpus, mark(office, published, registered, 'madrid_designation'));
      expect(madrid('EM', '2025-01-07', null)).to.include({ trigger_event: 'international_designation_publication', publication_date: '2025-01-07' });
      // US §66(a): opposed from the USPTO's own publication (the US madrid_designation rule).
      expect(madrid('US', '2025-01-07', null)).to.include({ trigger_event: 'application_publication', publication_date: '2025-01-07' });
      // JP: after protection is granted, from the JPO gazette.
      expect(madrid('JP', '2024-09-10', '2025-01-08')).to.include({
        trigger_event: 'registration_publication',
        publication_date: '2025-01-08',
        estimated: true,
      });
      // No CN Madrid rule: reported as before, and computed to no_rule.
      expect(madrid('CN', '2025-01-07', null)).to.deep.equal({
        filing_route: 'madrid_designation',
        trigger_event: 'international_designation_publication',
        publication_date: '2025-01-07',
        estimated: false,
      });
    });

    describe('an office with both an application_publication and a registration_publication rule', () => {
      // Not in the corpus today: KR's application_publication rule plus a registration_publication
      // rule like JP's, first from 2020-01-01 and then always.
      const jp = corpus.opposition_rules.find((rule) => rule.office_code === 'JP' && rule.filing_route === 'domestic')!;
      const both = (applicableFrom: string | null) => ({
        ...corpus,
        opposition_rules: [...corpus.opposition_rules, { ...jp, office_code: 'KR', jurisdiction_code: 'KR', applicable_from_date: applicableFrom }],
      });
      it("a registered mark: the registration's rule; before registration: the application's", () => {
        const always = both(null);
        expect(oppositionTriggerFor(always, mark('KR', '2021-04-01', '2021-09-15'))).to.include({
          trigger_event: 'registration_publication',
          publication_date: '2021-09-15',
        });
        expect(oppositionTriggerFor(always, mark('KR', '2021-04-01', null))).to.include({
          trigger_event: 'application_publication',
          publication_date: '2021-04-01',
        });
        expect(oppositionTriggerFor(always, mark('KR', null, null))).to.include({ trigger_event: 'application_publication', publication_date: null });
      });
      it("a registration before the registration rule's applicable_from_date: the application's rule", () => {
        const from2020 = both('2020-01-01');
        expect(oppositionTriggerFor(from2020, mark('KR', '2018-04-01', '2018-09-15'))).to.include({
          trigger_event: 'application_publication',
          publication_date: '2018-04-01',
        });
        expect(oppositionTriggerFor(from2020, mark('KR', '2021-04-01', '2021-09-15'))).to.include({ trigger_event: 'registration_publication' });
      });
      it('neither rule applies: the latest event, so the window is no_rule before_applicable_from_date', () => {
        const corpusBoth = both('2020-01-01');
        const onlyJp = {
          ...corpusBoth,
          opposition_rules: corpusBoth.opposition_rules.filter((rule) => !(rule.office_code === 'KR' && rule.trigger_event === 'application_publication')),
        };
        const trigger = oppositionTriggerFor(onlyJp, mark('KR', '2018-04-01', '2018-09-15'));
        expect(trigger).to.include({ trigger_event: 'registration_publication', publication_date: '2018-09-15' });
        expect(
          computeOppositionWindow(onlyJp, {
            office_code: 'KR',
            filing_route: 'domestic',
            trigger_event: trigger.trigger_event,
            publication_date: trigger.publication_date!,
            as_of_date: '2025-01-01',
          }),
        ).to.include({ status: 'no_rule', no_rule_reason: 'before_applicable_from_date' });
      });
    });
  });

  describe('findOppositionRules', () => {
    const keys = (rules: ReturnType<typeof findOppositionRules>) => rules.map((rule) => `${rule.office_code}/${rule.filing_route}/${rule.trigger_event}`);
    it('without filters returns every rule, without examples', () => {
      const rules = findOppositionRules(corpus, {});
      expect(rules).to.have.length(corpusJson.opposition_rules.length);
      expect(rules[0]).to.not.have.property('examples');
      expect(rules[0]).to.include({ object: 'opposition_rule', verified: true });
    });
    it('filters by jurisdiction (with aliases) and by office (lowercase legacy codes)', () => {
      const expected = ['EM/domestic/application_publication', 'EM/madrid_designation/international_designation_publication'];
      expect(keys(findOppositionRules(corpus, { jurisdictions: ['EU'] }))).to.deep.equal(expected);
      expect(keys(findOppositionRules(corpus, { jurisdictions: ['em'] }))).to.deep.equal(expected);
      expect(keys(findOppositionRules(corpus, { offices: ['em'] }))).to.deep.equal(expected);
    });
    it('filters by trigger event', () => {
      expect(keys(findOppositionRules(corpus, { trigger_events: ['registration_publication'] }))).to.deep.equal([
        'JP/domestic/registration_publication',
        'JP/madrid_designation/registration_publication',
        'CH/domestic/registration_publication',
        'DE/domestic/registration_publication',
        'TW/domestic/registration_publication',
      ]);
    });
    it('combines filters with AND, values within one filter with OR', () => {
      expect(keys(findOppositionRules(corpus, { jurisdictions: ['US', 'JP'], filing_routes: ['madrid_designation'] }))).to.deep.equal([
        'US/madrid_designation/application_publication',
        'JP/madrid_designation/registration_publication',
      ]);
      expect(findOppositionRules(corpus, { offices: ['XX'] })).to.deep.equal([]);
    });
  });
});
