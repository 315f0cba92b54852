import { expect } from 'chai';
import { COLLECTIONS, type ProceedingDoc, type TrademarkDoc } from '../../domain/records';
import { beforeShared, type TestApp } from '../support/harness';
import { fails as expectError } from '../support/http';

interface ListBody {
  object: string;
  data: Array<Record<string, unknown> & { id: string }>;
  has_more: boolean;
  pagination: { cursor: string | null; total_count?: number; total_count_approximate?: boolean };
  request_id: string;
}

/** Every row of a filtered list, following cursors. */
async function allRows(app: TestApp, path: string): Promise<ListBody['data']> {
  const rows: ListBody['data'] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const response = await app.get(`${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const body = (await response.json()) as ListBody;
    expect(response.status, JSON.stringify(body)).to.equal(200);
    rows.push(...body.data);
    cursor = body.pagination.cursor;
  } while (cursor);
  return rows;
}

const ids = (rows: ReadonlyArray<{ id: string } | { _id: string }>) => rows.map((r) => ('id' in r ? r.id : r._id)).sort();

describe('REST: proceedings', function () {
  let app: TestApp;
  let proceedings: ProceedingDoc[];

  beforeShared((fixture) => {
    app = fixture.app;
  });
  before(async () => {
    proceedings = await app.adapters.store.collection<ProceedingDoc>(COLLECTIONS.proceedings).find({});
    expect(proceedings.length).to.be.greaterThan(10);
  });

  it('refuses a list without any filter', async () => {
    await expectError(await app.get('/v1/proceedings'), 400, 'validation_error', 'at least one filter');
    await expectError(await app.get('/v1/proceedings?sort=filed_date&limit=5'), 400, 'validation_error', 'at least one filter');
  });

  it('filters by each parameter exactly as the store holds them', async () => {
    const sample = proceedings.find((p) => p.decision_date !== null && p.parties.length > 1) as ProceedingDoc;
    const party = sample.parties[0]!;
    const cases: Array<[string, (p: ProceedingDoc) => boolean]> = [
      [`contested_class=${sample.contested_classes[0]}`, (p) => p.contested_classes.includes(sample.contested_classes[0]!)],
      [`trademark_id=${sample.trademark_ids[0]}`, (p) => p.trademark_ids.includes(sample.trademark_ids[0]!)],
      ['proceeding_type=opposition', (p) => p.proceeding_type === 'opposition'],
      ['status=pending', (p) => p.status === 'pending'],
      [`party_owner_id=${party.owner_id}`, (p) => p.parties.some((x) => x.owner_id === party.owner_id)],
      ['party_role=petitioner', (p) => p.parties.some((x) => x.role === 'petitioner')],
      [`party_owner_id=${party.owner_id}&party_role=${party.role}`, (p) => p.parties.some((x) => x.owner_id === party.owner_id && x.role === party.role)],
      [`office_code=${sample.office_code.toLowerCase()}`, (p) => p.office_code === sample.office_code],
      ['filed_date_gte=2015-01-01&filed_date_lt=2020-01-01', (p) => p.filed_date >= '2015-01-01' && p.filed_date < '2020-01-01'],
      ['decision_date_gte=2018-01-01', (p) => p.decision_date !== null && p.decision_date >= '2018-01-01'],
      ['decision_date_lt=2018-01-01', (p) => p.decision_date !== null && p.decision_date < '2018-01-01'],
    ];
    for (const [query, keep] of cases) {
      const expected = ids(proceedings.filter(keep));
      expect(expected.length, query).to.be.greaterThan(0);
      expect(ids(await allRows(app, `/v1/proceedings?${query}`)), query).to.deep.equal(expected);
    }
  });

  it('searches party names with q', async () => {
    const name = proceedings[0]!.parties[0]!.name;
    const word = name.split(/[^A-Za-z]+/).find((w) => w.length >= 4) as string;
    const expected = ids(proceedings.filter((p) => p.parties.some((x) => x.name.toLowerCase().includes(word.toLowerCase()))));
    expect(ids(await allRows(app, `/v1/proceedings?q=${encodeURIComponent(word)}`))).to.deep.equal(expected);
  });

  it('returns summary rows with the spec fields', async () => {
    const response = await app.get('/v1/proceedings?proceeding_type=opposition&limit=1');
    const body = (await response.json()) as ListBody;
    expect(body.object).to.equal('list');
    expect(body.request_id).to.match(/^req_/);
    const row = body.data[0]!;
    const stored = proceedings.find((p) => p._id === row.id) as ProceedingDoc;
    const { _id, created_at: _c, updated_at: _u, ...rest } = stored;
    expect(row).to.deep.equal({ id: _id, object: 'proceeding', ...rest });
  });

  it('sorts by each of the four sorts, undecided last', async () => {
    const all = proceedings.filter((p) => p.filed_date >= '1900-01-01');
    const byFiled = [...all].sort((a, b) => (a.filed_date < b.filed_date ? -1 : a.filed_date > b.filed_date ? 1 : a._id < b._id ? -1 : 1));
    const asc = await allRows(app, '/v1/proceedings?filed_date_gte=1900-01-01&sort=filed_date');
    expect(asc.map((r) => r.filed_date)).to.deep.equal(byFiled.map((p) => p.filed_date));
    const desc = await allRows(app, '/v1/proceedings?filed_date_gte=1900-01-01');
    expect(desc.map((r) => r.filed_date)).to.deep.equal([...byFiled].reverse().map((p) => p.filed_date));

    const decided = all
      .filter((p) => p.decision_date !== null)
      .map((p) => p.decision_date as string)
      .sort();
    const undecided = all.filter((p) => p.decision_date === null).length;
    const decidedAsc = await allRows(app, '/v1/proceedings?filed_date_gte=1900-01-01&sort=decided_date');
    expect(decidedAsc.map((r) => r.decision_date)).to.deep.equal([...decided, ...Array(undecided).fill(null)]);
    const decidedDesc = await allRows(app, '/v1/proceedings?filed_date_gte=1900-01-01&sort=-decided_date');
    expect(decidedDesc.map((r) => r.decision_date)).to.deep.equal([...[...decided].reverse(), ...Array(undecided).fill(null)]);
  });

  it('pages with cursors bound to the query, and counts with include_total', async () => {
    const expected = proceedings.filter((p) => p.proceeding_type === 'opposition').length;
    const first = (await (await app.get('/v1/proceedings?proceeding_type=opposition&limit=3&include_total=true')).json()) as ListBody;
    expect(first.pagination.total_count).to.equal(expected);
    expect(first.pagination.total_count_approximate).to.equal(false);
    expect(first.has_more).to.equal(true);
    await expectError(
      await app.get(`/v1/proceedings?proceeding_type=appeal&limit=3&cursor=${encodeURIComponent(first.pagination.cursor as string)}`),
      400,
      'validation_error',
      'different query',
    );
    const plain = (await (await app.get('/v1/proceedings?proceeding_type=opposition&limit=3')).json()) as ListBody;
    expect(plain.pagination).to.deep.equal({ cursor: plain.pagination.cursor });
  });

  it('rejects bad date ranges, unsupported values and wrong ID kinds', async () => {
    await expectError(await app.get('/v1/proceedings?filed_date_gte=2020-01-01&filed_date_lt=2020-01-01'), 400, 'validation_error', 'filed_date_gte');
    await expectError(await app.get('/v1/proceedings?decision_date_gte=2021-01-01&decision_date_lt=2020-01-01'), 400, 'validation_error', 'decision_date_gte');
    await expectError(await app.get('/v1/proceedings?filed_date_gte=2020-13-01'), 400, 'validation_error', 'filed_date_gte');
    await expectError(await app.get('/v1/proceedings?status=closed'), 400, 'validation_error', 'status');
    await expectError(await app.get('/v1/proceedings?proceeding_type=lawsuit'), 400, 'validation_error', 'proceeding_type');
    await expectError(await app.get('/v1/proceedings?party_role=judge'), 400, 'validation_error', 'party_role');
    await expectError(await app.get('/v1/proceedings?contested_class=46'), 400, 'validation_error', 'contested_class');
    await expectError(await app.get('/v1/proceedings?office_code=zz'), 400, 'validation_error', 'office_code');
    await expectError(await app.get('/v1/proceedings?sort=-decision_date&status=pending'), 400, 'validation_error', 'sort');
    await expectError(await app.get(`/v1/proceedings?trademark_id=${proceedings[0]!.parties[0]!.owner_id}`), 400, 'id_type_mismatch');
    await expectError(await app.get(`/v1/proceedings?party_owner_id=${proceedings[0]!.trademark_ids[0]}`), 400, 'id_type_mismatch');
  });

  it('returns the full record with the contested marks', async () => {
    const stored = proceedings.find((p) => p.decision_date !== null) as ProceedingDoc;
    const response = await app.get(`/v1/proceedings/${stored._id}`);
    const body = (await response.json()) as Record<string, unknown> & { trademarks: Array<Record<string, unknown>>; office: Record<string, unknown> };
    expect(response.status).to.equal(200);
    expect(body.id).to.equal(stored._id);
    expect(body.object).to.equal('proceeding');
    expect(body.parties).to.deep.equal(stored.parties);
    expect(body.created_at).to.equal(stored.created_at);
    expect(body.request_id).to.match(/^req_/);
    const days = (Date.parse(stored.decision_date as string) - Date.parse(stored.filed_date)) / 86_400_000;
    expect(body.duration_days).to.equal(days);
    expect(body.office.code).to.equal(stored.office_code);
    const mark = (await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds(stored.trademark_ids))[0] as TrademarkDoc;
    expect(body.trademarks.map((t) => [t.id, t.mark_text, t.application_number])).to.deep.equal([[mark._id, mark.mark_text, mark.application_number]]);
  });

  it('answers 404 for an unknown proceeding and 400 for a wrong ID kind', async () => {
    await expectError(await app.get('/v1/proceedings/prc_0000000000000000000z'), 404, 'not_found');
    await expectError(await app.get(`/v1/proceedings/${proceedings[0]!.trademark_ids[0]}`), 400, 'id_type_mismatch');
  });

  it("lists one mark's proceedings, 404 for an unknown mark", async () => {
    const counts = new Map<string, number>();
    for (const p of proceedings) for (const id of p.trademark_ids) counts.set(id, (counts.get(id) ?? 0) + 1);
    const [markId] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    const rows = await allRows(app, `/v1/trademarks/${markId}/proceedings`);
    expect(ids(rows)).to.deep.equal(ids(proceedings.filter((p) => p.trademark_ids.includes(markId))));
    const filed = rows.map((r) => r.filed_date as string);
    expect(filed).to.deep.equal([...filed].sort().reverse());
    await expectError(await app.get('/v1/trademarks/tm_0000000000000000000z/proceedings'), 404, 'not_found');
  });

  it('needs trademarks:read', async () => {
    await expectError(await app.get('/v1/proceedings?status=pending', app.keys.billingOnly), 403, 'forbidden');
  });
});
