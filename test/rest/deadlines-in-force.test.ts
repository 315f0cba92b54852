/**
 * Deadlines over HTTP where a registration is in force but easily missed: a registration under
 * cancellation keeps its deadlines (in compute and in a portfolio), a WIPO item with route national
 * or regional reads the international register, and a 29 February term ending the day before its
 * anniversary (TW, HK) ends on 28 February; a mark of unknown status is read from its dates; a
 * missed first Section 15 window loses nothing. Expected dates are worked out by hand from data/rules.json; weekdays are noted where
 * a last day could roll.
 */
import { expect } from 'chai';
import { beforeShared, startTestApp, type TestApp } from '../support/harness';
import type { Computation, Deadline, ListBody } from '../support/deadline-bodies';
import { ok, send } from '../support/http';
import { computedDeadlines } from '../support/mark-deadlines';
import { updateMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';

const dates = (d: Deadline) => [d.type, d.window_opens, d.due_date, d.grace_expiry];

/** One set of shared-app tests: the app, and its deadline computations of a request body. */
function withSharedApp(): { compute: (body: Record<string, unknown>) => Promise<Computation[]> } {
  let app: TestApp;
  beforeShared((fixture) => {
    app = fixture.app;
  });
  return {
    async compute(body) {
      const response = await app.post('/v1/deadlines/compute', body);
      const parsed = (await response.json()) as ListBody<Computation>;
      expect(response.status, JSON.stringify(parsed)).to.equal(200);
      return parsed.data;
    },
  };
}

describe('REST: deadlines of registrations in force (POST /v1/deadlines/compute)', function () {
  const { compute } = withSharedApp();

  it('a US registration under cancellation (pending_cancellation) keeps the deadlines of the registration', async function () {
    // Registered 2020-06-10, as of 2026-01-01, default 5-year horizon (to 2031-01-01). By hand:
    // §8 due 72 months on, 2026-06-10 (a Wednesday), window 12 months before, grace 6 months after
    // (2026-12-10, a Thursday); §15 due the same day, no grace; §8/§9 renewal 120 months on,
    // 2030-06-10 (a Monday), window 2029-06-10, grace 2030-12-10 (a Tuesday).
    const item = { jurisdiction: 'US', registration_date: '2020-06-10' };
    const [underCancellation, registered] = await compute({
      items: [
        { ...item, status: 'pending_cancellation' },
        { ...item, status: 'registered' },
      ],
      as_of_date: '2026-01-01',
    });
    const expected = [
      ['declaration_of_use', '2025-06-10', '2026-06-10', '2026-12-10'],
      ['incontestability', '2025-06-10', '2026-06-10', '2026-06-10'],
      ['renewal', '2029-06-10', '2030-06-10', '2030-12-10'],
    ];
    expect(underCancellation).to.include({ supported: true, filing_route: 'national' });
    expect(underCancellation!.deadlines.map(dates)).to.deep.equal(expected);
    expect(registered!.deadlines.map(dates)).to.deep.equal(expected);
    // 2026-01-01 .. 2026-06-10: 31 + 28 + 31 + 30 + 31 + 9 = 160 days; the window is open.
    expect(underCancellation!.deadlines[0]).to.include({ status: 'window_open', days_until_due: 160, urgency: 'routine' });
  });

  it('WIPO with route national, regional, absent or madrid reads the international register', async function () {
    // IR 2017-03-15, as of 2026-11-26. By hand from the WO renewal: due 120 months on, 2027-03-15
    // (a Monday), window 6 months before (2026-09-15, open), grace 6 months after (2027-09-15, a
    // Wednesday); 2026-11-26 .. 2027-03-15 is 4 + 31 + 31 + 28 + 15 = 109 days (more than 90: window_open).
    const routes = ['national', 'regional', undefined, 'madrid'];
    const data = await compute({
      items: routes.map((filing_route) => ({ jurisdiction: 'WIPO', filing_route, international_registration_date: '2017-03-15' })),
      as_of_date: '2026-11-26',
    });
    data.forEach((computation, index) => {
      const what = `filing_route ${routes[index] ?? 'absent'}`;
      expect(computation, what).to.include({ jurisdiction_code: 'WO', filing_route: 'madrid', supported: true });
      expect(
        computation.deadlines.map((d) => [d.jurisdiction_code, ...dates(d), d.status, d.days_until_due]),
        what,
      ).to.deep.equal([['WO', 'renewal', '2026-09-15', '2027-03-15', '2027-09-15', 'window_open', 109]]);
    });
  });

  it('a 29 February term ending the day before its anniversary ends on 28 February (TW, HK); other rules keep clamping (US)', async function () {
    // No 29 Feb in 2026: the 10th anniversary is 1 March, the term ends 2026-02-28 (a Saturday,
    // rolled to Monday 2026-03-02; grace and window count from 2026-02-28). TW: window 6 months
    // before (2025-08-28), grace 6 months after (2026-08-28, a Friday). HK: window 3 months before
    // (2025-11-28), grace 6 months after (2026-08-28). US §8 from a 2020-02-29 registration clamps
    // to 2026-02-28 (rolled 2026-03-02), window 12 months before (2025-02-28), grace 2026-08-28;
    // §15 has no grace; the §8/§9 renewal 120 months on clamps to 2030-02-28 (a Thursday), window
    // 2029-02-28, grace 2030-08-28 (a Wednesday), inside the default 5-year horizon (to 2030-12-01).
    // As of 2025-12-01, 2026-03-02 is 30 + 31 + 28 + 1 = 91 days away.
    const [tw, hk, us] = await compute({
      items: [
        { jurisdiction: 'TW', registration_date: '2016-02-29' },
        { jurisdiction: 'HK', filing_date: '2016-02-29' },
        { jurisdiction: 'US', registration_date: '2020-02-29' },
      ],
      as_of_date: '2025-12-01',
    });
    expect(tw!.deadlines.map(dates)).to.deep.equal([['renewal', '2025-08-28', '2026-03-02', '2026-08-28']]);
    expect(hk!.deadlines.map(dates)).to.deep.equal([['renewal', '2025-11-28', '2026-03-02', '2026-08-28']]);
    expect(tw!.deadlines[0]).to.include({ status: 'window_open', days_until_due: 91 });
    expect(us!.deadlines.map(dates)).to.deep.equal([
      ['declaration_of_use', '2025-02-28', '2026-03-02', '2026-08-28'],
      ['incontestability', '2025-02-28', '2026-03-02', '2026-03-02'],
      ['renewal', '2029-02-28', '2030-02-28', '2030-08-28'],
    ]);
  });
});

describe('REST: deadlines of a mark whose status is unknown, and of an optional filing that cannot be lost', function () {
  const { compute } = withSharedApp();

  it('status unknown with a registration date lists what a registration has; with only a filing date, what an application has', async function () {
    // US registered 2020-06-10 as of 2026-01-01: the three deadlines worked out by hand in the
    // first test above. PH filed 2023-03-16, unknown, no registration date: the 3-year declaration
    // (PH.national.declaration_of_use_3yr, applies from filing) is due 36 months on, 2026-03-16 (a
    // Monday), no window, no grace. The same PH item read as registered would have rules counting
    // from a registration date it lacks; read as filed it has none missing.
    const [usUnknown, usRegistered, phUnknown, usApplication] = await compute({
      items: [
        { jurisdiction: 'US', status: 'unknown', registration_date: '2020-06-10' },
        { jurisdiction: 'US', status: 'registered', registration_date: '2020-06-10' },
        { jurisdiction: 'PH', status: 'unknown', filing_date: '2023-03-16' },
        { jurisdiction: 'US', status: 'unknown', filing_date: '2023-03-16' },
      ],
      as_of_date: '2026-01-01',
    });
    expect(usUnknown!.deadlines.map(dates)).to.deep.equal([
      ['declaration_of_use', '2025-06-10', '2026-06-10', '2026-12-10'],
      ['incontestability', '2025-06-10', '2026-06-10', '2026-06-10'],
      ['renewal', '2029-06-10', '2030-06-10', '2030-12-10'],
    ]);
    expect(usUnknown!.deadlines).to.deep.equal(usRegistered!.deadlines);
    expect(phUnknown!.deadlines.map(dates)).to.deep.equal([['declaration_of_use', null, '2026-03-16', '2026-03-16']]);
    expect(phUnknown!.missing_trigger_fields).to.deep.equal([]);
    // A US application has no maintenance deadline before it registers.
    expect(usApplication).to.deep.include({ supported: true, deadlines: [], missing_trigger_fields: [] });
  });

  it('a Section 15 declaration whose first window has passed is missed with nothing lost (a later five-year period can be claimed)', async function () {
    // Registered 2010-06-10: the first §15 window closed on the 6th anniversary, 2016-06-10 (a
    // Friday), no grace. 15 U.S.C. §1065(3): the affidavit may be filed within one year after any
    // five-year period of continuous use, so missing the first window loses no right. The §8
    // declaration due the same day had a 6-month grace (to 2016-12-10, a Saturday, rolled to Monday 2016-12-12)
    // and its consequence is cancellation; the first §8/§9 renewal was due 2020-06-10 (a
    // Wednesday), grace to 2020-12-10 (a Thursday), and its consequence is expiration.
    const [computation] = await compute({
      items: [{ jurisdiction: 'US', registration_date: '2010-06-10' }],
      as_of_date: '2026-01-01',
      include_missed: true,
    });
    const missed = computation!.deadlines.filter((d) => d.status === 'missed');
    expect(missed.map((d) => [d.type, d.due_date, d.grace_expiry, d.consequence_if_missed])).to.deep.equal([
      ['declaration_of_use', '2016-06-10', '2016-12-12', 'cancellation'],
      ['incontestability', '2016-06-10', '2016-06-10', 'none'],
      ['renewal', '2020-06-10', '2020-12-10', 'expiration'],
    ]);
  });
});

describe('REST: portfolio deadlines of registrations in force (marks under cancellation) and of allowed applications', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async function () {
    // 2,000 seeded marks hold registrations under cancellation (3; 1,000 held none once the demo's
    // non-use revocations waited five years where the law says so); the shared app is left alone
    // because this creates a portfolio.
    app = await startTestApp({ marks: 2000 });
  });
  after(async () => app.close());

  interface Mark {
    id: string;
    registration_date: string | null;
  }

  it("lists the deadlines each mark's registration has, as POST /v1/deadlines/compute gives a registered mark", async function () {
    const marks = (await ok<ListBody<Mark>>(await send(app, 'GET', '/v1/trademarks?status_stage=pending_cancellation&limit=20'))).data.filter(
      (mark) => mark.registration_date !== null,
    );
    expect(marks, 'the fixture holds registrations under cancellation').to.not.be.empty;
    const portfolio = await ok<{ id: string }>(
      await send(app, 'POST', '/v1/portfolios', { name: 'Under cancellation', trademark_ids: marks.map((m) => m.id) }),
      201,
    );
    const asOf = '2025-06-01';
    const rows = (
      await ok<ListBody<{ trademark_id: string; type: string; due_date: string }>>(
        await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?as_of_date=${asOf}&horizon_years=15&limit=100`),
      )
    ).data;
    // A registration in force is maintained as a registered one: the same deadlines.
    const expected = await computedDeadlines(
      app,
      marks.map((mark) => mark.id),
      asOf,
      { status: 'registered', horizonYears: 15 },
    );
    // Every registration has a renewal within 15 years.
    expect(new Set(expected.filter((row) => row.type === 'renewal').map((row) => row.trademark_id)).size).to.equal(marks.length);
    expect(rows.map(({ trademark_id, type, due_date }) => ({ trademark_id, type, due_date }))).to.have.deep.members(expected);
  });

  it("an allowed US application's statement of use, from the notice of allowance and extensions in its history", async () => {
    const allowed = (await ok<ListBody<Mark>>(await send(app, 'GET', '/v1/trademarks?offices=US&status_stage=allowed&limit=10'))).data.map((mark) => mark.id);
    expect(allowed, 'the fixture holds allowed US applications').to.not.be.empty;
    const portfolio = await ok<{ id: string }>(await send(app, 'POST', '/v1/portfolios', { name: 'Allowed', trademark_ids: allowed }), 201);
    const asOf = '2026-06-01';
    const rows = (
      await ok<ListBody<{ trademark_id: string; type: string; due_date: string }>>(
        await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?as_of_date=${asOf}&limit=100`),
      )
    ).data;
    const expected = await computedDeadlines(app, allowed, asOf);
    expect(expected.map((deadline) => deadline.type)).to.include('statement_of_use');
    expect(rows.map(({ trademark_id, type, due_date }) => ({ trademark_id, type, due_date }))).to.have.deep.members(expected);
  });

  it('a renewal the office records leaves the portfolio, and the next renewal stays: no deadline docketed twice', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const in300Days = new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10);
    // US registrations whose renewal falls due within 300 days: its window (a year before) is open today.
    const due = (
      await ok<ListBody<Mark>>(
        await send(app, 'GET', `/v1/trademarks?offices=US&status_stage=registered&renewal_due_date_gte=${today}&renewal_due_date_lte=${in300Days}&limit=3`),
      )
    ).data.map((mark) => mark.id);
    expect(due, 'the fixture holds US registrations due for renewal within the year').to.not.be.empty;
    const portfolio = await ok<{ id: string }>(await send(app, 'POST', '/v1/portfolios', { name: 'Renewals', trademark_ids: due }), 201);
    /** Each mark's renewal due years, soonest first. */
    const renewalYears = async (): Promise<Map<string, number[]>> => {
      const rows = (
        await ok<ListBody<{ trademark_id: string; due_date: string }>>(
          await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?type=renewal&horizon_years=15&limit=100`),
        )
      ).data;
      return new Map(due.map((id) => [id, rows.filter((row) => row.trademark_id === id).map((row) => Number(row.due_date.slice(0, 4)))]));
    };
    const before = await renewalYears();
    const [renewing, ...others] = due;
    const [current] = before.get(renewing!)!;
    expect(before.get(renewing!)).to.deep.equal([current, current! + 10]);

    await updateMark(app.adapters.store, new MarkWriter(app.adapters.store), renewing!, {
      status: null,
      eventType: 'renewal_filed',
      publicationDate: null,
      today,
    });
    const after = await renewalYears();
    expect(after.get(renewing!)).to.deep.equal([current! + 10]);
    for (const other of others) expect(after.get(other)).to.deep.equal(before.get(other));
    // As a client computes it from the mark's history: the same.
    const expected = await computedDeadlines(app, [renewing!], today, { horizonYears: 15 });
    expect(expected.filter((d) => d.type === 'renewal').map((d) => Number(d.due_date.slice(0, 4)))).to.deep.equal([current! + 10]);
  });
});
