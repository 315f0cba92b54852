/**
 * The SearchIndex contract: every adapter must pass these unchanged. Expected values are worked
 * out by hand from FIXTURES below and the port's documented rules (sort keys then id ascending,
 * nulls last in both directions, array fields match when any value matches).
 */
import { expect } from 'chai';
import {
  UnsupportedQueryError,
  type IndexDefinition,
  type IndexDocument,
  type SearchFilter,
  type SearchIndex,
  type SearchQuery,
  type SearchSort,
} from '../../datasources/ports';

export const CONTRACT_DEFINITION: IndexDefinition = {
  name: 'contract_marks',
  fields: {
    mark_text: { kind: 'text', boost: 4 },
    owner_names: { kind: 'text', array: true, boost: 1 },
    goods_text: { kind: 'text', boost: 0.5 },
    office: { kind: 'keyword', sortable: true },
    status: { kind: 'keyword' },
    tags: { kind: 'keyword', array: true },
    classes: { kind: 'number', array: true },
    filing_date: { kind: 'date', sortable: true },
    expiry_date: { kind: 'date', sortable: true },
    updated_at: { kind: 'date', sortable: true },
    rank: { kind: 'number', sortable: true },
    is_live: { kind: 'boolean', sortable: true },
  },
};

const INDEX = CONTRACT_DEFINITION.name;

const FIXTURES: IndexDocument[] = [
  {
    id: 'tm_01',
    mark_text: 'ZEPHYR',
    owner_names: ['Acme Corp'],
    goods_text: 'clothing, footwear',
    office: 'US',
    status: 'active',
    tags: ['opposed'],
    classes: [25],
    filing_date: '2020-01-15',
    expiry_date: '2030-01-15',
    updated_at: '2024-05-01T10:00:00.000Z',
    rank: 5,
    is_live: true,
  },
  {
    id: 'tm_02',
    mark_text: 'Blue Horizon',
    owner_names: ['Horizon Ltd', 'Acme Corp'],
    goods_text: 'zephyr fans and ventilators',
    office: 'EM',
    status: 'pending',
    tags: [],
    classes: [9, 11],
    filing_date: '2021-06-01',
    expiry_date: null,
    updated_at: '2024-04-30T23:59:59.000Z',
    rank: 2,
    is_live: false,
  },
  {
    id: 'tm_03',
    mark_text: 'Café Noir',
    owner_names: ['Société Générale'],
    goods_text: 'coffee',
    office: 'FR',
    status: 'active',
    tags: ['opposed', 'appealed'],
    classes: [30, 43],
    filing_date: '2019-03-10',
    expiry_date: '2029-03-10',
    updated_at: '2024-05-02T00:00:00.000Z',
    rank: null,
    is_live: true,
  },
  {
    id: 'tm_04',
    mark_text: 'HP',
    owner_names: ['Hewlett Packard'],
    goods_text: 'computers',
    office: 'US',
    status: 'inactive',
    tags: ['appealed'],
    classes: [9],
    filing_date: '2015-07-20',
    expiry_date: '2025-07-20',
    updated_at: '2024-01-01T00:00:00.000Z',
    rank: 9,
    is_live: false,
  },
  {
    id: 'tm_05',
    mark_text: 'Supernova',
    owner_names: ['Nova Industries'],
    goods_text: 'rockets',
    office: 'GB',
    status: 'pending',
    classes: [12],
    filing_date: '2022-11-30',
    expiry_date: null,
    updated_at: '2023-12-31T12:00:00.000Z',
    rank: 1,
    is_live: null,
  },
  {
    id: 'tm_06',
    mark_text: 'Nova Star',
    owner_names: ['Acme Corp'],
    goods_text: 'toys',
    office: 'EM',
    status: 'active',
    tags: [],
    classes: [28],
    filing_date: '2020-01-15',
    expiry_date: '2030-01-15',
    updated_at: '2024-05-01T10:00:00.000Z',
    rank: 5,
    is_live: true,
  },
];

