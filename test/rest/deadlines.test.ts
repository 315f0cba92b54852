/**
 * The deadline area over HTTP: POST /v1/deadlines/compute, POST /v1/opposition-windows/compute,
 * GET /v1/opposition-rules (public cache), GET /v1/deadline-rules, and the trademark detail's
 * opposition_window. Expected dates come from the corpus's worked examples or hand calculation.
 */
import { expect } from 'chai';
import corpusJson from '../../data/rules.json';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { loadRuleCorpus } from '../../domain/rules';
import { beforeShared, type TestApp } from '../support/harness';
import type { Computation, Deadline, ListBody } from '../support/deadline-bodies';
import { fails as expectError } from '../support/http';

/** Plain calendar arithmetic for hand calculations (UTC days). */
function plusDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Plain calendar months, a missing day of the target month clamped to its last day. */
function plusMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, last))).toISOString().slice(0, 10);
}

const usRegistered = { jurisdiction: 'us', registration_date: '2020-05-05' };

const corpus = loadRuleCorpus(corpusJson);

/**
 * The last day a corpus example expects: its nominal date, or the rolled date its notes give by
 * hand ("2026-04-12 is a Sunday: rolled due 2026-04-13"). A nominal date on a closed day that the
 * notes leave out fails the test, so the notes must document every roll.
 */
function expectedLastDay(nominal: string, notes: string | null): string {
  for (const match of (notes ?? '').matchAll(/(\d{4}-\d{2}-\d{2}) is a [^;.]*?rolled[a-z ]*?(\d{4}-\d{2}-\d{2})/g)) {
    if (match[1] === nominal) return match[2]!;
  }
  return nominal;
}

