/**
 * How far a change-feed worker is behind, read from its persisted checkpoint, so any process
 * (the API's /metrics) can tell, whichever process runs the worker: the unread entries of the
 * collections it reads (counted up to a cap, so a scrape stays cheap) and the age of the oldest.
 */
import type { DocumentStore } from '../datasources/ports';
import { COLLECTIONS, type FeedCheckpointDoc } from '../domain/records';

export interface FeedConsumer {
  name: string;
  checkpointId: string;
  collections: readonly string[];
}

export interface FeedBacklog {
  /** Unread entries, at most the cap. */
  entries: number;
  /** Seconds since the oldest unread entry occurred (0 when none is unread). */
  lagSeconds: number;
}

/** `consumer`'s backlog; null when it has never run (no checkpoint). */
export async function feedBacklog(store: DocumentStore, consumer: FeedConsumer, now: Date, cap = 1000): Promise<FeedBacklog | null> {
  const checkpoint = await store.collection<FeedCheckpointDoc>(COLLECTIONS.meta).findOne({ _id: consumer.checkpointId });
  if (checkpoint === null) return null;
  const unread = await store.readChanges(checkpoint.position, cap, consumer.collections);
  const oldest = unread.events[0];
  return {
    entries: unread.events.length,
    lagSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - Date.parse(oldest.occurredAt)) / 1000),
  };
}
