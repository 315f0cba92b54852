/**
 * The image indexer: keeps image search's fingerprints and ANN indexes (datasources/image-index.ts)
 * in step with the marks' images, following the change feed of `media` (an image stored or
 * replaced) and `generated_logos` (a demo logo planned, rendered here through the MediaStore).
 *
 * Each image of a mark is fingerprinted once: the pHash and descriptor (image-descriptors.ts) and
 * the OCR of its text (logo-ocr.ts, this worker's own engine, so searches never queue behind it).
 * An image whose SHA-256 has not changed since its record was written is skipped, so replaying a
 * batch after a crash costs a look-up per image. A record of another fingerprint spec (a changed
 * descriptor or pHash) is computed again, keeping its text unless the OCR's spec changed too: OCR
 * is most of an image's cost. The saved indexes name their spec, so a change of either rebuilds.
 * After each batch the indexes are saved and the feed position recorded with them
 * (ImageIndex.persist): a restart resumes there.
 *
 * With no usable saved index (first start, or the files are gone) it rebuilds from the store:
 * every media record of a mark, then every generated logo not rendered yet, and resumes the feed
 * from the position taken before the scan. The fingerprint records written so far survive a stop,
 * and the indexes are saved every PROGRESS_EVERY images (ImageIndex.saveProgress), so a rebuild
 * cut short loads its last progress, adds the records written after it, and goes on where it was.
 * It runs with the search indexer (worker `indexer`).
 */
import { fingerprintImage } from '../datasources/image-descriptors';
import { isUpToDate, textIsCurrent, type ImageIndex } from '../datasources/image-index';
import { LogoOcr } from '../datasources/logo-ocr';
import type { ChangeEvent, DocumentStore, MediaRecord, MediaStore, StoredDocument } from '../datasources/ports';
import { COLLECTIONS } from '../domain/records';
import { FeedLoop } from './feed-loop';

const PAGE = 500;
/** A rebuild saves its progress after about this many images (a few minutes' work). */
const PROGRESS_EVERY = 5_000;
/**
 * Images in progress at once: rendering, decoding and hashing run on libuv's pool and the main
 * thread while the OCR engine reads another. Four keep the engine busy: on the 1M demo register
 * (two cores) 32 images/s against 29 with two.
 */
const CONCURRENCY = 4;

export interface ImageIndexerOptions {
  onError?: (error: unknown) => void;
  /** Images between a rebuild's progress saves (default PROGRESS_EVERY). */
  progressEvery?: number;
}

export class ImageIndexer {
  readonly collections: readonly string[] = [COLLECTIONS.media, COLLECTIONS.generatedLogos];
  private readonly loop: FeedLoop;
  private readonly ocr = new LogoOcr();
  /** Feed position read up to; undefined until loaded from the saved index. */
  private position: string | null | undefined = undefined;
  /**
   * Set by `stop`: a rebuild or a batch can take minutes (OCR), so they end at the next image
   * without saving the position; the next start resumes the rebuild, or replays the batch (cheap:
   * images whose record has the same SHA-256 are skipped).
   */
  private stopping = false;

  constructor(
    private readonly store: DocumentStore,
    private readonly media: MediaStore,
    private readonly index: ImageIndex,
    private readonly options: ImageIndexerOptions = {},
  ) {
    this.loop = new FeedLoop(
      store,
      async () => (await this.catchUp(), this.position ?? null),
      options.onError ?? ((error) => console.error('image indexer:', error)),
    );
  }

  /** Fingerprints the image `id` when it is a mark's and new or changed; drops it when it is gone. */
  private async indexImage(id: string): Promise<void> {
    const content = await this.media.get(id);
    if (content === null || content.record.trademark_id === null) return this.index.remove(id);
    const known = await this.index.byMediaId(id);
    if (isUpToDate(known, content.record.checksum_sha256)) return;
    // Once stopping, no new recognition: `stop` closes the engine after those already queued.
    if (this.stopping) return;
    const keptText = known !== null && known.checksum_sha256 === content.record.checksum_sha256 && textIsCurrent(known) ? known.logo_text : null;
    const [fingerprint, text] = await Promise.all([fingerprintImage(content.bytes, { views: 'indexed' }), keptText ?? this.ocr.recognize(content.bytes)]);
    await this.index.put(id, content.record.trademark_id, content.record.checksum_sha256, fingerprint, text);
  }

