/**
 * `marque seed`: writes a generated catalog through the DocumentStore port, collection by
 * collection in batches of about 1,000 documents, holding only one chunk of marks in memory. The
 * marks' logos go to `generated_logos` as SVG, rendered when first read (generated-logos.ts), or
 * all at once with `renderLogos`, while the next chunk is generated and written.
 */
import type { DocumentStore, MediaStore, StoredDocument } from '../../datasources/ports';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { type CatalogCollection, generateCatalog } from './generator';
import { generatedLogoDocs, renderGeneratedLogos } from './generated-logos';

export interface SeedOptions {
  marks: number;
  seed: number;
  /** Called after each chunk of marks is written: marks written so far, marks requested. */
  onProgress?: (done: number, total: number) => void;
  /** Called with each batch of marks once written (the seed waits for it: backpressure). */
  onTrademarks?: (docs: readonly TrademarkDoc[]) => void | Promise<void>;
  /** Render every logo into this MediaStore now, instead of when each is first read. */
  renderLogos?: MediaStore;
}

export interface SeedSummary {
  marks: number;
  seed: number;
  /** Documents written per collection. */
  counts: Record<CatalogCollection, number>;
  /** Logos written to `generated_logos` (one per mark whose record links an image). */
  logos: number;
  /** Of them, rendered into the MediaStore during the seed (`renderLogos`). */
  rendered: number;
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
  // One chunk's logos render while the next chunk is generated and written; never more than one.
  let rendering: Promise<void> = Promise.resolve();
  let logos = 0;
  let rendered = 0;
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
      if (batch.logos.length > 0) {
        const docs = generatedLogoDocs(batch.logos);
        await store.collection(COLLECTIONS.generatedLogos).insertMany(docs);
        logos += docs.length;
        if (options.renderLogos !== undefined) {
          const media = options.renderLogos;
          await rendering;
          rendering = renderGeneratedLogos(media, docs);
          // Handled here; awaited before the next chunk's logos start, or at the end.
          rendering.catch(() => undefined);
          rendered += docs.length;
        }
      }
    }
  }
  await rendering;
  if (progressDue !== null) options.onProgress?.(progressDue, options.marks);
  return { marks: options.marks, seed: options.seed, counts, logos, rendered, durationMs: Date.now() - started };
}