describe('REST: deadlines and opposition windows', function () {
  let app: TestApp;

  beforeShared((fixture) => {
    app = fixture.app;
  });

  describe('POST /v1/deadlines/compute: every worked example of the corpus', function () {
    for (const rule of corpus.deadline_rules) {
      rule.examples.forEach((example, index) => {
        it(`${rule.id} example ${index + 1}`, async function () {
          const item = {
            jurisdiction: rule.jurisdiction_code,
            filing_route: rule.filing_route,
            status: rule.applies_to_statuses.includes('registered') ? 'registered' : rule.applies_to_statuses[0],
            ...example.input_dates,
            [rule.trigger_field]: example.trigger_date,
            ...(rule.extensions ? { use_extensions_granted: example.extensions_granted } : {}),
          };
          // As of the nominal due date, the first occurrence is live and within a 1-year horizon.
          const response = await app.post('/v1/deadlines/compute', { items: [item], as_of_date: example.due_date, horizon_years: 1 });
          const body = (await response.json()) as ListBody<Computation>;
          expect(response.status, JSON.stringify(body)).to.equal(200);
          const found = body.data[0]!.deadlines.filter((d) => (d as Deadline & { name: string }).name === rule.name);
          expect(found, JSON.stringify(body.data[0])).to.have.length(1);
          expect(found[0]).to.include({
            trigger_field: rule.trigger_field,
            trigger_date: example.trigger_date,
            window_opens: example.window_opens,
            due_date: expectedLastDay(example.due_date, example.notes),
            grace_expiry: expectedLastDay(example.grace_expiry, example.notes),
          });
        });
      });
    }
  });

  describe('POST /v1/deadlines/compute: Madrid designations', function () {
    it('gives a Philippine designation the Philippine declarations of use and the WIPO renewal', async function () {
      // IR 2021-03-15 designating PH; IPOPHL granted protection 2022-05-18. By hand: 3-year DAU
      // from the IR date 2024-03-15 (a Friday; missed as of 2025-06-01 and not listed); 5th-year DAU
      // from the grant: window 2027-05-18, due 2028-05-18 (Thursday); WIPO renewal 2031-03-15
      // (a Saturday, rolled to Monday 2031-03-17 on the CH calendar), window 2030-09-15.
      const response = await app.post('/v1/deadlines/compute', {
        items: [
          {
            jurisdiction: 'PH',
            filing_route: 'madrid',
            international_registration_date: '2021-03-15',
            designation_date: '2021-03-15',
            protection_grant_date: '2022-05-18',
          },
        ],
        as_of_date: '2025-06-01',
        horizon_years: 6,
      });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const summary = body.data[0]!.deadlines.map((d) => [
        (d as Deadline & { jurisdiction_code: string }).jurisdiction_code,
        d.type,
        d.window_opens,
        d.due_date,
      ]);
      expect(summary).to.deep.equal([
        ['PH', 'declaration_of_use', '2027-05-18', '2028-05-18'],
        ['WO', 'renewal', '2030-09-15', '2031-03-17'],
      ]);
    });

    it('gives a designation of a party without own Madrid rules the WIPO renewal alone, and a national BX mark its own renewal', async function () {
      const response = await app.post('/v1/deadlines/compute', {
        items: [
          { jurisdiction: 'BX', filing_route: 'madrid', international_registration_date: '2016-05-05', registration_date: '2016-09-01' },
          { jurisdiction: 'BX', filing_date: '2016-05-05' },
        ],
        as_of_date: '2025-06-01',
      });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      // WO example: IR 2016-05-05, due 2026-05-05 (Tuesday). BX: filed 2016-05-05, due 2026-05-05.
      expect(body.data[0]!.deadlines.map((d) => [d.type, d.due_date, (d as Deadline & { jurisdiction_code: string }).jurisdiction_code])).to.deep.equal([
        ['renewal', '2026-05-05', 'WO'],
      ]);
      expect(body.data[1]).to.include({ filing_route: 'regional', supported: true });
      expect(body.data[1]!.deadlines.map((d) => [d.type, d.due_date])).to.deep.equal([['renewal', '2026-05-05']]);
    });
  });

  describe('POST /v1/deadlines/compute', function () {
    it('computes the US registration deadlines of the corpus example, in due-date order', async function () {
      const response = await app.post('/v1/deadlines/compute', { items: [usRegistered], as_of_date: '2025-06-01' });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.object).to.equal('list');
      expect(body.has_more).to.equal(false);
      expect(body.pagination).to.deep.equal({ cursor: null });
      expect(body.request_id).to.match(/^req_/);
      const [computation] = body.data;
      expect(computation).to.include({
        object: 'deadline_computation',
        jurisdiction_code: 'US',
        filing_route: 'national',
        supported: true,
        unsupported_reason: null,
      });
      // Corpus examples for registration 2020-05-05: §8 window 2025-05-05, due 2026-05-05, grace
      // 2026-11-05; §15 (optional) due 2026-05-05, no grace; renewal due 2030-05-05, a Sunday,
      // rolled to Monday 2030-05-06 (inside the 5-year horizon ending 2030-06-01).
      const summary = computation!.deadlines.map((d) => [d.type, d.window_opens, d.due_date, d.grace_expiry, d.optional]);
      expect(summary).to.have.length(3);
      expect(summary[0]).to.deep.equal(['declaration_of_use', '2025-05-05', '2026-05-05', '2026-11-05', false]);
      expect(summary[1]?.slice(1)).to.deep.equal(['2025-05-05', '2026-05-05', '2026-05-05', true]);
      expect(summary[2]).to.deep.equal(['renewal', '2029-05-05', '2030-05-06', '2030-11-05', false]);
      // 2025-06-01 to 2026-05-05: 365 days to 2026-06-01 minus 27.
      expect(computation!.deadlines[0]).to.include({ status: 'window_open', days_until_due: 338, urgency: 'routine', trigger_field: 'registration_date' });
      expect(computation!.deadlines[2]).to.include({ status: 'future', recurring: true });
    });

    it('honours include_optional=false, horizon_years and the EU month-end example', async function () {
      const response = await app.post('/v1/deadlines/compute', {
        items: [
          usRegistered,
          { jurisdiction: 'EM', filing_date: '2016-02-29' },
          { jurisdiction: 'ZZ', filing_date: '2020-01-01' },
          { ...usRegistered, status: 'cancelled' },
        ],
        as_of_date: '2025-09-01',
        horizon_years: 1,
        include_optional: false,
      });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const [us, eu, unknown, dead] = body.data;
      expect(us!.deadlines.map((d) => [d.type, d.due_date])).to.deep.equal([['declaration_of_use', '2026-05-05']]);
      // Corpus example: 2026-02-28 is a Saturday, rolled to 2026-03-02; window and grace counted
      // from the nominal 2026-02-28.
      expect(eu).to.include({ jurisdiction_code: 'EU', filing_route: 'regional', supported: true });
      expect(eu!.deadlines.map((d) => [d.window_opens, d.due_date, d.grace_expiry])).to.deep.equal([['2025-08-28', '2026-03-02', '2026-08-28']]);
      expect(unknown).to.include({ supported: false, unsupported_reason: 'unsupported_jurisdiction' });
      expect(unknown!.deadlines).to.deep.equal([]);
      expect(dead).to.include({ supported: true });
      expect(dead!.deadlines).to.deep.equal([]);
    });

    it('lists missed deadlines only with include_missed=true', async function () {
      const item = { jurisdiction: 'US', registration_date: '2010-03-02' };
      const without = (await (await app.post('/v1/deadlines/compute', { items: [item], as_of_date: '2025-06-01' })).json()) as ListBody<Computation>;
      expect(without.data[0]!.deadlines.some((d) => d.status === 'missed')).to.equal(false);
      const withMissed = (await (
        await app.post('/v1/deadlines/compute', { items: [item], as_of_date: '2025-06-01', include_missed: true })
      ).json()) as ListBody<Computation>;
      // §8 for 2010-03-02 was due 2016-03-02 with grace to 2016-09-02: long missed.
      expect(withMissed.data[0]!.deadlines.find((d) => d.status === 'missed' && d.type === 'declaration_of_use')?.due_date).to.equal('2016-03-02');
    });

    it('accepts 1,000 items and keeps their order', async function () {
      this.timeout(10_000);
      const items = Array.from({ length: 1000 }, (_, i) => ({ jurisdiction: 'US', registration_date: plusDays('2015-01-01', i) }));
      const response = await app.post('/v1/deadlines/compute', { items, as_of_date: '2025-01-01', horizon_years: 15 });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status).to.equal(200);
      expect(body.data).to.have.length(1000);
      body.data.forEach((computation, i) => expect(computation.deadlines[0]?.trigger_date ?? null, `item ${i}`).to.equal(items[i]!.registration_date));
    });

    it('rejects 1,001 items with 422 batch_too_large carrying item_count and item_count_limit', async function () {
      const items = Array.from({ length: 1001 }, () => usRegistered);
      const body = await expectError(await app.post('/v1/deadlines/compute', { items }), 422, 'batch_too_large');
      expect(body.error.item_count).to.equal(1001);
      expect(body.error.item_count_limit).to.equal(1000);
    });

    const badBodies: Array<[string, unknown, string]> = [
      ['malformed JSON', '{"items": [', 'body'],
      ['a non-object body', '[1,2]', 'body'],
      ['missing items', { as_of_date: '2025-01-01' }, 'items: is required'],
      ['items not an array', { items: 'US' }, 'items: must be an array'],
      ['an empty items array', { items: [] }, 'items: must list at least one item'],
      ['an item that is not an object', { items: [usRegistered, 'US'] }, 'items[1]: must be a JSON object'],
      ['an item without jurisdiction', { items: [usRegistered, { registration_date: '2020-01-01' }] }, 'items[1].jurisdiction: is required'],
      [
        'a bad item date',
        { items: [usRegistered, usRegistered, usRegistered, { jurisdiction: 'US', filing_date: '2020-13-01' }] },
        'items[3].filing_date: must be a date written YYYY-MM-DD',
      ],
      ['a bad filing_route', { items: [{ ...usRegistered, filing_route: 'domestic' }] }, 'items[0].filing_route: must be one of national, regional, madrid'],
      ['a bad status', { items: [{ ...usRegistered, status: 'alive' }] }, 'items[0].status: must be one of'],
      ['an unknown item field', { items: [{ ...usRegistered, colour: 'red' }] }, 'items[0].colour: is not a field'],
      ['a bad as_of_date', { items: [usRegistered], as_of_date: '01/06/2025' }, 'as_of_date: must be a date written YYYY-MM-DD'],
      ['horizon_years 0', { items: [usRegistered], horizon_years: 0 }, 'horizon_years: must be an integer from 1 to 15'],
      ['horizon_years 16', { items: [usRegistered], horizon_years: 16 }, 'horizon_years: must be an integer from 1 to 15'],
      ['a non-boolean include_missed', { items: [usRegistered], include_missed: 'yes' }, 'include_missed: must be the literal true or false'],
      // Dates no office holds, whose terms run past four-digit years or into years no holiday calendar computes.
      [
        'a registration in 9999',
        { items: [{ jurisdiction: 'US', registration_date: '9999-12-31' }] },
        "items[0].registration_date: must be a date in the years 1800 to 2199 (got '9999-12-31')",
      ],
      [
        'an expiry in year 1',
        { items: [{ jurisdiction: 'CN', expiry_date: '0001-03-01' }] },
        "items[0].expiry_date: must be a date in the years 1800 to 2199 (got '0001-03-01')",
      ],
      ['an as_of_date in 9999', { items: [usRegistered], as_of_date: '9999-01-01' }, "as_of_date: must be a date in the years 1800 to 2199 (got '9999-01-01')"],
    ];
    for (const [what, body, detail] of badBodies) {
      it(`answers 400 naming the field for ${what}`, async function () {
        await expectError(await app.post('/v1/deadlines/compute', body), 400, 'validation_error', detail);
      });
    }

    it('answers 400 naming the field for a publication or as-of date outside the office years, and still answers /health/live', async function () {
      const window = (publication_date: string, as_of_date = '2025-01-01') =>
        app.post('/v1/opposition-windows/compute', {
          items: [{ office: 'KR', filing_route: 'domestic', trigger_event: 'application_publication', publication_date }],
          as_of_date,
        });
      await expectError(
        await window('0001-01-05'),
        400,
        'validation_error',
        "items[0].publication_date: must be a date in the years 1800 to 2199 (got '0001-01-05')",
      );
      await expectError(
        await window('9999-12-31'),
        400,
        'validation_error',
        "items[0].publication_date: must be a date in the years 1800 to 2199 (got '9999-12-31')",
      );
      await expectError(
        await window('2025-01-05', '1799-12-31'),
        400,
        'validation_error',
        "as_of_date: must be a date in the years 1800 to 2199 (got '1799-12-31')",
      );
      // The bounds themselves are office years.
      expect((await window('1800-01-01', '2199-12-31')).status).to.equal(200);
      expect((await app.get('/health/live')).status).to.equal(200);
    });

    it('gives /graphql callers the same detail for a bad item date as the REST body parser', async function () {
      const query = 'query ($items: [DeadlineItemInput!]!) { computeDeadlines(items: $items) { data { supported } } }';
      const items = [usRegistered, { jurisdiction: 'US', registration_date: '2020-05-05', expiry_date: '2030-02-29' }];
      const response = await app.post('/graphql', { query, variables: { items } });
      const body = (await response.json()) as { errors?: Array<{ extensions: { type: string; detail: string } }> };
      expect(body.errors?.[0]?.extensions, JSON.stringify(body)).to.include({
        type: 'validation_error',
        detail: "items[1].expiry_date: must be a date written YYYY-MM-DD (got '2030-02-29')",
      });
      await expectError(
        await app.post('/v1/deadlines/compute', { items }),
        400,
        'validation_error',
        "items[1].expiry_date: must be a date written YYYY-MM-DD (got '2030-02-29')",
      );
    });

    it('needs a key with trademarks:read', async function () {
      await expectError(await app.post('/v1/deadlines/compute', { items: [usRegistered] }, null), 401, 'unauthorized');
      await expectError(await app.post('/v1/deadlines/compute', { items: [usRegistered] }, app.keys.billingOnly), 403, 'forbidden');
    });
  });

  describe('POST /v1/deadlines/compute: the US statement of use (15 U.S.C. §1051(d), 37 C.F.R. §2.89)', function () {
    const compute = async (item: Record<string, unknown>, asOf = '2026-11-27') => {
      const response = await app.post('/v1/deadlines/compute', {
        items: [{ jurisdiction: 'US', status: 'allowed', filing_date: '2025-01-10', ...item }],
        as_of_date: asOf,
      });
      return {
        status: response.status,
        body: (await response.json()) as ListBody<Computation & { missing_trigger_fields: string[] }> & { error?: { detail: string } },
      };
    };

    it('is due six months after the notice of allowance, any time until then, and abandons the application when missed', async () => {
      const { body } = await compute({ notice_of_allowance_date: '2026-10-27' });
      expect(body.data[0]!.deadlines).to.have.length(1);
      // 2026-11-27 to 2027-04-27 (a Tuesday): 4 + 30 + 31 + 28 + 31 + 27 = 151 days, more than 90: window open, routine.
      expect(body.data[0]!.deadlines[0]).to.include({
        type: 'statement_of_use',
        trigger_field: 'notice_of_allowance_date',
        trigger_date: '2026-10-27',
        window_opens: null,
        due_date: '2027-04-27',
        grace_expiry: '2027-04-27',
        status: 'window_open',
        days_until_due: 151,
        urgency: 'routine',
        consequence_if_missed: 'abandonment',
      });
    });

    it('moves six months on, from the notice of allowance, per extension granted, at most five', async () => {
      const due = async (extensions: number) =>
        (await compute({ notice_of_allowance_date: '2024-10-01', use_extensions_granted: extensions })).body.data[0]!.deadlines[0]?.due_date;
      // 2024-10-01 + 30 months = 2027-04-01 (a Thursday); + 36 months = 2027-10-01 (a Friday).
      expect(await due(4)).to.equal('2027-04-01');
      expect(await due(5)).to.equal('2027-10-01');
      // With one extension (2025-10-01) the time has run out: missed, not listed without include_missed.
      expect(await due(1)).to.equal(undefined);
      const refused = await compute({ notice_of_allowance_date: '2024-10-01', use_extensions_granted: 6 });
      expect(refused.status).to.equal(400);
      expect(refused.body.error!.detail).to.contain('items[0].use_extensions_granted');
    });

    it('an allowed application without its notice of allowance date names the date it lacks instead of answering nothing due', async () => {
      const { body } = await compute({});
      expect(body.data[0]).to.deep.include({ supported: true, deadlines: [], missing_trigger_fields: ['notice_of_allowance_date'] });
    });
  });

  describe('POST /v1/deadlines/compute: maintenance filings on record meet their deadlines', function () {
    // A US registration of 1996-11-17: its third renewal was due 2026-11-17 (window from
    // 2025-11-17, grace to 2027-05-17), the fourth is due 2036-11-17.
    const renewals = async (filings: unknown) => {
      const response = await app.post('/v1/deadlines/compute', {
        items: [{ jurisdiction: 'US', registration_date: '1996-11-17', maintenance_filings: filings }],
        as_of_date: '2026-11-27',
        horizon_years: 15,
      });
      const body = (await response.json()) as ListBody<Computation> & { error?: { type: string; detail: string } };
      return { status: response.status, body, dues: body.data?.[0]?.deadlines.filter((d) => d.type === 'renewal').map((d) => d.due_date) };
    };

    it('a renewal on record leaves the next one; none, or a declaration, leaves the one in grace', async () => {
      expect((await renewals([])).dues).to.deep.equal(['2026-11-17', '2036-11-17']);
      expect((await renewals(null)).dues).to.deep.equal(['2026-11-17', '2036-11-17']);
      expect((await renewals([{ type: 'declaration_of_use', filed_date: '2026-11-20' }])).dues).to.deep.equal(['2026-11-17', '2036-11-17']);
      expect((await renewals([{ type: 'renewal', filed_date: '2026-11-20' }])).dues).to.deep.equal(['2036-11-17']);
    });

    it('refuses an unknown type, a bad date and more than 50 filings, naming the field, through REST and GraphQL alike', async () => {
      const query = 'query ($items: [DeadlineItemInput!]!) { computeDeadlines(items: $items) { data { supported } } }';
      const cases: Array<[unknown, string]> = [
        [[{ type: 'renewals', filed_date: '2026-11-20' }], 'items[0].maintenance_filings[0].type: must be one of'],
        [[{ type: 'renewal', filed_date: '2026-02-30' }], 'items[0].maintenance_filings[0].filed_date: must be a date written YYYY-MM-DD'],
        [Array.from({ length: 51 }, () => ({ type: 'renewal', filed_date: '2026-11-20' })), 'items[0].maintenance_filings: must list at most 50 items'],
      ];
      for (const [filings, detail] of cases) {
        const rest = await renewals(filings);
        expect(rest.status, detail).to.equal(400);
        expect(rest.body.error).to.include({ type: 'validation_error' });
        expect(rest.body.error!.detail).to.contain(detail);
        const items = [{ jurisdiction: 'US', registration_date: '1996-11-17', maintenance_filings: filings }];
        const graphql = (await (await app.post('/graphql', { query, variables: { items } })).json()) as {
          errors?: Array<{ extensions: { type: string; detail: string } }>;
        };
        expect(graphql.errors?.[0]?.extensions.type, detail).to.equal('validation_error');
        expect(graphql.errors?.[0]?.extensions.detail).to.equal(rest.body.error!.detail);
      }
    });
  });

  describe('POST /v1/deadlines/compute and opposition windows: the last days around holidays of part of a day or of part of the people', function () {
    const compute = async (item: Record<string, unknown>, as_of_date: string) => {
      const response = await app.post('/v1/deadlines/compute', { items: [item], as_of_date });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      return body.data[0]!.deadlines[0]!;
    };

    it('Turkey: a last day on the weekday after a Bayram is not moved', async function () {
      // TR renewal: 10 years from filing, 6 months' grace. Filed 2016-09-12: due 2026-09-12, a
      // Saturday, rolled to Monday 2026-09-14; grace ends 2027-03-12, a Friday (Ramazan Bayramı
      // 2027 is 9 to 11 March); filed 2016-03-23: due Monday 2026-03-23, the day after the 2026 Bayram.
      expect(await compute({ jurisdiction: 'TR', filing_date: '2016-09-12' }, '2026-11-26')).to.include({ due_date: '2026-09-14', grace_expiry: '2027-03-12' });
      expect(await compute({ jurisdiction: 'TR', filing_date: '2016-03-23' }, '2026-01-01')).to.include({ due_date: '2026-03-23' });
      const response = await app.post('/v1/opposition-windows/compute', {
        items: [{ office: 'TR', filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2025-04-10' }],
        as_of_date: '2025-05-01',
      });
      const body = (await response.json()) as ListBody;
      // Two months from publication: Tuesday 2025-06-10, the day after Kurban Bayramı (6 to 9 June).
      expect(body.data[0]).to.include({ window_closes_nominal: '2025-06-10', window_closes: '2025-06-10' });
    });

    it('Canada and the US: a last day on the National Day for Truth and Reconciliation or on Inauguration Day moves to the next business day', async function () {
      // CA renewal: 10 years from registration. Registered 2020-09-30: due Monday 2030-09-30, a prescribed day, so Tuesday 2030-10-01.
      expect(await compute({ jurisdiction: 'CA', registration_date: '2020-09-30' }, '2030-01-01')).to.include({ due_date: '2030-10-01' });
      // US section 8: between the 5th and 6th anniversary of registration. Registered 2027-01-20: due Thursday 2033-01-20, Inauguration Day, so Friday 2033-01-21.
      expect(await compute({ jurisdiction: 'US', registration_date: '2027-01-20' }, '2032-06-01')).to.include({
        type: 'declaration_of_use',
        due_date: '2033-01-21',
      });
    });

    it('names the dates an item lacks that its rules count from (an EU item with only a registration date)', async function () {
      const response = await app.post('/v1/deadlines/compute', { items: [{ jurisdiction: 'EU', registration_date: '2016-05-05' }], as_of_date: '2025-06-01' });
      const body = (await response.json()) as ListBody<Computation & { missing_trigger_fields: string[] }>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.data[0]).to.deep.include({ supported: true, deadlines: [], missing_trigger_fields: ['filing_date'] });
    });

    it('says when a last day lies outside holiday-calendar coverage (2000-2035), rolled on predicted holidays', async function () {
      // US section 8 of a registration of 2030-03-10: due 2036-03-10; of 2029-03-10: due 2035-03-10.
      expect(await compute({ jurisdiction: 'US', registration_date: '2030-03-10' }, '2035-06-01')).to.include({ due_date: '2036-03-10', approximate: true });
      expect(await compute({ jurisdiction: 'US', registration_date: '2029-03-10' }, '2034-06-01')).to.include({ due_date: '2035-03-12', approximate: false });
    });

    it("China: Army Day and Children's Day do not close CNIPA", async function () {
      // CN renewal: due on the expiry date, 6 months' grace. Expiry Friday 2025-08-01 (Army Day);
      // expiry 2025-12-01: grace ends Monday 2026-06-01 (Children's Day).
      expect(await compute({ jurisdiction: 'CN', expiry_date: '2025-08-01' }, '2025-06-01')).to.include({ due_date: '2025-08-01' });
      expect(await compute({ jurisdiction: 'CN', expiry_date: '2025-12-01' }, '2025-06-01')).to.include({ due_date: '2025-12-01', grace_expiry: '2026-06-01' });
    });
  });

  describe('POST /v1/deadlines/compute and opposition windows: China works some weekends', function () {
    it('a last day on a make-up working Saturday is not moved; the next ordinary Saturday still is', async function () {
      // The State Council moved working days onto Saturday 2025-02-08 (Spring Festival), Saturday
      // 2025-10-11 (National Day) and Saturday 2026-02-28 (Spring Festival); CNIPA works them and
      // a deadline on one is not extended (CN rule notes). CN renewal: due on the expiry date,
      // 6 months' grace. Expiry 2025-10-11: due that day; grace to Saturday 2026-04-11, an
      // ordinary one, so Monday 2026-04-13. Expiry 2026-02-28: due that day; grace to Friday 2026-08-28.
      const response = await app.post('/v1/deadlines/compute', {
        items: [
          { jurisdiction: 'CN', expiry_date: '2025-10-11' },
          { jurisdiction: 'CN', expiry_date: '2026-02-28' },
        ],
        as_of_date: '2025-06-01',
      });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.map((c) => [c.deadlines[0]!.due_date, c.deadlines[0]!.grace_expiry])).to.deep.equal([
        ['2025-10-11', '2026-04-13'],
        ['2026-02-28', '2026-08-28'],
      ]);
      // CN opposition: three months from the day after publication. Published Friday 2024-11-08:
      // closes Saturday 2025-02-08, a working day, so on Monday 2025-02-10 the window is closed.
      const window = await app.post('/v1/opposition-windows/compute', {
        items: [{ office: 'CN', filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2024-11-08' }],
        as_of_date: '2025-02-10',
      });
      const windows = (await window.json()) as ListBody;
      expect(windows.data[0]).to.include({ window_opens: '2024-11-09', window_closes_nominal: '2025-02-08', window_closes: '2025-02-08', status: 'closed' });
    });
    it('flags a last day rolled past a weekend of a year whose make-up working days are not yet announced', async function () {
      // Known through 2026: expiry Saturday 2026-02-14 is a make-up working day (due that day);
      // expiry Saturday 2026-03-14 is an ordinary Saturday (due Monday 2026-03-16). 2027 is not yet
      // announced: expiry Saturday 2027-03-13 is rolled to Monday 2027-03-15, but it may be worked.
      // Graces (6 months): Friday 2026-08-14, Monday 2026-09-14, Monday 2027-09-13, none rolled.
      const response = await app.post('/v1/deadlines/compute', {
        items: ['2026-02-14', '2026-03-14', '2027-03-13'].map((expiry_date) => ({ jurisdiction: 'CN', expiry_date })),
        as_of_date: '2025-06-01',
      });
      const body = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.map((c) => c.deadlines[0]).map((d) => [d!.due_date, d!.grace_expiry, d!.approximate])).to.deep.equal([
        ['2026-02-14', '2026-08-14', false],
        ['2026-03-16', '2026-09-14', false],
        ['2027-03-15', '2027-09-13', true],
      ]);
    });
  });

  describe('opposition windows where the holiday data runs out before 2035', function () {
    it('flags a close in a year whose lunar holidays the calendar lacks (TH, SG after 2026) and not one before', async function () {
      // date-holidays lists Thailand's Buddhist holidays and Singapore's Vesak Day through 2026.
      // TH: 60 days from publication: 2026-01-05 → Friday 2026-03-06; 2028-01-05 → Sunday
      // 2028-03-05, rolled to Monday 2028-03-06. SG: two months: 2026-03-20 → Wednesday
      // 2026-05-20; 2027-03-20 → Thursday 2027-05-20, around the year's Vesak Day.
      const item = (office: string, publication_date: string) => ({
        office,
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date,
      });
      const response = await app.post('/v1/opposition-windows/compute', {
        items: [item('TH', '2026-01-05'), item('TH', '2028-01-05'), item('SG', '2026-03-20'), item('SG', '2027-03-20')],
        as_of_date: '2025-12-01',
      });
      const body = (await response.json()) as ListBody<{ window_closes: string; approximate: boolean }>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.map((w) => [w.window_closes, w.approximate])).to.deep.equal([
        ['2026-03-06', false],
        ['2028-03-06', true],
        ['2026-05-20', false],
        ['2027-05-20', true],
      ]);
    });
  });

  describe('POST /v1/opposition-windows/compute', function () {
    it('computes the EUIPO and USPTO corpus examples', async function () {
      const response = await app.post('/v1/opposition-windows/compute', {
        items: [
          { office: 'EM', filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2025-05-30' },
          { office: 'us', filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2025-01-07' },
          { office: 'ZZ', filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2025-01-07' },
        ],
        as_of_date: '2025-06-15',
      });
      const body = (await response.json()) as ListBody;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.has_more).to.equal(false);
      const [em, us, none] = body.data;
      // EM example: opens the day after publication; 3 months to 2025-08-30, a Saturday, rolled
      // to Monday 2025-09-01. 2025-06-15 to 2025-09-01 is 15 + 31 + 31 + 1 = 78 days.
      expect(em).to.include({
        object: 'opposition_window_computation',
        office_code: 'EM',
        jurisdiction_code: 'EU',
        status: 'open',
        window_opens: '2025-05-31',
        window_closes_nominal: '2025-08-30',
        window_closes: '2025-09-01',
        must_act_by: '2025-09-01',
        days_remaining: 78,
        as_of_date: '2025-06-15',
      });
      // US example: 30 days to 2025-02-06; the as-of-right 30-day extension ends 2025-03-08, a
      // Saturday, rolled to Monday 2025-03-10.
      expect(us).to.include({
        office_code: 'US',
        status: 'closed',
        window_opens: '2025-01-07',
        window_closes: '2025-02-06',
        extended_window_closes_nominal: '2025-03-08',
        extended_window_closes: '2025-03-10',
        window_days: 30,
      });
      expect((us as { common_extension: { days: number } }).common_extension.days).to.equal(30);
      expect(none).to.include({ status: 'no_rule', no_rule_reason: 'no_matching_rule', window_closes: null });
    });

    it('gives Madrid designations of GB and AU no window before the reform that set their two months, as their national rules', async function () {
      // GB: two months since 1 Oct 2008 (three before, not modelled); AU: since 15 Apr 2013. The
      // Madrid rules state the national period, so before those days neither route has a rule;
      // from them, two months: 2008-10-01 + 2 months = Monday 2008-12-01; 2013-04-15 + 2 months
      // = Saturday 2013-06-15, rolled to Monday 2013-06-17.
      const items = [
        ['GB', '2006-07-29'],
        ['GB', '2008-10-01'],
        ['AU', '2012-06-01'],
        ['AU', '2013-04-15'],
      ].flatMap(([office, publication_date]) =>
        ['domestic', 'madrid_designation'].map((filing_route) => ({ office, filing_route, trigger_event: 'application_publication', publication_date })),
      );
      const response = await app.post('/v1/opposition-windows/compute', { items, as_of_date: '2026-01-01' });
      const body = (await response.json()) as ListBody<{ status: string; no_rule_reason: string | null; window_closes: string | null }>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      expect(body.data.map((w) => [w.status, w.no_rule_reason, w.window_closes])).to.deep.equal([
        ['no_rule', 'before_applicable_from_date', null],
        ['no_rule', 'before_applicable_from_date', null],
        ['closed', null, '2008-12-01'],
        ['closed', null, '2008-12-01'],
        ['no_rule', 'before_applicable_from_date', null],
        ['no_rule', 'before_applicable_from_date', null],
        ['closed', null, '2013-06-17'],
        ['closed', null, '2013-06-17'],
      ]);
    });

    it('applies the same batch rules', async function () {
      const item = { office: 'US', filing_route: 'domestic', trigger_event: 'application_publication', publication_date: '2025-01-07' };
      const body = await expectError(
        await app.post('/v1/opposition-windows/compute', { items: Array.from({ length: 1001 }, () => item) }),
        422,
        'batch_too_large',
      );
      expect(body.error).to.include({ item_count: 1001, item_count_limit: 1000 });
      await expectError(
        await app.post('/v1/opposition-windows/compute', { items: [{ ...item, trigger_event: 'grant' }] }),
        400,
        'validation_error',
        'items[0].trigger_event: must be one of',
      );
      await expectError(
        await app.post('/v1/opposition-windows/compute', { items: [{ ...item, publication_date: undefined }] }),
        400,
        'validation_error',
        'items[0].publication_date: is required',
      );
    });
  });

  describe('GET /v1/opposition-rules', function () {
    it('filters by each comma list, lowercase office codes included, in one page without request_id', async function () {
      const response = await app.get('/v1/opposition-rules?office=us,em&filing_route=domestic');
      const body = (await response.json()) as ListBody<{ office_code: string; filing_route: string; object: string }>;
      expect(response.status).to.equal(200);
      expect(body).to.not.have.property('request_id');
      expect(response.headers.get('request-id')).to.match(/^req_/);
      expect(body).to.include({ object: 'list', has_more: false });
      expect(body.pagination).to.deep.equal({ cursor: null });
      expect(body.data.map((r) => [r.office_code, r.filing_route]).sort()).to.deep.equal([
        ['EM', 'domestic'],
        ['US', 'domestic'],
      ]);
      expect(body.data[0]).to.have.property('object', 'opposition_rule');
      expect(body.data[0]).to.not.have.property('examples');

      const designations = (await (
        await app.get('/v1/opposition-rules?jurisdiction=EU&trigger_event=international_designation_publication')
      ).json()) as ListBody<{ office_code: string }>;
      expect(designations.data.map((r) => r.office_code)).to.deep.equal(['EM']);
      const all = (await (await app.get('/v1/opposition-rules')).json()) as ListBody;
      expect(all.data.length).to.be.greaterThan(10);
    });

    it('is publicly cacheable with a strong ETag and answers 304 to If-None-Match', async function () {
      const first = await app.get('/v1/opposition-rules?jurisdiction=US');
      expect(first.headers.get('cache-control')).to.equal('public, max-age=3600');
      const etag = first.headers.get('etag');
      expect(etag).to.match(/^"[A-Za-z0-9_-]+"$/);
      const second = await app.get('/v1/opposition-rules?jurisdiction=US');
      expect(second.headers.get('etag')).to.equal(etag);
      expect(await second.text()).to.equal(await first.text());

      const notModified = await app.get('/v1/opposition-rules?jurisdiction=US', undefined, { 'if-none-match': etag as string });
      expect(notModified.status).to.equal(304);
      expect(await notModified.text()).to.equal('');
      const other = await app.get('/v1/opposition-rules?jurisdiction=EU', undefined, { 'if-none-match': etag as string });
      expect(other.status).to.equal(200);
      expect(other.headers.get('etag')).to.not.equal(etag);
    });

    it('answers 400 for a bad filing_route or trigger_event, and 401/403 as usual', async function () {
      await expectError(
        await app.get('/v1/opposition-rules?filing_route=national'),
        400,
        'validation_error',
        'filing_route: must be one of domestic, madrid_designation',
      );
      await expectError(
        await app.get('/v1/opposition-rules?trigger_event=application_publication,grant'),
        400,
        'validation_error',
        'trigger_event: must be one of',
      );
      await expectError(await app.get('/v1/opposition-rules', null), 401, 'unauthorized');
      await expectError(await app.get('/v1/opposition-rules', app.keys.billingOnly), 403, 'forbidden');
    });
  });

  describe('GET /v1/deadline-rules', function () {
    it('lists the corpus rules with verified, filterable by jurisdiction', async function () {
      const response = await app.get('/v1/deadline-rules?jurisdiction=us,em');
      const body = (await response.json()) as ListBody<{ id: string; jurisdiction_code: string; verified: boolean; object: string; examples: unknown[] }>;
      expect(response.status).to.equal(200);
      expect(body.request_id).to.match(/^req_/);
      expect(body.has_more).to.equal(false);
      expect(new Set(body.data.map((r) => r.jurisdiction_code))).to.deep.equal(new Set(['US', 'EU']));
      const section8 = body.data.find((r) => r.id === 'US.national.section8_6yr');
      expect(section8).to.include({ object: 'deadline_rule', verified: true });
      expect(section8!.examples).to.have.length.greaterThan(0);
      // The corpus keeps unverified rules (CA is one) and says so.
      const canada = (await (await app.get('/v1/deadline-rules?jurisdiction=CA')).json()) as ListBody<{ verified: boolean }>;
      expect(canada.data.some((r) => r.verified === false)).to.equal(true);
    });

    it('serves the new jurisdictions with their offsets, designation scope and example input dates', async function () {
      const response = await app.get('/v1/deadline-rules?jurisdiction=HK,NO,WO');
      const body = (await response.json()) as ListBody<{
        id: string;
        due_offset_days: number;
        covers_all_designations: boolean;
        examples: Array<{ input_dates: Array<{ field: string; date: string }> }>;
      }>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const byId = new Map(body.data.map((r) => [r.id, r]));
      expect(byId.get('HK.national.renewal_10yr')).to.include({ due_offset_days: -1, covers_all_designations: false });
      expect(byId.get('WO.madrid.renewal_10yr')).to.include({ due_offset_days: 0, covers_all_designations: true });
      expect(byId.get('NO.national.renewal_10yr_pre2010')!.examples[0]!.input_dates).to.deep.equal([{ field: 'filing_date', date: '2008-11-03' }]);
      const jurisdictions = (await (await app.get('/v1/jurisdictions')).json()) as ListBody<{ code: string }>;
      const offices = (await (await app.get('/v1/offices')).json()) as ListBody<{ code: string }>;
      for (const code of new Set(corpus.deadline_rules.map((r) => r.jurisdiction_code))) {
        if (code === 'WO' || code === 'EU') continue; // listed as WIPO and EU/EM
        expect(
          jurisdictions.data.map((j) => j.code),
          code,
        ).to.include(code);
        expect(
          offices.data.map((o) => o.code),
          code,
        ).to.include(code);
      }
    });
  });

  describe('opposition_window on the trademark detail', function () {
    it('computes the window of a published USPTO application from the 30-day rule', async function () {
      const marks = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ office_code: 'US' }, { limit: 500 });
      const mark = marks.find((m) => m.filing_route !== 'madrid' && m.publication_date !== null);
      expect(mark, 'fixture has a published US domestic mark').to.not.equal(undefined);
      const response = await app.get(`/v1/trademarks/${mark!._id}`);
      const body = (await response.json()) as { opposition_window: Record<string, unknown> };
      expect(response.status).to.equal(200);
      const window = body.opposition_window;
      const published = mark!.publication_date as string;
      // 15 U.S.C. §1063(a): 30 days from publication; the close rolls to a business day (at most
      // a long weekend later).
      expect(window).to.include({
        office_code: 'US',
        filing_route: 'domestic',
        trigger_event: 'application_publication',
        publication_date: published,
        window_opens: published,
      });
      expect(window.window_closes_nominal).to.equal(plusDays(published, 30));
      expect(window.extended_window_closes).to.be.a('string');
      const closes = window.window_closes as string;
      expect(closes >= plusDays(published, 30) && closes <= plusDays(published, 34)).to.equal(true);
      expect([0, 6]).to.not.include(new Date(`${closes}T00:00:00Z`).getUTCDay());
      expect(window.must_act_by).to.equal(closes);
      expect(['not_started', 'open', 'closed']).to.include(window.status);
    });

    /** GET the mark's opposition_window, then POST its office + filing_route + trigger_event + publication_date to the compute endpoint. */
    async function detailAndCompute(mark: TrademarkDoc) {
      const detail = (await (await app.get(`/v1/trademarks/${mark._id}`)).json()) as { opposition_window: Record<string, unknown> };
      const window = detail.opposition_window;
      const response = await app.post('/v1/opposition-windows/compute', {
        items: [
          { office: window.office_code, filing_route: window.filing_route, trigger_event: window.trigger_event, publication_date: window.publication_date },
        ],
      });
      const body = (await response.json()) as ListBody;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      return { window, computed: body.data[0]! };
    }

    const sameWindow = (window: Record<string, unknown>, computed: Record<string, unknown>) => {
      const fields = ['status', 'office_code', 'filing_route', 'trigger_event', 'publication_date', 'window_opens', 'window_closes', 'window_closes_nominal'];
      for (const field of [...fields, 'extended_window_closes', 'must_act_by', 'days_remaining']) expect(window[field], field).to.equal(computed[field]);
    };

    for (const office of ['JP', 'DE', 'CH']) {
      it(`a registered ${office} mark: the registration_publication rule, as POST /v1/opposition-windows/compute answers`, async function () {
        const marks = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ office_code: office }, { limit: 500 });
        const mark = marks.find((m) => m.filing_route !== 'madrid' && m.registration_date !== null);
        expect(mark, `fixture has a registered ${office} domestic mark`).to.not.equal(undefined);
        const { window, computed } = await detailAndCompute(mark!);
        const registered = mark!.registration_date!;
        const published = mark!.publication_date;
        // The registration's publication: the record's publication when it is on or after the
        // registration, else the registration date standing in for it.
        const trigger = published !== null && published >= registered ? published : registered;
        expect(window).to.include({ office_code: office, filing_route: 'domestic', trigger_event: 'registration_publication', publication_date: trigger });
        expect(['not_started', 'open', 'closed']).to.include(window.status);
        // JP: opens the day after, closes 2 months after; CH, DE: 3 months.
        expect(window.window_opens).to.equal(plusDays(trigger, 1));
        expect(window.window_closes_nominal).to.equal(plusMonths(trigger, office === 'JP' ? 2 : 3));
        sameWindow(window, computed);
        expect(window.approximate).to.equal(computed.approximate || trigger !== published);
      });
    }

    it('a US mark and a US Madrid designation: the application_publication rules, as the compute endpoint answers', async function () {
      const marks = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ office_code: 'US' }, { limit: 2000 });
      const domestic = marks.find((m) => m.filing_route !== 'madrid' && m.publication_date !== null && m.registration_date !== null);
      expect(domestic, 'fixture has a registered US domestic mark').to.not.equal(undefined);
      const { window, computed } = await detailAndCompute(domestic!);
      expect(window).to.include({ filing_route: 'domestic', trigger_event: 'application_publication', publication_date: domestic!.publication_date });
      sameWindow(window, computed);
      expect(window.approximate).to.equal(computed.approximate);
      const madrid = marks.find((m) => m.filing_route === 'madrid' && m.publication_date !== null);
      expect(madrid, 'fixture has a published US Madrid designation').to.not.equal(undefined);
      const designation = await detailAndCompute(madrid!);
      expect(designation.window).to.include({
        filing_route: 'madrid_designation',
        trigger_event: 'application_publication',
        publication_date: madrid!.publication_date,
      });
      expect(designation.window.status).to.not.equal('no_rule');
      sameWindow(designation.window, designation.computed);
    });

    it('reports not_published for a mark without a publication date', async function () {
      const marks = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ publication_date: null }, { limit: 1 });
      expect(marks).to.have.length(1);
      const body = (await (await app.get(`/v1/trademarks/${marks[0]!._id}`)).json()) as { opposition_window: Record<string, unknown> };
      expect(body.opposition_window).to.include({ status: 'not_published', window_closes: null, must_act_by: null });
    });
  });
});
