import { expect } from 'chai';
import { stableId } from '../../domain/ids';
import { COLLECTIONS, type EntityDoc, type OwnerDoc } from '../../domain/records';
import { FAMILY_DEPTH_LIMIT, MEMBER_OWNER_LIMIT, RELATED_ENTITY_LIMIT } from '../../domain/contract';
import { beforeShared, startTestApp, type TestApp } from '../support/harness';
import { allPages, body, entityMarkCount, errorOf, type Catalog, type ListBody } from '../support/party-expectations';

describe('REST: resolved entities', function () {
  let app: TestApp;
  let catalog: Catalog;
  let family: EntityDoc;

  beforeShared((fixture) => {
    app = fixture.app;
    catalog = fixture.catalog;
    family = [...catalog.entities].sort((a, b) => b.member_owner_ids.length - a.member_owner_ids.length)[0]!;
  });

  it('lists entities by name, member_count and trademark_count with counts from the records', async () => {
    const all = await allPages<{ member_count: number; trademark_count: number }>(app.get, '/v1/entities?limit=100');
    expect(all.map((e) => e.id).sort()).to.deep.equal(catalog.entities.map((e) => e._id).sort());
    for (const row of all.slice(0, 40)) expect(row.trademark_count, row.id).to.equal(entityMarkCount(catalog, row.id));
    const byMembers = await body<ListBody<{ member_count: number }>>(await app.get('/v1/entities?sort=-member_count&limit=3'));
    expect(byMembers.data[0]!.id).to.equal(family._id);
    expect(byMembers.data[0]!.member_count).to.equal(family.member_owner_ids.length);
    const byMarks = await body<ListBody<{ trademark_count: number }>>(await app.get('/v1/entities?sort=-trademark_count&limit=1'));
    expect(byMarks.data[0]!.trademark_count).to.equal(Math.max(...catalog.entities.map((e) => entityMarkCount(catalog, e._id))));
    const jp = await body<ListBody>(await app.get('/v1/entities?country_code=JP&include_total=true'));
    expect(jp.pagination.total_count).to.equal(catalog.entities.filter((e) => e.country_code === 'JP').length);
    await errorOf(await app.get('/v1/entities?sort=lei'), 400, 'validation_error');
  });

  it('returns the detail; 404 and id_type_mismatch otherwise', async () => {
    const detail = await body<Record<string, unknown>>(await app.get(`/v1/entities/${family._id}`));
    expect(detail).to.deep.include({
      id: family._id,
      object: 'entity',
      name: family.name,
      lei: family.lei,
      member_owner_ids: family.member_owner_ids,
      trademark_count: entityMarkCount(catalog, family._id),
    });
    await errorOf(await app.get('/v1/entities/ent_00000000000000000000'), 404, 'not_found');
    await errorOf(await app.get('/v1/entities/own_00000000000000000000'), 400, 'id_type_mismatch');
  });

  it("lists the member owners' marks, and the entity_id / entity_group filters agree with the records", async () => {
    const expected = entityMarkCount(catalog, family._id);
    const list = await body<ListBody>(await app.get(`/v1/entities/${family._id}/trademarks?include_total=true`));
    expect(list.pagination.total_count).to.equal(expected);
    const byId = await body<ListBody>(await app.get(`/v1/trademarks?entity_id=${family._id}&include_total=true`));
    expect(byId.pagination.total_count).to.equal(expected);
    // Generated families are one entity each, so the group is the entity itself.
    const byGroup = await body<ListBody>(await app.get(`/v1/trademarks?entity_group=${family._id}&include_total=true`));
    expect(byGroup.pagination.total_count).to.equal(expected);
    await errorOf(await app.get('/v1/trademarks?entity_id=ent_00000000000000000000'), 404, 'not_found');
    await errorOf(await app.get('/v1/trademarks?entity_id=own_00000000000000000000'), 400, 'id_type_mismatch');
    await errorOf(await app.get(`/v1/entities/${family._id}/trademarks?entity_id=${family._id}`), 400, 'validation_error');
  });
});

