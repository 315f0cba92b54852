/**
 * The compiled watch table: a watch is compiled once per query it has had, each entry with the
 * period its query was in force; a query that no longer compiles is reported only when it is the
 * current one (diagnostics describe the watch as it is).
 */
import { expect } from 'chai';
import type { WatchDoc } from '../../../domain/records';
import { WatchTable } from '../../../workers/watches/match';

const REPLACED = '2026-02-01T00:00:00.000Z';

const watch = (fields: Partial<WatchDoc>): WatchDoc => ({
  _id: 'wch_0123456789abcdefghjk',
  organization_id: 'org_x',
  name: null,
  watch_type: 'trademark',
  status: 'active',
  query: { trademark_ids: ['tm_new'] },
  metadata: {},
  evaluate_from: '2026-01-01T00:00:00.000Z',
  paused_periods: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: REPLACED,
  ...fields,
});

/** A query stored before a rule tightened: numbers need an office. */
const uncompilable = { filters: { applicationNumber: '123' } };

describe('workers/watches/match: a watch compiled with the queries it has had', () => {
  it('files each query by what it names, with its period; a portfolio of an earlier query by its marks', () => {
    const table = new WatchTable([watch({ earlier_queries: [{ query: { portfolio_id: 'pf_old' }, until: REPLACED }] })], new Map([['pf_old', ['tm_old']]]));
    expect(table.trademarkWatches('tm_old').map((compiled) => compiled.period)).to.deep.equal([{ from: null, until: REPLACED }]);
    expect(table.trademarkWatches('tm_new').map((compiled) => compiled.period)).to.deep.equal([{ from: REPLACED, until: null }]);
    expect(table.failures.size).to.equal(0);
  });

  it('an earlier query that no longer compiles is skipped without a failure; a current one is a failure', () => {
    const earlierFails = new WatchTable(
      [watch({ watch_type: 'filter', query: { filters: { offices: ['us'] } }, earlier_queries: [{ query: uncompilable, until: REPLACED }] })],
      new Map(),
    );
    expect(earlierFails.failures.size).to.equal(0);
    expect(earlierFails.matchingFilterWatches({ id: 'tm_x', office_code: 'US' }).map((compiled) => compiled.period)).to.deep.equal([
      { from: REPLACED, until: null },
    ]);
    const currentFails = new WatchTable(
      [watch({ watch_type: 'filter', query: uncompilable, earlier_queries: [{ query: { filters: { offices: ['us'] } }, until: REPLACED }] })],
      new Map(),
    );
    expect([...currentFails.failures.keys()]).to.deep.equal(['wch_0123456789abcdefghjk']);
    // The earlier query still decides the changes that occurred while it was in force.
    const matching = currentFails.matchingFilterWatches({ id: 'tm_x', office_code: 'US' });
    expect(matching.map((compiled) => compiled.period)).to.deep.equal([{ from: null, until: REPLACED }]);
  });

  it('a similarity query scores with its own classes, not those of the query that replaced it', () => {
    const table = new WatchTable(
      [
        watch({
          watch_type: 'similarity',
          query: { q: 'Luminara', score_threshold: 0, filters: { niceClasses: [25] } },
          earlier_queries: [{ query: { q: 'Luminara', score_threshold: 0, filters: { niceClasses: [9] } }, until: REPLACED }],
        }),
      ],
      new Map(),
    );
    const matches = table.matchingSimilarityWatches({ id: 'tm_x', mark_text: 'Luminara', nice_classes: [9], office_code: 'US' }, [9]);
    expect(matches.map(({ compiled }) => compiled.query.filters)).to.deep.equal([{ niceClasses: [9] }]);
    expect(matches[0]?.result.signals.map((signal) => signal.type)).to.include('class_overlap');
  });
});
