/**
 * The deterministic catalog generator behind `marque seed --marks N --seed S`: parties first
 * (kept in memory, sublinear in N), then marks in chunks with their history and proceedings.
 * It yields batches of at most `batchSize` documents per collection and writes nothing itself; the
 * marks' logos come with their batch as SVG (generator/logos.ts), rendered by whoever stores them.
 * The same (marks, seed) always yields the same documents in the same order.
 */
import { COLLECTIONS } from '../../../domain/records';
import type {
  AttorneyDoc,
  EntityDoc,
  FirmDoc,
  OwnerDoc,
  ProceedingDoc,
  TrademarkChangeDoc,
  TrademarkDoc,
  TrademarkEventDoc,
  TrademarkSourceDoc,
} from '../../../domain/records';
import { generateParties } from './parties';
import type { LogoPlan } from './logos';
import { emptyBundle, type MarkBundle, MarkGenerator } from './trademarks';

export type { LogoPlan } from './logos';
export { TRANSFORMS as LOGO_TRANSFORMS } from './logos';

export interface GeneratorOptions {
  marks: number;
  seed: number;
  /** Largest number of documents in one batch (default 1,000). */
  batchSize?: number;
}

export type CatalogBatch =
  | { collection: typeof COLLECTIONS.owners; docs: OwnerDoc[] }
  | { collection: typeof COLLECTIONS.entities; docs: EntityDoc[] }
  | { collection: typeof COLLECTIONS.attorneys; docs: AttorneyDoc[] }
  | { collection: typeof COLLECTIONS.firms; docs: FirmDoc[] }
  /** `logos`: the SVG of each mark's image (the seed renders and stores them when given a MediaStore). */
  | { collection: typeof COLLECTIONS.trademarks; docs: TrademarkDoc[]; marksDone: number; logos: LogoPlan[] }
  | { collection: typeof COLLECTIONS.trademarkChanges; docs: TrademarkChangeDoc[] }
  | { collection: typeof COLLECTIONS.trademarkSources; docs: TrademarkSourceDoc[] }
  | { collection: typeof COLLECTIONS.trademarkEvents; docs: TrademarkEventDoc[] }
  | { collection: typeof COLLECTIONS.proceedings; docs: ProceedingDoc[] };

export type CatalogCollection = CatalogBatch['collection'];

export const DEFAULT_BATCH_SIZE = 1000;

function* chunks<T>(docs: T[], size: number): Generator<T[]> {
  for (let start = 0; start < docs.length; start += size) yield docs.slice(start, start + size);
}

function* bundleBatches(bundle: MarkBundle, size: number, marksDone: number): Generator<CatalogBatch> {
  yield { collection: COLLECTIONS.trademarks, docs: bundle.trademarks, marksDone, logos: bundle.logos };
  for (const docs of chunks(bundle.changes, size)) yield { collection: COLLECTIONS.trademarkChanges, docs };
  for (const docs of chunks(bundle.sources, size)) yield { collection: COLLECTIONS.trademarkSources, docs };
  for (const docs of chunks(bundle.events, size)) yield { collection: COLLECTIONS.trademarkEvents, docs };
  for (const docs of chunks(bundle.proceedings, size)) yield { collection: COLLECTIONS.proceedings, docs };
}

export function* generateCatalog(options: GeneratorOptions): Generator<CatalogBatch> {
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(options.marks) || options.marks < 0) throw new RangeError('marks must be a non-negative integer');
  if (!Number.isInteger(size) || size < 1) throw new RangeError('batchSize must be a positive integer');
  const parties = generateParties(options.seed, options.marks);
  for (const docs of chunks(parties.owners, size)) yield { collection: COLLECTIONS.owners, docs };
  for (const docs of chunks(parties.entities, size)) yield { collection: COLLECTIONS.entities, docs };
  for (const docs of chunks(parties.firms, size)) yield { collection: COLLECTIONS.firms, docs };
  for (const docs of chunks(parties.attorneys, size)) yield { collection: COLLECTIONS.attorneys, docs };

  const marks = new MarkGenerator(options.seed, parties);
  let done = 0;
  let bundle = emptyBundle();
  while (done < options.marks) {
    done += marks.nextFamily(options.marks - done, bundle);
    // A Madrid family is never split, so a chunk can exceed `size` by up to five marks.
    if (bundle.trademarks.length >= size || done === options.marks) {
      yield* bundleBatches(bundle, size, done);
      bundle = emptyBundle();
    }
  }
}
