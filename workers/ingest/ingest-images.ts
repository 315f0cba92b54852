/**
 * The images office records name (ST.96 `MarkImage/FileName`, read from beside the record's
 * document by the parse pipeline), stored as the marks' representations.
 *
 * Before a batch is written, each named image is checked the way the MediaStore checks what it
 * stores (a PNG, JPEG, WebP or GIF its decoder reads to the end, at most 8 MB) and the mark's
 * `media` is set to link it, under the media ID every version of the mark keeps
 * (`representationMediaId`). After the write, the image is stored for each mark the batch did not
 * skip as older (an older file never replaces a newer image), unless the same bytes are stored
 * already, so re-ingesting a file changes nothing; a changed image replaces the stored one, and
 * the image indexer follows the media change feed. For a moment after a batch commits, a new
 * mark's link may answer 404 until its image is stored.
 *
 * A file that is not there, too large, or not an image the MediaStore accepts is counted and
 * listed (`images.problems`), and its mark loads without an image. A record's `media` is what its
 * own file and folder hold: an image added beside a record already ingested links at the mark's
 * next version. A dry run checks the same without storing. A batch's image bytes travel with it
 * from the parse thread (at most 8 MB each; `--batch-size` bounds how many are held at once).
 */
import { processImage, sha256Hex } from '../../datasources/media-images';
import { MEDIA_MAX_BYTES, MediaFormatError, type MediaStore } from '../../datasources/ports';
import { catalogId, representationMediaId } from '../../domain/ids';
import type { MarkInput } from './mark-input';
import type { WriteOutcome } from './mark-writer';

/** Problems listed in the summary (all are counted). */
const MAX_LISTED_PROBLEMS = 1000;

export interface ImageProblem {
  /** The mark's application number. */
  key: string;
  file: string;
  reason: string;
}

export interface ImageCounts {
  /** Records naming an image file. */
  named: number;
  stored: number;
  /** The same bytes were stored already. */
  unchanged: number;
  /** Checked and linked by a dry run (nothing is stored). */
  checked: number;
  missing: number;
  refused: number;
  problems: ImageProblem[];
}

export const emptyImageCounts = (): ImageCounts => ({ named: 0, stored: 0, unchanged: 0, checked: 0, missing: 0, refused: 0, problems: [] });

interface Accepted {
  mediaId: string;
  trademarkId: string;
  bytes: Uint8Array;
  /** The same bytes are stored under mediaId already. */
  stored: boolean;
}

export class RecordImages {
  constructor(
    private readonly media: MediaStore | null,
    readonly counts: ImageCounts = emptyImageCounts(),
  ) {}

  private problem(mark: MarkInput, reason: string): void {
    if (this.counts.problems.length < MAX_LISTED_PROBLEMS) this.counts.problems.push({ key: mark.application_number, file: mark.image!.file_name, reason });
  }

  /** Checks each mark's named image and links the acceptable ones (`content.media`); returns them by input index. */
  async link(marks: readonly MarkInput[]): Promise<Map<number, Accepted>> {
    const accepted = new Map<number, Accepted>();
    for (const [i, mark] of marks.entries()) {
      const bytes = mark.image?.bytes;
      if (mark.image === undefined) continue;
      this.counts.named++;
      if (bytes === null || bytes === undefined) {
        this.counts.missing++;
        this.problem(mark, 'no such file beside the document');
        continue;
      }
      if (bytes.byteLength > MEDIA_MAX_BYTES) {
        this.counts.refused++;
        this.problem(mark, 'larger than 8 MB');
        continue;
      }
      const trademarkId = catalogId('tm_', mark.office_code, mark.application_number);
      const mediaId = representationMediaId(trademarkId);
      // An image stored already with these bytes was checked when it was stored (re-ingesting is cheap).
      const existing = (await this.media?.get(mediaId))?.record ?? null;
      const stored = existing !== null && existing.checksum_sha256 === sha256Hex(bytes);
      let mimeType: string;
      try {
        mimeType = stored ? existing.mime_type : (await processImage(bytes)).original.mime_type;
      } catch (error) {
        if (!(error instanceof MediaFormatError)) throw error;
        this.counts.refused++;
        this.problem(mark, error.message);
        continue;
      }
      mark.content.media = [{ id: mediaId, kind: 'image', mime_type: mimeType, url: `/v1/media/${mediaId}` }];
      accepted.set(i, { mediaId, trademarkId, bytes, stored });
    }
    return accepted;
  }

  /** Stores the linked images of the marks written (`outcomes` in input order). */
  async store(accepted: ReadonlyMap<number, Accepted>, outcomes: readonly WriteOutcome[]): Promise<void> {
    for (const [i, image] of accepted) {
      if (this.media === null) {
        this.counts.checked++;
        continue;
      }
      if (outcomes[i] === 'skipped_older' || outcomes[i] === 'not_found') continue;
      if (image.stored) {
        this.counts.unchanged++;
        continue;
      }
      await this.media.put(image.bytes, { id: image.mediaId, trademark_id: image.trademarkId });
      this.counts.stored++;
    }
  }
}
