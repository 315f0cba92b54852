/**
 * MediaStore for the embedded default: the bytes as files under the data directory, the records in
 * the DocumentStore.
 *
 *   <directory>/<aa>/<id>.<ext>        the original (ext: png, jpeg, webp, gif)
 *   <directory>/<aa>/<id>.thumb.png    its thumbnail
 *
 * `<aa>` is the first two characters of the ID's body (1,024 folders at most, so no folder grows to
 * millions of entries). The composition root passes `<dataDir>/media`.
 *
 * Records live in the collection `media` of the DocumentStore the adapter is given, not in files
 * beside the bytes: they are then queried like every other record (the near-duplicate variants a
 * recall bench measures are one `find`), follow the store to MongoDB, and can feed the change
 * stream the image-search indexer will follow. Files are written first (to a temporary name, then
 * renamed), the record last, so a record never names bytes that are not there; a crash in between
 * leaves at worst an unreferenced file, overwritten by the next put of that ID.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWellFormedId, randomId } from '../../domain/ids';
import { COLLECTIONS } from '../../domain/records';
import { processImage } from '../media-images';
import type { DocumentStore, MediaContent, MediaFormat, MediaPutMeta, MediaRecord, MediaStore } from '../ports';

export interface EmbeddedMediaStoreOptions {
  /** Folder of the files (created on first write). */
  directory: string;
  /** Holds the records, in the collection `media`. */
  store: DocumentStore;
  now?: () => Date;
}

const EXTENSIONS: Readonly<Record<MediaFormat, string>> = { png: 'png', jpeg: 'jpeg', webp: 'webp', gif: 'gif' };

class EmbeddedMediaStore implements MediaStore {
  private readonly records;
  private readonly now: () => Date;

  constructor(private readonly options: EmbeddedMediaStoreOptions) {
    this.records = options.store.collection<MediaRecord>(COLLECTIONS.media);
    this.now = options.now ?? (() => new Date());
  }

  private folder(id: string): string {
    return join(this.options.directory, id.slice(id.indexOf('_') + 1, id.indexOf('_') + 3));
  }

  private originalPath(id: string, format: MediaFormat): string {
    return join(this.folder(id), `${id}.${EXTENSIONS[format]}`);
  }

  private thumbnailPath(id: string): string {
    return join(this.folder(id), `${id}.thumb.png`);
  }

  async put(bytes: Uint8Array, meta: MediaPutMeta = {}): Promise<MediaRecord> {
    const id = meta.id ?? randomId('med_');
    if (!isWellFormedId(id, 'med_')) throw new RangeError(`media IDs start with med_ (got '${id}')`);
    const image = await processImage(bytes);
    const record: MediaRecord = {
      _id: id,
      ...image.original,
      thumbnail: image.thumbnail,
      trademark_id: meta.trademark_id ?? null,
      derived_from: meta.derived_from ?? null,
      created_at: this.now().toISOString(),
    };
    const previous = await this.records.findOne({ _id: id });
    await mkdir(this.folder(id), { recursive: true, mode: 0o700 });
    await writeAtomically(this.originalPath(id, record.format), bytes);
    await writeAtomically(this.thumbnailPath(id), image.thumbnailBytes);
    await this.records.replaceOne(record);
    if (previous !== null && previous.format !== record.format) await rm(this.originalPath(id, previous.format), { force: true });
    return record;
  }

  private async record(id: string): Promise<MediaRecord | null> {
    if (!isWellFormedId(id, 'med_')) return null;
    return this.records.findOne({ _id: id });
  }

  async get(id: string): Promise<MediaContent | null> {
    const record = await this.record(id);
    return record === null ? null : { record, bytes: await readFile(this.originalPath(id, record.format)) };
  }

  async getThumbnail(id: string): Promise<MediaContent | null> {
    const record = await this.record(id);
    return record === null ? null : { record, bytes: await readFile(this.thumbnailPath(id)) };
  }

  async exists(id: string): Promise<boolean> {
    return (await this.record(id)) !== null;
  }
}

/** Writes to a temporary name in the same folder, then renames: readers see the old file or the new one. */
async function writeAtomically(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, bytes, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export function createEmbeddedMediaStore(options: EmbeddedMediaStoreOptions): MediaStore {
  return new EmbeddedMediaStore(options);
}
