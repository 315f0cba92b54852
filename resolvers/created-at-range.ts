/**
 * The `created_at_gte` / `created_at_lt` filter of the organization's own logs (alerts, events):
 * each an ISO 8601 date or timestamp, the lower before the upper, as a DocumentStore condition.
 */
import type { Filter } from '../datasources/ports';
import { invalid } from '../domain/errors';
import { parseTimestamp, truncate } from '../domain/validation';

export interface CreatedAtArgs {
  created_at_gte?: string | null;
  created_at_lt?: string | null;
}

function timestampArg(name: string, raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const parsed = parseTimestamp(raw);
  if (parsed === null) throw invalid(name, `must be an ISO 8601 date or timestamp (got '${truncate(raw)}')`);
  return parsed;
}

/** The checked bounds (for the cursor binding) and the filter on `created_at` (empty without bounds). */
export function createdAtRange(args: CreatedAtArgs): { gte: string | null; lt: string | null; filter: Filter } {
  const gte = timestampArg('created_at_gte', args.created_at_gte);
  const lt = timestampArg('created_at_lt', args.created_at_lt);
  if (gte !== null && lt !== null && gte >= lt) throw invalid('created_at_gte', 'must be before created_at_lt');
  const filter: Filter = gte !== null || lt !== null ? { created_at: { ...(gte !== null ? { $gte: gte } : {}), ...(lt !== null ? { $lt: lt } : {}) } } : {};
  return { gte, lt, filter };
}