const ALL_IDS = FIXTURES.map((doc) => doc.id);

export function describeSearchIndexContract(name: string, open: () => Promise<SearchIndex>): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let index: SearchIndex;

    beforeEach(async () => {
      index = await open();
      await index.ensureIndex(CONTRACT_DEFINITION);
      await index.upsert(INDEX, FIXTURES);
      await index.markFilled(INDEX);
    });

    afterEach(async () => {
      await index.close();
    });

    function search(overrides: Partial<SearchQuery>): ReturnType<SearchIndex['search']> {
      return index.search({ index: INDEX, filters: [], sort: [], limit: 100, ...overrides });
    }

    async function idsMatching(...filters: SearchFilter[]): Promise<string[]> {
      return (await search({ filters })).hits.map((hit) => hit.id);
    }

    async function idsFor(text: string, extra: Partial<SearchQuery> = {}): Promise<string[]> {
      return (await search({ text, ...extra })).hits.map((hit) => hit.id);
    }

    it('asks for a refill when the definition gains a field (its documents lack it), not when it is ensured unchanged', async () => {
      expect((await index.ensureIndex(CONTRACT_DEFINITION)).needsRefill).to.equal(false);
      const grown = { ...CONTRACT_DEFINITION, fields: { ...CONTRACT_DEFINITION.fields, number_key: { kind: 'keyword' as const } } };
      expect((await index.ensureIndex(grown)).needsRefill).to.equal(true);
      await index.markFilled(INDEX);
      expect((await index.ensureIndex(grown)).needsRefill).to.equal(false);
    });

    it('keeps asking for a refill until one is marked finished: a process stopped in the middle of it leaves it to the next', async () => {
      const revised = { ...CONTRACT_DEFINITION, revision: (CONTRACT_DEFINITION.revision ?? 0) + 1 };
      expect((await index.ensureIndex(revised)).needsRefill).to.equal(true);
      // No markFilled: the refill was cut short.
      expect((await index.ensureIndex(revised)).needsRefill).to.equal(true);
      await index.upsert(INDEX, FIXTURES);
      await index.markFilled(INDEX);
      expect((await index.ensureIndex(revised)).needsRefill).to.equal(false);
    });

    it('asks for a refill when the definition names another revision (same fields, values written differently)', async () => {
      expect((await index.ensureIndex(CONTRACT_DEFINITION)).needsRefill).to.equal(false);
      const revised = { ...CONTRACT_DEFINITION, revision: (CONTRACT_DEFINITION.revision ?? 0) + 1 };
      expect((await index.ensureIndex(revised)).needsRefill).to.equal(true);
      await index.markFilled(INDEX);
      expect((await index.ensureIndex(revised)).needsRefill).to.equal(false);
      expect((await index.ensureIndex(CONTRACT_DEFINITION)).needsRefill).to.equal(true);
    });

    describe('filters', () => {
      it('eq on scalar keyword, number-array, keyword-array and boolean fields', async () => {
        expect(await idsMatching({ field: 'office', op: 'eq', value: 'US' })).to.deep.equal(['tm_01', 'tm_04']);
        expect(await idsMatching({ field: 'tags', op: 'eq', value: 'opposed' })).to.deep.equal(['tm_01', 'tm_03']);
        expect(await idsMatching({ field: 'classes', op: 'eq', value: 9 })).to.deep.equal(['tm_02', 'tm_04']);
        expect(await idsMatching({ field: 'is_live', op: 'eq', value: true })).to.deep.equal(['tm_01', 'tm_03', 'tm_06']);
      });

      it('in on scalar and array fields; an empty list matches nothing', async () => {
        expect(await idsMatching({ field: 'office', op: 'in', values: ['EM', 'GB'] })).to.deep.equal(['tm_02', 'tm_05', 'tm_06']);
        expect(await idsMatching({ field: 'classes', op: 'in', values: [25, 30] })).to.deep.equal(['tm_01', 'tm_03']);
        expect(await idsMatching({ field: 'office', op: 'in', values: [] })).to.deep.equal([]);
      });

      it('eq and in on the document id, combined with field filters', async () => {
        expect(await idsMatching({ field: 'id', op: 'eq', value: 'tm_03' })).to.deep.equal(['tm_03']);
        expect(await idsMatching({ field: 'id', op: 'in', values: ['tm_05', 'tm_01', 'tm_99'] })).to.deep.equal(['tm_01', 'tm_05']);
        expect(await idsMatching({ field: 'id', op: 'in', values: ['tm_01', 'tm_04', 'tm_05'] }, { field: 'office', op: 'eq', value: 'US' })).to.deep.equal([
          'tm_01',
          'tm_04',
        ]);
        expect(await idsMatching({ field: 'id', op: 'in', values: [] })).to.deep.equal([]);
      });

      it('range on dates (YYYY-MM-DD and ISO timestamps compare as strings), numbers and number arrays', async () => {
        expect(await idsMatching({ field: 'filing_date', op: 'range', gte: '2020-01-15', lt: '2022-01-01' })).to.deep.equal(['tm_01', 'tm_02', 'tm_06']);
        expect(await idsMatching({ field: 'updated_at', op: 'range', gt: '2024-04-30T23:59:59.000Z', lte: '2024-05-01T10:00:00.000Z' })).to.deep.equal([
          'tm_01',
          'tm_06',
        ]);
        expect(await idsMatching({ field: 'rank', op: 'range', gt: 2, lte: 5 })).to.deep.equal(['tm_01', 'tm_06']);
        expect(await idsMatching({ field: 'classes', op: 'range', gte: 28, lte: 30 })).to.deep.equal(['tm_03', 'tm_06']);
      });

      it('exists on scalar fields and on array fields (empty arrays count as missing)', async () => {
        expect(await idsMatching({ field: 'expiry_date', op: 'exists', value: true })).to.deep.equal(['tm_01', 'tm_03', 'tm_04', 'tm_06']);
        expect(await idsMatching({ field: 'expiry_date', op: 'exists', value: false })).to.deep.equal(['tm_02', 'tm_05']);
        expect(await idsMatching({ field: 'tags', op: 'exists', value: true })).to.deep.equal(['tm_01', 'tm_03', 'tm_04']);
        expect(await idsMatching({ field: 'tags', op: 'exists', value: false })).to.deep.equal(['tm_02', 'tm_05', 'tm_06']);
      });

      it('or of filters on different fields', async () => {
        const filter: SearchFilter = {
          op: 'or',
          filters: [
            { field: 'office', op: 'eq', value: 'GB' },
            { field: 'tags', op: 'eq', value: 'appealed' },
          ],
        };
        expect(await idsMatching(filter)).to.deep.equal(['tm_03', 'tm_04', 'tm_05']);
      });

      it('not also matches documents where the field is missing or empty', async () => {
        expect(await idsMatching({ op: 'not', filter: { field: 'office', op: 'eq', value: 'US' } })).to.deep.equal(['tm_02', 'tm_03', 'tm_05', 'tm_06']);
        expect(await idsMatching({ op: 'not', filter: { field: 'is_live', op: 'eq', value: true } })).to.deep.equal(['tm_02', 'tm_04', 'tm_05']);
        expect(await idsMatching({ op: 'not', filter: { field: 'tags', op: 'eq', value: 'opposed' } })).to.deep.equal(['tm_02', 'tm_04', 'tm_05', 'tm_06']);
        expect(await idsMatching({ op: 'not', filter: { field: 'rank', op: 'range', gte: 5 } })).to.deep.equal(['tm_02', 'tm_03', 'tm_05']);
      });

      it('several filters combine with AND', async () => {
        expect(await idsMatching({ field: 'status', op: 'eq', value: 'active' }, { field: 'classes', op: 'in', values: [25, 28] })).to.deep.equal([
          'tm_01',
          'tm_06',
        ]);
      });

      it('match filters one text field without affecting scores', async () => {
        expect(await idsMatching({ field: 'owner_names', op: 'match', text: 'acme' })).to.deep.equal(['tm_01', 'tm_02', 'tm_06']);
        expect(await idsMatching({ op: 'not', filter: { field: 'owner_names', op: 'match', text: 'ACME corp' } })).to.deep.equal(['tm_03', 'tm_04', 'tm_05']);
        const result = await search({ filters: [{ field: 'mark_text', op: 'match', text: 'nova' }] });
        expect(result.hits.map((hit) => [hit.id, hit.score])).to.deep.equal([
          ['tm_05', null],
          ['tm_06', null],
        ]);
      });

      it('rejects comparisons on text fields, unknown fields and values of the wrong type', async () => {
        for (const filter of [
          { field: 'mark_text', op: 'eq', value: 'HP' },
          { field: 'nope', op: 'eq', value: 'x' },
          { field: 'rank', op: 'eq', value: '5' },
          { field: 'office', op: 'match', text: 'US' },
        ] as SearchFilter[]) {
          const failure = await search({ filters: [filter] }).then(
            () => null,
            (error: unknown) => error,
          );
          expect(failure, JSON.stringify(filter)).to.be.instanceOf(UnsupportedQueryError);
        }
      });
    });

    describe('text', () => {
      it('ranks a mark_text match above a goods-only match and reports scores', async () => {
        const { hits } = await search({ text: 'zephyr', sort: [{ field: '_score', direction: 'desc' }] });
        expect(hits.map((hit) => hit.id)).to.deep.equal(['tm_01', 'tm_02']);
        expect(hits[0]!.score)
          .to.be.a('number')
          .greaterThan(hits[1]!.score as number);
        expect(hits[0]!.sortValues).to.deep.equal([hits[0]!.score, 'tm_01']);
      });

      it('a boost lifts the documents whose keyword field equals its value above the text ranking, in hits, counts and pages', async () => {
        const byScore: SearchSort[] = [{ field: '_score', direction: 'desc' }];
        const boosts = [{ field: 'office', value: 'EM', boost: 1000 }];
        // Unboosted, tm_01 (ZEPHYR in its mark text) ranks above tm_02 (zephyr in its goods only).
        const boosted = await search({ text: 'zephyr', sort: byScore, boosts, countUpTo: 100 });
        expect(boosted.hits.map((hit) => hit.id)).to.deep.equal(['tm_02', 'tm_01']);
        expect(boosted.total).to.deep.equal({ value: 2, approximate: false });
        const filtered = await search({ text: 'zephyr', sort: byScore, boosts, filters: [{ field: 'status', op: 'eq', value: 'active' }], countUpTo: 100 });
        expect(filtered.hits.map((hit) => hit.id)).to.deep.equal(['tm_01']);
        expect(filtered.total).to.deep.equal({ value: 1, approximate: false });
        // 'acme' names tm_01, tm_02 and tm_06 (the last two at EM): the EM pair first, the boost kept across pages.
        const whole = (await search({ text: 'acme', sort: byScore, boosts })).hits.map((hit) => hit.id);
        expect(whole.slice(0, 2).sort()).to.deep.equal(['tm_02', 'tm_06']);
        expect(whole[2]).to.equal('tm_01');
        const paged: string[] = [];
        let searchAfter: SearchQuery['searchAfter'];
        for (let page = 0; page < 5; page += 1) {
          const { hits } = await search({ text: 'acme', sort: byScore, boosts, limit: 1, searchAfter });
          if (hits.length === 0) break;
          paged.push(...hits.map((hit) => hit.id));
          searchAfter = hits[hits.length - 1]!.sortValues;
        }
        expect(paged).to.deep.equal(whole);
      });

      it('a boost does nothing to a query sorted by a field', async () => {
        const { hits } = await search({ text: 'acme', sort: [{ field: 'rank', direction: 'desc' }], boosts: [{ field: 'office', value: 'EM', boost: 1000 }] });
        expect(hits.map((hit) => [hit.id, hit.score])).to.deep.equal([
          ['tm_01', null],
          ['tm_06', null],
          ['tm_02', null],
        ]);
      });

      it('rejects a boost on a field that is not a scalar keyword, or that is not positive', async () => {
        for (const boost of [
          { field: 'mark_text', value: 'zephyr', boost: 10 },
          { field: 'tags', value: 'opposed', boost: 10 },
          { field: 'office', value: 'EM', boost: 0 },
          { field: 'office', value: 'EM', boost: Number.NaN },
        ]) {
          const failure = await search({ text: 'zephyr', sort: [{ field: '_score', direction: 'desc' }], boosts: [boost] }).then(
            () => null,
            (error: unknown) => error,
          );
          expect(failure, JSON.stringify(boost)).to.be.instanceOf(UnsupportedQueryError);
        }
      });

      it('sorted by a field, computes no relevance: no score, ties in id order', async () => {
        // 'acme' is an owner of tm_01, tm_02 (rank 2) and tm_06; tm_01 and tm_06 share rank 5, so
        // their order comes from the id alone.
        const { hits } = await search({ text: 'acme', sort: [{ field: 'rank', direction: 'desc' }] });
        expect(hits.map((hit) => [hit.id, hit.score])).to.deep.equal([
          ['tm_01', null],
          ['tm_06', null],
          ['tm_02', null],
        ]);
        expect(hits[0]!.sortValues).to.deep.equal([5, 'tm_01']);
      });

      it('matches substrings of 3+ characters, ignoring case and diacritics', async () => {
        expect(await idsFor('upernov')).to.deep.equal(['tm_05']);
        expect(await idsFor('CAFE')).to.deep.equal(['tm_03']);
        expect(await idsFor('café noir')).to.deep.equal(['tm_03']);
        expect(await idsFor('societe')).to.deep.equal(['tm_03']);
      });

      it('finds a record by its own text in any script and in compatibility forms, as NFKD folds them (й to и, ά to α, full-width to ASCII, ™ to TM, ² to 2)', async () => {
        const texts = ['ЙОГУРТИКА', 'ΆΛΦΑΤΕΚ', 'ＳＯＮＡＲＩＸ', 'ACMEX™', 'H²OLOGY', 'ЁЛКАСОФТ'];
        await index.upsert(
          INDEX,
          texts.map((text, i) => ({ id: `tm_u${i}`, mark_text: text, owner_names: [`Владелец ${text}`], goods_text: null })),
        );
        for (const [i, text] of texts.entries()) {
          expect(await idsFor(text, { textFields: ['mark_text'] }), text).to.deep.equal([`tm_u${i}`]);
          expect(await idsFor(`владелец ${text.toLowerCase()}`, { textFields: ['owner_names'] }), `owner ${text}`).to.deep.equal([`tm_u${i}`]);
        }
        expect(await idsFor('sonarix')).to.deep.equal(['tm_u2']);
        expect(await idsFor('αλφατεκ')).to.deep.equal(['tm_u1']);
        expect(await idsFor('acmextm')).to.deep.equal(['tm_u3']);
        expect(await idsFor('h2ology')).to.deep.equal(['tm_u4']);
      });

      // Expected spellings: Lucene's ASCIIFoldingFilter (Elasticsearch's asciifolding), CLDR Latin-ASCII for these letters.
      it('finds a record written with Latin letters that have no decomposition by their ASCII forms (ø to o, ł to l, ß to ss, æ to ae)', async () => {
        const texts = ['ØRSTED', 'ŁÓDŹ', 'STRAßE', 'ÆRØ'];
        await index.upsert(
          INDEX,
          texts.map((text, i) => ({ id: `tm_l${i}`, mark_text: text, owner_names: [`${text} A/S`], goods_text: null })),
        );
        for (const [i, typed] of ['orsted', 'lodz', 'strasse', 'aero'].entries()) {
          expect(await idsFor(typed, { textFields: ['mark_text'] }), typed).to.deep.equal([`tm_l${i}`]);
          expect(await idsFor(typed, { textFields: ['owner_names'] }), `owner ${typed}`).to.deep.equal([`tm_l${i}`]);
          expect(await idsFor(texts[i]!.toLowerCase(), { textFields: ['mark_text'] }), texts[i]).to.deep.equal([`tm_l${i}`]);
        }
      });

      it('requires every term, wherever it occurs among the text fields', async () => {
        expect(await idsFor('horizon ventilators')).to.deep.equal(['tm_02']);
        expect(await idsFor('horizon rockets')).to.deep.equal([]);
      });

      it('matches 1–2 character terms as word prefixes', async () => {
        expect(await idsFor('hp')).to.deep.equal(['tm_04']);
        expect(await idsFor('n', { textFields: ['mark_text'] })).to.deep.equal(['tm_03', 'tm_06']);
        expect(await idsFor('nova st')).to.deep.equal(['tm_06']);
      });

      it('searches only the given textFields', async () => {
        expect(await idsFor('zephyr', { textFields: ['mark_text'] })).to.deep.equal(['tm_01']);
        expect(await idsFor('acme', { textFields: ['mark_text', 'goods_text'] })).to.deep.equal([]);
      });

      it('matches nothing for text without letters or digits', async () => {
        const result = await search({ text: ' -- ', countUpTo: 10 });
        expect(result.hits).to.deep.equal([]);
        expect(result.total).to.deep.equal({ value: 0, approximate: false });
      });
    });

    describe('sort and paging', () => {
      async function sortedIds(sort: SearchSort[], filters: SearchFilter[] = []): Promise<string[]> {
        return (await search({ sort, filters })).hits.map((hit) => hit.id);
      }

      it('sorts ascending with nulls last and id as tiebreaker', async () => {
        expect(await sortedIds([{ field: 'expiry_date', direction: 'asc' }])).to.deep.equal(['tm_04', 'tm_03', 'tm_01', 'tm_06', 'tm_02', 'tm_05']);
      });

      it('sorts descending with nulls still last and id still ascending', async () => {
        expect(await sortedIds([{ field: 'expiry_date', direction: 'desc' }])).to.deep.equal(['tm_01', 'tm_06', 'tm_03', 'tm_04', 'tm_02', 'tm_05']);
        expect(await sortedIds([{ field: 'rank', direction: 'desc' }])).to.deep.equal(['tm_04', 'tm_01', 'tm_06', 'tm_02', 'tm_05', 'tm_03']);
      });

      it('sorts by several keys and orders by id alone without sort', async () => {
        expect(
          await sortedIds([
            { field: 'office', direction: 'desc' },
            { field: 'filing_date', direction: 'asc' },
          ]),
        ).to.deep.equal(['tm_04', 'tm_01', 'tm_05', 'tm_03', 'tm_06', 'tm_02']);
        expect(await sortedIds([])).to.deep.equal(ALL_IDS);
      });

      it('reports sort values in their field types, then the id', async () => {
        const { hits } = await search({
          sort: [
            { field: 'is_live', direction: 'asc' },
            { field: 'rank', direction: 'asc' },
          ],
        });
        expect(hits.map((hit) => hit.sortValues)).to.deep.equal([
          [false, 2, 'tm_02'],
          [false, 9, 'tm_04'],
          [true, 5, 'tm_01'],
          [true, 5, 'tm_06'],
          [true, null, 'tm_03'],
          [null, 1, 'tm_05'],
        ]);
      });

      it('rejects sorting by a field that is not sortable, or by _score without text', async () => {
        for (const sort of [[{ field: 'status', direction: 'asc' }], [{ field: '_score', direction: 'desc' }]] as SearchSort[][]) {
          const failure = await search({ sort }).then(
            () => null,
            (error: unknown) => error,
          );
          expect(failure, JSON.stringify(sort)).to.be.instanceOf(UnsupportedQueryError);
        }
      });

      const pagedSorts: Array<{ label: string; sort: SearchSort[]; text?: string }> = [
        { label: 'expiry_date asc (nulls)', sort: [{ field: 'expiry_date', direction: 'asc' }] },
        { label: 'expiry_date desc (nulls)', sort: [{ field: 'expiry_date', direction: 'desc' }] },
        {
          label: 'is_live desc, rank asc (nulls in both)',
          sort: [
            { field: 'is_live', direction: 'desc' },
            { field: 'rank', direction: 'asc' },
          ],
        },
        { label: 'id only', sort: [] },
        { label: '_score desc', sort: [{ field: '_score', direction: 'desc' }], text: 'acme' },
      ];
      for (const { label, sort, text } of pagedSorts) {
        it(`pages with searchAfter through the whole result without duplicates or gaps: ${label}`, async () => {
          const whole = (await search({ sort, text })).hits.map((hit) => hit.id);
          const paged: string[] = [];
          let searchAfter: SearchQuery['searchAfter'];
          for (let page = 0; page < 10; page += 1) {
            const { hits } = await search({ sort, text, limit: 2, searchAfter });
            if (hits.length === 0) break;
            paged.push(...hits.map((hit) => hit.id));
            searchAfter = hits[hits.length - 1]!.sortValues;
          }
          expect(paged).to.deep.equal(whole);
          expect(whole).to.have.length(text ? 3 : 6);
        });
      }
    });

    describe('snapshots and writes', () => {
      it('a snapshot excludes documents first indexed after it, even when they sort first', async () => {
        const snapshot = await index.currentSnapshot(INDEX);
        await index.upsert(INDEX, [{ id: 'tm_00', mark_text: 'Aardvark', office: 'AA', filing_date: '1990-01-01' }]);
        const sort: SearchSort[] = [{ field: 'filing_date', direction: 'asc' }];
        const pinned = await search({ sort, snapshot, limit: 2 });
        expect(pinned.hits.map((hit) => hit.id)).to.deep.equal(['tm_04', 'tm_03']);
        expect(pinned.snapshot).to.equal(snapshot);
        const current = await search({ sort, limit: 2 });
        expect(current.hits.map((hit) => hit.id)).to.deep.equal(['tm_00', 'tm_04']);
        expect(current.snapshot).to.equal(await index.currentSnapshot(INDEX));
        expect(current.snapshot).to.be.greaterThan(snapshot);
      });

      it('re-upserting a document replaces its values but keeps its first-indexed sequence', async () => {
        const snapshot = await index.currentSnapshot(INDEX);
        await index.upsert(INDEX, [{ ...FIXTURES[1]!, goods_text: 'fans', tags: ['renewed'], office: 'US' }]);
        expect(await index.currentSnapshot(INDEX)).to.equal(snapshot);
        const pinned = await search({ filters: [{ field: 'office', op: 'eq', value: 'US' }], snapshot });
        expect(pinned.hits.map((hit) => hit.id)).to.deep.equal(['tm_01', 'tm_02', 'tm_04']);
        expect(await idsFor('zephyr')).to.deep.equal(['tm_01']);
        expect(await idsMatching({ field: 'tags', op: 'eq', value: 'renewed' })).to.deep.equal(['tm_02']);
      });

      it('a document upserted twice in one batch keeps the last values', async () => {
        await index.upsert(INDEX, [
          { id: 'tm_07', mark_text: 'First', tags: ['a'] },
          { id: 'tm_07', mark_text: 'Second', tags: ['b'] },
        ]);
        expect(await idsFor('second')).to.deep.equal(['tm_07']);
        expect(await idsFor('first')).to.deep.equal([]);
        expect(await idsMatching({ field: 'tags', op: 'in', values: ['a', 'b'] })).to.deep.equal(['tm_07']);
      });

      it('remove deletes documents from search, filters and terms; unknown ids are ignored', async () => {
        await index.remove(INDEX, ['tm_01', 'tm_99']);
        expect(await idsFor('zephyr')).to.deep.equal(['tm_02']);
        expect(await idsMatching({ field: 'tags', op: 'eq', value: 'opposed' })).to.deep.equal(['tm_03']);
        expect(await index.terms(INDEX, 'classes', [], 10))
          .to.deep.include({ value: 9, count: 2 })
          .and.not.deep.include({ value: 25, count: 1 });
      });

      it('rejects documents with undeclared fields or values of the wrong kind', async () => {
        for (const doc of [
          { id: 'tm_08', colour: 'red' },
          { id: 'tm_08', tags: 'opposed' },
          { id: 'tm_08', rank: 'high' },
        ] as IndexDocument[]) {
          const failure = await index.upsert(INDEX, [doc]).then(
            () => null,
            (error: unknown) => error,
          );
          expect(failure, JSON.stringify(doc)).to.be.instanceOf(UnsupportedQueryError);
        }
      });
    });

    describe('counts and terms', () => {
      it('counts exactly below the cap and reports the cap as approximate above it', async () => {
        expect((await search({ countUpTo: 10, limit: 1 })).total).to.deep.equal({ value: 6, approximate: false });
        expect((await search({ countUpTo: 6, limit: 1 })).total).to.deep.equal({ value: 6, approximate: false });
        expect((await search({ countUpTo: 3, limit: 1 })).total).to.deep.equal({ value: 3, approximate: true });
        const filtered = await search({ countUpTo: 10, limit: 1, filters: [{ field: 'office', op: 'eq', value: 'EM' }] });
        expect(filtered.total).to.deep.equal({ value: 2, approximate: false });
        expect(filtered.hits).to.have.length(1);
        expect((await search({ text: 'acme', countUpTo: 10 })).total).to.deep.equal({ value: 3, approximate: false });
      });

      it('counts the whole result, not only what follows searchAfter', async () => {
        const result = await search({ countUpTo: 10, limit: 1, searchAfter: ['tm_03'] });
        expect(result.hits.map((hit) => hit.id)).to.deep.equal(['tm_04']);
        expect(result.total).to.deep.equal({ value: 6, approximate: false });
      });

      it('omits the total when no count was asked for', async () => {
        expect((await search({})).total).to.equal(undefined);
      });

      it('counts values of scalar and array keyword fields, most frequent first, then by value', async () => {
        expect(await index.terms(INDEX, 'office', [], 10)).to.deep.equal([
          { value: 'EM', count: 2 },
          { value: 'US', count: 2 },
          { value: 'FR', count: 1 },
          { value: 'GB', count: 1 },
        ]);
        expect(await index.terms(INDEX, 'tags', [], 10)).to.deep.equal([
          { value: 'appealed', count: 2 },
          { value: 'opposed', count: 2 },
        ]);
        expect(await index.terms(INDEX, 'classes', [], 3)).to.deep.equal([
          { value: 9, count: 2 },
          { value: 11, count: 1 },
          { value: 12, count: 1 },
        ]);
      });

      it('counts terms only among documents matching the filters', async () => {
        const active: SearchFilter[] = [{ field: 'status', op: 'eq', value: 'active' }];
        expect(await index.terms(INDEX, 'office', active, 10)).to.deep.equal([
          { value: 'EM', count: 1 },
          { value: 'FR', count: 1 },
          { value: 'US', count: 1 },
        ]);
        expect(await index.terms(INDEX, 'tags', active, 1)).to.deep.equal([{ value: 'opposed', count: 2 }]);
      });
    });

    it('answers ping', async () => {
      await index.ping();
    });
  });
}
