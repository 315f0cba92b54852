import { expect } from 'chai';
import { COLLECTIONS, type TrademarkChangeDoc, type TrademarkDoc } from '../../domain/records';
import { beforeShared, startTestApp, type TestApp } from '../support/harness';
import { fails, type ErrorResponse } from '../support/http';

interface ListBody {
  object: string;
  data: Array<Record<string, unknown> & { id: string }>;
  has_more: boolean;
  pagination: { cursor: string | null; total_count?: number; total_count_approximate?: boolean };
  search_meta?: Record<string, unknown>;
  not_found?: string[];
  request_id: string;
}

async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

async function expectError(response: Response, status: number, type: string, detailPart?: string): Promise<ErrorResponse> {
  const body = await fails(response, status, type, detailPart);
  expect(body.error.status).to.equal(status);
  expect(body.request_id).to.match(/^req_/);
  return body;
}

describe('REST: trademark search and list', function () {
  let app: TestApp;
  let marks: TrademarkDoc[];

  beforeShared((fixture) => {
    app = fixture.app;
    marks = fixture.catalog.marks;
  });

  it('refuses an unscoped list (no filter, no q) with 400 validation_error', async () => {
    await expectError(await app.get('/v1/trademarks'), 400, 'validation_error', 'at least one filter or q is required');
  });

  it('filters by office and counts exactly what the store holds', async () => {
    const response = await app.get('/v1/trademarks?offices=US&include_total=true&limit=100');
    expect(response.status).to.equal(200);
    const body = await json<ListBody>(response);
    const expected = marks.filter((m) => m.office_code === 'US').length;
    expect(expected).to.be.greaterThan(0);
    expect(body.object).to.equal('list');
    expect(body.request_id).to.match(/^req_/);
    expect(body.pagination.total_count).to.equal(expected);
    expect(body.pagination.total_count_approximate).to.equal(false);
    expect(body.search_meta).to.deep.equal({ total_results: expected, total_count_exact: true, total_count_approximate: false });
    expect(body.data.every((row) => row.office_code === 'US')).to.equal(true);
  });

  it('accepts legacy lowercase office codes', async () => {
    const lower = await json<ListBody>(await app.get('/v1/trademarks?offices=us&include_total=true'));
    const upper = await json<ListBody>(await app.get('/v1/trademarks?offices=US&include_total=true'));
    expect(lower.pagination.total_count).to.equal(upper.pagination.total_count);
  });

  it('omits total_count unless include_total=true, and search_meta then carries nulls', async () => {
    const body = await json<ListBody>(await app.get('/v1/trademarks?offices=US'));
    expect(body.pagination).not.to.have.property('total_count');
    expect(body.search_meta).to.deep.equal({ total_results: null, total_count_exact: null, total_count_approximate: null });
  });

  it('pages through a whole result with cursors, without gaps or duplicates', async () => {
    const expected = marks
      .filter((m) => m.office_code === 'CH' || m.office_code === 'AU')
      .map((m) => m._id)
      .sort();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/v1/trademarks?offices=CH,AU&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const body: ListBody = await json<ListBody>(await app.get(path));
      expect(body.data.length).to.be.at.most(7);
      seen.push(...body.data.map((row) => row.id));
      expect(body.pagination.cursor === null).to.equal(!body.has_more);
      cursor = body.pagination.cursor;
      pages += 1;
    } while (cursor !== null && pages < 200);
    expect([...seen].sort()).to.deep.equal(expected);
  });

  it('refuses a cursor with a changed query, sort or filter (400 validation_error)', async () => {
    const first = await json<ListBody>(await app.get('/v1/trademarks?offices=US&limit=2'));
    const cursor = encodeURIComponent(first.pagination.cursor as string);
    await expectError(await app.get(`/v1/trademarks?offices=EM&limit=2&cursor=${cursor}`), 400, 'validation_error', 'cursor: was issued for a different query');
    await expectError(await app.get(`/v1/trademarks?offices=US&sort=filing_date&limit=2&cursor=${cursor}`), 400, 'validation_error', 'cursor');
    const next = await app.get(`/v1/trademarks?offices=US&limit=5&cursor=${cursor}`);
    expect(next.status, 'page size may change between pages').to.equal(200);
  });

  it('refuses a forged cursor', async () => {
    await expectError(await app.get('/v1/trademarks?offices=US&cursor=eyJiIjoiIn0.AAAA'), 400, 'validation_error', 'cursor');
  });

  it('sorts by a field, descending with -', async () => {
    const body = await json<ListBody>(await app.get('/v1/trademarks?offices=US,EM&sort=-filing_date&limit=50'));
    const dates = body.data.map((row) => row.filing_date as string);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    const asc = await json<ListBody>(await app.get('/v1/trademarks?offices=US,EM&sort=filing_date&limit=50'));
    const ascDates = asc.data.map((row) => row.filing_date as string);
    expect(ascDates).to.deep.equal([...ascDates].sort());
  });

  it('with q and an explicit sort, orders by the sort alone: marks tied on it follow in ID order', async () => {
    const counts = new Map<string, number>();
    for (const mark of marks) {
      for (const word of new Set(mark.mark_text.toLowerCase().split(/[^a-z]+/))) if (word.length >= 4) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const [common] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    const body = await json<ListBody>(await app.get(`/v1/trademarks?q=${common}&sort=office_code&limit=100`));
    expect(body.data.length).to.be.greaterThan(20);
    const keys = body.data.map((row) => [row.office_code as string, row.id]);
    const inOrder = [...keys].sort((a, b) => a[0]!.localeCompare(b[0]!) || (a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0));
    expect(keys).to.deep.equal(inOrder);
  });

  it('rejects an unknown sort field', async () => {
    await expectError(await app.get('/v1/trademarks?offices=US&sort=mark_text'), 400, 'validation_error', 'sort:');
  });

  it('finds a mark by its text and ranks it first', async () => {
    const target = marks.find((m) => m.mark_text.length >= 6 && /^[A-Za-z ]+$/.test(m.mark_text)) as TrademarkDoc;
    const body = await json<ListBody>(await app.get(`/v1/trademarks?q=${encodeURIComponent(target.mark_text)}&limit=10`));
    expect(body.data.length).to.be.greaterThan(0);
    expect((body.data[0]?.mark_text as string).toLowerCase()).to.equal(target.mark_text.toLowerCase());
  });

  it('filters by Nice class, status and date range together', async () => {
    const body = await json<ListBody>(
      await app.get('/v1/trademarks?nice_classes=9&status_primary=active&filing_date_gte=2015-01-01&filing_date_lt=2025-01-01&include_total=true&limit=100'),
    );
    const expected = marks.filter(
      (m) =>
        m.classifications.some((c) => c.nice_class === 9) && m.status.primary === 'active' && m.filing_date >= '2015-01-01' && m.filing_date < '2025-01-01',
    );
    expect(body.pagination.total_count).to.equal(expected.length);
    for (const row of body.data) {
      expect((row.classifications as Array<{ nice_class: number }>).some((c) => c.nice_class === 9)).to.equal(true);
      expect((row.status as { primary: string }).primary).to.equal('active');
    }
  });

  it('filters by Vienna code hierarchically: a category matches the divisions within it', async () => {
    const coded = marks.find((m) => m.vienna_codes.some((c) => c.includes('.'))) as TrademarkDoc;
    const division = coded.vienna_codes.find((c) => c.includes('.')) as string;
    const category = division.split('.')[0] as string;
    const byCategory = await json<ListBody>(await app.get(`/v1/trademarks?vienna_codes=${category}&include_total=true&limit=100`));
    expect(byCategory.pagination.total_count).to.equal(marks.filter((m) => m.vienna_codes.some((c) => c === category || c.startsWith(`${category}.`))).length);
    const byDivision = await json<ListBody>(await app.get(`/v1/trademarks?vienna_codes=${division}&include_total=true&limit=100`));
    expect(byDivision.pagination.total_count).to.equal(marks.filter((m) => m.vienna_codes.some((c) => c === division || c.startsWith(`${division}.`))).length);
    await expectError(await app.get('/v1/trademarks?vienna_codes=1.5'), 400, 'validation_error', 'vienna_codes');
  });

  it('filters by boolean flags with strict true/false', async () => {
    const body = await json<ListBody>(await app.get('/v1/trademarks?is_madrid=true&include_total=true'));
    expect(body.pagination.total_count).to.equal(marks.filter((m) => m.filing_route === 'madrid' || m.ir_number !== null).length);
    await expectError(await app.get('/v1/trademarks?is_madrid=1'), 400, 'validation_error', 'is_madrid: must be the literal true or false');
    await expectError(await app.get('/v1/trademarks?is_madrid=TRUE'), 400, 'validation_error', 'is_madrid');
  });

  it('rejects a range whose lower bound is after its upper bound', async () => {
    await expectError(
      await app.get('/v1/trademarks?filing_date_gte=2020-01-01&filing_date_lte=2019-01-01'),
      400,
      'validation_error',
      'filing_date_gte: must be before filing_date_lte',
    );
  });

  it('rejects malformed dates, bracketed keys and unknown parameters, naming them', async () => {
    await expectError(await app.get('/v1/trademarks?filing_date_gte=2020-13-01'), 400, 'validation_error', 'filing_date_gte');
    await expectError(await app.get('/v1/trademarks?offices[]=US'), 400, 'validation_error', 'bracketed keys');
    await expectError(await app.get('/v1/trademarks?office_code=US'), 400, 'validation_error', 'office_code: is not a parameter');
    await expectError(await app.get('/v1/trademarks?limit=101&offices=US'), 400, 'validation_error', 'limit: must be an integer from 1 to 100');
    await expectError(await app.get('/v1/trademarks?nice_classes=0'), 400, 'validation_error', 'nice_classes');
  });

  it('refuses a q of punctuation or symbols alone (&, ***) naming q, rather than answering 0 marks exactly, on every list that takes q; through GraphQL too', async () => {
    for (const q of ['&', '***', '- / .']) {
      await expectError(await app.get(`/v1/trademarks?q=${encodeURIComponent(q)}&offices=US`), 400, 'validation_error', 'q: must contain a letter or digit');
    }
    // The other lists that take q: owners, attorneys, firms, entities, proceedings.
    for (const list of ['/v1/owners', '/v1/attorneys', '/v1/firms', '/v1/entities', '/v1/proceedings']) {
      await expectError(await app.get(`${list}?q=${encodeURIComponent('&')}`), 400, 'validation_error', 'q: must contain a letter or digit');
    }
    const graphql = await app.post('/graphql', { query: '{ searchTrademarks(q: "&&") { data { id } } }' });
    const body = (await graphql.json()) as { errors?: Array<{ extensions: { detail: string } }> };
    expect(body.errors?.[0]?.extensions.detail).to.contain('q: must contain a letter or digit');
    expect((await app.get(`/v1/trademarks?q=${encodeURIComponent('H&M')}&offices=US`)).status).to.equal(200);
  });

  it('requires office with application_number or registration_number', async () => {
    const mark = marks[0] as TrademarkDoc;
    await expectError(
      await app.get(`/v1/trademarks?application_number=${mark.application_number}`),
      400,
      'validation_error',
      'application_number: requires office',
    );
    const body = await json<ListBody>(
      await app.get(`/v1/trademarks?application_number=${encodeURIComponent(mark.application_number)}&office=${mark.office_code.toLowerCase()}`),
    );
    expect(body.data.map((row) => row.id)).to.include(mark._id);
  });

  it('answers 400 id_type_mismatch for an owner filter given a trademark ID', async () => {
    await expectError(await app.get(`/v1/trademarks?owner_id=${(marks[0] as TrademarkDoc)._id}`), 400, 'id_type_mismatch', 'own_');
  });

  it('filters by owner and by owner name', async () => {
    const mark = marks.find((m) => m.owner_ids.length > 0) as TrademarkDoc;
    const ownerId = mark.owner_ids[0] as string;
    const byId = await json<ListBody>(await app.get(`/v1/trademarks?owner_id=${ownerId}&include_total=true&limit=100`));
    expect(byId.pagination.total_count).to.equal(marks.filter((m) => m.owner_ids.includes(ownerId)).length);
    const ownerName = (byId.data[0]?.owners as Array<{ id: string; name: string }>).find((o) => o.id === ownerId)?.name as string;
    const byName = await json<ListBody>(await app.get(`/v1/trademarks?owner_name=${encodeURIComponent(ownerName)}&limit=100`));
    expect(byName.data.map((row) => row.id)).to.include(mark._id);
  });

  it('returns summary rows with truncated goods/services unless include=full_goods_services', async () => {
    const long = marks.find((m) => m.classifications.some((c) => c.goods_services_text.length > 200)) as TrademarkDoc;
    const path = `/v1/trademarks?application_number=${encodeURIComponent(long.application_number)}&office=${long.office_code}`;
    const summary = await json<ListBody>(await app.get(path));
    const row = summary.data.find((r) => r.id === long._id) as Record<string, unknown>;
    const longClass = long.classifications.find((c) => c.goods_services_text.length > 200) as { nice_class: number; goods_services_text: string };
    const summarized = (row.classifications as Array<{ nice_class: number; goods_services_text: string }>).find((c) => c.nice_class === longClass.nice_class);
    expect(summarized?.goods_services_text.length).to.be.at.most(201);
    expect(summarized?.goods_services_text.endsWith('…')).to.equal(true);
    expect(Object.keys(row)).to.have.members([
      'id',
      'object',
      'mark_text',
      'owner_name',
      'status',
      'office_code',
      'jurisdiction_code',
      'filing_date',
      'registration_date',
      'classifications',
      'owners',
    ]);
    const full = await json<ListBody>(await app.get(`${path}&include=full_goods_services`));
    const fullRow = full.data.find((r) => r.id === long._id) as Record<string, unknown>;
    expect(
      (fullRow.classifications as Array<{ nice_class: number; goods_services_text: string }>).find((c) => c.nice_class === longClass.nice_class)
        ?.goods_services_text,
    ).to.equal(longClass.goods_services_text);
  });

  it('POST /v1/trademarks takes the same filters as a JSON body', async () => {
    const viaGet = await json<ListBody>(await app.get('/v1/trademarks?offices=US,EM&nice_classes=25&include_total=true&sort=-filing_date'));
    const viaPost = await json<ListBody>(
      await app.post('/v1/trademarks', { offices: ['US', 'EM'], nice_classes: [25], include_total: true, sort: '-filing_date' }),
    );
    expect(viaPost.pagination.total_count).to.equal(viaGet.pagination.total_count);
    expect(viaPost.data.map((r) => r.id)).to.deep.equal(viaGet.data.map((r) => r.id));
  });

  it('POST /v1/trademarks rejects malformed JSON, non-objects, wrong types and a non-JSON content type', async () => {
    await expectError(await app.post('/v1/trademarks', '{"offices": ['), 400, 'validation_error', 'body: is not valid JSON');
    await expectError(await app.post('/v1/trademarks', '[1,2]'), 400, 'validation_error', 'body: must be a JSON object');
    await expectError(await app.post('/v1/trademarks', { has_media: 'yes' }), 400, 'validation_error', 'has_media');
    await expectError(
      await app.post('/v1/trademarks', 'offices=US', undefined, { 'content-type': 'application/x-www-form-urlencoded' }),
      400,
      'validation_error',
      'Content-Type',
    );
  });

  it('loads the parties of 100 rows with a bounded number of store calls (no N+1)', async () => {
    app.storeCalls.clear();
    const body = await json<ListBody>(await app.get('/v1/trademarks?status_primary=active,pending,inactive&limit=100'));
    expect(body.data.length).to.equal(100);
    const calls = (name: string) => app.storeCalls.get(name) ?? 0;
    expect(calls('trademarks.findByIds')).to.equal(1);
    expect(calls('owners.findByIds')).to.be.at.most(2);
    expect(calls('trademarks.find') + calls('owners.find') + calls('owners.findOne')).to.equal(0);
  });
});

