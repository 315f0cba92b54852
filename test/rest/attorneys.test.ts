import { expect } from 'chai';
import { beforeShared, type TestApp } from '../support/harness';
import { allPages, attorneyClients, attorneyMarkCount, body, errorOf, type Catalog, type ListBody } from '../support/party-expectations';

interface MarkRow {
  filing_date: string;
  office_code: string;
  classifications: Array<{ goods_services_text: string }>;
}

describe('REST: attorneys', function () {
  let app: TestApp;
  let catalog: Catalog;
  let busiest: string;

  beforeShared((fixture) => {
    app = fixture.app;
    catalog = fixture.catalog;
    busiest = [...catalog.attorneys].sort((a, b) => attorneyMarkCount(catalog, b._id) - attorneyMarkCount(catalog, a._id))[0]!._id;
  });

  it('lists attorneys by name, by mark count and by firm, with counts from the records', async () => {
    const all = await allPages<{ trademark_count: number; firm_id: string | null }>(app.get, '/v1/attorneys?limit=100');
    expect(all.map((a) => a.id).sort()).to.deep.equal(catalog.attorneys.map((a) => a._id).sort());
    for (const row of all) expect(row.trademark_count, row.id).to.equal(attorneyMarkCount(catalog, row.id));
    const byCount = await body<ListBody<{ trademark_count: number }>>(await app.get('/v1/attorneys?sort=-trademark_count&limit=5'));
    expect(byCount.data[0]!.id).to.equal(busiest);
    const counts = byCount.data.map((a) => a.trademark_count);
    expect(counts).to.deep.equal([...counts].sort((a, b) => b - a));
    const firmId = catalog.attorneys.find((a) => a.firm_id !== null)!.firm_id!;
    const atFirm = await allPages(app.get, `/v1/attorneys?firm_id=${firmId}`);
    expect(atFirm.map((a) => a.id).sort()).to.deep.equal(
      catalog.attorneys
        .filter((a) => a.firm_id === firmId)
        .map((a) => a._id)
        .sort(),
    );
    await errorOf(await app.get('/v1/attorneys?firm_id=own_00000000000000000000'), 400, 'id_type_mismatch');
    await errorOf(await app.get('/v1/attorneys?sort=grant_rate'), 400, 'validation_error');
  });

  it('returns the detail with firm name and count; 404 and id_type_mismatch otherwise', async () => {
    const attorney = catalog.attorneys.find((a) => a.firm_id !== null)!;
    const detail = await body<Record<string, unknown>>(await app.get(`/v1/attorneys/${attorney._id}`));
    expect(detail).to.deep.include({
      id: attorney._id,
      object: 'attorney',
      name: attorney.name,
      firm_id: attorney.firm_id,
      firm_name: catalog.firms.find((f) => f._id === attorney.firm_id)!.name,
      bar_admissions: attorney.bar_admissions,
      trademark_count: attorneyMarkCount(catalog, attorney._id),
    });
    await errorOf(await app.get('/v1/attorneys/att_00000000000000000000'), 404, 'not_found');
    await errorOf(await app.get('/v1/attorneys/own_00000000000000000000'), 400, 'id_type_mismatch');
  });

  it("lists the attorney's marks newest filing first by default, with multi-field sort and filters", async () => {
    const marks = catalog.marks.filter((m) => m.attorney_ids.includes(busiest));
    const all = await allPages<MarkRow>(app.get, `/v1/attorneys/${busiest}/trademarks?limit=100`);
    expect(all.map((m) => m.id).sort()).to.deep.equal(marks.map((m) => m._id).sort());
    const dates = all.map((m) => m.filing_date);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    const multi = await allPages<MarkRow>(app.get, `/v1/attorneys/${busiest}/trademarks?limit=100&sort=office_code,-filing_date`);
    const expected = [...marks].sort((a, b) =>
      a.office_code !== b.office_code
        ? a.office_code < b.office_code
          ? -1
          : 1
        : a.filing_date !== b.filing_date
          ? a.filing_date > b.filing_date
            ? -1
            : 1
          : a._id < b._id
            ? -1
            : 1,
    );
    expect(multi.map((m) => m.id)).to.deep.equal(expected.map((m) => m._id));
    const owner = marks[0]!.owner_ids[0]!;
    const byOwner = await body<ListBody>(await app.get(`/v1/attorneys/${busiest}/trademarks?owner_id=${owner}&include_total=true`));
    expect(byOwner.pagination.total_count).to.equal(marks.filter((m) => m.owner_ids.includes(owner)).length);
    const q = marks[0]!.mark_text.split(/\s+/).find((w) => w.length >= 3) ?? marks[0]!.mark_text;
    const byText = await body<ListBody>(await app.get(`/v1/attorneys/${busiest}/trademarks?q=${encodeURIComponent(q)}&limit=100`));
    expect(byText.data.map((m) => m.id)).to.include(marks[0]!._id);
    expect(byText.data.every((m) => marks.some((x) => x._id === m.id))).to.equal(true);
    await errorOf(await app.get(`/v1/attorneys/${busiest}/trademarks?attorney_id=${busiest}`), 400, 'validation_error');
    await errorOf(await app.get(`/v1/attorneys/${busiest}/trademarks?sort=office_code,-bogus`), 400, 'validation_error');
  });

  it('projects rows to the requested fields, always keeping id and object; unknown fields are 400', async () => {
    const page = await body<ListBody>(await app.get(`/v1/attorneys/${busiest}/trademarks?fields=mark_text,filing_date&limit=5`));
    expect(page.data.length).to.equal(5);
    for (const row of page.data) expect(Object.keys(row).sort()).to.deep.equal(['filing_date', 'id', 'mark_text', 'object']);
    const full = await body<ListBody>(await app.get(`/v1/attorneys/${busiest}/trademarks?limit=1`));
    expect(Object.keys(full.data[0]!)).to.include.members(['owners', 'classifications', 'status']);
    const error = await errorOf(await app.get(`/v1/attorneys/${busiest}/trademarks?fields=mark_text,secret_field`), 400, 'validation_error');
    expect(error.error.detail).to.contain('fields');
  });

  it('returns full goods and services text only with include=full_goods_services', async () => {
    const long = catalog.marks.find((m) => m.attorney_ids.length > 0 && m.classifications.some((c) => c.goods_services_text.length > 200))!;
    const attorney = long.attorney_ids[0]!;
    const find = async (include: string) =>
      (await allPages<MarkRow>(app.get, `/v1/attorneys/${attorney}/trademarks?limit=100${include}`)).find((m) => m.id === long._id)!;
    const longest = Math.max(...long.classifications.map((c) => c.goods_services_text.length));
    expect(Math.max(...(await find('&include=full_goods_services')).classifications.map((c) => c.goods_services_text.length))).to.equal(longest);
    expect(Math.max(...(await find('')).classifications.map((c) => c.goods_services_text.length))).to.be.lessThan(longest);
  });

  it('lists clients by shared_trademark_count descending, counted from the records', async () => {
    const expected = attorneyClients(catalog, busiest);
    const rows = await allPages<{ shared_trademark_count: number; object: string }>(app.get, `/v1/attorneys/${busiest}/clients?limit=3`);
    expect(rows.length).to.equal(expected.size);
    for (const row of rows) {
      expect(row.object).to.equal('owner');
      expect(row.shared_trademark_count, row.id).to.equal(expected.get(row.id));
    }
    const order = rows.map((r) => r.shared_trademark_count);
    expect(order).to.deep.equal([...order].sort((a, b) => b - a));
    await errorOf(await app.get('/v1/attorneys/att_00000000000000000000/clients'), 404, 'not_found');
  });

  it('loads a page of 100 marks with nested parties in a bounded number of store calls (no N+1)', async () => {
    app.storeCalls.clear();
    const page = await body<ListBody>(await app.get(`/v1/attorneys/${busiest}/trademarks?limit=100`));
    expect(page.data.length).to.equal(Math.min(100, attorneyMarkCount(catalog, busiest)));
    expect(app.storeCalls.get('trademarks.findByIds')).to.equal(1);
    expect(app.storeCalls.get('owners.findByIds') ?? 0).to.be.at.most(1);
    expect(app.storeCalls.get('attorneys.findByIds')).to.equal(1);
    expect(app.storeCalls.get('trademarks.find') ?? 0).to.equal(0);
  });
});
