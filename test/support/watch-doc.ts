/** A stored filter watch created on 2026-01-01, active, never paused: the base the watch-rule unit tests vary. */
import type { WatchDoc } from '../../domain/records';

export const FILTER_WATCH: WatchDoc = {
  _id: 'wch_0123456789abcdefghjk',
  organization_id: 'org_x',
  name: null,
  watch_type: 'filter',
  status: 'active',
  query: { filters: { offices: ['us'] } },
  metadata: {},
  evaluate_from: '2026-01-01T00:00:00.000Z',
  paused_periods: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
