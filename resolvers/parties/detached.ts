/**
 * A change event carries only the document after the change, so the party projections could not
 * tell which parties a write took away from a mark (or which firm an attorney left). Convention:
 * a write that removes party references records the removed IDs in `detached_party_ids` of the
 * same document, in the same update; the projections re-index those parties too. The merge
 * operation follows it; deletes of marks are not used (marks are retracted, never deleted).
 */
import type { StoredDocument } from '../../datasources/ports';
import type { IdPrefix } from '../../domain/ids';

export const DETACHED_FIELD = 'detached_party_ids';

/** IDs of one kind (by prefix) the document says its last write detached. */
export function detachedIds(doc: StoredDocument | null, prefix: IdPrefix): string[] {
  const value: unknown = doc ? (doc as unknown as Record<string, unknown>)[DETACHED_FIELD] : undefined;
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string' && id.startsWith(prefix)) : [];
}