  /** Indexes `ids`, CONCURRENCY at a time; `indexed` after each. */
  private async indexAll(ids: readonly string[], indexed: () => Promise<void> = async () => undefined): Promise<void> {
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < ids.length && !this.stopping) {
        await this.indexImage(ids[next++]!);
        await indexed();
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, work));
  }

  /** Applies every change after the saved position; returns how many feed events it read. */
  async catchUp(batchSize = PAGE): Promise<number> {
    if (this.position === undefined) {
      const saved = await this.index.refresh();
      if (saved === undefined) await this.rebuild();
      else this.position = saved;
      if (this.stopping) return 0;
    }
    let total = 0;
    for (;;) {
      const batch = await this.store.readChanges(this.position ?? null, batchSize, this.collections);
      if (batch.position === this.position) return total;
      if (batch.events.length > 0) {
        total += batch.events.length;
        // The position moves only once the batch is applied, so a failed batch is read again.
        await this.apply(batch.events);
        if (this.stopping) return total;
        await this.index.persist(batch.position);
      }
      this.position = batch.position;
    }
  }

  private async apply(events: readonly ChangeEvent[]): Promise<void> {
    const touched = new Set<string>();
    for (const event of events) {
      // A rendered logo arrives as a media write as well; its generated_logos entry matters only until then.
      if (event.collection === COLLECTIONS.generatedLogos && event.operation === 'delete') continue;
      touched.add(event.documentId);
    }
    await this.indexAll([...touched]);
  }

  /**
   * Fingerprints every mark image of the store not fingerprinted yet (or changed since), on top of
   * the records already stored, then resumes the feed from before the scan. The position is saved
   * only once the scan is whole: a rebuild cut short runs again at the next start, from its last
   * saved progress and the records written after it, skipping what it had done.
   */
  async rebuild(): Promise<void> {
    const position = await this.store.latestPosition();
    await this.index.beginRebuild();
    await this.index.reloadFromRecords();
    let sinceSave = 0;
    // Saving while other images are in flight is safe: a record is written before its vectors are
    // added, and a resumed rebuild adds every record its loaded progress lacks.
    const advance = async (): Promise<void> => {
      if (++sinceSave < (this.options.progressEvery ?? PROGRESS_EVERY) || this.stopping) return;
      sinceSave = 0;
      await this.index.saveProgress(position);
    };
    const media = this.store.collection<MediaRecord>(COLLECTIONS.media);
    for (let after = ''; ;) {
      const page = await media.find({ _id: { $gt: after }, trademark_id: { $ne: null } }, { sort: { _id: 1 }, limit: PAGE });
      if (page.length === 0 || this.stopping) break;
      // Fingerprinted already with these bytes and specs (a resumed rebuild): skipped without reading the file.
      const known = new Map((await this.index.records.findByIds(page.map((record) => record._id))).map((doc) => [doc._id, doc]));
      const pending = page.filter((record) => !isUpToDate(known.get(record._id), record.checksum_sha256)).map((record) => record._id);
      await this.indexAll(pending, advance);
      after = page[page.length - 1]!._id;
    }
    const logos = this.store.collection<StoredDocument>(COLLECTIONS.generatedLogos);
    for (let after = ''; ;) {
      const page = await logos.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: PAGE });
      if (page.length === 0 || this.stopping) break;
      const indexed = new Set((await this.index.records.findByIds(page.map((logo) => logo._id))).map((doc) => doc._id));
      const pending = page.map((logo) => logo._id).filter((id) => !indexed.has(id));
      await this.indexAll(pending, advance);
      after = page[page.length - 1]!._id;
    }
    if (this.stopping) return;
    await this.index.persist(position);
    this.position = position;
  }

  /**
   * Follows the feed until `stop`, going on from the saved indexes and position: another process
   * may have run it while this one stood by, and a stop cut short a batch this one never saved.
   */
  start(): void {
    this.stopping = false;
    this.position = undefined;
    this.loop.start();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.loop.stop();
    await this.ocr.close();
  }
}
