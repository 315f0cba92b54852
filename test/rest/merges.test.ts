import { expect } from 'chai';
import { ATTORNEY_INDEX, ENTITY_INDEX, OWNER_INDEX } from '../../datasources/index-definitions';
import type { SearchFilter } from '../../datasources/ports';
import { ApiError } from '../../domain/errors';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { mergeParties } from '../../resolvers/merges/merge';
import { startTestApp, type TestApp } from '../support/harness';
import {
  attorneyMarkCount,
  body,
  entityMarkCount,
  errorOf,
  expectedFirm,
  ownerMarkCount,
  readCatalog,
  type Catalog,
  type ListBody,
} from '../support/party-expectations';

interface FirmRow {
  attorney_count: number;
  trademark_count: number;
  grant_rate: number | null;
}

describe('Merges and counts that follow changes', function () {
  this.timeout(60_000);
  let app: TestApp;
  let catalog: Catalog;

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 400 });
    catalog = await readCatalog(app.adapters.store);
  });

  after(async () => app.close());

  async function settle(): Promise<void> {
    await app.indexer.catchUp();
    catalog = await readCatalog(app.adapters.store);
  }

  /** True when the index holds `id` with `field` equal to `value` (the index's own copy of a count). */
  async function indexed(index: string, id: string, field: string, value: number): Promise<boolean> {
    const filters: SearchFilter[] = [{ field, op: 'eq', value }];
    const result = await app.adapters.search.search({ index, filters, sort: [], limit: 10_000 });
    return result.hits.some((hit) => hit.id === id);
  }

  const firmRow = async (id: string) => (await body<ListBody<FirmRow>>(await app.get('/v1/firms?limit=50'))).data.find((f) => f.id === id);

  it('merges an owner: references follow, the stale ID answers 410 with merged_into, counts are recomputed', async () => {
    const withMarks = catalog.owners.filter((o) => ownerMarkCount(catalog, o._id) > 0);
    const [from, into] = [withMarks[0]!, withMarks[1]!];
    const before = new Set(catalog.marks.filter((m) => m.owner_ids.includes(from._id) || m.owner_ids.includes(into._id)).map((m) => m._id)).size;
    const summary = await mergeParties(app.adapters.store, 'owner', from._id, into._id);
    expect(summary.repointed.trademarks).to.equal(ownerMarkCount(catalog, from._id));
    await settle();
    const stale = await errorOf(await app.get(`/v1/owners/${from._id}`), 410, 'entity_merged');
    expect(stale.error.merged_into).to.equal(into._id);
    await errorOf(await app.get(`/v1/owners/${from._id}/trademarks`), 410, 'entity_merged');
    expect(ownerMarkCount(catalog, into._id)).to.equal(before);
    expect((await body<{ trademark_count: number }>(await app.get(`/v1/owners/${into._id}`))).trademark_count).to.equal(before);
    expect(await indexed(OWNER_INDEX.name, into._id, 'trademark_count', before)).to.equal(true);
    const byOwner = await body<ListBody>(await app.get(`/v1/trademarks?owner_id=${into._id}&include_total=true`));
    expect(byOwner.pagination.total_count).to.equal(before);
    const owners = await body<ListBody>(await app.get('/v1/owners?include_total=true'));
    expect(owners.pagination.total_count).to.equal(catalog.owners.filter((o) => o.merged_into === null).length);
  });

  it('merges an attorney across firms: both firms and the survivor recount', async () => {
    const candidates = catalog.attorneys.filter((a) => a.firm_id !== null && attorneyMarkCount(catalog, a._id) > 0);
    const from = candidates[0]!;
    const into = candidates.find((a) => a.firm_id !== from.firm_id)!;
    await mergeParties(app.adapters.store, 'attorney', from._id, into._id);
    await settle();
    expect((await errorOf(await app.get(`/v1/attorneys/${from._id}`), 410, 'entity_merged')).error.merged_into).to.equal(into._id);
    await errorOf(await app.get(`/v1/attorneys/${from._id}/clients`), 410, 'entity_merged');
    expect(await indexed(ATTORNEY_INDEX.name, into._id, 'trademark_count', attorneyMarkCount(catalog, into._id))).to.equal(true);
    for (const firmId of [from.firm_id!, into.firm_id!]) {
      const expected = expectedFirm(catalog, firmId);
      expect(await firmRow(firmId), firmId).to.include({
        attorney_count: expected.attorney_count,
        trademark_count: expected.trademark_count,
        grant_rate: expected.grant_rate,
      });
      const atLeast = await body<ListBody>(
        await app.get(`/v1/firms?min_filings=${expected.trademark_count}&min_attorneys=${expected.attorney_count}&limit=50`),
      );
      expect(
        atLeast.data.map((f) => f.id),
        firmId,
      ).to.include(firmId);
      const above = await body<ListBody>(await app.get(`/v1/firms?min_filings=${expected.trademark_count + 1}&limit=50`));
      expect(
        above.data.map((f) => f.id),
        firmId,
      ).to.not.include(firmId);
    }
  });

  it('merges a firm: its attorneys move, the list drops it, the survivor counts them', async () => {
    const firms = catalog.firms.filter((f) => f.merged_into === null && expectedFirm(catalog, f._id).attorney_count > 0);
    const [from, into] = [firms[0]!, firms[1]!];
    const attorneys = expectedFirm(catalog, from._id).attorney_count + expectedFirm(catalog, into._id).attorney_count;
    await mergeParties(app.adapters.store, 'firm', from._id, into._id);
    await settle();
    expect((await errorOf(await app.get(`/v1/firms/${from._id}?include=stats`), 410, 'entity_merged')).error.merged_into).to.equal(into._id);
    await errorOf(await app.get(`/v1/firms/${from._id}/attorneys`), 410, 'entity_merged');
    const expected = expectedFirm(catalog, into._id);
    expect(expected.attorney_count).to.equal(attorneys);
    expect(await firmRow(into._id)).to.include({ attorney_count: attorneys, trademark_count: expected.trademark_count });
    expect(await firmRow(from._id)).to.equal(undefined);
    const atLeast = await body<ListBody>(await app.get(`/v1/firms?min_attorneys=${attorneys}&limit=50`));
    expect(atLeast.data.map((f) => f.id)).to.include(into._id);
    const byFirm = await body<ListBody>(await app.get(`/v1/trademarks?firm_id=${into._id}&include_total=true`));
    expect(byFirm.pagination.total_count).to.equal(expected.mark_count);
  });

  it('merges an entity: owners move, the survivor holds every member and counts their marks', async () => {
    const live = catalog.entities.filter((e) => e.merged_into === null && entityMarkCount(catalog, e._id) > 0);
    const [from, into] = [live[0]!, live[1]!];
    const members = new Set([...from.member_owner_ids, ...into.member_owner_ids]);
    await mergeParties(app.adapters.store, 'entity', from._id, into._id);
    await settle();
    expect((await errorOf(await app.get(`/v1/entities/${from._id}`), 410, 'entity_merged')).error.merged_into).to.equal(into._id);
    await errorOf(await app.get(`/v1/trademarks?entity_id=${from._id}`), 410, 'entity_merged');
    const detail = await body<{ member_count: number; trademark_count: number }>(await app.get(`/v1/entities/${into._id}`));
    expect(detail.member_count).to.equal(members.size);
    expect(detail.trademark_count).to.equal(entityMarkCount(catalog, into._id));
    expect(await indexed(ENTITY_INDEX.name, into._id, 'trademark_count', entityMarkCount(catalog, into._id))).to.equal(true);
  });

  it('refuses self-merges, unknown or already merged records and IDs of another kind', async () => {
    const [a, b] = catalog.owners.filter((o) => o.merged_into === null);
    const merged = catalog.owners.find((o) => o.merged_into !== null)!;
    const refusal = async (work: Promise<unknown>, type: string) => {
      const error = await work.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).type).to.equal(type);
    };
    await refusal(mergeParties(app.adapters.store, 'owner', a!._id, a!._id), 'validation_error');
    await refusal(mergeParties(app.adapters.store, 'owner', 'own_00000000000000000000', b!._id), 'not_found');
    await refusal(mergeParties(app.adapters.store, 'owner', merged._id, b!._id), 'entity_merged');
    await refusal(mergeParties(app.adapters.store, 'owner', a!._id, catalog.firms[0]!._id), 'id_type_mismatch');
  });

  it('keeps counts correct when a mark changes owner and status (the lost owner recounts too)', async () => {
    const firmOf = (attorneyId: string | undefined) => catalog.attorneys.find((a) => a._id === attorneyId)?.firm_id ?? null;
    const mark = catalog.marks.find(
      (m) => m.owner_ids.length === 1 && firmOf(m.attorney_ids[0]) !== null && m.registration_date === null && m.ir_number === null,
    )!;
    const lost = mark.owner_ids[0]!;
    const gained = catalog.owners.find(
      (o) => o.merged_into === null && o._id !== lost && o.entity_id !== catalog.owners.find((x) => x._id === lost)!.entity_id,
    )!;
    const firmId = firmOf(mark.attorney_ids[0])!;
    const [lostBefore, gainedBefore] = [ownerMarkCount(catalog, lost), ownerMarkCount(catalog, gained._id)];
    await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).updateOne(
      { _id: mark._id },
      {
        $set: {
          owner_ids: [gained._id],
          detached_party_ids: [lost],
          status: { primary: 'active', stage: 'registered', reason: 'registration_in_force', challenge_states: [] },
          registration_date: '2025-06-02',
        },
      },
    );
    await settle();
    expect(ownerMarkCount(catalog, lost)).to.equal(lostBefore - 1);
    expect(ownerMarkCount(catalog, gained._id)).to.equal(gainedBefore + 1);
    expect(await indexed(OWNER_INDEX.name, lost, 'trademark_count', lostBefore - 1)).to.equal(true);
    expect(await indexed(OWNER_INDEX.name, gained._id, 'trademark_count', gainedBefore + 1)).to.equal(true);
    const lostEntity = catalog.owners.find((o) => o._id === lost)!.entity_id;
    expect(await indexed(ENTITY_INDEX.name, lostEntity, 'trademark_count', entityMarkCount(catalog, lostEntity))).to.equal(true);
    expect(await indexed(ENTITY_INDEX.name, gained.entity_id, 'trademark_count', entityMarkCount(catalog, gained.entity_id))).to.equal(true);
    const expected = expectedFirm(catalog, firmId);
    expect(await firmRow(firmId)).to.include({ grant_rate: expected.grant_rate, trademark_count: expected.trademark_count });
    const bySort = (await body<ListBody<FirmRow>>(await app.get('/v1/firms?sort=-grant_rate&limit=50'))).data;
    const rates = bySort.map((f) => f.grant_rate ?? -1);
    expect(rates).to.deep.equal([...rates].sort((x, y) => y - x));
  });
});
