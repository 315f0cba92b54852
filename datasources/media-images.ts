/**
 * What every MediaStore adapter does to the bytes it is given, whatever it stores them in: decides
 * whether they are a raster image it accepts, reads its facts (format, dimensions, size, SHA-256)
 * and makes the thumbnail. libvips through `sharp`, loaded on first use (a server that only serves
 * stored bytes never loads it); nothing here touches storage.
 */
import { createHash } from 'node:crypto';
import type sharp from 'sharp';
import { MEDIA_MIME_TYPES, MEDIA_THUMBNAIL_MAX_SIDE, MediaFormatError, type MediaFormat, type MediaImageInfo } from './ports';

const ACCEPTED: ReadonlySet<string> = new Set(Object.keys(MEDIA_MIME_TYPES));

/** Decoding limit: 50 megapixels (a register image is far smaller; a decompression bomb is not). */
const MAX_INPUT_PIXELS = 50_000_000;

type Sharp = typeof sharp;
let loaded: Promise<Sharp> | null = null;
const loadSharp = (): Promise<Sharp> => (loaded ??= import('sharp').then((module) => module.default));

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface ProcessedImage {
  original: MediaImageInfo;
  thumbnail: MediaImageInfo;
  thumbnailBytes: Buffer;
}

/**
 * The facts of `bytes` and its thumbnail (PNG, at most MEDIA_THUMBNAIL_MAX_SIDE on the longer side,
 * never enlarged, EXIF orientation applied). Throws MediaFormatError for SVG, for formats other than
 * PNG, JPEG, WebP and GIF, and for bytes the decoder cannot read to the end.
 */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: string | undefined;
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ format, width, height } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata());
  } catch {
    throw new MediaFormatError('not an image (PNG, JPEG, WebP or GIF expected)');
  }
  if (format === 'svg') throw new MediaFormatError('SVG is not accepted: raster images only (PNG, JPEG, WebP or GIF)');
  if (format === undefined || !ACCEPTED.has(format) || width === undefined || height === undefined)
    throw new MediaFormatError(`${format ?? 'unknown'} images are not accepted: PNG, JPEG, WebP or GIF expected`);
  let thumbnail: { data: Buffer; info: { width: number; height: number } };
  try {
    thumbnail = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated' })
      .rotate()
      .resize(MEDIA_THUMBNAIL_MAX_SIDE, MEDIA_THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      // A palette of at most 256 colours (libimagequant, dithered): truecolour thumbnails of the
      // flat-coloured logos marks carry came out no smaller than the original for a quarter of
      // them (the resampled edges add colours), palette ones at about half the size.
      .png({ compressionLevel: 6, palette: true })
      .toBuffer({ resolveWithObject: true });
  } catch {
    // libvips's own message ("vips2png: unable to write to target target") says nothing a client can act on.
    throw new MediaFormatError(`the ${format} image cannot be decoded to its end: it is truncated or corrupt`);
  }
  const mediaFormat = format as MediaFormat;
  return {
    original: {
      format: mediaFormat,
      mime_type: MEDIA_MIME_TYPES[mediaFormat],
      width,
      height,
      byte_size: input.byteLength,
      checksum_sha256: sha256Hex(input),
    },
    thumbnail: {
      format: 'png',
      mime_type: MEDIA_MIME_TYPES.png,
      width: thumbnail.info.width,
      height: thumbnail.info.height,
      byte_size: thumbnail.data.byteLength,
      checksum_sha256: sha256Hex(thumbnail.data),
    },
    thumbnailBytes: thumbnail.data,
  };
}

/** A rectangle of an image in pixels of the image as displayed (EXIF orientation applied). */
export interface CropBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Smallest crop side: below it no descriptor or OCR has anything to work with. */
export const MIN_CROP_SIDE = 8;

/**
 * The part of the image inside `box`, as PNG bytes. Throws MediaFormatError for bytes that are not
 * an accepted raster image, and RangeError (its message a rule the caller can act on) for a box
 * that does not lie inside the image or is smaller than MIN_CROP_SIDE a side.
 */
export async function cropImage(bytes: Uint8Array, box: CropBox): Promise<Buffer> {
  const { original } = await processImage(bytes);
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { orientation } = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  // EXIF orientations 5 to 8 turn the image a quarter: its displayed sides are swapped.
  const [width, height] = (orientation ?? 1) >= 5 ? [original.height, original.width] : [original.width, original.height];
  if (box.width < MIN_CROP_SIDE || box.height < MIN_CROP_SIDE) throw new RangeError(`width and height must each be at least ${MIN_CROP_SIDE} pixels`);
  if (box.x + box.width > width || box.y + box.height > height)
    throw new RangeError(`the box must lie inside the image, which is ${width} × ${height} pixels (x + width ≤ ${width}, y + height ≤ ${height})`);
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .extract({ left: box.x, top: box.y, width: box.width, height: box.height })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
