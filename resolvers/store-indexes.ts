/**
 * DocumentStore indexes the resolvers' queries rely on (applied at start by the composition root).
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
  { collection: COLLECTIONS.trademarks, paths: ['series_id'] },
  { collection: COLLECTIONS.requestLogs, paths: ['organization_id', 'occurred_at'] },
  { collection: COLLECTIONS.idempotencyReceipts, paths: ['expires_at'] },
];
