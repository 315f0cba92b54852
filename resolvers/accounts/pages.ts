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

/** One page of `filter`'s matches; `binding` ties the cursor to the list and its filters. */
export async function pageOf<T extends StoredDocument>(
  collection: Collection<T>,
  filter: Filter,
  limit: number,
  cursor: string | null,
  binding: unknown,
  cursors: CursorCodec,
): Promise<Page<T>> {
  const after = cursor === null ? undefined : cursors.decode(cursor, binding).after[0];
  const scoped: Filter = typeof after === 'string' ? { $and: [filter, { _id: { $lt: after } }] } : filter;
  const rows = await collection.find(scoped, { sort: { _id: -1 }, limit: limit + 1 });
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  return { data, has_more: hasMore, pagination: { cursor: hasMore ? cursors.encode(binding, { snapshot: 0, after: [last._id] }) : null } };
}
