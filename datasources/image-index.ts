/**
 * What image search searches: every mark image's fingerprint, computed once by the image indexer
 * (workers/image-index.ts) and kept two ways:
 *
 * - a record per image in the DocumentStore collection `image_fingerprints` (keyed by media ID):
 *   the mark, the SHA-256, the pHash, the `marque-handcrafted-v1` descriptor and the OCR'd logo
 *   text. A query re-scores its candidates exactly from these, and a `media_id` query reuses its
 *   image's record instead of computing anything.
 * - three approximate-nearest-neighbour indexes (USearch HNSW, embedded/vector-index.ts) that find
 *   the candidates without a scan: `visual` (the descriptor and those of its four views, 12 % cut
 *   off two adjacent sides, under one key: image-descriptors.ts; cosine), `phash` (the 64 pHash bits,
 *   Hamming distance) and `text` (the logo text as 256 hashed character trigrams of its folded
 *   words, cosine). Their key is the first 60 bits of the SHA-256 of the media ID (stored in the
 *   record as `key`, indexed, to map a neighbour back).
 *
 * Persistence: the indexes are saved under `<dataDir>/image-index/` after each batch the indexer
 * applies, and then the `meta` document `image_indexer_position` records the change-feed position
 * they hold and a generation. Any process searching reloads the files when the generation moves
 * (one `findOne` a search): the indexer may run in another process. The indexer and the route in
 * one process share one instance, so there the generation is already current.
 *
 * A rebuild (a register's first indexing can take hours) drops that checkpoint, so no process
 * searches the indexes while they are partial, and saves its progress every so often (the files,
 * then the `meta` document `image_indexer_rebuild`): a rebuild cut short loads the last progress
 * and adds only the records fingerprinted after it, instead of re-adding every vector.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { COLLECTIONS, type FeedCheckpointDoc } from '../domain/records';
import { foldedWords } from '../domain/text';
import { VectorIndex, type Neighbour } from './embedded/vector-index';
import { DESCRIPTOR_DIMENSIONS, FINGERPRINT_SPEC, type ImageFingerprint } from './image-descriptors';
import { OCR_SPEC } from './logo-ocr';
import type { DocumentStore, StoredDocument } from './ports';

export const IMAGE_INDEXER_CHECKPOINT_ID = 'image_indexer_position';
/** The `meta` document of a rebuild's last saved progress (present while a rebuild is unfinished; a feed checkpoint too). */
export const IMAGE_REBUILD_PROGRESS_ID = 'image_indexer_rebuild';
/** Names the kind of index that answers, for `search_meta.index_version`. */
export const ANN_INDEX_KIND = 'usearch-hnsw-m16';

export type IndexedChannel = 'visual' | 'phash' | 'text';

/**
 * How the `text` index's vectors are made from a record's text (textVector): its words as foldText
 * folds them, since `fold2` with the Latin letters (ø→o, ß→ss) folded. A change is a change of the
 * saved indexes only: a rebuild takes the vectors from the stored records' text again.
 */
const TEXT_VECTOR_SPEC = 'text-trigrams256-fold2';

/**
 * What the stored fingerprints and the indexes hold: the fingerprint's spec, the OCR's and the text
 * vectors'. Records, saved indexes and a rebuild's progress of another spec are not used: the
 * indexer computes those fingerprints again, and reads an image's text again only when the OCR's
 * spec changed.
 */
export const IMAGE_FINGERPRINTS_SPEC = `${FINGERPRINT_SPEC}+${OCR_SPEC}+${TEXT_VECTOR_SPEC}`;
/** The specs of what was written before records, checkpoints and progress named theirs. */
const UNNAMED_FINGERPRINT_SPEC = 'marque-handcrafted-v1+phash64-dct';
const UNNAMED_OCR_SPEC = 'ocr-tesseract-eng4';
const UNNAMED_INDEX_SPEC = `${UNNAMED_FINGERPRINT_SPEC}+${UNNAMED_OCR_SPEC}`;

