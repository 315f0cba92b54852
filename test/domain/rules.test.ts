import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import corpusJson from '../../data/rules.json';
import { listDeadlineRules } from '../../domain/deadline-rules';
import { computeDeadlines } from '../../domain/deadlines';
import { computeOppositionWindow } from '../../domain/opposition';
import { loadRuleCorpus, normalizeJurisdictionCode, normalizeOfficeCode, RuleCorpusError } from '../../domain/rules';

type Mutable = Record<string, unknown> & {
  deadline_rules: Array<Record<string, unknown>>;
  opposition_rules: Array<Record<string, unknown>>;
  calendars: Record<string, Record<string, unknown>>;
};
const copy = (): Mutable => JSON.parse(JSON.stringify(corpusJson)) as Mutable;

describe('domain/rules', () => {
  describe('loadRuleCorpus on the shipped corpus', () => {
    const corpus = loadRuleCorpus(corpusJson);
    it('loads every rule', () => {
      expect(corpus.deadline_rules).to.have.length(corpusJson.deadline_rules.length);
      expect(corpus.opposition_rules).to.have.length(corpusJson.opposition_rules.length);
      expect(corpus.corpus_version).to.equal(corpusJson.corpus_version);
    });
    it('has worked examples and at least one source for every rule', () => {
      for (const rule of [...corpus.deadline_rules, ...corpus.opposition_rules]) {
        expect(rule.examples.length, JSON.stringify(rule.sources[0])).to.be.at.least(1);
        expect(rule.sources.length).to.be.at.least(1);
      }
    });
    it('fills absent optional fields with null', () => {
      expect(corpus.deadline_rules.find((rule) => rule.id === 'US.national.section8_6yr')!.applicability_fields).to.equal(null);
      expect(corpus.deadline_rules.find((rule) => rule.id === 'CA.national.renewal_10yr')!.applicability_fields).to.deep.equal(['registration_date']);
    });
  });

  describe('loadRuleCorpus rejects a malformed corpus', () => {
    const cases: Array<[string, (corpus: Mutable) => void, RegExp]> = [
      ['not an object', (c) => Object.keys(c).forEach((k) => delete c[k]), /deadline_rules: must be an array/],
      ['missing deadline_rules', (c) => delete (c as Record<string, unknown>).deadline_rules, /deadline_rules: must be an array/],
      ['a bad date', (c) => (c.deadline_rules[0]!.applicable_from_date = '2019-02-30'), /deadline_rules\[0\]\.applicable_from_date/],
      ['a bad trigger field', (c) => (c.deadline_rules[0]!.trigger_field = 'publication_date'), /deadline_rules\[0\]\.trigger_field: must be one of/],
      ['a negative offset', (c) => (c.deadline_rules[0]!.due_offset_months = -1), /due_offset_months: must be a non-negative integer/],
      ['a zero recurrence', (c) => (c.deadline_rules[1]!.recurring_every_months = 0), /recurring_every_months: must be positive or null/],
      ['no sources', (c) => (c.deadline_rules[0]!.sources = []), /sources: must cite at least one source/],
      [
        'no source with a URL',
        (c) => (c.deadline_rules[0]!.sources = [{ citation: '15 U.S.C. §1058', url: null }]),
        /sources: must give a URL for at least one source/,
      ],
      ['an opposition rule without sources', (c) => (c.opposition_rules[0]!.sources = []), /opposition_rules\[0\]\.sources: must cite at least one source/],
      [
        'an impossible offset: due on its trigger event',
        (c) => (c.deadline_rules[0]!.due_offset_months = 0),
        /due_offset_months: impossible offset: due on or before its trigger registration_date/,
      ],
      [
        'an impossible offset: due before its trigger event',
        (c) => Object.assign(c.deadline_rules[0]!, { due_offset_months: 0, due_offset_days: -1 }),
        /impossible offset: due on or before its trigger/,
      ],
      [
        'an impossible offset: window opening before the trigger event',
        (c) => (c.deadline_rules[0]!.window_opens_months_before_due = 73),
        /window_opens_months_before_due: impossible offset: the window would open before its trigger/,
      ],
      ['an impossible offset: over a century', (c) => (c.deadline_rules[0]!.due_offset_months = 1201), /impossible offset: more than 1200 months/],
      ['a day offset out of range', (c) => (c.deadline_rules[0]!.due_offset_days = 32), /due_offset_days: must be an integer from -31 to 31/],
      ['a fractional day offset', (c) => (c.deadline_rules[0]!.due_offset_days = 0.5), /due_offset_days: must be an integer/],
      ['an impossible grace', (c) => (c.deadline_rules[0]!.grace_months = 25), /grace_months: impossible grace/],
      ['designation scope on a national rule', (c) => (c.deadline_rules[0]!.covers_all_designations = true), /only a madrid rule can cover all designations/],
      [
        'an example input date for an unknown field',
        (c) => ((c.deadline_rules[0]!.examples as Array<Record<string, unknown>>)[0]!.input_dates = { publication_date: '2020-01-01' }),
        /examples\[0\]\.input_dates\.publication_date: must be one of/,
      ],
      ['a duplicate id', (c) => (c.deadline_rules[1]!.id = c.deadline_rules[0]!.id), /duplicate rule US\.national\.section8_6yr/],
      ['an undefined calendar', (c) => (c.deadline_rules[0]!.holiday_calendar = 'US-ZZ'), /holiday_calendar: US-ZZ is not defined under calendars/],
      ['a calendar date-holidays does not know', (c) => (c.calendars['XX'] = { ...c.calendars['US']! }), /calendars\.XX: date-holidays does not know/],
      ['a bad closure day', (c) => (c.calendars['JP']!.extra_closed_days = ['12-32']), /12-32 is not MM-DD/],
      [
        'an extra holiday date-holidays cannot read',
        (c) => (c.calendars['US']!.extra_holidays = [{ rule: 'every blue moon', name: 'Blue Moon Day' }]),
        /calendars\.US\.extra_holidays\[0\]\.rule: date-holidays cannot read 'every blue moon'/,
      ],
      [
        'an open day that is not a weekend day',
        (c) => (c.calendars['CN']!.extra_open_days = ['2025-02-07']),
        /calendars\.CN\.extra_open_days: 2025-02-07 is not the YYYY-MM-DD of a Saturday or Sunday/,
      ],
      [
        'an open day that is not a date',
        (c) => (c.calendars['CN']!.extra_open_days = ['2025-02-30']),
        /2025-02-30 is not the YYYY-MM-DD of a Saturday or Sunday/,
      ],
      [
        'a known-through year at or past coverage',
        (c) => (c.calendars['TH']!.holidays_known_through = 2035),
        /calendars\.TH\.holidays_known_through: must be a year from 2000 to 2034/,
      ],
      ['a bad time zone', (c) => (c.opposition_rules[0]!.office_time_zone = 'America/Nowhere'), /office_time_zone: unknown time zone/],
      ['both window lengths', (c) => (c.opposition_rules[0]!.window_months = 1), /exactly one of window_months and window_days/],
      ['a bad trigger event', (c) => (c.opposition_rules[0]!.trigger_event = 'filing'), /trigger_event: must be one of/],
      ['a duplicate opposition key', (c) => (c.opposition_rules[1]!.filing_route = 'domestic'), /duplicate rule US\|domestic\|application_publication/],
    ];
    for (const [name, mutate, message] of cases) {
      it(name, () => {
        const corpus = copy();
        mutate(corpus);
        expect(() => loadRuleCorpus(corpus)).to.throw(RuleCorpusError, message);
      });
    }
    it('accepts offset 0 and a window before the trigger for a rule counted from a due point (expiry date)', () => {
      const corpus = copy();
      const legacy = corpus.deadline_rules.find((rule) => rule.id === 'CA.national.renewal_from_expiry_legacy')!;
      expect(legacy).to.include({ due_offset_months: 0, window_opens_months_before_due: 6 });
      expect(() => loadRuleCorpus(corpus)).to.not.throw();
    });
    it('not even an object', () => {
      expect(() => loadRuleCorpus(null)).to.throw(RuleCorpusError, /\$: must be an object/);
    });
  });

  describe('README coverage table', () => {
    it('lists every corpus jurisdiction with its rule counts and verified share', () => {
      const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
      const table = readme.split('<!-- coverage-table')[1]!.split('\n\n')[0]!;
      const rows = new Map(
        table
          .split('\n')
          .filter((line) => /^\| [^-]/.test(line) && !line.startsWith('| Jurisdiction'))
          .map((line) => line.split('|').map((cell) => cell.trim()))
          .map((cells) => [cells[2]!, cells.slice(3, 6)]),
      );
      const corpus = loadRuleCorpus(corpusJson);
      const codes = [...new Set(corpus.deadline_rules.map((rule) => rule.jurisdiction_code))];
      expect([...rows.keys()].sort()).to.deep.equal([...codes].sort());
      for (const code of codes) {
        const deadline = corpus.deadline_rules.filter((rule) => rule.jurisdiction_code === code);
        const opposition = corpus.opposition_rules.filter((rule) => rule.jurisdiction_code === code);
        const verified = (rules: Array<{ verified: boolean }>) => rules.filter((rule) => rule.verified).length;
        const share = Math.round((100 * (verified(deadline) + verified(opposition))) / (deadline.length + opposition.length));
        expect(rows.get(code), code).to.deep.equal([
          `${deadline.length} (${verified(deadline)})`,
          `${opposition.length} (${verified(opposition)})`,
          `${share}%`,
        ]);
      }
    });
  });

  describe('rules are data', () => {
    it('a new jurisdiction needs only corpus entries', () => {
      const corpus = copy();
      corpus.calendars['SE'] = { time_zone: 'Europe/Stockholm', closed_holiday_types: ['public'], extra_closed_days: [], notes: 'test' };
      corpus.deadline_rules.push({
        ...corpus.deadline_rules.find((rule) => rule.id === 'CH.national.renewal_10yr')!,
        id: 'SE.national.renewal_10yr',
        jurisdiction_code: 'SE',
        office_code: 'SE',
        holiday_calendar: 'SE',
      });
      corpus.opposition_rules.push({
        ...corpus.opposition_rules.find((rule) => rule.office_code === 'FR')!,
        jurisdiction_code: 'SE',
        office_code: 'SE',
        office_time_zone: 'Europe/Stockholm',
        holiday_calendar: 'SE',
      });
      const loaded = loadRuleCorpus(corpus);
      const deadlines = computeDeadlines(
        loaded,
        { jurisdiction: 'se', filing_date: '2016-05-05' },
        { asOfDate: '2025-06-01', horizonYears: 5, includeOptional: true, includeMissed: false },
      );
      expect(deadlines.supported).to.equal(true);
      // 2026-05-05 is a Tuesday and no Swedish holiday.
      expect(deadlines.deadlines.map((d) => d.due_date)).to.deep.equal(['2026-05-05']);
      // Published Friday 2025-03-28: two months later is Wednesday 2025-05-28.
      const window = computeOppositionWindow(loaded, {
        office_code: 'se',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: '2025-03-28',
        as_of_date: '2025-04-01',
      });
      expect(window).to.include({ jurisdiction_code: 'SE', window_closes: '2025-05-28', status: 'open' });
    });
  });

  describe('code normalisation', () => {
    it('jurisdictions: case and aliases', () => {
      expect(['us', ' US ', 'em', 'EU', 'wipo', 'WO', 'uk'].map(normalizeJurisdictionCode)).to.deep.equal(['US', 'US', 'EU', 'EU', 'WO', 'WO', 'GB']);
    });
    it('offices: lowercase legacy codes and aliases', () => {
      expect(['us', 'em', 'eu', 'EUIPO', 'wipo', 'wo', 'uk'].map(normalizeOfficeCode)).to.deep.equal(['US', 'EM', 'EM', 'EM', 'WO', 'WO', 'GB']);
    });
  });

  describe('listDeadlineRules', () => {
    const corpus = loadRuleCorpus(corpusJson);
    it('lists every rule as a public deadline_rule object with verified exposed', () => {
      const rules = listDeadlineRules(corpus);
      expect(rules).to.have.length(corpusJson.deadline_rules.length);
      for (const rule of rules) expect(rule.object).to.equal('deadline_rule');
      expect(rules.find((rule) => rule.id === 'DE.national.renewal_10yr')).to.include({ verified: false });
      expect(rules.find((rule) => rule.id === 'FR.national.renewal_10yr')).to.include({ verified: true });
    });
    it('filters by jurisdiction, with aliases', () => {
      expect(listDeadlineRules(corpus, { jurisdictions: ['em', 'WIPO'] }).map((rule) => rule.id)).to.deep.equal([
        'EU.regional.renewal_10yr',
        'WO.madrid.renewal_10yr',
      ]);
      expect(listDeadlineRules(corpus, { jurisdictions: ['ZZ'] })).to.deep.equal([]);
    });
  });
});
