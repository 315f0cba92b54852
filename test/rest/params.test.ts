import { expect } from 'chai';
import { apiErrorOf } from '../support/api-error';
import { assertRangesOrdered, isIsoDate } from '../../domain/validation';
import { parseJsonParams, parseQueryString, rangeParams, type ParamSpec } from '../../rest/params';

const specs: ParamSpec[] = [
  { name: 'offices', kind: { type: 'enum', values: ['US', 'EM'], caseInsensitive: true }, array: true, description: '' },
  { name: 'nice_classes', kind: { type: 'integer', min: 1, max: 45 }, array: true, description: '' },
  { name: 'has_media', kind: { type: 'boolean' }, description: '' },
  { name: 'limit', kind: { type: 'integer', min: 1, max: 100 }, default: 20, description: '' },
  { name: 'owner_id', kind: { type: 'id', prefix: 'own_' }, array: true, description: '' },
  { name: 'q', kind: { type: 'string', maxLength: 10 }, description: '' },
  ...rangeParams('filing_date', 'date', 'Filed'),
  ...rangeParams('updated_at', 'timestamp', 'Updated'),
];

function rejects(fn: () => unknown, type: string, detailPart: string): void {
  const error = apiErrorOf(fn);
  expect(error.type).to.equal(type);
  expect(error.detail).to.contain(detailPart);
}

