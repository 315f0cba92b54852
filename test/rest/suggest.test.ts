import { expect } from 'chai';
import niceClasses from '../../data/nice_classes.json';
import niceTerms from '../../data/nice_terms.json';
import type { OwnerDoc, TrademarkDoc } from '../../domain/records';
import { beforeShared, type TestApp } from '../support/harness';

interface ListBody<T> {
  object: string;
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null };
  request_id: string;
}

interface MarkSuggestion {
  object: string;
  id: string;
  mark_text: string;
  office_code: string;
  match: string;
  score: number;
}

interface Suggestion {
  type: string;
  id: string;
  text: string;
  match: string;
  score: number;
}

interface ClassSuggestion {
  class: number;
  heading: string;
  score: number;
  matched_terms: Array<{ term: string; class: number; basic_number: string }>;
}

interface TermSuggestion {
  term: string;
  class: number;
  basic_number: string;
  score: number;
}

async function ok<T>(response: Response): Promise<ListBody<T>> {
  const body = (await response.json()) as ListBody<T>;
  expect(response.status, JSON.stringify(body)).to.equal(200);
  expect(body.object).to.equal('list');
  expect(body.has_more).to.equal(false);
  return body;
}

async function expect400(response: Response, parameter: string): Promise<void> {
  const body = (await response.json()) as { error: { type: string; detail: string } };
  expect(response.status, JSON.stringify(body)).to.equal(400);
  expect(body.error.type).to.equal('validation_error');
  expect(body.error.detail).to.contain(parameter);
}

const fold = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

