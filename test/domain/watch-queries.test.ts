/**
 * Which query a watch matches a change with: the one in force when the change occurred, whenever
 * the evaluator reads it. Watches whose query was never replaced (no earlier_queries, as stored
 * before queries were kept) go by their current query, as before.
 */
import { expect } from 'chai';
import { FILTER_WATCH } from '../support/watch-doc';
import type { WatchDoc, WatchQuery } from '../../domain/records';
import { inForceAt, queryPeriods, withQuery } from '../../domain/watch-queries';

const base = FILTER_WATCH;

const us: WatchQuery = { filters: { offices: ['us'] } };
const em: WatchQuery = { filters: { offices: ['em'] } };
const gb: WatchQuery = { filters: { offices: ['gb'], niceClasses: [9] } };

/** The rule as the kept history states it: the first earlier query replaced after `at`, else the current one. */
const queryAt = (watch: Pick<WatchDoc, 'query' | 'earlier_queries'>, at: string): WatchQuery =>
  watch.earlier_queries?.find((earlier) => at < earlier.until)?.query ?? watch.query;

const patched = (watch: WatchDoc, query: WatchQuery, time: string): WatchDoc => ({ ...watch, ...withQuery(watch, query, time) });

/** The query the compiled periods put in force at `at` (exactly one must). */
const periodQueryAt = (watch: WatchDoc, at: string): WatchQuery => {
  const inForce = queryPeriods(watch).filter((period) => inForceAt(period, at));
  expect(inForce, `periods in force at ${at}`).to.have.length(1);
  return (inForce[0] as { query: WatchQuery }).query;
};

describe('domain/watch-queries: the query a change is matched with', () => {
  it('before a replacement, the query the watch had; from its instant on, the new one; the same for the compiled periods', () => {
    const once = patched(base, em, '2026-02-01T00:00:00.000Z');
    const twice = patched(once, gb, '2026-03-01T00:00:00.000Z');
    expect(twice.query).to.deep.equal(gb);
    expect(twice.earlier_queries).to.deep.equal([
      { query: us, until: '2026-02-01T00:00:00.000Z' },
      { query: em, until: '2026-03-01T00:00:00.000Z' },
    ]);
    for (const [at, query] of [
      ['2025-06-01T00:00:00.000Z', us],
      ['2026-01-31T23:59:59.999Z', us],
      ['2026-02-01T00:00:00.000Z', em],
      ['2026-02-15T00:00:00.000Z', em],
      ['2026-03-01T00:00:00.000Z', gb],
      ['2027-01-01T00:00:00.000Z', gb],
    ] as const) {
      expect(queryAt(twice, at), at).to.deep.equal(query);
      expect(periodQueryAt(twice, at), at).to.deep.equal(query);
    }
    expect(queryPeriods(twice)).to.deep.equal([
      { query: us, from: null, until: '2026-02-01T00:00:00.000Z' },
      { query: em, from: '2026-02-01T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z' },
      { query: gb, from: '2026-03-01T00:00:00.000Z', until: null },
    ]);
  });

  it('the same query sent again, in any key order, records nothing', () => {
    const query: WatchQuery = { filters: { niceClasses: [9], offices: ['us'] }, saved_search_id: 'ss_x' };
    const watch = { ...base, query };
    const reordered: WatchQuery = { saved_search_id: 'ss_x', filters: { offices: ['us'], niceClasses: [9] } };
    expect(withQuery(watch, reordered, '2026-02-01T00:00:00.000Z')).to.deep.equal({ query });
    expect(patched(watch, reordered, '2026-02-01T00:00:00.000Z')).not.to.have.property('earlier_queries');
    // Earlier queries already kept stay as they were.
    const history = patched(base, em, '2026-02-01T00:00:00.000Z');
    expect(patched(history, { filters: { offices: ['em'] } }, '2026-03-01T00:00:00.000Z')).to.deep.equal(history);
  });

  it('a watch whose query was never replaced goes by its current query at any time', () => {
    expect(base).not.to.have.property('earlier_queries');
    expect(queryAt(base, '2020-01-01T00:00:00.000Z')).to.deep.equal(us);
    expect(queryPeriods(base)).to.deep.equal([{ query: us, from: null, until: null }]);
  });

  it('keeps the last 50 replaced queries; a change older than the oldest kept goes by that one', () => {
    let watch = base;
    for (let i = 1; i <= 60; i++)
      watch = patched(watch, { filters: { offices: ['us'], niceClasses: [i] } }, `2026-02-01T00:00:${String(i).padStart(2, '0')}.000Z`);
    expect(watch.earlier_queries).to.have.length(50);
    // The last 50 replacements kept (the 11th to the 60th): the oldest replaced class 10, at second 11.
    expect(watch.earlier_queries?.[0]).to.deep.equal({ query: { filters: { offices: ['us'], niceClasses: [10] } }, until: '2026-02-01T00:00:11.000Z' });
    expect(queryAt(watch, '2026-01-01T00:00:00.000Z')).to.deep.equal({ filters: { offices: ['us'], niceClasses: [10] } });
    expect(queryAt(watch, '2026-02-01T00:00:30.500Z')).to.deep.equal({ filters: { offices: ['us'], niceClasses: [30] } });
    expect(periodQueryAt(watch, '2026-02-01T00:00:30.500Z')).to.deep.equal({ filters: { offices: ['us'], niceClasses: [30] } });
  });

  it('a clock stepping back between two replacements never puts an instant in two periods, nor none', () => {
    const watch = patched(patched(base, em, '2026-03-01T00:00:00.000Z'), gb, '2026-02-01T00:00:00.000Z');
    for (const at of ['2026-01-15T00:00:00.000Z', '2026-02-15T00:00:00.000Z', '2026-03-15T00:00:00.000Z']) {
      expect(periodQueryAt(watch, at), at).to.deep.equal(queryAt(watch, at));
    }
  });
});
