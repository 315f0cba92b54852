/**
 * Cursor pages over an organization's own records in the DocumentStore (API keys, feedback,
 * watches, alerts, portfolios, saved searches, webhooks, events): newest first by the
 * time-ordered random ID, keyset on that ID. Records created after the first page sort before
 * the cursor and so never appear in later pages.
 *
 * Also the totals of every list that is not a search-index list (these, and the lists paged in
 * memory or over a store query of their own: request logs, an owner's relatives, an attorney's
 * clients, a portfolio's deadlines): counted only when asked for (include_total=true), of the
 * whole list under its filters (not of the rows after the cursor), and exact: an organization's
 * own records and one record's rows are counted in full, never capped, so
 * total_count_approximate is always false.
 */
import type { Collection, Filter, StoredDocument } from '../datasources/ports';
import type { CursorCodec } from './cursors';
import type { Pagination } from './search-page';

export interface Page<T> {
  data: T[];
  has_more: boolean;
  pagination: Pagination;
}

export interface PageOptions<T> {
  /** Order by this field (a timestamp) newest first, ties broken by `_id`, keyset on both. */
  orderField?: keyof T & string;
  /** Also count the filter's matches (include_total). */
  includeTotal?: boolean | null;
}

/** The list's total when asked for, else undefined without counting. */
export async function totalIf(includeTotal: boolean | null | undefined, count: () => number | Promise<number>): Promise<number | undefined> {
  return includeTotal === true ? count() : undefined;
}

/** A page's pagination block: the cursor, and the exact total when one was counted. */
export function paginationOf(cursor: string | null, total: number | undefined): Pagination {
  return total === undefined ? { cursor } : { cursor, total_count: total, total_count_approximate: false };
}

/**
 * One page of `filter`'s matches; `binding` ties the cursor to the list and its filters. By
 * default ordered by `_id` (time-ordered random IDs); with `orderField`, by that field (a
 * timestamp) newest first, ties broken by `_id`, keyset on both. With `includeTotal`, the
 * pagination block also carries the number of all of `filter`'s matches, as the first page that
 * counted them found it (the cursor carries it on): rows written since are not listed either.
 */
export async function pageOf<T extends StoredDocument>(
  collection: Collection<T>,
  filter: Filter,
  limit: number,
  cursor: string | null,
  binding: unknown,
  cursors: CursorCodec,
  options: PageOptions<T> = {},
): Promise<Page<T>> {
  const { orderField } = options;
  const position = cursor === null ? undefined : cursors.decode(cursor, binding);
  const after = position?.after;
  const scoped: Filter = after === undefined ? filter : { $and: [filter, afterKey(after, orderField)] };
  const sort = orderField === undefined ? { _id: -1 as const } : { [orderField]: -1 as const, _id: -1 as const };
  // Rows written after the first page are never listed; the total, counted once, leaves them out too.
  const [rows, total] = await Promise.all([
    collection.find(scoped, { sort, limit: limit + 1 }),
    totalIf(options.includeTotal, () => position?.total ?? collection.countDocuments(filter)),
  ]);
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  const hasMore = rows.length > limit && last !== undefined;
  const key = (row: T): string[] => (orderField === undefined ? [row._id] : [String(row[orderField]), row._id]);
  const next = hasMore ? cursors.encode(binding, { snapshot: 0, after: key(last), ...(total === undefined ? {} : { total }) }) : null;
  return { data, has_more: hasMore, pagination: paginationOf(next, total) };
}

/** The rows after a cursor's key, in the page order. */
function afterKey(after: readonly unknown[], orderField: string | undefined): Filter {
  const [first, id] = after.map(String);
  if (orderField === undefined || id === undefined) return { _id: { $lt: first ?? '' } };
  return { $or: [{ [orderField]: { $lt: first ?? '' } }, { [orderField]: first ?? '', _id: { $lt: id } }] };
}
