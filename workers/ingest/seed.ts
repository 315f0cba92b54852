/**
 * `marque seed`: writes a generated catalog through the DocumentStore port, collection by
 * collection in batches of about 1,000 documents, holding only one chunk of marks in memory.
 */
import type { DocumentStore, StoredDocument } from '../../datasources/ports';
import type { TrademarkDoc } from '../../domain/records';
import { type CatalogCollection, generateCatalog } from './generator';

export interface SeedOptions {
  marks: number;
  seed: number;
  /** Called after each chunk of marks is written: marks written so far, marks requested. */
  onProgress?: (done: number, total: number) => void;
  /** Called with each batch of marks once written (the seed waits for it: backpressure). */
  onTrademarks?: (docs: readonly TrademarkDoc[]) => void | Promise<void>;
}

export interface SeedSummary {
  marks: number;
  seed: number;
  /** Documents written per collection. */
  counts: Record<CatalogCollection, number>;
  durationMs: number;
}

export async function seedStore(store: DocumentStore, options: SeedOptions): Promise<SeedSummary> {
  const started = Date.now();
  const counts: Record<CatalogCollection, number> = {
    owners: 0,
    entities: 0,
    firms: 0,
    attorneys: 0,
    trademarks: 0,
    trademark_changes: 0,
    trademark_sources: 0,
    trademark_events: 0,
    proceedings: 0,
  };
  let progressDue: number | null = null;
  for (const batch of generateCatalog({ marks: options.marks, seed: options.seed })) {
    // A chunk's trademarks come first, then its history; report once the whole chunk is written.
    if (batch.collection === 'trademarks') {
      if (progressDue !== null) options.onProgress?.(progressDue, options.marks);
      progressDue = null;
    }
    if (batch.docs.length === 0) continue;
    const docs: readonly StoredDocument[] = batch.docs;
    await store.collection(batch.collection).insertMany(docs);
    counts[batch.collection] += docs.length;
    if (batch.collection === 'trademarks') {
      progressDue = batch.marksDone;
      await options.onTrademarks?.(batch.docs);
    }
  }
  if (progressDue !== null) options.onProgress?.(progressDue, options.marks);
  return { marks: options.marks, seed: options.seed, counts, durationMs: Date.now() - started };
}
