/**
 * Independent computations over the store's documents, for the party tests: what the counts must
 * be, computed from the records themselves (never from the API or the index).
 */
import type { DocumentStore } from '../../datasources/ports';
import { COLLECTIONS, type AttorneyDoc, type EntityDoc, type FirmDoc, type OwnerDoc, type TrademarkDoc } from '../../domain/records';

/** Written out by hand from the stage list: outcome reached, granted or not. */
const CONCLUDED = new Set(['registered', 'pending_cancellation', 'expired', 'cancelled', 'invalidated', 'surrendered', 'refused', 'abandoned', 'withdrawn']);

export interface Catalog {
  marks: TrademarkDoc[];
  owners: OwnerDoc[];
  attorneys: AttorneyDoc[];
  firms: FirmDoc[];
  entities: EntityDoc[];
}

export async function readCatalog(store: DocumentStore): Promise<Catalog> {
  const [marks, owners, attorneys, firms, entities] = await Promise.all([
    store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({}),
    store.collection<OwnerDoc>(COLLECTIONS.owners).find({}),
    store.collection<AttorneyDoc>(COLLECTIONS.attorneys).find({}),
    store.collection<FirmDoc>(COLLECTIONS.firms).find({}),
    store.collection<EntityDoc>(COLLECTIONS.entities).find({}),
  ]);
  return { marks, owners, attorneys, firms, entities };
}

export function firmMarks(catalog: Catalog, firmId: string): TrademarkDoc[] {
  const attorneyIds = new Set(catalog.attorneys.filter((a) => a.firm_id === firmId).map((a) => a._id));
  return catalog.marks.filter((m) => m.attorney_ids.some((id) => attorneyIds.has(id)));
}

const rate = (part: number, whole: number): number | null => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

export function expectedFirm(catalog: Catalog, firmId: string) {
  const marks = firmMarks(catalog, firmId);
  const families = new Set(marks.filter((m) => m.ir_number !== null).map((m) => m.ir_number));
  const concluded = marks.filter((m) => CONCLUDED.has(m.status.stage));
  const registered = marks.filter((m) => m.registration_date !== null).length;
  return {
    attorney_count: catalog.attorneys.filter((a) => a.firm_id === firmId && a.merged_into === null).length,
    trademark_count: marks.filter((m) => m.ir_number === null).length + families.size,
    mark_count: marks.length,
    grant_rate: rate(concluded.filter((m) => m.registration_date !== null).length, concluded.length),
    latest_filing:
      marks.length === 0
        ? null
        : marks
            .map((m) => m.filing_date)
            .sort()
            .reverse()[0],
    registered_count: registered,
    pending_count: marks.filter((m) => m.status.primary === 'pending').length,
    abandoned_count: marks.filter((m) => m.status.stage === 'abandoned' || m.status.stage === 'withdrawn').length,
    registration_rate: rate(registered, marks.length),
  };
}

export const ownerMarkCount = (catalog: Catalog, ownerId: string): number => catalog.marks.filter((m) => m.owner_ids.includes(ownerId)).length;
export const attorneyMarkCount = (catalog: Catalog, attorneyId: string): number => catalog.marks.filter((m) => m.attorney_ids.includes(attorneyId)).length;

export function entityMarkCount(catalog: Catalog, entityId: string): number {
  const members = new Set(catalog.owners.filter((o) => o.entity_id === entityId).map((o) => o._id));
  return catalog.marks.filter((m) => m.owner_ids.some((id) => members.has(id))).length;
}

/** Owner ID → marks shared with the attorney. */
export function attorneyClients(catalog: Catalog, attorneyId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mark of catalog.marks.filter((m) => m.attorney_ids.includes(attorneyId))) {
    for (const owner of new Set(mark.owner_ids)) counts.set(owner, (counts.get(owner) ?? 0) + 1);
  }
  return counts;
}

export interface ListBody<T = Record<string, unknown>> {
  object: string;
  data: Array<T & { id: string }>;
  has_more: boolean;
  pagination: { cursor: string | null; total_count?: number; total_count_approximate?: boolean };
  request_id: string;
}

export interface ErrorBody {
  error: { type: string; status: number; detail: string; [extra: string]: unknown };
  request_id: string;
}

export async function body<T>(response: Response, status = 200): Promise<T> {
  const parsed = (await response.json()) as T;
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${JSON.stringify(parsed)}`);
  return parsed;
}

export async function errorOf(response: Response, status: number, type: string): Promise<ErrorBody> {
  const parsed = await body<ErrorBody>(response, status);
  if (parsed.error.type !== type) throw new Error(`expected ${type}, got ${JSON.stringify(parsed)}`);
  return parsed;
}

/** Every row of a list, following cursors. */
export async function allPages<T>(get: (path: string) => Promise<Response>, path: string): Promise<Array<T & { id: string }>> {
  const rows: Array<T & { id: string }> = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: ListBody<T> = await body<ListBody<T>>(await get(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path));
    rows.push(...page.data);
    cursor = page.pagination.cursor;
  } while (cursor);
  return rows;
}