describe('REST: relevance of a clearance search', function () {
  let app: TestApp;

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 60 });
    const marks = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const template = (await marks.findOne({ office_code: 'US' })) as TrademarkDoc;
    const mark = (id: string, markText: string, goods: string): TrademarkDoc => ({
      ...template,
      _id: id,
      mark_text: markText,
      application_number: `9${id.slice(-7)}`,
      classifications: [{ nice_class: 25, goods_services_text: goods, nice_edition: null }],
    });
    // The query H&M is the words h and m, each a word start. On word matches alone, generated marks
    // whose owners' names and goods hold more such words rank above H & M itself (8th and 9th of
    // this catalog without the exact-text boost).
    await marks.insertMany([mark('tm_relevanceexactsp000002', 'H & M', 'clothing'), mark('tm_relevanceexactjn000003', 'HM', 'footwear')]);
    await app.indexer.catchUp();
  });

  after(async () => app.close());

  it('ranks the marks whose whole text is the query (case, spaces and punctuation aside) first, on every page of the cursor', async () => {
    const body = await json<ListBody>(await app.get('/v1/trademarks?q=H%26M&limit=5'));
    const firstTwo = body.data.slice(0, 2).map((row) => row.id);
    expect(firstTwo.sort()).to.deep.equal(['tm_relevanceexactjn000003', 'tm_relevanceexactsp000002']);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const path = `/v1/trademarks?q=H%26M&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page: ListBody = await json<ListBody>(await app.get(path));
      paged.push(...page.data.map((row) => row.id));
      cursor = page.pagination.cursor;
    } while (cursor !== null && paged.length < 5);
    expect(paged).to.deep.equal(body.data.map((row) => row.id));
  });

  it('leaves an explicit sort alone: the exact marks take their place in filing-date order', async () => {
    const body = await json<ListBody>(await app.get('/v1/trademarks?q=H%26M&sort=-filing_date&limit=100'));
    const dates = body.data.map((row) => row.filing_date as string);
    expect(dates).to.deep.equal([...dates].sort().reverse());
  });
});

describe('REST: trademark detail, batch, changes and source', function () {
  let app: TestApp;
  let marks: TrademarkDoc[];

  beforeShared((fixture) => {
    app = fixture.app;
    marks = fixture.catalog.marks;
  });

  it('returns the full record with request_id', async () => {
    const mark = marks.find((m) => m.owner_ids.length > 0 && m.attorney_ids.length > 0) as TrademarkDoc;
    const response = await app.get(`/v1/trademarks/${mark._id}`);
    expect(response.status).to.equal(200);
    const body = await json<Record<string, unknown>>(response);
    expect(body.id).to.equal(mark._id);
    expect(body.object).to.equal('trademark');
    expect(body.request_id).to.match(/^req_/);
    expect(body.application_number).to.equal(mark.application_number);
    expect(body.status).to.deep.equal(mark.status);
    expect(body.classifications).to.deep.equal(mark.classifications);
    expect((body.owners as Array<{ id: string }>).map((o) => o.id)).to.deep.equal(mark.owner_ids);
    expect((body.attorneys as Array<{ id: string }>).map((a) => a.id)).to.deep.equal(mark.attorney_ids);
    expect(body.version).to.equal(mark.version);
    for (const field of [
      'filing_date',
      'registration_date',
      'expiry_date',
      'renewal_due_date',
      'publication_date',
      'termination_date',
      'created_at',
      'updated_at',
      'source_updated_at',
    ]) {
      expect(body[field], field).to.equal(mark[field as keyof TrademarkDoc]);
    }
    expect(body.opposition_window).to.be.an('object').with.property('status');
  });

  it('404 for an unknown trademark, 400 for a malformed ID, 400 id_type_mismatch for another kind', async () => {
    await expectError(await app.get('/v1/trademarks/tm_00000000000000000000'), 404, 'not_found');
    await expectError(await app.get('/v1/trademarks/tm_NOT-VALID'), 400, 'validation_error', 'id');
    await expectError(await app.get('/v1/trademarks/own_0123456789abcdefghjk'), 400, 'id_type_mismatch');
  });

  it('batch returns found marks in request order, unknown IDs in not_found', async () => {
    const [a, b, c] = [marks[5]!, marks[1]!, marks[9]!];
    const unknown = 'tm_zzzzzzzzzzzzzzzzzzzz';
    const body = await json<ListBody>(await app.post('/v1/trademarks/batch', { ids: [a._id, unknown, b._id, c._id, a._id] }));
    expect(body.data.map((r) => r.id)).to.deep.equal([a._id, b._id, c._id]);
    expect(body.not_found).to.deep.equal([unknown]);
    expect(body.has_more).to.equal(false);
    expect(body.pagination).to.deep.equal({ cursor: null });
    expect(body.data[0]).to.have.property('opposition_window');
  });

  it('batch allows 100 IDs and refuses 101', async () => {
    const hundred = marks.slice(0, 100).map((m) => m._id);
    const ok = await json<ListBody>(await app.post('/v1/trademarks/batch', { ids: hundred }));
    expect(ok.data.map((r) => r.id)).to.deep.equal(hundred);
    const extra = [...hundred, (marks[100] as TrademarkDoc)._id];
    await expectError(await app.post('/v1/trademarks/batch', { ids: extra }), 400, 'validation_error', 'ids: must list at most 100');
    await expectError(await app.post('/v1/trademarks/batch', { ids: ['own_0123456789abcdefghjk'] }), 400, 'id_type_mismatch', 'ids[0]');
    await expectError(await app.post('/v1/trademarks/batch', {}), 400, 'validation_error', 'ids: is required');
  });

  it('lists every version of a mark newest first, pages, and filters by changed field', async () => {
    const mark = marks.find((m) => m.version >= 3) as TrademarkDoc;
    const rows = await app.adapters.store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges).find({ trademark_id: mark._id });
    expect(rows.length).to.equal(mark.version);
    const first = await json<ListBody>(await app.get(`/v1/trademarks/${mark._id}/changes?limit=2`));
    expect(first.data.map((r) => r.version)).to.deep.equal([mark.version, mark.version - 1]);
    expect(first.data[0]?.object).to.equal('trademark_change');
    const rest = await json<ListBody>(
      await app.get(`/v1/trademarks/${mark._id}/changes?limit=100&cursor=${encodeURIComponent(first.pagination.cursor as string)}`),
    );
    expect(rest.data.map((r) => r.version)).to.deep.equal(Array.from({ length: mark.version - 2 }, (_, i) => mark.version - 2 - i));
    expect(rest.has_more).to.equal(false);
    const asc = await json<ListBody>(await app.get(`/v1/trademarks/${mark._id}/changes?sort=changed_at`));
    expect(asc.data[0]?.version).to.equal(1);
    expect(asc.data[0]?.old_values).to.equal(null);
    const field = (rows.find((r) => r.version > 1) as TrademarkChangeDoc).changed_fields[0] as string;
    const filtered = await json<ListBody>(await app.get(`/v1/trademarks/${mark._id}/changes?changed_field=${field}&limit=100`));
    expect(filtered.data.length).to.equal(rows.filter((r) => r.changed_fields.includes(field)).length);
    await expectError(await app.get(`/v1/trademarks/${mark._id}/changes?sort=version`), 400, 'validation_error', 'sort');
    await expectError(await app.get('/v1/trademarks/tm_00000000000000000000/changes'), 404, 'not_found');
  });

  it('returns the provenance of the latest raw record', async () => {
    const mark = marks[3] as TrademarkDoc;
    const body = await json<Record<string, unknown>>(await app.get(`/v1/trademarks/${mark._id}/source`));
    expect(body.object).to.equal('trademark_source');
    expect(body.trademark_id).to.equal(mark._id);
    expect(body.payload_hash).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(body.request_id).to.match(/^req_/);
    await expectError(await app.get('/v1/trademarks/tm_00000000000000000000/source'), 404, 'not_found');
  });
});
