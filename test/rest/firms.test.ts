import { expect } from 'chai';
import { beforeShared, type TestApp } from '../support/harness';
import { allPages, body, errorOf, expectedFirm, firmMarks, type Catalog, type ListBody } from '../support/party-expectations';

interface FirmRow {
  name: string;
  country_code: string;
  attorney_count: number;
  trademark_count: number;
  grant_rate: number | null;
  latest_filing: string | null;
}

const byCanonicalName = (a: { canonical_name: string; _id: string }, b: { canonical_name: string; _id: string }) =>
  a.canonical_name === b.canonical_name ? (a._id < b._id ? -1 : 1) : a.canonical_name < b.canonical_name ? -1 : 1;

describe('REST: firms', function () {
  let app: TestApp;
  let catalog: Catalog;
  let all: Array<FirmRow & { id: string }>;

  beforeShared((fixture) => {
    app = fixture.app;
    catalog = fixture.catalog;
  });
  before(async () => {
    all = await allPages<FirmRow>(app.get, '/v1/firms?limit=50');
  });

  it('lists every firm once, each row carrying counts computed independently from the records', () => {
    expect(all.map((f) => f.id).sort()).to.deep.equal(catalog.firms.map((f) => f._id).sort());
    expect(catalog.firms.length).to.be.greaterThan(5);
    for (const row of all) {
      const expected = expectedFirm(catalog, row.id);
      expect(row, row.id).to.include({
        attorney_count: expected.attorney_count,
        trademark_count: expected.trademark_count,
        grant_rate: expected.grant_rate,
        latest_filing: expected.latest_filing,
      });
    }
  });

  it('counts a Madrid family once in trademark_count', () => {
    const withFamilies = catalog.firms.find((f) => {
      const marks = firmMarks(catalog, f._id).filter((m) => m.ir_number !== null);
      return new Set(marks.map((m) => m.ir_number)).size < marks.length;
    });
    expect(withFamilies, 'fixture has a firm with two designations of one IR').to.not.equal(undefined);
    const expected = expectedFirm(catalog, withFamilies!._id);
    expect(expected.trademark_count).to.be.lessThan(expected.mark_count);
    expect(all.find((f) => f.id === withFamilies!._id)?.trademark_count).to.equal(expected.trademark_count);
  });

  it('sorts by -trademark_count by default and by each of the eight sorts, ties by ID', async () => {
    const keyed: Record<string, (f: FirmRow) => string | number | null> = {
      trademark_count: (f) => f.trademark_count,
      attorney_count: (f) => f.attorney_count,
      grant_rate: (f) => f.grant_rate,
      name: (f) => catalog.firms.find((c) => c.name === f.name)!.canonical_name.toLowerCase(),
    };
    const expectedOrder = (field: string, descending: boolean) =>
      [...all]
        .sort((a, b) => {
          const [x, y] = [keyed[field]!(a), keyed[field]!(b)];
          if (x === y) return a.id < b.id ? -1 : 1;
          if (x === null) return 1; // nulls last ascending
          if (y === null) return -1;
          return (x < y ? -1 : 1) * (descending ? -1 : 1);
        })
        .map((f) => f.id);
    const defaultOrder = (await body<ListBody<FirmRow>>(await app.get('/v1/firms?limit=50'))).data.map((f) => f.id);
    expect(defaultOrder).to.deep.equal(expectedOrder('trademark_count', true).slice(0, 50));
    for (const field of Object.keys(keyed)) {
      for (const descending of [false, true]) {
        const page = await body<ListBody<FirmRow>>(await app.get(`/v1/firms?limit=50&sort=${descending ? '-' : ''}${field}`));
        expect(
          page.data.map((f) => f.id),
          `${descending ? '-' : ''}${field}`,
        ).to.deep.equal(expectedOrder(field, descending).slice(0, 50));
      }
    }
  });

  it('filters by min_attorneys, min_filings, country_code and a case-insensitive name substring', async () => {
    const minAttorneys = await allPages<FirmRow>(app.get, '/v1/firms?min_attorneys=3&limit=50');
    expect(minAttorneys.map((f) => f.id).sort()).to.deep.equal(
      all
        .filter((f) => f.attorney_count >= 3)
        .map((f) => f.id)
        .sort(),
    );
    const threshold = all.map((f) => f.trademark_count).sort((a, b) => a - b)[Math.floor(all.length / 2)]!;
    const minFilings = await allPages<FirmRow>(app.get, `/v1/firms?min_filings=${threshold}&limit=50`);
    const expectedIds = catalog.firms.filter((f) => expectedFirm(catalog, f._id).trademark_count >= threshold).map((f) => f._id);
    expect(minFilings.map((f) => f.id).sort()).to.deep.equal(expectedIds.sort());
    const country = catalog.firms[0]!.country_code!;
    const byCountry = await body<ListBody<FirmRow>>(await app.get(`/v1/firms?country_code=${country.toLowerCase()}&limit=50&include_total=true`));
    expect(byCountry.pagination.total_count).to.equal(catalog.firms.filter((f) => f.country_code === country).length);
    const target = catalog.firms[0]!;
    const word = target.name.split(' ').find((w) => w.length >= 4)!;
    const fragment = word.slice(1, 4).toUpperCase();
    const byName = await allPages<FirmRow>(app.get, `/v1/firms?q=${encodeURIComponent(fragment)}&limit=50`);
    expect(byName.map((f) => f.id)).to.include(target._id);
    expect(byName.every((f) => f.name.toLowerCase().includes(fragment.toLowerCase()))).to.equal(true);
  });

  it('pages with cursors bound to the query, and keeps limit within 1..50', async () => {
    const paged = await allPages<FirmRow>(app.get, '/v1/firms?limit=3&sort=name');
    expect(paged.map((f) => f.id)).to.deep.equal((await body<ListBody<FirmRow>>(await app.get('/v1/firms?limit=50&sort=name'))).data.map((f) => f.id));
    const first = await body<ListBody<FirmRow>>(await app.get('/v1/firms?limit=3&sort=name'));
    await errorOf(await app.get(`/v1/firms?limit=3&sort=-name&cursor=${encodeURIComponent(first.pagination.cursor!)}`), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms?limit=51'), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms?limit=0'), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms?sort=latest_filing'), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms?min_attorneys=-1'), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms?specialization=x'), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms', app.keys.billingOnly), 403, 'forbidden');
    await errorOf(await app.get('/v1/firms', null), 401, 'unauthorized');
  });

  it('returns the detail with include=stats,attorneys, computed independently', async () => {
    const firm = [...catalog.firms].sort((a, b) => expectedFirm(catalog, b._id).attorney_count - expectedFirm(catalog, a._id).attorney_count)[0]!;
    const expected = expectedFirm(catalog, firm._id);
    const plain = await body<Record<string, unknown>>(await app.get(`/v1/firms/${firm._id}`));
    expect(plain).to.include({
      id: firm._id,
      object: 'firm',
      name: firm.name,
      attorney_count: expected.attorney_count,
      trademark_count: expected.trademark_count,
      registration_rate: expected.registration_rate,
    });
    expect(plain, 'spec: stats and attorneys appear only when included').not.to.have.any.keys('stats', 'attorneys', 'attorneys_has_more');
    expect(plain.request_id).to.match(/^req_/);
    const full = await body<Record<string, unknown> & { attorneys: Array<{ id: string }>; attorneys_has_more: boolean }>(
      await app.get(`/v1/firms/${firm._id}?include=stats,attorneys`),
    );
    expect(full.stats).to.deep.equal({
      trademark_count: expected.trademark_count,
      registered_count: expected.registered_count,
      pending_count: expected.pending_count,
      abandoned_count: expected.abandoned_count,
      registration_rate: expected.registration_rate,
    });
    const firmAttorneys = catalog.attorneys.filter((a) => a.firm_id === firm._id).sort(byCanonicalName);
    expect(full.attorneys.map((a) => a.id)).to.deep.equal(firmAttorneys.slice(0, 20).map((a) => a._id));
    expect(full.attorneys_has_more).to.equal(firmAttorneys.length > 20);
  });

  it('refuses the removed includes by name, unknown includes, bad IDs and unknown firms', async () => {
    const id = catalog.firms[0]!._id;
    for (const removed of ['specializations', 'jurisdictions', 'trend']) {
      const error = await errorOf(await app.get(`/v1/firms/${id}?include=stats,${removed}`), 400, 'validation_error');
      expect(error.error.detail).to.contain(removed).and.to.contain('no longer exists');
    }
    await errorOf(await app.get(`/v1/firms/${id}?include=owners`), 400, 'validation_error');
    await errorOf(await app.get('/v1/firms/att_00000000000000000000'), 400, 'id_type_mismatch');
    await errorOf(await app.get('/v1/firms/firm_00000000000000000000'), 404, 'not_found');
    await errorOf(await app.get('/v1/firms/firm_00000000000000000000/trademarks'), 404, 'not_found');
  });

  it("lists the firm's marks with the shared filters, and its attorneys by name", async () => {
    const firm = catalog.firms[0]!;
    const marks = firmMarks(catalog, firm._id);
    const list = await body<ListBody>(await app.get(`/v1/firms/${firm._id}/trademarks?include_total=true`));
    expect(list.pagination.total_count).to.equal(marks.length);
    const active = await body<ListBody>(await app.get(`/v1/firms/${firm._id}/trademarks?include_total=true&status_primary=active`));
    expect(active.pagination.total_count).to.equal(marks.filter((m) => m.status.primary === 'active').length);
    const owner = marks[0]!.owner_ids[0]!;
    const byOwner = await body<ListBody>(await app.get(`/v1/firms/${firm._id}/trademarks?include_total=true&owner_id=${owner}`));
    expect(byOwner.pagination.total_count).to.equal(marks.filter((m) => m.owner_ids.includes(owner)).length);
    await errorOf(await app.get(`/v1/firms/${firm._id}/trademarks?firm_id=${firm._id}`), 400, 'validation_error');
    const attorneys = await allPages<{ name: string }>(app.get, `/v1/firms/${firm._id}/attorneys?limit=2`);
    const expected = catalog.attorneys.filter((a) => a.firm_id === firm._id).sort(byCanonicalName);
    expect(attorneys.map((a) => a.id)).to.deep.equal(expected.map((a) => a._id));
  });

  it('serves a page of 50 firms with a bounded number of store calls (no N+1)', async () => {
    app.storeCalls.clear();
    await body<ListBody>(await app.get('/v1/firms?limit=50'));
    expect(app.storeCalls.get('firms.findByIds') ?? 0).to.equal(1);
    expect(app.storeCalls.get('firms.find') ?? 0).to.equal(0);
  });
});
