import { expect } from 'chai';
import eventTypes from '../../data/event_types.json';
import offices from '../../data/offices.json';
import { COLLECTIONS, type TrademarkDoc, type TrademarkEventDoc } from '../../domain/records';
import { beforeShared, startTestApp, type TestApp } from '../support/harness';
import { fails as expectError } from '../support/http';

interface ListBody<T = Record<string, unknown>> {
  object: string;
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null };
  request_id: string;
}

interface EventRow {
  id: string;
  event_type: string;
  category: string | null;
  event_type_description: string | null;
  description: string | null;
  event_date: string;
}

interface RelatedRow {
  object: string;
  relations: string[];
  similarity: number | null;
  trademark: { id: string; mark_text: string };
}

interface CoverageRow {
  jurisdiction_code: string;
  office_code: string;
  route: string;
  trademark_id: string;
  protected: boolean;
  status: { primary: string };
}

interface CoverageBody {
  object: string;
  trademark_id: string;
  ir_number: string | null;
  international_registration: { trademark_id: string } | null;
  jurisdiction_count: number;
  protected_jurisdiction_count: number;
  jurisdictions: CoverageRow[];
  request_id: string;
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  return body;
}

const covers = new Map(offices.map((o) => [o.office_code, o.covers ?? []]));

describe('REST: trademark history, related and coverage', function () {
  let app: TestApp;
  let marks: TrademarkDoc[];
  let events: TrademarkEventDoc[];

  beforeShared((fixture) => {
    app = fixture.app;
    marks = fixture.catalog.marks;
  });
  before(async () => {
    events = await app.adapters.store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents).find({});
  });

  describe('history', () => {
    const byMark = () => {
      const counts = new Map<string, TrademarkEventDoc[]>();
      for (const e of events) counts.set(e.trademark_id, [...(counts.get(e.trademark_id) ?? []), e]);
      return [...counts.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    };

    it('pages through every event newest first, with the event type meaning', async () => {
      const [markId, own] = byMark();
      const expected = [...own].sort((a, b) => (a.event_date !== b.event_date ? (a.event_date < b.event_date ? 1 : -1) : a._id < b._id ? 1 : -1));
      const seen: EventRow[] = [];
      let cursor: string | null = null;
      do {
        const body: ListBody<EventRow> = await json(
          await app.get(`/v1/trademarks/${markId}/history?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        seen.push(...body.data);
        cursor = body.pagination.cursor;
      } while (cursor);
      expect(seen.map((e) => e.id)).to.deep.equal(expected.map((e) => e._id));
      const first = seen[0]!;
      const type = eventTypes.find((t) => t.code === first.event_type)!;
      expect(first.category).to.equal(type.category);
      expect(first.event_type_description).to.equal(type.description);
      expect(first.description).to.equal(expected[0]!.description);
    });

    it('sorts oldest first on request and filters by type and category', async () => {
      const [markId, own] = byMark();
      const asc: ListBody<EventRow> = await json(await app.get(`/v1/trademarks/${markId}/history?sort=event_date&limit=100`));
      const dates = asc.data.map((e) => e.event_date);
      expect(dates).to.deep.equal([...own.map((e) => e.event_date)].sort());
      const category = eventTypes.find((t) => t.code === own[0]!.event_type)!.category;
      const codes = new Set(eventTypes.filter((t) => t.category === category).map((t) => t.code));
      const byCategory: ListBody<EventRow> = await json(await app.get(`/v1/trademarks/${markId}/history?category=${category}&limit=100`));
      expect(byCategory.data.map((e) => e.id).sort()).to.deep.equal(
        own
          .filter((e) => codes.has(e.event_type))
          .map((e) => e._id)
          .sort(),
      );
      const byType: ListBody<EventRow> = await json(await app.get(`/v1/trademarks/${markId}/history?event_type=${own[0]!.event_type}&limit=100`));
      expect(byType.data.map((e) => e.id).sort()).to.deep.equal(
        own
          .filter((e) => e.event_type === own[0]!.event_type)
          .map((e) => e._id)
          .sort(),
      );
    });

    it('answers 400 for a bad sort or category and 404 for an unknown mark', async () => {
      const [markId] = byMark();
      await expectError(await app.get(`/v1/trademarks/${markId}/history?sort=-date`), 400, 'validation_error');
      await expectError(await app.get(`/v1/trademarks/${markId}/history?category=nope`), 400, 'validation_error');
      await expectError(await app.get('/v1/trademarks/tm_0000000000000000000z/history'), 404, 'not_found');
      await expectError(await app.get('/v1/trademarks/own_0000000000000000000z/history'), 400, 'id_type_mismatch');
    });
  });

  describe('related', () => {
    it('lists the Madrid family of a designation', async () => {
      const families = new Map<string, TrademarkDoc[]>();
      for (const m of marks) if (m.ir_number) families.set(m.ir_number, [...(families.get(m.ir_number) ?? []), m]);
      const family = [...families.values()].find((f) => f.length >= 3)!;
      const designation = family.find((m) => m.scope_kind !== 'international')!;
      const body: ListBody<RelatedRow> = await json(await app.get(`/v1/trademarks/${designation._id}/related`));
      const familyRows = body.data.filter((r) => r.relations.includes('madrid_family'));
      expect(familyRows.map((r) => r.trademark.id).sort()).to.deep.equal(
        family
          .filter((m) => m._id !== designation._id)
          .map((m) => m._id)
          .sort(),
      );
      expect(body.data.every((r) => r.object === 'related_trademark')).to.equal(true);
      expect(body.has_more).to.equal(false);
    });

    it('finds marks of the same owner with the same or similar text', async () => {
      const pair = marks.flatMap((a) =>
        marks
          .filter(
            (b) =>
              b._id !== a._id &&
              b.mark_text === a.mark_text &&
              b.ir_number === null &&
              a.ir_number === null &&
              b.owner_ids.some((o) => a.owner_ids.includes(o)),
          )
          .map((b) => [a, b] as const),
      )[0]!;
      expect(pair, 'fixture has a refiled mark').to.not.equal(undefined);
      const [mark, twin] = pair;
      const body: ListBody<RelatedRow> = await json(await app.get(`/v1/trademarks/${mark._id}/related`));
      const row = body.data.find((r) => r.trademark.id === twin._id)!;
      expect(row.relations).to.include('same_owner_similar_text');
      expect(row.similarity).to.equal(1);
      for (const other of body.data.filter((r) => r.relations.includes('same_owner_similar_text'))) {
        const doc = marks.find((m) => m._id === other.trademark.id)!;
        expect(doc.owner_ids.some((o) => mark.owner_ids.includes(o))).to.equal(true);
      }
    });

    it('answers 404 for an unknown mark', async () => {
      await expectError(await app.get('/v1/trademarks/tm_0000000000000000000z/related'), 404, 'not_found');
    });
  });

  describe('coverage', () => {
    it('covers the designated jurisdictions of a Madrid family, the IR reported apart', async () => {
      const ir = marks.find((m) => m.scope_kind === 'international' && marks.filter((d) => d.ir_number === m.ir_number).length >= 3)!;
      const designations = marks.filter((m) => m.ir_number === ir.ir_number && m._id !== ir._id);
      const body: CoverageBody = await json(await app.get(`/v1/trademarks/${ir._id}/coverage`));
      const expected = designations.flatMap((d) =>
        ((covers.get(d.office_code) ?? []).length > 0 ? covers.get(d.office_code)! : [d.jurisdiction_code]).map((j) => `${j}:${d._id}`),
      );
      expect(body.jurisdictions.map((j) => `${j.jurisdiction_code}:${j.trademark_id}`).sort()).to.deep.equal(expected.sort());
      expect(body.international_registration?.trademark_id).to.equal(ir._id);
      expect(body.jurisdictions.every((j) => j.route === 'madrid_designation')).to.equal(true);
      for (const row of body.jurisdictions) expect(row.protected).to.equal(designations.find((d) => d._id === row.trademark_id)!.status.primary === 'active');
      const fromDesignation: CoverageBody = await json(await app.get(`/v1/trademarks/${designations[0]!._id}/coverage`));
      expect(fromDesignation.jurisdictions.length).to.equal(body.jurisdictions.length);
    });

    it('covers every EU member state for an EU mark and one jurisdiction for a national mark', async () => {
      const em = marks.find((m) => m.office_code === 'EM' && m.ir_number === null)!;
      const body: CoverageBody = await json(await app.get(`/v1/trademarks/${em._id}/coverage`));
      expect(body.jurisdictions.map((j) => j.jurisdiction_code)).to.deep.equal([...covers.get('EM')!].sort());
      expect(body.jurisdiction_count).to.equal(27);
      expect(body.jurisdictions.every((j) => j.route === 'regional' && j.office_code === 'EM')).to.equal(true);
      expect(body.international_registration).to.equal(null);
      const us = marks.find((m) => m.office_code === 'US' && m.ir_number === null && m.status.primary === 'active')!;
      const national: CoverageBody = await json(await app.get(`/v1/trademarks/${us._id}/coverage`));
      expect(national.jurisdictions.map((j) => [j.jurisdiction_code, j.route, j.protected])).to.deep.equal([['US', 'national', true]]);
      expect(national.protected_jurisdiction_count).to.equal(1);
      expect(national.object).to.equal('trademark_coverage');
      expect(national.request_id).to.match(/^req_/);
    });

    it('answers 404 for an unknown mark', async () => {
      await expectError(await app.get('/v1/trademarks/tm_0000000000000000000z/coverage'), 404, 'not_found');
    });
  });
});

describe('REST: related series marks (changes data)', function () {
  let app: TestApp;

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 300 });
  });

  after(async () => app.close());

  it('relates marks sharing a series_id', async () => {
    const marks = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const [first] = await marks.find({ office_code: 'GB', ir_number: null }, { limit: 1 });
    const seriesId = `S-${first!._id}`;
    const sibling: TrademarkDoc = {
      ...first!,
      _id: 'tm_series0000000000000z',
      mark_text: `${first!.mark_text} PLUS`,
      series_id: seriesId,
      is_series_mark: true,
      owner_ids: [],
    };
    await marks.updateOne({ _id: first!._id }, { $set: { series_id: seriesId, is_series_mark: true } });
    await marks.insertOne(sibling);
    await app.indexer.catchUp();
    const body: ListBody<RelatedRow> = await json(await app.get(`/v1/trademarks/${first!._id}/related`));
    const row = body.data.find((r) => r.trademark.id === sibling._id)!;
    expect(row.relations).to.deep.equal(['series']);
    expect(row.similarity).to.equal(null);
  });
});
