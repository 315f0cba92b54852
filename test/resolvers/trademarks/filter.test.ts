/**
 * The trademark filter and sort translation, without booting the app: what each list parameter
 * becomes in the SearchIndex query, and that a filter is spelled the same way in the five places
 * it lives (REST parameter, SDL input, resolver translation, index definition, index projection).
 */
import { expect } from 'chai';
import { isInputObjectType } from 'graphql';
import { TRADEMARK_DATE_FIELDS } from '../../../domain/contract';
import { TRADEMARK_INDEX } from '../../../datasources/index-definitions';
import type { SearchFilter } from '../../../datasources/ports';
import { buildSchema } from '../../../resolvers/engine';
import { toSearchFilters, type TrademarkFilterInput } from '../../../resolvers/trademarks/filter';
import { trademarkSort } from '../../../resolvers/trademarks/search';
import { TRADEMARK_FILTER_PARAMS } from '../../../rest/routes/trademark-params';
import { apiErrorOf } from '../../support/api-error';
import { generateCatalog } from '../../../workers/ingest/generator';
import { trademarkIndexDocument } from '../../../workers/projections/trademarks';
import type { OwnerDoc, AttorneyDoc, TrademarkDoc } from '../../../domain/records';

describe('resolvers/trademarks: filter and sort translation', () => {
  it('turns list parameters into in-filters on the index field each one names', () => {
    const { filters, ownerName } = toSearchFilters({ offices: ['US', 'EM'], nice_classes: [9, 42], owner_country: ['DE'], owner_id: ['own_a'] });
    expect(filters).to.deep.include.members([
      { field: 'office_code', op: 'in', values: ['US', 'EM'] },
      { field: 'nice_classes', op: 'in', values: [9, 42] },
      { field: 'owner_countries', op: 'in', values: ['DE'] },
      { field: 'owner_ids', op: 'in', values: ['own_a'] },
    ]);
    expect(filters).to.have.length(4);
    expect(ownerName).to.equal(null);
  });

  it('uppercases the office, tickers and LEIs, and keeps booleans as booleans', () => {
    const { filters } = toSearchFilters({ office: 'us', owner_ticker: 'acme', owner_lei: 'abc123', is_madrid: false });
    expect(filters).to.deep.include.members([
      { field: 'office_code', op: 'eq', value: 'US' },
      { field: 'owner_tickers', op: 'eq', value: 'ACME' },
      { field: 'owner_leis', op: 'eq', value: 'ABC123' },
      { field: 'is_madrid', op: 'eq', value: false },
    ]);
  });

  it('collects the four range operators of one date field into one range filter', () => {
    const { filters } = toSearchFilters({ filing_date_gte: '2020-01-01', filing_date_lt: '2021-01-01', updated_at_gt: '2024-05-01T00:00:00Z' });
    expect(filters).to.deep.equal([
      { field: 'filing_date', op: 'range', gte: '2020-01-01', lt: '2021-01-01' },
      { field: 'updated_at', op: 'range', gt: '2024-05-01T00:00:00Z' },
    ]);
  });

  it('refuses a lower bound after the upper bound, and numbers without their office', () => {
    expect(apiErrorOf(() => toSearchFilters({ filing_date_gte: '2021-01-01', filing_date_lt: '2020-01-01' })).detail).to.contain('filing_date');
    const missingOffice = apiErrorOf(() => toSearchFilters({ application_number: '97123456' }));
    expect(missingOffice.type).to.equal('validation_error');
    expect(missingOffice.detail).to.equal('application_number: requires office (numbers are only unique within one office)');
  });

  it('keeps owner_name apart: a fuzzy text match, not an exact filter', () => {
    const { filters, ownerName } = toSearchFilters({ owner_name: 'Zorvex' });
    expect(filters).to.deep.equal([]);
    expect(ownerName).to.equal('Zorvex');
  });

  it('sorts by relevance then newest filing with q and no sort, by nothing without either', () => {
    expect(trademarkSort(undefined, true)).to.deep.equal([
      { field: '_score', direction: 'desc' },
      { field: 'filing_date', direction: 'desc' },
    ]);
    expect(trademarkSort(undefined, false)).to.deep.equal([]);
  });

  it('replaces relevance with an explicit sort, a leading - meaning descending', () => {
    expect(trademarkSort('-filing_date,office_code', true)).to.deep.equal([
      { field: 'filing_date', direction: 'desc' },
      { field: 'office_code', direction: 'asc' },
    ]);
    expect(apiErrorOf(() => trademarkSort('mark_text', false)).detail).to.match(/^sort: must be one of filing_date, /);
  });

  describe('one spelling per filter in five places', () => {
    /** A value of the right shape for each parameter, so the translation emits its filter. */
    function sampleValue(name: string): unknown {
      const spec = TRADEMARK_FILTER_PARAMS.find((param) => param.name === name)!;
      const scalar = spec.kind.type === 'integer' ? 9 : spec.kind.type === 'boolean' ? true : spec.kind.type === 'date' ? '2020-01-01' : 'X';
      return spec.array ? [scalar] : scalar;
    }
    const specialParams = new Set(['owner_name', 'entity_id', 'entity_group', 'application_number', 'registration_number']);

    it('every REST filter parameter is a field of the SDL TrademarkFilter input, and the reverse', () => {
      const input = buildSchema().getType('TrademarkFilter');
      if (!isInputObjectType(input)) throw new Error('TrademarkFilter is not an input type');
      expect(Object.keys(input.getFields()).sort()).to.deep.equal(TRADEMARK_FILTER_PARAMS.map((param) => param.name).sort());
    });

    it('every plain filter parameter translates to a filter on a field of the trademark index', () => {
      for (const { name } of TRADEMARK_FILTER_PARAMS.filter((param) => !specialParams.has(param.name))) {
        const { filters } = toSearchFilters({ [name]: sampleValue(name) } as TrademarkFilterInput);
        expect(filters, name).to.have.length(1);
        const field = (filters[0] as Extract<SearchFilter, { field: string }>).field;
        expect(TRADEMARK_INDEX.fields, `${name} → ${field}`).to.have.property(field);
      }
      for (const name of ['application_number', 'registration_number']) {
        const { filters } = toSearchFilters({ [name]: '1', office: 'US' });
        expect(TRADEMARK_INDEX.fields).to.have.property((filters[1] as Extract<SearchFilter, { field: string }>).field);
      }
      for (const field of TRADEMARK_DATE_FIELDS) expect(TRADEMARK_INDEX.fields, field).to.have.property(field);
    });

    it('the trademark projection writes every field of the index definition, and no other', () => {
      const batches = [...generateCatalog({ marks: 20, seed: 7 })];
      const owners = new Map(batches.flatMap((b) => (b.collection === 'owners' ? (b.docs as OwnerDoc[]) : [])).map((o) => [o._id, o]));
      const attorneys = new Map(batches.flatMap((b) => (b.collection === 'attorneys' ? (b.docs as AttorneyDoc[]) : [])).map((a) => [a._id, a]));
      const mark = batches.flatMap((b) => (b.collection === 'trademarks' ? (b.docs as TrademarkDoc[]) : []))[0]!;
      const document = trademarkIndexDocument(mark, owners, attorneys);
      expect(
        Object.keys(document)
          .filter((key) => key !== 'id')
          .sort(),
      ).to.deep.equal(Object.keys(TRADEMARK_INDEX.fields).sort());
    });
  });
});
