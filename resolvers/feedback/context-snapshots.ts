/**
 * What a feedback report captures about what it names, at filing time. Enrichment never rejects
 * a submission: an unknown reference is recorded as null (request) or found: false (resource).
 * A request is looked up only among the caller's organization's own request log, so another
 * organization's request reads exactly like an unknown one.
 */
import type { DocumentStore, StoredDocument } from '../../datasources/ports';
import type { IdKind } from '../../domain/ids';
import {
  COLLECTIONS,
  type AttorneyDoc,
  type FeedbackRequestSnapshot,
  type FeedbackResourceSnapshot,
  type FirmDoc,
  type OwnerDoc,
  type ProceedingDoc,
  type RequestLogDoc,
  type TrademarkDoc,
} from '../../domain/records';

export async function requestSnapshot(store: DocumentStore, organizationId: string, requestRef: string): Promise<FeedbackRequestSnapshot | null> {
  const row = await store.collection<RequestLogDoc>(COLLECTIONS.requestLogs).findOne({ _id: requestRef, organization_id: organizationId });
  if (!row) return null;
  const { route, method, status_code, error_type, error_detail, duration_ms, occurred_at } = row;
  return { route, method, status_code, error_type, error_detail, duration_ms, occurred_at };
}

type SnapshotFields = Omit<Extract<FeedbackResourceSnapshot, { found: true }>, 'found' | 'resource_type'>;

const NO_FIELDS: SnapshotFields = { office: null, jurisdiction: null, version: null, status_primary: null, source_updated_at: null, updated_at: null };

/** Reads one record kind and picks its snapshot fields; null when the record does not exist. */
type Snapshotter = (store: DocumentStore, id: string) => Promise<SnapshotFields | null>;

function fromCollection<T extends StoredDocument>(collection: string, fields: (doc: T) => SnapshotFields): Snapshotter {
  return async (store, id) => {
    const doc = await store.collection<T>(collection).findOne({ _id: id });
    return doc ? fields(doc) : null;
  };
}

/** Per record kind: where it is stored and which snapshot fields it has (null where it lacks one). */
const SNAPSHOTTERS: Partial<Record<IdKind, Snapshotter>> = {
  trademark: fromCollection<TrademarkDoc>(COLLECTIONS.trademarks, (mark) => ({
    office: mark.office_code,
    jurisdiction: mark.jurisdiction_code,
    version: mark.version,
    status_primary: mark.status.primary,
    source_updated_at: mark.source_updated_at,
    updated_at: mark.updated_at,
  })),
  owner: fromCollection<OwnerDoc>(COLLECTIONS.owners, (owner) => ({ ...NO_FIELDS, updated_at: owner.updated_at })),
  attorney: fromCollection<AttorneyDoc>(COLLECTIONS.attorneys, (attorney) => ({ ...NO_FIELDS, updated_at: attorney.updated_at })),
  firm: fromCollection<FirmDoc>(COLLECTIONS.firms, (firm) => ({ ...NO_FIELDS, updated_at: firm.updated_at })),
  proceeding: fromCollection<ProceedingDoc>(COLLECTIONS.proceedings, (proceeding) => ({
    ...NO_FIELDS,
    office: proceeding.office_code,
    updated_at: proceeding.updated_at,
  })),
};

export async function resourceSnapshot(store: DocumentStore, kind: IdKind, id: string): Promise<FeedbackResourceSnapshot> {
  const fields = (await SNAPSHOTTERS[kind]?.(store, id)) ?? null;
  return fields === null ? { found: false, resource_type: kind } : { found: true, resource_type: kind, ...fields };
}