export interface ImageFingerprintDoc extends StoredDocument {
  /** The ANN key, 15 hex digits (see `annKey`). */
  key: string;
  trademark_id: string;
  checksum_sha256: string;
  phash: string;
  /** The descriptor's float32 bytes, base64. */
  descriptor: string;
  /** The descriptors of its views (12 % cut off two adjacent sides), the same way. */
  views: string[];
  /** OCR'd words ('' when none was read). */
  logo_text: string;
  /** FINGERPRINT_SPEC of the pHash and descriptors (absent on records of before: UNNAMED_FINGERPRINT_SPEC). */
  fingerprint_spec?: string;
  /** OCR_SPEC of `logo_text` (absent on records of before: UNNAMED_OCR_SPEC). */
  ocr_spec?: string;
}

/** Whether a record's pHash and descriptors are what fingerprintImage computes now. */
export function fingerprintIsCurrent(doc: ImageFingerprintDoc): boolean {
  return (doc.fingerprint_spec ?? UNNAMED_FINGERPRINT_SPEC) === FINGERPRINT_SPEC;
}

/** Whether a record's text is what the OCR reads now. */
export function textIsCurrent(doc: ImageFingerprintDoc): boolean {
  return (doc.ocr_spec ?? UNNAMED_OCR_SPEC) === OCR_SPEC;
}

/** Whether a record holds what indexing these bytes now would write. */
export function isUpToDate(doc: ImageFingerprintDoc | undefined | null, checksum: string): boolean {
  return doc !== undefined && doc !== null && doc.checksum_sha256 === checksum && fingerprintIsCurrent(doc) && textIsCurrent(doc);
}

interface CheckpointDoc extends FeedCheckpointDoc {
  generation: string;
  /** IMAGE_FINGERPRINTS_SPEC of the saved indexes (absent on checkpoints of before: UNNAMED_INDEX_SPEC). */
  spec?: string;
}

interface ProgressDoc extends StoredDocument {
  /** The feed position the rebuild goes on from once whole (retention keeps the entries after it). */
  position: string | null;
  /** IMAGE_FINGERPRINTS_SPEC of the saved progress (absent on progress of before: UNNAMED_INDEX_SPEC). */
  spec?: string;
}

const isCurrentSpec = (doc: { spec?: string }): boolean => (doc.spec ?? UNNAMED_INDEX_SPEC) === IMAGE_FINGERPRINTS_SPEC;

const TEXT_DIMENSIONS = 256;
const RELOAD_PAGE = 1000;

/**
 * The stored image's ID (`img_`, the spec's "stored image") of the media item `med_<body>` it was
 * indexed from: the same body, so the two map to each other without a look-up.
 */
export function imageIdOf(mediaId: string): string {
  return `img_${mediaId.slice(mediaId.indexOf('_') + 1)}`;
}

/** The ANN key of a media ID: 60 bits of its SHA-256 (a collision among a million IDs has odds of about 1e-6). */
export function annKey(mediaId: string): string {
  return createHash('sha256').update(mediaId).digest('hex').slice(0, 15);
}

/** The 64-bit label the ANN indexes keep for an ANN key. */
const annLabel = (key: string): bigint => BigInt(`0x${key}`);

export function encodeDescriptor(descriptor: Float32Array): string {
  return Buffer.from(descriptor.buffer, descriptor.byteOffset, descriptor.byteLength).toString('base64');
}

