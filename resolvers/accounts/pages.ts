/**
 * Cursor pages over an organization's own records in the DocumentStore (API keys, feedback):
 * newest first by the time-ordered random ID, keyset on that ID. Records created after the first
 * page sort before the cursor and so never appear in later pages.
 */
import type { Collection, Filter, StoredDocument } from '../../datasources/ports';
import type { CursorCodec } from '../cursors';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null };
}

/**
 * One page of `filter`'s matches; `binding` ties the cursor to the list and its filters. By
 * default ordered by `_id` (time-ordered random IDs); with `orderField`, by that field (a
 * timestamp) newest first, ties broken by `_id`, keyset on both.
 */
export async function pageOf<T extends StoredDocument>(
  collection: Collection<T>,
  filter: Filter,
  limit: number,
  cursor: string | null,
  binding: unknown,
  cursors: CursorCodec,
  orderField?: keyof T & string,
): Promise<Page<T>> {
  const after = cursor === null ? undefined : cursors.decode(cursor, binding).after;
  const scoped: Filter = after === undefined ? filter : { $and: [filter, afterKey(after, orderField)] };
  const sort = orderField === undefined ? { _id: -1 as const } : { [orderField]: -1 as const, _id: -1 as const };
  const rows = await collection.find(scoped, { sort, limit: limit + 1 });
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  const key = (row: T): string[] => (orderField === undefined ? [row._id] : [String(row[orderField]), row._id]);
  return { data, has_more: hasMore, pagination: { cursor: hasMore ? cursors.encode(binding, { snapshot: 0, after: key(last) }) : null } };
}

/** The rows after a cursor's key, in the page order. */
function afterKey(after: readonly unknown[], orderField: string | undefined): Filter {
  const [first, id] = after.map(String);
  if (orderField === undefined || id === undefined) return { _id: { $lt: first ?? '' } };
  return { $or: [{ [orderField]: { $lt: first ?? '' } }, { [orderField]: first ?? '', _id: { $lt: id } }] };
}
