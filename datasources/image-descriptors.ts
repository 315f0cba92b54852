/**
 * What image search compares: a 64-bit perceptual hash (the `exact_dup` channel, besides SHA-256
 * equality) and a hand-built visual descriptor (the `visual` channel), both computed from the
 * decoded pixels with sharp. No pretrained network: none can be downloaded here, so the descriptor
 * is documented instead, under the name EMBEDDING_SPEC.
 *
 * Both start from the same normalised shape, so that a recoloured, rescaled or cropped copy of a
 * logo looks like its original:
 *   1. decode (EXIF orientation applied, transparency flattened on white) at 128 px on the longer side;
 *   2. foreground mask: each pixel's colour distance to the background colour (the most common
 *      colour), 0 to 1; independent of the palette, and of light-on-dark versus dark-on-light;
 *   3. crop to the foreground's bounding box, leaving out frame lines (runs of foreground longer
 *      than 60 % of a side), and stretch it to a square (32×32 and 64×64, area-averaged).
 *
 * pHash (DCT): the 2-D DCT-II of the 32×32 mask; its 8×8 lowest frequencies; bit i set when
 * coefficient i is above the median of the 63 non-DC ones (the DC bit is always 0). Compared by
 * Hamming distance: near-duplicates differ by a few bits of 64.
 *
 * `marque-handcrafted-v1`, 159 dimensions, each block L2-normalised and weighted, then the whole
 * vector L2-normalised (so cosine similarity is a dot product):
 *   - shape (weight 0.6): the 63 non-DC coefficients of that 8×8 DCT low band;
 *   - colour (weight 0.1): a 4×4×4 RGB histogram (64 bins) of the box, each pixel counted by its
 *     foreground weight (the background is left out);
 *   - edges (weight 0.45): a histogram of gradient orientation (8 bins over 0 to 180°, Sobel on the
 *     64×64 mask, weighted by magnitude) in each of 2×2 cells (32 bins).
 * Weights chosen on the demo fixture's near-duplicates (recall@10 about 0.9 there; see the test).
 */
import type sharp from 'sharp';

export const EMBEDDING_SPEC = 'marque-handcrafted-v1';
/**
 * Names what `fingerprintImage` computes (the descriptor, its views and the pHash): stored with
 * each fingerprint, so that changing any re-fingerprints every image (workers/image-index.ts).
 */
export const FINGERPRINT_SPEC = `${EMBEDDING_SPEC}+corners12+phash64-dct`;
/** 63 shape + 64 colour + 32 edge values. */
export const DESCRIPTOR_DIMENSIONS = 159;

export interface ImageFingerprint {
  /** The pHash as 16 lowercase hex digits. */
  phash: string;
  /** L2-normalised `marque-handcrafted-v1` descriptor. */
  descriptor: Float32Array;
  /** The descriptors of the image's views, INDEXED_VIEWS or QUERY_VIEWS as asked (none unless asked for). */
  views: Float32Array[];
}

/** Which views to describe besides the whole image: a stored image's or a query's. */
export type ViewSet = 'indexed' | 'query';

type Sharp = typeof sharp;
let loaded: Promise<Sharp> | null = null;
const loadSharp = (): Promise<Sharp> => (loaded ??= import('sharp').then((module) => module.default));

const WEIGHTS = { shape: 0.6, colour: 0.1, edges: 0.45 };

/** cos(π (2x + 1) u / 2N) for N = 32, computed once. */
const N = 32;
const COSINES: Float64Array = (() => {
  const table = new Float64Array(N * N);
  for (let u = 0; u < N; u++) for (let x = 0; x < N; x++) table[u * N + x] = Math.cos((Math.PI * (2 * x + 1) * u) / (2 * N));
  return table;
})();

/** The 8×8 low band of the 2-D DCT-II of a 32×32 grey image (row-major, [0] is DC). */
function dctLowBand(pixels: Float64Array): Float64Array {
  const rows = new Float64Array(N * 8);
  for (let y = 0; y < N; y++)
    for (let u = 0; u < 8; u++) {
      let sum = 0;
      for (let x = 0; x < N; x++) sum += pixels[y * N + x]! * COSINES[u * N + x]!;
      rows[y * 8 + u] = sum;
    }
  const band = new Float64Array(64);
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) {
      let sum = 0;
      for (let y = 0; y < N; y++) sum += rows[y * 8 + u]! * COSINES[v * N + y]!;
      band[v * 8 + u] = sum;
    }
  return band;
}

function l2(values: ArrayLike<number>, weight = 1): number[] {
  let norm = 0;
  for (let i = 0; i < values.length; i++) norm += values[i]! * values[i]!;
  norm = Math.sqrt(norm);
  return Array.from(values, (value) => (norm === 0 ? 0 : (value / norm) * weight));
}

function phashOf(band: Float64Array): string {
  const ac = Array.from(band.subarray(1));
  const median = [...ac].sort((a, b) => a - b)[31]!;
  let hash = 0n;
  for (let i = 1; i < 64; i++) if (band[i]! > median) hash |= 1n << BigInt(63 - i);
  return hash.toString(16).padStart(16, '0');
}