export function decodeDescriptor(encoded: string): Float32Array {
  const bytes = Buffer.from(encoded, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** The pHash's 64 bits as 0/1 values, most significant first. */
export function phashBits(phash: string): Float32Array {
  const value = BigInt(`0x${phash}`);
  return Float32Array.from({ length: 64 }, (_, i) => Number((value >> BigInt(63 - i)) & 1n));
}

/** Hashed character trigrams of the folded words (each word padded with spaces), L2-normalised; null for no words. */
export function textVector(text: string): Float32Array | null {
  const words = foldedWords(text);
  if (words.length === 0) return null;
  const vector = new Float32Array(TEXT_DIMENSIONS);
  for (const word of words) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const bucket =
        createHash('md5')
          .update(padded.slice(i, i + 3))
          .digest()
          .readUInt16BE(0) % TEXT_DIMENSIONS;
      vector[bucket] = vector[bucket]! + 1;
    }
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return vector.map((value) => value / norm);
}

export interface ImageIndexOptions {
  store: DocumentStore;
  /** Folder of the index files (created on first save). */
  directory: string;
}

export class ImageIndex {
  private readonly vectors: Record<IndexedChannel, VectorIndex> = {
    // The whole image and its views under one key.
    visual: new VectorIndex({ metric: 'cos', dimensions: DESCRIPTOR_DIMENSIONS, multi: true }),
    phash: new VectorIndex({ metric: 'hamming', dimensions: 64 }),
    text: new VectorIndex({ metric: 'cos', dimensions: TEXT_DIMENSIONS }),
  };
  /** The generation the vectors in memory hold; null before anything is loaded. */
  private generation: string | null = null;
  private prepared: Promise<void> | null = null;

  constructor(private readonly options: ImageIndexOptions) {}

  get records() {
    return this.options.store.collection<ImageFingerprintDoc>(COLLECTIONS.imageFingerprints);
  }

  private get checkpoints() {
    return this.options.store.collection<CheckpointDoc>(COLLECTIONS.meta);
  }

  private get progress() {
    return this.options.store.collection<ProgressDoc>(COLLECTIONS.meta);
  }

  private file(channel: IndexedChannel): string {
    return join(this.options.directory, `${channel}.usearch`);
  }

  /** Creates the record indexes (once per instance). */
  prepare(): Promise<void> {
    return (this.prepared ??= this.options.store.ensureIndexes([
      { collection: COLLECTIONS.imageFingerprints, paths: ['key'] },
      { collection: COLLECTIONS.imageFingerprints, paths: ['checksum_sha256'] },
    ]));
  }

  /**
   * The feed position the saved indexes hold, after loading them when another process saved a
   * newer generation; undefined when there is nothing usable (never indexed, files missing, or
   * indexes of another fingerprint or OCR spec, which the indexer then rebuilds).
   */
  async refresh(): Promise<string | null | undefined> {
    await this.prepare();
    const checkpoint = await this.checkpoints.findOne({ _id: IMAGE_INDEXER_CHECKPOINT_ID });
    if (checkpoint === null || !isCurrentSpec(checkpoint)) return undefined;
    if (checkpoint.generation === this.generation) return checkpoint.position;
    if (!this.hasFiles()) return undefined;
    this.loadFiles();
    this.generation = checkpoint.generation;
    return checkpoint.position;
  }

  /** Stores an image's fingerprint and puts it in the three indexes (replacing what it had). */
  async put(mediaId: string, trademarkId: string, checksum: string, fingerprint: ImageFingerprint, logoText: string): Promise<void> {
    const key = annKey(mediaId);
    const doc: ImageFingerprintDoc = {
      _id: mediaId,
      key,
      trademark_id: trademarkId,
      checksum_sha256: checksum,
      phash: fingerprint.phash,
      descriptor: encodeDescriptor(fingerprint.descriptor),
      views: fingerprint.views.map(encodeDescriptor),
      logo_text: logoText,
      fingerprint_spec: FINGERPRINT_SPEC,
      ocr_spec: OCR_SPEC,
    };
    await this.records.replaceOne(doc);
    this.addVectors(key, fingerprint.descriptor, fingerprint.views, fingerprint.phash, logoText);
  }

  private addVectors(key: string, descriptor: Float32Array, views: readonly Float32Array[], phash: string, logoText: string): void {
    const label = annLabel(key);
    this.vectors.visual.upsert(label, [descriptor, ...views]);
    this.vectors.phash.upsert(label, [phashBits(phash)]);
    const text = textVector(logoText);
    if (text === null) this.vectors.text.remove(label);
    else this.vectors.text.upsert(label, [text]);
  }

  async remove(mediaId: string): Promise<void> {
    const label = annLabel(annKey(mediaId));
    for (const index of Object.values(this.vectors)) index.remove(label);
    await this.records.deleteOne({ _id: mediaId });
  }

  private get channels(): IndexedChannel[] {
    return Object.keys(this.vectors) as IndexedChannel[];
  }

  private hasFiles(): boolean {
    return this.channels.every((channel) => existsSync(this.file(channel)));
  }

  private loadFiles(): void {
    for (const channel of this.channels) this.vectors[channel].load(this.file(channel));
  }

  private saveFiles(): void {
    mkdirSync(this.options.directory, { recursive: true, mode: 0o700 });
    for (const channel of this.channels) this.vectors[channel].save(this.file(channel));
  }

  /**
   * Starts or resumes a rebuild: drops the checkpoint (no process searches partial indexes), then
   * holds either the progress a rebuild cut short saved (true) or nothing (false; also when that
   * progress is of another spec).
   */
  async beginRebuild(): Promise<boolean> {
    await this.checkpoints.deleteOne({ _id: IMAGE_INDEXER_CHECKPOINT_ID });
    this.generation = null;
    const progress = await this.progress.findOne({ _id: IMAGE_REBUILD_PROGRESS_ID });
    if (progress !== null && isCurrentSpec(progress) && this.hasFiles()) {
      this.loadFiles();
      return true;
    }
    for (const index of Object.values(this.vectors)) index.clear();
    return false;
  }

  /** Saves a rebuild's progress (what the indexes hold is kept if it is cut short); `position` as for persist. */
  async saveProgress(position: string | null): Promise<void> {
    this.saveFiles();
    await this.progress.replaceOne({ _id: IMAGE_REBUILD_PROGRESS_ID, position, spec: IMAGE_FINGERPRINTS_SPEC });
  }

  /**
   * Adds the stored records the indexes do not hold yet (before a rebuild goes on): the records
   * are written one image at a time, so a rebuild cut short resumes where it was instead of
   * fingerprinting and OCR-ing every image again. A rebuild writes each record once, so a record
   * the loaded progress holds is the one it saved (an image replaced while a rebuild was cut short
   * between a progress save and the stop keeps its saved vectors until its next change). Records
   * of another spec are left for the rebuild to compute again.
   */
  async reloadFromRecords(): Promise<void> {
    for (let after = ''; ;) {
      const page = await this.records.find({ _id: { $gt: after } }, { sort: { _id: 1 }, limit: RELOAD_PAGE });
      if (page.length === 0) return;
      for (const doc of page)
        if (!this.vectors.phash.has(annLabel(doc.key)) && fingerprintIsCurrent(doc) && textIsCurrent(doc))
          this.addVectors(doc.key, decodeDescriptor(doc.descriptor), doc.views.map(decodeDescriptor), doc.phash, doc.logo_text);
      after = page[page.length - 1]!._id;
    }
  }

  /** Saves the indexes, then records that they hold the feed up to `position` (a rebuild is then whole). */
  async persist(position: string | null): Promise<void> {
    this.saveFiles();
    const generation = randomBytes(8).toString('hex');
    await this.checkpoints.replaceOne({ _id: IMAGE_INDEXER_CHECKPOINT_ID, position, generation, spec: IMAGE_FINGERPRINTS_SPEC });
    await this.progress.deleteOne({ _id: IMAGE_REBUILD_PROGRESS_ID });
    this.generation = generation;
  }

  /** Images indexed (each has one pHash). */
  get size(): number {
    return this.vectors.phash.size;
  }

  /** The `k` nearest images to `vector` in one index. */
  nearest(channel: IndexedChannel, vector: Float32Array, k: number): Neighbour[] {
    return this.vectors[channel].search(vector, k);
  }

  /** The records of these ANN keys. */
  byKeys(keys: readonly bigint[]): Promise<ImageFingerprintDoc[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.records.find({ key: { $in: keys.map((key) => key.toString(16).padStart(15, '0')) } });
  }

  byChecksum(checksum: string): Promise<ImageFingerprintDoc[]> {
    return this.records.find({ checksum_sha256: checksum });
  }

  byMediaId(mediaId: string): Promise<ImageFingerprintDoc | null> {
    return this.records.findOne({ _id: mediaId });
  }
}