const BIG = stableId('ent_', 'big');
const CHAIN = stableId('ent_', 'chain:0');
const WIDE = stableId('ent_', 'wide:0');

describe('REST: entity caps (422 entity_too_large)', function () {
  let app: TestApp;
  const now = '2025-01-01T00:00:00.000Z';
  const entity = (id: string, members: string[]): EntityDoc => ({
    _id: id,
    name: id,
    canonical_name: id,
    country_code: 'US',
    lei: null,
    ticker: null,
    member_owner_ids: members,
    merged_into: null,
    created_at: now,
    updated_at: now,
  });
  const owner = (id: string, entityId: string, relatedIds: string[]): OwnerDoc => ({
    _id: id,
    name: id,
    canonical_name: id,
    aliases: [],
    country_code: 'US',
    entity_type: 'corporation',
    entity_id: entityId,
    entity_id_type: 'lei',
    companies: [],
    dedupe_key: `org|${id}|US`,
    relationships: relatedIds.map((related) => ({
      related_owner_id: related,
      relationship_type: 'IS_DIRECTLY_CONSOLIDATED_BY',
      relationship_status: 'ACTIVE',
      ownership_pct: 100,
      period_start: '2000-01-01',
      period_end: null,
      direction: 'parent',
      source: 'test',
    })),
    merged_into: null,
    created_at: now,
    updated_at: now,
  });

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 60 });
    const members = Array.from({ length: MEMBER_OWNER_LIMIT + 1 }, (_, i) => stableId('own_', `big:${i}`));
    const chain = Array.from({ length: FAMILY_DEPTH_LIMIT + 2 }, (_, i) => stableId('own_', `chain:${i}`));
    const wide = Array.from({ length: RELATED_ENTITY_LIMIT + 1 }, (_, i) => stableId('own_', `wide:${i}`));
    await app.adapters.store
      .collection<EntityDoc>(COLLECTIONS.entities)
      .insertMany([
        entity(BIG, members),
        ...chain.map((id, i) => entity(stableId('ent_', `chain:${i}`), [id])),
        ...wide.map((id, i) => entity(stableId('ent_', `wide:${i}`), [id])),
      ]);
    await app.adapters.store
      .collection<OwnerDoc>(COLLECTIONS.owners)
      .insertMany([
        ...chain.map((id, i) => owner(id, stableId('ent_', `chain:${i}`), i + 1 < chain.length ? [chain[i + 1]!] : [])),
        ...wide.map((id, i) => owner(id, stableId('ent_', `wide:${i}`), i === 0 ? wide.slice(1) : [])),
      ]);
  });

  after(async () => app.close());

  it('refuses an entity with more than 10,000 member owners, with member_count and member_count_limit', async () => {
    for (const path of [`/v1/entities/${BIG}/trademarks`, `/v1/trademarks?entity_id=${BIG}`, `/v1/trademarks?entity_group=${BIG}`]) {
      const error = await errorOf(await app.get(path), 422, 'entity_too_large');
      expect(error.error, path).to.include({ reason: 'member_owners_too_large', member_count: MEMBER_OWNER_LIMIT + 1, member_count_limit: 10_000 });
    }
    // The detail itself stays readable.
    expect((await body<{ member_count: number }>(await app.get(`/v1/entities/${BIG}`))).member_count).to.equal(MEMBER_OWNER_LIMIT + 1);
  });

  it('refuses entity_group walks past the depth or the related-entity bound, with both limits', async () => {
    for (const id of [CHAIN, WIDE]) {
      const error = await errorOf(await app.get(`/v1/trademarks?entity_group=${id}`), 422, 'entity_too_large');
      expect(error.error, id).to.include({ reason: 'family_graph_too_large', related_entity_limit: RELATED_ENTITY_LIMIT, depth_limit: FAMILY_DEPTH_LIMIT });
    }
    // entity_id does not walk the family, so the same entity is fine there.
    await body<ListBody>(await app.get(`/v1/trademarks?entity_id=${CHAIN}`));
  });
});