describe('REST: suggest', function () {
  let app: TestApp;
  let marks: TrademarkDoc[];
  let owners: OwnerDoc[];

  beforeShared((fixture) => {
    app = fixture.app;
    marks = fixture.catalog.marks;
    owners = fixture.catalog.owners.filter((owner) => owner.merged_into === null);
  });

  describe('GET /v1/trademarks/suggest', () => {
    it('completes a prefix with every mark whose text starts with it first', async () => {
      const target = marks.find((m) => /^[A-Z]{8,}$/.test(m.mark_text))!;
      const prefix = target.mark_text.slice(0, 5);
      const expected = marks.filter((m) => fold(m.mark_text).startsWith(prefix.toLowerCase()));
      const body = await ok<MarkSuggestion>(await app.get(`/v1/trademarks/suggest?q=${prefix}&limit=20`));
      const prefixed = body.data.filter((s) => s.match === 'prefix' || s.match === 'exact');
      expect(prefixed.map((s) => s.id).sort()).to.deep.equal(
        expected
          .slice(0, 20)
          .map((m) => m._id)
          .sort(),
      );
      expect(body.data.slice(0, prefixed.length).map((s) => s.match)).to.not.include('fuzzy');
      expect(body.data.every((s) => s.object === 'trademark_suggestion')).to.equal(true);
      const scores = body.data.map((s) => s.score);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    });

    it('tolerates a typo', async () => {
      const target = marks.find((m) => /^[A-Z]{9,}$/.test(m.mark_text))!;
      const typo = `${target.mark_text.slice(0, 3)}${target.mark_text[3] === 'Q' ? 'X' : 'Q'}${target.mark_text.slice(4, 8)}`;
      const body = await ok<MarkSuggestion>(await app.get(`/v1/trademarks/suggest?q=${typo}&limit=20`));
      const row = body.data.find((s) => s.mark_text === target.mark_text);
      expect(row, JSON.stringify(body.data)).to.not.equal(undefined);
      expect(row!.match).to.equal('fuzzy');
    });

    it('filters by office and validates its parameters', async () => {
      const target = marks.find((m) => m.office_code === 'US' && /^[A-Z]{6,}$/.test(m.mark_text))!;
      const body = await ok<MarkSuggestion>(await app.get(`/v1/trademarks/suggest?q=${target.mark_text.slice(0, 4)}&office=us`));
      expect(body.data.length).to.be.greaterThan(0);
      expect(body.data.every((s) => s.office_code === 'US')).to.equal(true);
      await expect400(await app.get('/v1/trademarks/suggest'), 'q');
      await expect400(await app.get('/v1/trademarks/suggest?q=abc&limit=21'), 'limit');
      await expect400(await app.get('/v1/trademarks/suggest?q=abc&office=zz'), 'office');
    });
  });

  describe('GET and POST /v1/suggest', () => {
    it('returns typed owner completions', async () => {
      const owner = owners.find((o) => /^[A-Za-z]{5,}/.test(o.name))!;
      const prefix = owner.name.slice(0, 5);
      const body = await ok<Suggestion>(await app.get(`/v1/suggest?q=${encodeURIComponent(prefix)}&types=owner&limit=20`));
      expect(body.data.every((s) => s.type === 'owner')).to.equal(true);
      const expected = owners.filter((o) => fold(o.name).startsWith(fold(prefix))).map((o) => o._id);
      const prefixed = body.data.filter((s) => s.match === 'prefix' || s.match === 'exact').map((s) => s.id);
      expect(prefixed.sort()).to.deep.equal(expected.slice(0, 20).sort());
    });

    it('mixes types, ranked by score, and answers POST like GET', async () => {
      const mark = marks.find((m) => /^[A-Z]{6,}$/.test(m.mark_text))!;
      const q = mark.mark_text.slice(0, 4);
      const get = await ok<Suggestion>(await app.get(`/v1/suggest?q=${q}&types=trademark,owner,attorney,firm`));
      const post = await ok<Suggestion>(await app.post('/v1/suggest', { q, types: ['trademark', 'owner', 'attorney', 'firm'] }));
      expect(post.data).to.deep.equal(get.data);
      expect(get.data.some((s) => s.type === 'trademark')).to.equal(true);
      const scores = get.data.map((s) => s.score);
      expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    });

    it('rejects unknown types and a missing q', async () => {
      await expect400(await app.get('/v1/suggest?q=abc&types=patent'), 'types');
      await expect400(await app.post('/v1/suggest', { types: ['owner'] }), 'q');
    });
  });

  describe('POST /v1/classifications/suggest', () => {
    it('ranks the class of the standard terms the text names first', async () => {
      const body = await ok<ClassSuggestion>(await app.post('/v1/classifications/suggest', { text: 'Tee-shirts, hats and clothing' }));
      expect(body.data[0]!.class).to.equal(25);
      const class25 = niceTerms.filter((t) => t.class === 25).map((t) => t.term);
      expect(body.data[0]!.matched_terms.map((t) => t.term)).to.include.members(['tee-shirts', 'hats', 'clothing'].filter((t) => class25.includes(t)));
      expect(body.data[0]!.heading).to.equal(niceClasses.find((c) => c.class === 25)!.heading_ncl13_2026);
    });

    it('uses the 12th-edition heading on request and validates the body', async () => {
      const body = await ok<ClassSuggestion>(await app.post('/v1/classifications/suggest', { text: 'restaurant services', version: '12-2025', limit: 1 }));
      expect(body.data.map((c) => c.class)).to.deep.equal([43]);
      expect(body.data[0]!.heading).to.equal(niceClasses.find((c) => c.class === 43)!.heading);
      await expect400(await app.post('/v1/classifications/suggest', {}), 'text');
      await expect400(await app.post('/v1/classifications/suggest', { text: 'x', version: '11' }), 'version');
      await expect400(await app.post('/v1/classifications/suggest', { text: 'x', limit: 46 }), 'limit');
    });
  });

  describe('POST /v1/goods-services/suggest', () => {
    it('returns the standard term with its class and basic number', async () => {
      const body = await ok<TermSuggestion>(await app.post('/v1/goods-services/suggest', { text: 'tee-shirts' }));
      const expected = niceTerms.find((t) => t.term === 'tee-shirts')!;
      expect(body.data[0]).to.include({ term: expected.term, class: expected.class, basic_number: expected.basic_number });
    });

    it('restricts to nice_classes and validates them', async () => {
      const body = await ok<TermSuggestion>(await app.post('/v1/goods-services/suggest', { text: 'computer software', nice_classes: [42], limit: 50 }));
      expect(body.data.length).to.be.greaterThan(0);
      expect(body.data.every((t) => t.class === 42)).to.equal(true);
      await expect400(await app.post('/v1/goods-services/suggest', { text: 'software', nice_classes: [0] }), 'nice_classes');
    });

    it('needs no Idempotency-Key', async () => {
      const response = await app.post('/v1/goods-services/suggest', { text: 'coffee' });
      expect(response.status).to.equal(200);
    });
  });
});