function edgeHistogram(grey: Float64Array, side: number): number[] {
  const bins = new Float64Array(32);
  const at = (x: number, y: number): number => grey[y * side + x]!;
  for (let y = 1; y < side - 1; y++)
    for (let x = 1; x < side - 1; x++) {
      const gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1);
      const gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1);
      const magnitude = Math.hypot(gx, gy);
      if (magnitude < 0.01) continue;
      let angle = Math.atan2(gy, gx);
      if (angle < 0) angle += Math.PI;
      const bin = Math.min(7, Math.floor((angle / Math.PI) * 8));
      const cell = (y < side / 2 ? 0 : 2) + (x < side / 2 ? 0 : 1);
      bins[cell * 8 + bin] = bins[cell * 8 + bin]! + magnitude;
    }
  return Array.from(bins);
}

/** Side of the working raster: the image is decoded once at this size (longer side) and all features come from it. */
const WORK = 128;

/**
 * The foreground of an RGB raster, 0 to 1 per pixel: how far each pixel's colour is from the
 * background colour (the median of the border pixels). Independent of which colours the logo
 * uses, and of a light logo on a dark ground versus a dark one on a light ground.
 */
function foreground(rgb: Buffer, width: number, height: number): Float64Array {
  // Pixels counted in 4,096 colour bins (4 bits a channel); the most common bin is the background,
  // the bin seen first winning a tie.
  const count = new Uint32Array(4096);
  const sums = new Float64Array(4096 * 3);
  const first = new Int32Array(4096);
  for (let i = 0; i < width * height; i++) {
    const r = rgb[i * 3]!,
      g = rgb[i * 3 + 1]!,
      b = rgb[i * 3 + 2]!;
    const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    if (count[key] === 0) first[key] = i;
    count[key]! += 1;
    sums[key * 3]! += r;
    sums[key * 3 + 1]! += g;
    sums[key * 3 + 2]! += b;
  }
  let mode = -1;
  for (let key = 0; key < 4096; key++)
    if (count[key]! > 0 && (mode < 0 || count[key]! > count[mode]! || (count[key] === count[mode] && first[key]! < first[mode]!))) mode = key;
  const n = count[mode]!;
  const background = [sums[mode * 3]! / n, sums[mode * 3 + 1]! / n, sums[mode * 3 + 2]! / n];
  const out = new Float64Array(width * height);
  for (let i = 0; i < width * height; i++) {
    const d = Math.hypot(rgb[i * 3]! - background[0]!, rgb[i * 3 + 1]! - background[1]!, rgb[i * 3 + 2]! - background[2]!);
    out[i] = Math.min(1, d / 96);
  }
  return out;
}

/**
 * The bounding box of the foreground (pixels above 0.5), leaving out frame lines: pixels on a
 * horizontal or vertical run of foreground longer than 60 % of the raster's side (a border drawn
 * around a logo, which a crop cuts partly away). The whole raster when nothing is left.
 */
function boundingBox(mask: Float64Array, width: number, height: number): { x0: number; y0: number; x1: number; y1: number } {
  const on = (x: number, y: number): boolean => mask[y * width + x]! > 0.5;
  const frame = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    let start = 0;
    for (let x = 0; x <= width; x++) {
      if (x < width && on(x, y)) continue;
      if (x - start > 0.6 * width) for (let k = start; k < x; k++) frame[y * width + k] = 1;
      start = x + 1;
    }
  }
  for (let x = 0; x < width; x++) {
    let start = 0;
    for (let y = 0; y <= height; y++) {
      if (y < height && on(x, y)) continue;
      if (y - start > 0.6 * height) for (let k = start; k < y; k++) frame[k * width + x] = 1;
      start = y + 1;
    }
  }
  let x0 = width,
    y0 = height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (on(x, y) && frame[y * width + x] === 0) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 < 0 ? { x0: 0, y0: 0, x1: width - 1, y1: height - 1 } : { x0, y0, x1, y1 };
}

/** Bilinear resample of the box of `mask` to side × side (the box stretched to a square). */
function resample(mask: Float64Array, width: number, box: { x0: number; y0: number; x1: number; y1: number }, side: number): Float64Array {
  const out = new Float64Array(side * side);
  const bw = box.x1 - box.x0 + 1,
    bh = box.y1 - box.y0 + 1;
  for (let y = 0; y < side; y++)
    for (let x = 0; x < side; x++) {
      // Area average over the source cell (the box is at most WORK pixels, side at most 64).
      const sx0 = box.x0 + (x * bw) / side,
        sx1 = box.x0 + ((x + 1) * bw) / side;
      const sy0 = box.y0 + (y * bh) / side,
        sy1 = box.y0 + ((y + 1) * bh) / side;
      let sum = 0,
        count = 0;
      for (let yy = Math.floor(sy0); yy < Math.max(Math.floor(sy0) + 1, Math.ceil(sy1)); yy++)
        for (let xx = Math.floor(sx0); xx < Math.max(Math.floor(sx0) + 1, Math.ceil(sx1)); xx++) {
          sum += mask[yy * width + xx]!;
          count++;
        }
      out[y * side + x] = sum / count;
    }
  return out;
}

