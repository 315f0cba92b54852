import { expect } from 'chai';
import offices from '../../data/offices.json';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import type { OfficeAnalytics } from '../../resolvers/analytics/offices';
import { beforeShared, startTestApp, type TestApp } from '../support/harness';
import { ok } from '../support/http';

type Analytics = OfficeAnalytics & { request_id: string };

/** The documented definitions, applied to store documents. */
function expectedFigures(marks: readonly TrademarkDoc[], code: string) {
  const own = marks.filter((m) => m.office_code === code);
  const inStages = (...stages: string[]) => own.filter((m) => stages.includes(m.status.stage)).length;
  const everRegistered = own.filter((m) => m.registration_date !== null).length;
  const endedUnregistered = own.filter((m) => ['abandoned', 'withdrawn', 'refused'].includes(m.status.stage) && m.registration_date === null).length;
  const classCounts = new Map<number, number>();
  for (const m of own) for (const c of new Set(m.classifications.map((x) => x.nice_class))) classCounts.set(c, (classCounts.get(c) ?? 0) + 1);
  const years = new Map<number, { filed: number; registered: number; abandoned: number }>();
  const bump = (date: string | null, key: 'filed' | 'registered' | 'abandoned') => {
    if (date === null) return;
    const year = Number(date.slice(0, 4));
    const row = years.get(year) ?? { filed: 0, registered: 0, abandoned: 0 };
    row[key] += 1;
    years.set(year, row);
  };
  for (const m of own) {
    bump(m.filing_date, 'filed');
    bump(m.registration_date, 'registered');
    if (['abandoned', 'withdrawn'].includes(m.status.stage)) bump(m.termination_date, 'abandoned');
  }
  const filings = own.map((m) => m.filing_date).sort();
  return {
    total_marks: own.length,
    registered_count: inStages('registered', 'pending_cancellation'),
    pending_count: own.filter((m) => m.status.primary === 'pending').length,
    expired_count: inStages('expired'),
    cancelled_count: inStages('cancelled', 'invalidated'),
    abandoned_count: inStages('abandoned', 'withdrawn'),
    registration_rate: Math.round((everRegistered / (everRegistered + endedUnregistered)) * 10_000) / 10_000,
    earliest_filing: filings[0],
    latest_filing: filings[filings.length - 1],
    classCounts,
    yearly_trend: [...years.entries()].sort((a, b) => a[0] - b[0]).map(([year, row]) => ({ year, ...row })),
  };
}

const analytics = async (app: TestApp, code: string): Promise<Analytics> => ok<Analytics>(await app.get(`/v1/analytics/offices/${code}`));

describe('REST: office analytics', function () {
  let app: TestApp;
  let marks: TrademarkDoc[];

  beforeShared((fixture) => {
    app = fixture.app;
    marks = fixture.catalog.marks;
  });

  it('computes every field from the data', async () => {
    const body = await analytics(app, 'US');
    const expected = expectedFigures(marks, 'US');
    expect(body).to.include({
      object: 'office_analytics',
      code: 'US',
      total_marks: expected.total_marks,
      registered_count: expected.registered_count,
      pending_count: expected.pending_count,
      expired_count: expected.expired_count,
      cancelled_count: expected.cancelled_count,
      abandoned_count: expected.abandoned_count,
      registration_rate: expected.registration_rate,
      jurisdiction_count: 1,
      earliest_filing: expected.earliest_filing,
      latest_filing: expected.latest_filing,
    });
    expect(body.yearly_trend).to.deep.equal(expected.yearly_trend);
    expect(body.top_classes).to.have.length(10);
    const counts = body.top_classes!.map((c) => c.count);
    expect(counts).to.deep.equal([...counts].sort((a, b) => b - a));
    const tenth = counts[9]!;
    expect(body.top_classes!.map((c) => c.count)).to.deep.equal([...expected.classCounts.values()].sort((a, b) => b - a).slice(0, 10));
    for (const row of body.top_classes!) {
      expect(row.count).to.equal(expected.classCounts.get(row.class));
      expect(row.pct).to.equal(Math.round((row.count / expected.total_marks) * 10_000) / 10_000);
    }
    expect([...expected.classCounts.values()].filter((n) => n > tenth).length).to.be.lessThan(10);
    expect(body.request_id).to.match(/^req_/);
    expect(Date.parse(body.stats_computed_at)).to.not.be.NaN;
  });

  it('accepts lowercase aliases and counts regional coverage and Madrid designations', async () => {
    const em = await analytics(app, 'em');
    expect(em.code).to.equal('EM');
    expect(em.jurisdiction_count).to.equal(offices.find((o) => o.office_code === 'EM')!.covers!.length);
    expect(em.total_marks).to.equal(marks.filter((m) => m.office_code === 'EM').length);
    const wo = await analytics(app, 'WO');
    const designated = new Set(marks.filter((m) => m.filing_route === 'madrid' && m.scope_kind !== 'international').map((m) => m.jurisdiction_code));
    expect(wo.jurisdiction_count).to.equal(designated.size);
  });

  it('returns nulls for an office without marks', async () => {
    const code = offices.map((o) => o.office_code).find((c) => !marks.some((m) => m.office_code === c))!;
    const body = await analytics(app, code);
    expect(body).to.include({ total_marks: 0, registration_rate: null, earliest_filing: null, latest_filing: null, top_classes: null, yearly_trend: null });
  });

  it('answers 404 for an unknown office and 400 for a malformed code', async () => {
    const unknown = await app.get('/v1/analytics/offices/ZZ');
    expect(unknown.status).to.equal(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).to.equal('not_found');
    const malformed = await app.get('/v1/analytics/offices/U1');
    expect(malformed.status).to.equal(400);
  });
});

describe('REST: office analytics follow changes (changes data)', function () {
  let app: TestApp;
  let clock = Date.parse('2026-11-20T12:00:00Z');

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 300, now: () => new Date(clock) });
  });

  after(async () => app.close());

  it('serves cached figures for ten minutes, then counts the changed mark', async () => {
    const collection = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const [mark] = await collection.find({ office_code: 'US', 'status.stage': 'registered' }, { limit: 1 });
    const before = await analytics(app, 'US');

    await collection.updateOne({ _id: mark!._id }, { $set: { 'status.stage': 'expired', 'status.primary': 'inactive' } });
    await app.indexer.catchUp();
    clock += 5 * 60 * 1000;
    const cached = await analytics(app, 'US');
    expect(cached.stats_computed_at).to.equal(before.stats_computed_at);
    expect(cached.expired_count).to.equal(before.expired_count);

    clock += 6 * 60 * 1000;
    const fresh = await analytics(app, 'US');
    expect(fresh.stats_computed_at).to.equal(new Date(clock).toISOString());
    expect(fresh.expired_count).to.equal(before.expired_count + 1);
    expect(fresh.registered_count).to.equal(before.registered_count - 1);
    const expected = expectedFigures(await collection.find({}), 'US');
    expect(fresh.expired_count).to.equal(expected.expired_count);
  });
});
