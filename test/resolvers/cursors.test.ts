import { expect } from 'chai';
import { type ApiError } from '../../domain/errors';
import { CURSOR_TTL_MS, CursorCodec } from '../../resolvers/cursors';

describe('resolvers/cursors: signed, bound, expiring cursors', () => {
  let now = Date.parse('2026-11-01T00:00:00Z');
  const codec = new CursorCodec(Buffer.from('test-secret'), () => now);
  const binding = { list: 'trademarks', filter: { offices: ['US'] }, q: 'acme', sort: null };

  const errorOf = (fn: () => unknown): ApiError => {
    try {
      fn();
    } catch (error) {
      return error as ApiError;
    }
    throw new Error('expected an error');
  };

  it('round-trips the snapshot and position', () => {
    const cursor = codec.encode(binding, { snapshot: 42, after: ['2020-01-01', 'tm_x'] });
    expect(codec.decode(cursor, { ...binding })).to.deep.equal({ snapshot: 42, after: ['2020-01-01', 'tm_x'] });
  });

  it('ignores key order in the binding', () => {
    const cursor = codec.encode(binding, { snapshot: 1, after: [] });
    expect(() => codec.decode(cursor, { sort: null, q: 'acme', filter: { offices: ['US'] }, list: 'trademarks' })).not.to.throw();
  });

  it('refuses a cursor used with a different query (400 validation_error)', () => {
    const cursor = codec.encode(binding, { snapshot: 1, after: [] });
    const error = errorOf(() => codec.decode(cursor, { ...binding, q: 'other' }));
    expect(error.type).to.equal('validation_error');
    expect(error.detail).to.contain('cursor: was issued for a different query');
  });

  it('refuses a tampered cursor', () => {
    const cursor = codec.encode(binding, { snapshot: 1, after: [] });
    const body = JSON.parse(Buffer.from(cursor.split('.')[0] as string, 'base64url').toString());
    body.s = 999;
    const forged = `${Buffer.from(JSON.stringify(body)).toString('base64url')}.${cursor.split('.')[1]}`;
    expect(errorOf(() => codec.decode(forged, binding)).type).to.equal('validation_error');
    expect(errorOf(() => codec.decode('garbage', binding)).type).to.equal('validation_error');
  });

  it('expires after 24 hours with cursor_expired', () => {
    const cursor = codec.encode(binding, { snapshot: 1, after: [] });
    now += CURSOR_TTL_MS - 1000;
    expect(() => codec.decode(cursor, binding)).not.to.throw();
    now += 2000;
    expect(errorOf(() => codec.decode(cursor, binding)).type).to.equal('cursor_expired');
  });
});
