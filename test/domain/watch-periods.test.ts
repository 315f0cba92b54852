/**
 * When a watch hears of a change: by the time the change occurred, outside the watch's pauses,
 * whenever the evaluator reads it. Watches stored before pauses were kept (no paused_periods)
 * hear what they heard before: changes from their last resume (`evaluate_from`) on, while active.
 */
import { expect } from 'chai';
import { FILTER_WATCH } from '../support/watch-doc';
import type { WatchDoc } from '../../domain/records';
import { hearsChangeAt, withStatusChange } from '../../domain/watch-periods';

const base = FILTER_WATCH;

const at = (status: WatchDoc['status'], watch: WatchDoc, time: string): WatchDoc => ({ ...watch, ...withStatusChange(watch, status, time), status });

describe('domain/watch-periods: the changes a watch hears', () => {
  it('hears what occurred while it was active, before a pause and after the resume; not during the pause or before its creation', () => {
    const paused = at('paused', base, '2026-02-01T00:00:00.000Z');
    const resumed = at('active', paused, '2026-03-01T00:00:00.000Z');
    expect(hearsChangeAt(resumed, '2025-12-31T00:00:00.000Z')).to.equal(false);
    expect(hearsChangeAt(resumed, '2026-01-15T00:00:00.000Z')).to.equal(true);
    expect(hearsChangeAt(resumed, '2026-02-15T00:00:00.000Z')).to.equal(false);
    expect(hearsChangeAt(resumed, '2026-03-15T00:00:00.000Z')).to.equal(true);
    // Read while still paused: the change before the pause is its, the one during is not.
    expect(hearsChangeAt(paused, '2026-01-15T00:00:00.000Z')).to.equal(true);
    expect(hearsChangeAt(paused, '2026-02-15T00:00:00.000Z')).to.equal(false);
  });

  it('a watch stored before pauses were kept hears, after its first pause and resume, nothing it would not have heard before', () => {
    const { paused_periods: _none, ...legacy } = { ...base, evaluate_from: '2026-02-01T00:00:00.000Z' };
    expect(hearsChangeAt(legacy, '2026-01-15T00:00:00.000Z')).to.equal(false);
    expect(hearsChangeAt(legacy, '2026-02-15T00:00:00.000Z')).to.equal(true);
    const resumedLater = at('active', at('paused', legacy, '2026-03-01T00:00:00.000Z'), '2026-04-01T00:00:00.000Z');
    expect(hearsChangeAt(resumedLater, '2026-01-15T00:00:00.000Z')).to.equal(false);
    expect(hearsChangeAt(resumedLater, '2026-02-15T00:00:00.000Z')).to.equal(true);
    expect(hearsChangeAt(resumedLater, '2026-03-15T00:00:00.000Z')).to.equal(false);
    // Paused when pauses began to be kept: its whole past counts as paused.
    const legacyPaused = { ...legacy, status: 'paused' as const };
    const resumed = at('active', legacyPaused, '2026-05-01T00:00:00.000Z');
    expect(hearsChangeAt(resumed, '2026-02-15T00:00:00.000Z')).to.equal(false);
    expect(hearsChangeAt(resumed, '2026-05-02T00:00:00.000Z')).to.equal(true);
  });
});