/** The pHash (hex) and descriptor of an RGB raster. */
function describe(rgb: Buffer, width: number, height: number): { phash: string; descriptor: Float32Array } {
  const mask = foreground(rgb, width, height);
  const box = boundingBox(mask, width, height);
  const shape32 = resample(mask, width, box, N);
  const shape64 = resample(mask, width, box, 64);
  const band = dctLowBand(shape32);
  // Foreground colours only (the background's is left out), 4×4×4 bins, weighted by how foreground a pixel is.
  const colour = new Float64Array(64);
  for (let y = box.y0; y <= box.y1; y++)
    for (let x = box.x0; x <= box.x1; x++) {
      const i = y * width + x;
      const bin = (rgb[i * 3]! >> 6) * 16 + (rgb[i * 3 + 1]! >> 6) * 4 + (rgb[i * 3 + 2]! >> 6);
      colour[bin] = colour[bin]! + mask[i]!;
    }
  const edges = edgeHistogram(shape64, 64);
  const joined = [...l2(band.subarray(1), WEIGHTS.shape), ...l2(colour, WEIGHTS.colour), ...l2(edges, WEIGHTS.edges)];
  return { phash: phashOf(band), descriptor: Float32Array.from(l2(joined)) };
}

/** The part of an RGB raster between fractions of its width and height (left, top, right, bottom). */
function subRaster(rgb: Buffer, width: number, height: number, [left, top, right, bottom]: readonly number[]) {
  const x0 = Math.round(left! * width),
    x1 = Math.round(right! * width),
    y0 = Math.round(top! * height),
    y1 = Math.round(bottom! * height);
  const out = Buffer.alloc((x1 - x0) * (y1 - y0) * 3);
  for (let y = y0; y < y1; y++) rgb.copy(out, (y - y0) * (x1 - x0) * 3, (y * width + x0) * 3, (y * width + x1) * 3);
  return { rgb: out, width: x1 - x0, height: y1 - y0 };
}

/**
 * The views a stored image is also indexed under: the image with 12 % cut off two adjacent sides
 * (each corner in turn). The descriptor crops to the content box, so a crop that cuts only margin
 * changes nothing; one that cuts into the drawing moves the box, and the query then lies closer to
 * the view cut the same way than to the whole. Measured on the 1M demo register (300
 * near-duplicates against 20,000 of its images, exact scoring, counting those whose original no
 * other image outscores): one side cut by a tenth 0.847, corners cut by 8, 10, 12 and 14 % 0.847,
 * 0.883, 0.900 and 0.880, the four sides and the four corners together 0.897 (BENCHMARKS-IMAGES-1M.md).
 * The demo's crops cut 6 to 15 % off one side of each axis, as a logo cut out of a larger picture is.
 */
const INDEXED_VIEWS: ReadonlyArray<readonly number[]> = [
  [0.12, 0.12, 1, 1],
  [0, 0.12, 0.88, 1],
  [0.12, 0, 1, 0.88],
  [0, 0, 0.88, 0.88],
];

/**
 * The views a query image is also compared under: 4 % cut off one side in turn. A query cut less
 * deeply than the indexed views on one axis comes closer to them cut a little more; measured as
 * above, with the 12 % corner views stored: 0.907 without query views, with 3, 4, 5, 6 and 8 % off
 * one side 0.917, 0.920, 0.913, 0.910 and 0.910, with 6 % off sides and corners 0.910.
 */
const QUERY_VIEWS: ReadonlyArray<readonly number[]> = [
  [0.04, 0, 1, 1],
  [0, 0.04, 1, 1],
  [0, 0, 0.96, 1],
  [0, 0, 1, 0.96],
];

const VIEWS: Record<ViewSet, ReadonlyArray<readonly number[]>> = { indexed: INDEXED_VIEWS, query: QUERY_VIEWS };

/**
 * The pHash and descriptor of a raster image's bytes (any format sharp decodes); with `views`, also
 * the descriptors of a stored image's views (for the index) or of a query's.
 */
export async function fingerprintImage(bytes: Uint8Array, options: { views?: ViewSet } = {}): Promise<ImageFingerprint> {
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { data: rgb, info } = await sharp(input, { limitInputPixels: 50_000_000 })
    .rotate()
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .resize(WORK, WORK, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const whole = describe(rgb, info.width, info.height);
  const views = (options.views === undefined ? [] : VIEWS[options.views]).map((fractions) => {
    const part = subRaster(rgb, info.width, info.height, fractions);
    return describe(part.rgb, part.width, part.height).descriptor;
  });
  return { ...whole, views };
}

/** Bits that differ between two pHashes (0 to 64). */
export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (x > 0n) {
    count += Number(x & 1n);
    x >>= 1n;
  }
  return count;
}

/** Cosine similarity of two L2-normalised descriptors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
