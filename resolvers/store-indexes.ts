/**
 * DocumentStore indexes the resolvers' and the write path's queries rely on (applied at start by
 * the composition root). Party matching looks parties up by dedupe key and canonical name; the
 * monitoring lists page an organization's rows by creation time; retention finds what is past its
 * age by the date each of its rules names.
 */
import type { IndexSpec } from '../datasources/ports';
import { COLLECTIONS } from '../domain/records';

export const STORE_INDEXES: readonly IndexSpec[] = [
  { collection: COLLECTIONS.apiKeys, paths: ['secret_hash'], unique: true },
  { collection: COLLECTIONS.apiKeys, paths: ['organization_id'] },
  { collection: COLLECTIONS.feedback, paths: ['organization_id'] },
  { collection: COLLECTIONS.trademarkChanges, paths: ['trademark_id', 'version'] },
  { collection: COLLECTIONS.trademarkSources, paths: ['trademark_id', 'observed_at'] },
  { collection: COLLECTIONS.trademarkEvents, paths: ['trademark_id', 'event_date'] },
  { collection: COLLECTIONS.trademarkSources, paths: ['trademark_id', 'source_data_date'] },
  { collection: COLLECTIONS.trademarks, paths: ['series_id'] },
  { collection: COLLECTIONS.owners, paths: ['dedupe_key'] },
  { collection: COLLECTIONS.owners, paths: ['canonical_name'] },
  { collection: COLLECTIONS.attorneys, paths: ['dedupe_key'] },
  { collection: COLLECTIONS.firms, paths: ['dedupe_key'] },
  { collection: COLLECTIONS.requestLogs, paths: ['organization_id', 'occurred_at'] },
  // Retention's age cut (workers/retention.ts): without it every pass read every request log.
  { collection: COLLECTIONS.requestLogs, paths: ['occurred_at'] },
  { collection: COLLECTIONS.idempotencyReceipts, paths: ['expires_at'] },
  { collection: COLLECTIONS.watches, paths: ['organization_id'] },
  { collection: COLLECTIONS.alerts, paths: ['organization_id', 'created_at'] },
  { collection: COLLECTIONS.alerts, paths: ['watch_id', 'created_at'] },
  { collection: COLLECTIONS.events, paths: ['organization_id', 'created_at'] },
  { collection: COLLECTIONS.webhookEndpoints, paths: ['organization_id'] },
  { collection: COLLECTIONS.webhookDeliveries, paths: ['endpoint_id', 'created_at'] },
  // The dispatcher's "what is due" queries (all endpoints; one endpoint), in send order, and retention's age cut.
  { collection: COLLECTIONS.webhookDeliveries, paths: ['status', 'due_at', 'event_id'] },
  { collection: COLLECTIONS.webhookDeliveries, paths: ['endpoint_id', 'status', 'due_at', 'event_id'] },
  { collection: COLLECTIONS.webhookDeliveries, paths: ['created_at'] },
];
