import { expect } from 'chai';
import { beforeShared, type TestApp } from '../support/harness';
import { allPages, body, errorOf, ownerMarkCount, type Catalog, type ListBody } from '../support/party-expectations';

interface OwnerRow {
  name: string;
  country_code: string | null;
  trademark_count: number;
  updated_at: string;
}

describe('REST: owners', function () {
  let app: TestApp;
  let catalog: Catalog;

  beforeShared((fixture) => {
    app = fixture.app;
    catalog = fixture.catalog;
  });

  const sortedBy = (key: (o: Catalog['owners'][number]) => string, descending = false) =>
    [...catalog.owners].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x === y) return a._id < b._id ? -1 : 1;
      return (x < y ? -1 : 1) * (descending ? -1 : 1);
    });

  it('lists owners by name by default, with counts from the records and the list envelope', async () => {
    const page = await body<ListBody<OwnerRow>>(await app.get('/v1/owners?include_total=true'));
    expect(page.object).to.equal('list');
    expect(page.request_id).to.match(/^req_/);
    expect(page.pagination.total_count).to.equal(catalog.owners.length);
    expect(page.pagination.total_count_approximate).to.equal(false);
    expect(page.data.map((o) => o.id)).to.deep.equal(
      sortedBy((o) => o.canonical_name.toLowerCase())
        .slice(0, 20)
        .map((o) => o._id),
    );
    for (const row of page.data) expect(row.trademark_count, row.id).to.equal(ownerMarkCount(catalog, row.id));
  });

  it('sorts by updated_at either way and filters by country_code and q', async () => {
    const asc = await body<ListBody<OwnerRow>>(await app.get('/v1/owners?sort=updated_at&limit=30'));
    expect(asc.data.map((o) => o.id)).to.deep.equal(
      sortedBy((o) => o.updated_at)
        .slice(0, 30)
        .map((o) => o._id),
    );
    const desc = await body<ListBody<OwnerRow>>(await app.get('/v1/owners?sort=-updated_at&limit=30'));
    expect(desc.data.map((o) => o.id)).to.deep.equal(
      sortedBy((o) => o.updated_at, true)
        .slice(0, 30)
        .map((o) => o._id),
    );
    const de = await allPages<OwnerRow>(app.get, '/v1/owners?country_code=de&limit=50');
    expect(de.map((o) => o.id).sort()).to.deep.equal(
      catalog.owners
        .filter((o) => o.country_code === 'DE')
        .map((o) => o._id)
        .sort(),
    );
    const target = catalog.owners.find((o) => o.entity_type === 'corporation')!;
    const word = target.name.split(' ')[0]!;
    const found = await allPages<OwnerRow>(app.get, `/v1/owners?q=${encodeURIComponent(word)}&limit=100`);
    expect(found.map((o) => o.id)).to.include(target._id);
  });

  it('refuses bad list parameters and keys without trademarks:read', async () => {
    await errorOf(await app.get('/v1/owners?sort=trademark_count'), 400, 'validation_error');
    await errorOf(await app.get('/v1/owners?country_code=USA'), 400, 'validation_error');
    await errorOf(await app.get('/v1/owners?limit=101'), 400, 'validation_error');
    await errorOf(await app.get('/v1/owners?owner=x'), 400, 'validation_error');
    const first = await body<ListBody>(await app.get('/v1/owners?limit=2'));
    await errorOf(await app.get(`/v1/owners?limit=2&country_code=US&cursor=${encodeURIComponent(first.pagination.cursor!)}`), 400, 'validation_error');
    await errorOf(await app.get('/v1/owners', app.keys.billingOnly), 403, 'forbidden');
  });

  it('returns the detail from the store with its counts; 404 and id_type_mismatch otherwise', async () => {
    const owner = catalog.owners.find((o) => o.companies.length > 0)!;
    const detail = await body<Record<string, unknown>>(await app.get(`/v1/owners/${owner._id}`));
    expect(detail).to.deep.include({
      id: owner._id,
      object: 'owner',
      name: owner.name,
      aliases: owner.aliases,
      country_code: owner.country_code,
      entity_type: owner.entity_type,
      entity_id: owner.entity_id,
      companies: owner.companies,
      trademark_count: ownerMarkCount(catalog, owner._id),
      active_trademark_count: catalog.marks.filter((m) => m.owner_ids.includes(owner._id) && m.status.primary === 'active').length,
    });
    await errorOf(await app.get('/v1/owners/own_00000000000000000000'), 404, 'not_found');
    await errorOf(await app.get('/v1/owners/firm_00000000000000000000'), 400, 'id_type_mismatch');
  });

  it("lists the owner's marks with the shared filters; owner_id is not a parameter there", async () => {
    const owner = [...catalog.owners].sort((a, b) => ownerMarkCount(catalog, b._id) - ownerMarkCount(catalog, a._id))[0]!;
    const marks = catalog.marks.filter((m) => m.owner_ids.includes(owner._id));
    const all = await allPages(app.get, `/v1/owners/${owner._id}/trademarks?limit=7`);
    expect(all.map((m) => m.id).sort()).to.deep.equal(marks.map((m) => m._id).sort());
    const office = marks[0]!.office_code;
    const byOffice = await body<ListBody>(await app.get(`/v1/owners/${owner._id}/trademarks?offices=${office}&include_total=true`));
    expect(byOffice.pagination.total_count).to.equal(marks.filter((m) => m.office_code === office).length);
    const attorney = marks.find((m) => m.attorney_ids.length > 0)!.attorney_ids[0]!;
    const byAttorney = await body<ListBody>(await app.get(`/v1/owners/${owner._id}/trademarks?attorney_id=${attorney}&include_total=true`));
    expect(byAttorney.pagination.total_count).to.equal(marks.filter((m) => m.attorney_ids.includes(attorney)).length);
    const byName = await body<ListBody>(await app.get(`/v1/owners/${owner._id}/trademarks?owner_name=${encodeURIComponent(owner.name)}&include_total=true`));
    expect(byName.pagination.total_count).to.equal(marks.length);
    await errorOf(await app.get(`/v1/owners/${owner._id}/trademarks?owner_id=${owner._id}`), 400, 'validation_error');
    await errorOf(await app.get(`/v1/owners/${owner._id}/trademarks?filing_date_gte=2024-01-01&filing_date_lte=2020-01-01`), 400, 'validation_error');
  });

  it('lists corporate relatives in both directions or one, and refuses other directions', async () => {
    const parent = catalog.owners.find((o) => o.relationships.filter((r) => r.direction === 'child').length >= 2)!;
    const both = await allPages<{ related_owner_id: string; name: string; direction: string; relationship_type: string }>(
      app.get,
      `/v1/owners/${parent._id}/related?limit=1`,
    );
    expect(both.map((r) => [r.related_owner_id, r.relationship_type])).to.deep.equal(
      parent.relationships.map((r) => [r.related_owner_id, r.relationship_type]),
    );
    const names = new Map(catalog.owners.map((o) => [o._id, o.name]));
    expect(both.every((r) => r.name === names.get(r.related_owner_id))).to.equal(true);
    const children = await body<ListBody<{ direction: string }>>(await app.get(`/v1/owners/${parent._id}/related?direction=child&limit=100`));
    expect(children.data.length).to.equal(parent.relationships.filter((r) => r.direction === 'child').length);
    const parents = await body<ListBody<{ direction: string }>>(await app.get(`/v1/owners/${parent._id}/related?direction=parent`));
    expect(parents.data.every((r) => r.direction === 'parent')).to.equal(true);
    await errorOf(await app.get(`/v1/owners/${parent._id}/related?direction=sibling`), 400, 'validation_error');
    await errorOf(await app.get('/v1/owners/own_00000000000000000000/related'), 404, 'not_found');
  });
});
