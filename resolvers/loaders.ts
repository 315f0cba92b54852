/**
 * Per-request DataLoaders: every record type is fetched with one `findByIds` call per tick, never
 * one call per row. A new set is made for each request so no loader's memo outlives it (the
 * embedded store's document cache, below them, is told of every change by the file).
 */
import DataLoader from 'dataloader';
import type { DocumentStore, StoredDocument } from '../datasources/ports';
import { COLLECTIONS, type AttorneyDoc, type EntityDoc, type FirmDoc, type OwnerDoc, type ProceedingDoc, type TrademarkDoc } from '../domain/records';

export interface Loaders {
  trademarks: DataLoader<string, TrademarkDoc | null>;
  owners: DataLoader<string, OwnerDoc | null>;
  attorneys: DataLoader<string, AttorneyDoc | null>;
  firms: DataLoader<string, FirmDoc | null>;
  proceedings: DataLoader<string, ProceedingDoc | null>;
  entities: DataLoader<string, EntityDoc | null>;
}

function byIdLoader<T extends StoredDocument>(store: DocumentStore, collection: string): DataLoader<string, T | null> {
  const docs = store.collection<T>(collection);
  return new DataLoader<string, T | null>(
    async (ids) => {
      const found = new Map((await docs.findByIds(ids)).map((doc) => [doc._id, doc]));
      return ids.map((id) => found.get(id) ?? null);
    },
    { maxBatchSize: 1000 },
  );
}

export function createLoaders(store: DocumentStore): Loaders {
  return {
    trademarks: byIdLoader<TrademarkDoc>(store, COLLECTIONS.trademarks),
    owners: byIdLoader<OwnerDoc>(store, COLLECTIONS.owners),
    attorneys: byIdLoader<AttorneyDoc>(store, COLLECTIONS.attorneys),
    firms: byIdLoader<FirmDoc>(store, COLLECTIONS.firms),
    entities: byIdLoader<EntityDoc>(store, COLLECTIONS.entities),
    proceedings: byIdLoader<ProceedingDoc>(store, COLLECTIONS.proceedings),
  };
}

/** Loads many IDs and drops the missing ones, keeping order. */
export async function loadPresent<T>(loader: DataLoader<string, T | null>, ids: readonly string[]): Promise<T[]> {
  const loaded = await loader.loadMany(ids);
  return loaded.filter((doc): doc is Awaited<T> => doc !== null && !(doc instanceof Error)) as T[];
}
