/**
 * `marque seed`: writes a generated catalog through the DocumentStore port, holding only one
 * chunk of marks in memory: the parties in one transaction, then each chunk of about 1,000 marks
 * with their history (and logo records) in one transaction. The
 * marks' logos go to `generated_logos` as SVG, rendered when first read (generated-logos.ts), or
 * all at once with `renderLogos`, while the next chunk is generated and written.
 */
import type { DocumentStore, MediaStore, StoredDocument } from '../../datasources/ports';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { type CatalogBatch, type CatalogCollection, generateCatalog } from './generator';
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

/** No documents in any catalog collection: a Record, so the compiler checks that none is left out. */
const NO_DOCUMENTS: Readonly<Record<CatalogCollection, number>> = {
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

/** Deletes what a seed wrote (the catalog and the marks' logos), so a seed cut short can run again from the start. */
export async function clearSeed(store: DocumentStore): Promise<void> {
  await store.transaction(async () => {
    for (const collection of [...Object.keys(NO_DOCUMENTS), COLLECTIONS.generatedLogos]) await store.collection(collection).deleteMany({});
  });
}

export async function seedStore(store: DocumentStore, options: SeedOptions): Promise<SeedSummary> {
  const started = Date.now();
  const counts: Record<CatalogCollection, number> = { ...NO_DOCUMENTS };
  // One chunk's logos render while the next chunk is generated and written; never more than one.
  let rendering: Promise<void> = Promise.resolve();
  let logos = 0;
  let rendered = 0;
  /** The batches of the chunk being collected: the parties, or one chunk of marks with their history. */
  let group: CatalogBatch[] = [];
  const writeGroup = async (): Promise<void> => {
    const chunk = group;
    group = [];
    const marks = chunk.find((batch) => batch.collection === COLLECTIONS.trademarks);
    const logoDocs = marks ? generatedLogoDocs(marks.logos) : [];
    // One transaction per chunk instead of one per batch: a bulk load spent about a third of its
    // store time committing, rewriting the same B-tree pages at every commit.
    await store.transaction(async () => {
      for (const batch of chunk) {
        if (batch.docs.length === 0) continue;
        const docs: readonly StoredDocument[] = batch.docs;
        await store.collection(batch.collection).insertMany(docs);
        counts[batch.collection] += docs.length;
      }
      if (logoDocs.length > 0) await store.collection(COLLECTIONS.generatedLogos).insertMany(logoDocs);
    });
    if (marks === undefined) return;
    // Committed before anyone is told: the index thread reads the marks' parties from the file.
    options.onProgress?.(marks.marksDone, options.marks);
    await options.onTrademarks?.(marks.docs);
    logos += logoDocs.length;
    if (options.renderLogos !== undefined && logoDocs.length > 0) {
      const media = options.renderLogos;
      await rendering;
      rendering = renderGeneratedLogos(media, logoDocs);
      // Handled here; awaited before the next chunk's logos start, or at the end.
      rendering.catch(() => undefined);
      rendered += logoDocs.length;
    }
  };
  for (const batch of generateCatalog({ marks: options.marks, seed: options.seed })) {
    // A chunk's trademarks come first, then its history.
    if (batch.collection === COLLECTIONS.trademarks) await writeGroup();
    group.push(batch);
  }
  await writeGroup();
  await rendering;
  return { marks: options.marks, seed: options.seed, counts, logos, rendered, durationMs: Date.now() - started };
}