describe('rest/params: request conventions', () => {
  it('splits comma-separated arrays and parses each item', () => {
    expect(parseQueryString('nice_classes=9,42&offices=us,EM', specs)).to.deep.equal({ nice_classes: [9, 42], offices: ['US', 'EM'], limit: 20 });
  });

  it('accepts repeated keys as a fallback for arrays', () => {
    expect(parseQueryString('nice_classes=9&nice_classes=42', specs).nice_classes).to.deep.equal([9, 42]);
  });

  it('rejects repeated keys for single-valued parameters', () => {
    rejects(() => parseQueryString('limit=5&limit=6', specs), 'validation_error', 'limit: was given more than once');
  });

  it('rejects bracketed keys', () => {
    rejects(() => parseQueryString('nice_classes[]=9', specs), 'validation_error', 'bracketed keys are not accepted');
  });

  it('rejects unknown parameters, naming them', () => {
    rejects(() => parseQueryString('nice_class=9', specs), 'validation_error', 'nice_class: is not a parameter of this endpoint');
  });

  it('accepts only the literals true and false as booleans', () => {
    expect(parseQueryString('has_media=true', specs).has_media).to.equal(true);
    expect(parseQueryString('has_media=false', specs).has_media).to.equal(false);
    for (const bad of ['1', '0', 'yes', 'no', 'TRUE', 'False', '']) {
      rejects(() => parseQueryString(`has_media=${bad}`, specs), 'validation_error', 'has_media: must be the literal true or false');
    }
  });

  it('checks integer bounds and syntax', () => {
    rejects(() => parseQueryString('limit=0', specs), 'validation_error', 'limit: must be an integer from 1 to 100');
    rejects(() => parseQueryString('limit=101', specs), 'validation_error', 'limit: must be an integer from 1 to 100');
    rejects(() => parseQueryString('limit=2.5', specs), 'validation_error', 'limit: must be an integer');
    rejects(() => parseQueryString('nice_classes=9,46', specs), 'validation_error', 'nice_classes: must be an integer from 1 to 45');
  });

  it('rejects empty list items', () => {
    rejects(() => parseQueryString('nice_classes=9,,42', specs), 'validation_error', 'without empty items');
  });

  it('accepts real calendar dates only', () => {
    expect(parseQueryString('filing_date_gte=2024-02-29', specs).filing_date_gte).to.equal('2024-02-29');
    rejects(() => parseQueryString('filing_date_gte=2023-02-29', specs), 'validation_error', 'filing_date_gte: must be a date written YYYY-MM-DD');
    rejects(() => parseQueryString('filing_date_gte=2024-1-5', specs), 'validation_error', 'filing_date_gte');
  });

  it('applies the Gregorian leap-year rule and the exact YYYY-MM-DD shape', () => {
    // Every 4th year is leap, but not centuries, except every 400th year.
    for (const date of ['2000-02-29', '2024-02-29', '2400-02-29', '0004-02-29', '2025-12-31', '2025-04-30']) {
      expect(isIsoDate(date), date).to.equal(true);
    }
    for (const date of ['1900-02-29', '2100-02-29', '2025-02-29', '2025-04-31', '2025-00-10', '2025-01-00', '2025-01-32']) {
      expect(isIsoDate(date), date).to.equal(false);
    }
    // Year 0000 has no 29 February on any door (the accepted set predates the Date-free check).
    expect(isIsoDate('0000-02-28')).to.equal(true);
    expect(isIsoDate('0000-02-29')).to.equal(false);
    // Only ASCII digits, only hyphens, nothing before or after.
    for (const date of ['２０２５-01-01', '2025/01/01', '+2025-01-01', '2025-01-01\n', ' 2025-01-01', '2025-01-01T00:00:00Z', '20250101']) {
      expect(isIsoDate(date), JSON.stringify(date)).to.equal(false);
    }
  });

  it('normalizes ISO timestamps to UTC and accepts date-only timestamps', () => {
    expect(parseQueryString('updated_at_gte=2026-03-01T10:00:00%2B02:00', specs).updated_at_gte).to.equal('2026-03-01T08:00:00.000Z');
    expect(parseQueryString('updated_at_gte=2026-03-01', specs).updated_at_gte).to.equal('2026-03-01T00:00:00.000Z');
    rejects(() => parseQueryString('updated_at_gte=yesterday', specs), 'validation_error', 'updated_at_gte: must be an ISO 8601');
  });

  it('tells a wrong-kind ID (id_type_mismatch) from a malformed one (validation_error)', () => {
    rejects(() => parseQueryString('owner_id=tm_0123456789abcdefghjk', specs), 'id_type_mismatch', 'expected an ID starting with own_');
    rejects(() => parseQueryString('owner_id=bogus', specs), 'validation_error', 'owner_id: must be an ID: own_ followed by');
  });

  it('names the rule an ID with the right prefix breaks: its body is lowercase base32, without i, l, o and u', () => {
    rejects(
      () => parseQueryString('owner_id=own_nonexistent1', specs),
      'validation_error',
      "owner_id: must be an ID: own_ followed by 1 to 64 lowercase letters and digits other than i, l, o and u (got 'own_nonexistent1')",
    );
  });

  it('enforces string length', () => {
    rejects(() => parseQueryString('q=abcdefghijk', specs), 'validation_error', 'q: must be at most 10 characters');
  });

  it('parses JSON bodies with the same rules, accepting JSON types and string forms', () => {
    expect(parseJsonParams({ nice_classes: [9, '42'], offices: 'us,em', has_media: true, limit: 5 }, specs)).to.deep.equal({
      nice_classes: [9, 42],
      offices: ['US', 'EM'],
      has_media: true,
      limit: 5,
    });
    rejects(() => parseJsonParams({ has_media: 1 }, specs), 'validation_error', 'has_media: has the wrong JSON type');
    rejects(() => parseJsonParams({ nice_classes: [9, 99] }, specs), 'validation_error', 'nice_classes[1]: must be an integer from 1 to 45');
    rejects(() => parseJsonParams({ colour: 'red' }, specs), 'validation_error', 'colour: is not a field of this request body');
  });

  it('reads null in a field that cannot hold it as the field left out, except where nulls are refused (PATCH)', () => {
    const fields: ParamSpec[] = [
      { name: 'url', kind: { type: 'string', maxLength: 100 }, description: '' },
      { name: 'description', kind: { type: 'string', maxLength: 100 }, nullable: true, description: '' },
    ];
    expect(parseJsonParams({ url: null, description: null }, fields)).to.deep.equal({ description: null });
    expect(parseJsonParams({ description: null }, fields, '', 'refused')).to.deep.equal({ description: null });
    rejects(() => parseJsonParams({ url: null }, fields, '', 'refused'), 'validation_error', 'url: cannot be cleared (null)');
  });

  it('parses every item of an objects parameter by its fields, naming a refused item field by its index', () => {
    const itemFields: ParamSpec[] = [
      { name: 'office', kind: { type: 'string', maxLength: 4, uppercase: true }, required: true, description: '' },
      { name: 'day', kind: { type: 'date' }, description: '' },
      { name: 'count', kind: { type: 'integer', min: 1, max: 9 }, default: 1, description: '' },
    ];
    const batch: ParamSpec[] = [{ name: 'items', kind: { type: 'objects', fields: itemFields, batchLimit: 3 }, required: true, description: '' }];
    expect(
      parseJsonParams(
        {
          items: [
            { office: 'us', day: '2024-02-29' },
            { count: '3', office: 'em' },
          ],
        },
        batch,
      ),
    ).to.deep.equal({
      items: [
        { office: 'US', day: '2024-02-29', count: 1 },
        { count: 3, office: 'EM' },
      ],
    });
    rejects(
      () => parseJsonParams({ items: [{ office: 'us' }, { office: 'em', day: '2023-02-29' }] }, batch),
      'validation_error',
      "items[1].day: must be a date written YYYY-MM-DD (got '2023-02-29')",
    );
    rejects(() => parseJsonParams({ items: [{ office: 'us' }, { day: '2024-01-01' }] }, batch), 'validation_error', 'items[1].office: is required');
    rejects(
      () => parseJsonParams({ items: [{ office: 'us', colour: 'red' }] }, batch),
      'validation_error',
      'items[0].colour: is not a field of this request body',
    );
    // The same fields parse a body of their own too, with unprefixed names.
    rejects(() => parseJsonParams({ office: 'us', day: '2023-02-29' }, itemFields), 'validation_error', 'day: must be a date');
  });
});

describe('domain/validation: range ordering', () => {
  it('accepts a lower bound before the upper one and equal inclusive bounds', () => {
    assertRangesOrdered({ filing_date_gte: '2020-01-01', filing_date_lt: '2021-01-01' }, ['filing_date']);
    assertRangesOrdered({ filing_date_gte: '2020-01-01', filing_date_lte: '2020-01-01' }, ['filing_date']);
  });

  it('rejects a lower bound that is not before the upper one, naming both', () => {
    rejects(
      () => assertRangesOrdered({ filing_date_gte: '2021-01-01', filing_date_lte: '2020-01-01' }, ['filing_date']),
      'validation_error',
      'filing_date_gte: must be before filing_date_lte',
    );
    rejects(() => assertRangesOrdered({ filing_date_gt: '2020-01-01', filing_date_lt: '2020-01-01' }, ['filing_date']), 'validation_error', 'filing_date_gt');
  });
});
