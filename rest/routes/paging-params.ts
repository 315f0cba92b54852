/**
 * The spec's pagination parameters (limit, cursor, include_total), shared by every list route.
 */
import type { ParamSpec } from '../params';

export const limitParam = (max = 100): ParamSpec => ({
  name: 'limit',
  kind: { type: 'integer', min: 1, max },
  description: `Page size, 1 to ${max} (default 20).`,
});

export const cursorParam: ParamSpec = {
  name: 'cursor',
  kind: { type: 'string', maxLength: 4096 },
  description: 'Opaque cursor from the previous page; bound to the list, its query, filters and sort, valid 24 hours.',
};

/** include_total of the search-index lists, whose totals the engine caps. */
export const includeTotalParam: ParamSpec = {
  name: 'include_total',
  kind: { type: 'boolean' },
  description: 'Also return pagination.total_count (capped at 10,000; then total_count_approximate is true).',
};

/**
 * include_total of the lists that are not search-index lists (an organization's own records, one
 * record's rows): counted in full, never capped.
 */
export const includeExactTotalParam: ParamSpec = {
  name: 'include_total',
  kind: { type: 'boolean' },
  description:
    'Also return pagination.total_count: every row of the list under its filters (the same on every page), counted exactly, never capped (total_count_approximate is false).',
};

/** limit and cursor, the pair every paginated list takes. */
export const pageParams: readonly ParamSpec[] = [limitParam(), cursorParam];

/** include_total (exact), limit and cursor: the paging of the lists that are not search-index lists. */
export const countedPageParams: readonly ParamSpec[] = [includeExactTotalParam, ...pageParams];
