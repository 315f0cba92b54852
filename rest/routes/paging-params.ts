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

export const includeTotalParam: ParamSpec = {
  name: 'include_total',
  kind: { type: 'boolean' },
  description: 'Also return pagination.total_count (capped at 10,000; then total_count_approximate is true).',
};

/** limit and cursor, the pair every paginated list takes. */
export const pageParams: readonly ParamSpec[] = [limitParam(), cursorParam];
