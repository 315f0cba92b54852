/**
 * POST /v1/trademarks/search/image (beta): marks whose stored image looks like the query image.
 *
 * - input, three modes: JSON `image_url` (fetched under the outbound rules of webhooks:
 *   datasources/outbound/get-image.ts), multipart/form-data `image` (at most 8 MB), JSON
 *   `media_id` (a stored image: its indexed fingerprint and OCR text are reused). PNG, JPEG, WebP
 *   or GIF; SVG refused. `crop` (upload and url modes) cuts the query image first.
 * - channels: `visual` (marque-handcrafted-v1, the best cosine between the query image or one of
 *   its views and a stored image or one of its indexed views), `exact_dup` (SHA-256 equality and the
 *   Hamming distance of 64-bit pHashes), `logo_text` (the query image's OCR, within a time budget,
 *   against each candidate's OCR, stored once by the image indexer, scored by the watch scorer's
 *   text similarity). `vienna_overlap` is reported, not scored: the design codes a `media_id`
 *   query's mark shares with each hit's mark (null in the other modes: an image has no codes).
 * - candidates: the nearest images in the image indexer's ANN indexes (datasources/image-index.ts),
 *   one per asked channel (visual: to the query and to each of its views), re-scored exactly from
 *   their stored fingerprints; filters are applied to the candidates (over-fetch, then
 *   post-filter, widening the fetch while a filter leaves fewer than `limit`).
 *
 * The query image is decoded in memory and never stored.
 */
import { performance } from 'node:perf_hooks';
import { cosine, EMBEDDING_SPEC, fingerprintImage, hammingDistance, type ImageFingerprint } from '../../datasources/image-descriptors';
import {
  ANN_INDEX_KIND,
  decodeDescriptor,
  fingerprintIsCurrent,
  IMAGE_FINGERPRINTS_SPEC,
  imageIdOf,
  phashBits,
  textIsCurrent,
  textVector,
  type ImageFingerprintDoc,
  type ImageIndex,
} from '../../datasources/image-index';
import type { LogoOcr } from '../../datasources/logo-ocr';
import { cropImage, processImage, type CropBox } from '../../datasources/media-images';
import { MEDIA_MAX_BYTES, MEDIA_MIME_TYPES, MediaFormatError, type DocumentStore, type MediaStore } from '../../datasources/ports';
import { ApiError, invalid } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { scoreSimilarity } from '../../domain/similarity';
import { foldedWords } from '../../domain/text';
import type { ParamSpec } from '../params';
import type { CustomRoute, RouteDef, RouteInput } from '../route';
import { arrayOf, bool, constant, int, named, num, object, str, type JsonSchema } from '../schemas/json-schema';
import { statusSummarySchema } from '../schemas/trademarks';

/** What candidates are fingerprinted with and which index finds them; bumped when either changes. */
export const IMAGE_INDEX_VERSION = `${IMAGE_FINGERPRINTS_SPEC}/${ANN_INDEX_KIND}`;
export const CHANNELS = ['visual', 'logo_text', 'exact_dup'] as const;
export type Channel = (typeof CHANNELS)[number];
type Mode = 'image_url' | 'upload' | 'media_id';

/** A pHash this close (of 64 bits) counts as an exact-duplicate signal in the score. */
const PHASH_NEAR = 10;
/**
 * What the logo_text score adds on top of the best channel, so that two channels agreeing rank
 * above one alone: on the generated near-duplicates (bench:image) it finds 2 more originals in
 * 111 than the best channel alone, where a crop left the variant's words half legible.
 */
const TEXT_AGREEMENT = 0.05;
/**
 * Letters and digits the words of both images must hold for logo_text to be scored: OCR reads two
 * characters out of a device's shapes often enough ("MY", "AT") that a two-letter match
 * outranked originals; measured on the 1M demo register's near-duplicates, requiring three finds
 * 2 more originals in 300 (BENCHMARKS-IMAGES-1M.md).
 */
const MIN_TEXT_CHARACTERS = 3;
const hasWords = (text: string | null): text is string => text !== null && foldedWords(text).join('').length >= MIN_TEXT_CHARACTERS;
/** Retry-After while the image index is being built (a first indexing takes minutes to hours). */
const IMAGE_INDEX_RETRY_AFTER_SECONDS = 60;
/** Default time the query image's OCR may take before logo_text is left out of the answer. */
const DEFAULT_OCR_BUDGET_MS = 1_500;

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

const bandSchema: JsonSchema = { type: 'string', enum: ['strong', 'moderate', 'weak'], description: 'strong ≥ 0.9, moderate ≥ 0.75, weak below.' };

const visualSignalSchema = object(
  {
    score: num('Cosine similarity of the query’s descriptor and the closest of the matched image’s (whole, or with 12 % cut off two adjacent sides), 0 to 1.'),
    band: bandSchema,
    embedding_spec: str('The descriptor compared (marque-handcrafted-v1).'),
  },
  'The visual channel; null when not asked for.',
  true,
);
const logoTextSignalSchema = object(
  {
    score: num('Text similarity of the two logos’ OCR’d words (the watch scorer’s), 0 to 1.'),
    band: bandSchema,
    query_text: str('The words read in the query image.'),
    matched_text: str('The words read in the matched image.'),
  },
  'The logo_text channel; null when not asked for, when the query image’s OCR ran out of time, or when either image’s words hold fewer than three letters or digits.',
  true,
);
const exactDupSignalSchema = object(
  {
    checksum_match: bool('True when the SHA-256 of the bytes is the same (always false with a crop: the cut image is new bytes).'),
    phash_distance: int('Hamming distance (0 to 64) of the 64-bit DCT perceptual hashes; 0 to about 10 is a near-duplicate.'),
  },
  'The exact_dup channel; null when not asked for.',
  true,
);
const viennaSignalSchema = object(
  {
    score: num('Shared codes over all codes of the two marks (Jaccard), 0 to 1.'),
    shared_codes: arrayOf(str(), 'Vienna codes both marks carry.'),
  },
  'The Vienna design codes the query’s mark shares with this mark: media_id mode only (an uploaded or fetched image has no codes), null when either mark has none. Reported, not scored.',
  true,
);

export const imageSearchHitSchema: JsonSchema = named(
  'ImageSearchHit',
  object({
    object: constant('image_search_hit'),
    score: num(
      'Combined score, 0 to 1: 1 for the same bytes; else (best + 0.05 × logo_text) / 1.05, where best is the highest of the visual score, the logo_text score and, for a pHash within 10 bits, 1 − distance/64.',
    ),
    band: bandSchema,
    signals: object(
      { visual: visualSignalSchema, logo_text: logoTextSignalSchema, exact_dup: exactDupSignalSchema, vienna_overlap: viennaSignalSchema },
      'What each channel computed.',
    ),
    matched_image: object({
      image_id: str(
        'The stored image as image search indexed it (img_...): the media item med_ with the same ID body, whose bytes are at /v1/media/med_{body} (and its thumbnail at thumbnail_url).',
      ),
      checksum: str('SHA-256 of the stored image, lowercase hex.'),
      office: str('Office code of the mark.'),
      jurisdiction: str('Jurisdiction code of the mark.'),
      thumbnail_url: str('Path of the thumbnail.'),
    }),
    thumbnail_url: str('Path of the matched image thumbnail.'),
    trademark: object({
      id: str('Trademark ID (tm_...).'),
      mark_text: str(),
      mark_feature_type: str(),
      office_code: str(),
      status: statusSummarySchema,
    }),
  }),
);

const imageSearchMetaSchema: JsonSchema = object({
  search_id: str('ID of this execution (imgsrch_...).'),
  query_mode: { type: 'string', enum: ['image_url', 'upload', 'media_id'], description: 'How the query image was given.' },
  channels: arrayOf({ type: 'string', enum: [...CHANNELS] }, 'Channels computed (logo_text is left out when the query image’s OCR ran out of time).'),
  embedding_spec: str('The visual descriptor (marque-handcrafted-v1).'),
  index_version: str('What the candidates were fingerprinted with and which index answered (usearch HNSW).'),
  total_results: int('Hits returned (a bounded top-K: never more than limit).'),
  execution_time_ms: int('Server time of the search, in milliseconds.'),
});

const filtersSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'Only marks of these offices and/or with one of these Nice classes.',
  properties: {
    offices: arrayOf(str('Office code, for example EM.'), 'Office codes.'),
    nice_classes: arrayOf({ type: 'integer', minimum: 1, maximum: 45 }, 'Nice classes (1 to 45).'),
  },
};

const cropSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['x', 'y', 'width', 'height'],
  description:
    'The part of the query image to search with, in pixels of the image as displayed (EXIF orientation applied): left edge x, top edge y, width and height, integers; at least 8 × 8 and inside the image. Upload and image_url modes.',
  properties: {
    x: { type: 'integer', minimum: 0 },
    y: { type: 'integer', minimum: 0 },
    width: { type: 'integer', minimum: 8 },
    height: { type: 'integer', minimum: 8 },
  },
};

const limitParam: ParamSpec = {
  name: 'limit',
  kind: { type: 'integer', min: 1, max: 100 },
  default: 10,
  description: 'Hits to return, 1 to 100 (default 10).',
};
const channelsParam: ParamSpec = {
  name: 'channels',
  kind: { type: 'enum', values: CHANNELS },
  array: true,
  maxItems: 3,
  description: 'Channels to compute: visual, logo_text, exact_dup (default all three).',
};
const filtersParam: ParamSpec = { name: 'filters', kind: { type: 'object', schema: filtersSchema }, description: 'offices and/or nice_classes.' };
const cropParam: ParamSpec = { name: 'crop', kind: { type: 'object', schema: cropSchema }, description: 'Search with this part of the image only.' };

const bodyParams: readonly ParamSpec[] = [
  {
    name: 'image_url',
    kind: { type: 'string', maxLength: 2048 },
    description:
      'URL mode: the query image’s https URL (PNG, JPEG, WebP or GIF, at most 8 MB). Guarded like webhook URLs: in production https only and never a private, loopback, link-local or metadata address (checked at connect time); redirects are not followed.',
  },
  {
    name: 'media_id',
    kind: { type: 'id', prefix: 'med_' },
    description: 'Stored-logo mode: search with a stored image (med_..., as a trademark record links it), reusing its indexed fingerprint.',
  },
  filtersParam,
  cropParam,
  channelsParam,
  limitParam,
];

const uploadSchema: JsonSchema = {
  type: 'object',
  required: ['image'],
  additionalProperties: false,
  properties: {
    image: {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: 'The query image: PNG, JPEG, WebP or GIF, at most 8 MB; SVG refused. Never stored.',
    },
    filters: str('JSON-encoded filters object: {"offices": [...], "nice_classes": [...]}.'),
    crop: str('JSON-encoded crop box: {"x": 0, "y": 0, "width": 200, "height": 120}.'),
    channels: str('JSON-encoded array, for example ["visual","exact_dup"].'),
    limit: str('1 to 100 (default 10).'),
  },
};

// ---------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------

export interface ImageSearchDeps {
  media: MediaStore | null;
  store: DocumentStore | null;
  /** The image indexer's fingerprints and ANN indexes; null: no candidates. */
  index?: ImageIndex | null;
  /** Fetches an image_url's bytes under the outbound rules; null: the URL mode is refused. */
  fetchImage?: ((url: string) => Promise<Buffer>) | null;
  /** Reads the query image's words (logo_text); null: that channel is never computed. */
  ocr?: LogoOcr | null;
  ocrBudgetMs?: number;
}

interface Filters {
  offices: Set<string> | null;
  niceClasses: Set<number> | null;
}

function parseFilters(value: unknown): Filters {
  if (value === undefined) return { offices: null, niceClasses: null };
  const filters = value as Record<string, unknown>;
  for (const key of Object.keys(filters))
    if (key !== 'offices' && key !== 'nice_classes') throw invalid(`filters.${key}`, 'is not a filter (accepted: offices, nice_classes)');
  let offices: Set<string> | null = null;
  let niceClasses: Set<number> | null = null;
  if (filters.offices !== undefined) {
    if (
      !Array.isArray(filters.offices) ||
      filters.offices.length === 0 ||
      filters.offices.some((code) => typeof code !== 'string' || !/^[A-Za-z]{2,4}$/.test(code))
    )
      throw invalid('filters.offices', 'must be a non-empty array of office codes, for example ["EM","US"]');
    offices = new Set((filters.offices as string[]).map((code) => code.toUpperCase()));
  }
  if (filters.nice_classes !== undefined) {
    if (
      !Array.isArray(filters.nice_classes) ||
      filters.nice_classes.length === 0 ||
      filters.nice_classes.some((n) => typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 45)
    )
      throw invalid('filters.nice_classes', 'must be a non-empty array of integers from 1 to 45');
    niceClasses = new Set(filters.nice_classes as number[]);
  }
  return { offices, niceClasses };
}

function parseCrop(value: unknown): CropBox | null {
  if (value === undefined) return null;
  const crop = value as Record<string, unknown>;
  for (const key of Object.keys(crop))
    if (!['x', 'y', 'width', 'height'].includes(key)) throw invalid(`crop.${key}`, 'is not a crop member (x, y, width, height)');
  const member = (name: string, min: number): number => {
    const n = crop[name];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min) throw invalid(`crop.${name}`, `is required: an integer of at least ${min} (pixels)`);
    return n;
  };
  return { x: member('x', 0), y: member('y', 0), width: member('width', 1), height: member('height', 1) };
}

function band(score: number): 'strong' | 'moderate' | 'weak' {
  return score >= 0.9 ? 'strong' : score >= 0.75 ? 'moderate' : 'weak';
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** A MediaFormatError of the query image as the validation error of the parameter it came in. */
const imageError =
  (parameter: string) =>
  (error: unknown): never => {
    if (error instanceof MediaFormatError) throw invalid(parameter, error.message);
    throw error;
  };

/** What the search compares candidates with. */
interface Query {
  mode: Mode;
  fingerprint: ImageFingerprint;
  /** SHA-256 of the query bytes; null with a crop (the cut image is nobody's file). */
  checksum: string | null;
  /** The query image's words; null when logo_text is not computed. */
  text: string | null;
  /** The Vienna codes of the query image's mark (media_id mode); null otherwise. */
  viennaCodes: string[] | null;
}

/** Resolves within `ms` to the OCR text, or to null when it takes longer (the engine finishes it in the background). */
function withinBudget(work: Promise<string>, ms: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([work.catch(() => null), timeout]).finally(() => clearTimeout(timer));
}

async function readQuery(deps: ImageSearchDeps, input: RouteInput, channels: Set<Channel>): Promise<Query> {
  const { body, upload } = input;
  const crop = parseCrop(body.crop);
  const given = [upload !== undefined && 'image', body.image_url !== undefined && 'image_url', body.media_id !== undefined && 'media_id'].filter(Boolean);
  if (given.length > 1) throw invalid(given[1] as string, `cannot be combined with ${given[0] as string}; give the query image one way`);
  const ocrBudget = deps.ocrBudgetMs ?? DEFAULT_OCR_BUDGET_MS;
  const readText = (bytes: Uint8Array): Promise<string | null> =>
    channels.has('logo_text') && deps.ocr ? withinBudget(deps.ocr.recognize(bytes), ocrBudget) : Promise.resolve(null);

  if (body.media_id !== undefined) {
    const mediaId = body.media_id as string;
    if (crop !== null) throw invalid('crop', 'applies to an uploaded or fetched image, not to media_id (whose stored fingerprint is reused)');
    // A record of another fingerprint or OCR spec (left from before an upgrade) is computed again.
    const indexed = (await deps.index?.byMediaId(mediaId)) ?? null;
    const stored = indexed !== null && fingerprintIsCurrent(indexed) && textIsCurrent(indexed) ? indexed : null;
    const content = stored === null && deps.media !== null ? await deps.media.get(mediaId) : null;
    if (stored === null && content === null) throw new ApiError('not_found', `media ${mediaId} does not exist`);
    const trademarkId = stored?.trademark_id ?? content!.record.trademark_id;
    const mark = trademarkId && deps.store ? await deps.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({ _id: trademarkId }) : null;
    const viennaCodes = mark?.vienna_codes ?? null;
    if (stored !== null)
      return {
        mode: 'media_id',
        fingerprint: { phash: stored.phash, descriptor: decodeDescriptor(stored.descriptor), views: [] },
        checksum: stored.checksum_sha256,
        text: channels.has('logo_text') ? stored.logo_text : null,
        viennaCodes,
      };
    // Not indexed yet: computed from the stored bytes.
    const bytes = content!.bytes;
    const [fingerprint, text] = await Promise.all([fingerprintImage(bytes, { views: 'query' }), readText(bytes)]);
    return { mode: 'media_id', fingerprint, checksum: content!.record.checksum_sha256, text, viennaCodes };
  }

  let mode: Mode;
  let parameter: string;
  let bytes: Buffer;
  if (upload !== undefined) {
    [mode, parameter, bytes] = ['upload', 'image', upload.bytes];
  } else if (body.image_url !== undefined) {
    if (!deps.fetchImage) throw invalid('image_url', 'is not available on this server');
    [mode, parameter, bytes] = ['image_url', 'image_url', await deps.fetchImage(body.image_url as string)];
  } else {
    throw invalid('image_url', 'or media_id is required (or send multipart/form-data with an image file part)');
  }
  // Decoded and checked in memory (raster only, SVG refused); nothing is written.
  const facts = await processImage(bytes).catch(imageError(parameter));
  if (crop !== null)
    bytes = await cropImage(bytes, crop).catch((error: unknown) => {
      if (error instanceof RangeError) throw invalid('crop', error.message);
      return imageError(parameter)(error);
    });
  const [fingerprint, text] = await Promise.all([
    fingerprintImage(bytes, { views: 'query' }).catch(() => imageError(parameter)(new MediaFormatError('the image cannot be decoded'))),
    readText(bytes),
  ]);
  return { mode, fingerprint, checksum: crop === null ? facts.original.checksum_sha256 : null, text, viennaCodes: null };
}

interface Scored {
  doc: ImageFingerprintDoc;
  mark: TrademarkDoc;
  score: number;
  visual: number;
  distance: number;
  checksumMatch: boolean;
  text: number | null;
}

function viennaOverlap(query: readonly string[] | null, candidate: readonly string[]): { score: number; shared_codes: string[] } | null {
  if (query === null || query.length === 0 || candidate.length === 0) return null;
  const mine = new Set(query);
  const shared = [...new Set(candidate)].filter((code) => mine.has(code)).sort();
  const union = new Set([...query, ...candidate]).size;
  return { score: round(shared.length / union), shared_codes: shared };
}

/**
 * The ANN keys of the `k` nearest images to the query in the index of each asked channel (visual:
 * to its descriptor and to each of its views); `exhausted` when no index had `k` to give.
 */
export function nearestKeys(
  index: ImageIndex,
  query: { fingerprint: ImageFingerprint; text: string | null },
  channels: ReadonlySet<Channel>,
  k: number,
): { keys: Set<bigint>; exhausted: boolean } {
  const keys = new Set<bigint>();
  let exhausted = true;
  const take = (neighbours: { key: bigint }[]): void => {
    if (neighbours.length >= k) exhausted = false;
    for (const { key } of neighbours) keys.add(key);
  };
  const { descriptor, views, phash } = query.fingerprint;
  if (channels.has('visual')) for (const vector of [descriptor, ...views]) take(index.nearest('visual', vector, k));
  if (channels.has('exact_dup')) take(index.nearest('phash', phashBits(phash), k));
  const text = query.text === null ? null : textVector(query.text);
  if (text !== null) take(index.nearest('text', text, k));
  return { keys, exhausted };
}

/** Candidates for `query` from the ANN indexes of the asked channels, `k` from each, with their marks, filtered. */
async function candidates(deps: ImageSearchDeps, index: ImageIndex, query: Query, channels: Set<Channel>, filters: Filters, k: number) {
  const { keys, exhausted } = nearestKeys(index, query, channels, k);
  const docs = await index.byKeys([...keys]);
  if (channels.has('exact_dup') && query.checksum !== null)
    for (const doc of await index.byChecksum(query.checksum)) if (!docs.some((known) => known._id === doc._id)) docs.push(doc);
  const marks =
    deps.store === null ? [] : await deps.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds([...new Set(docs.map((doc) => doc.trademark_id))]);
  const byId = new Map(marks.map((mark) => [mark._id, mark]));
  const kept: Array<{ doc: ImageFingerprintDoc; mark: TrademarkDoc }> = [];
  for (const doc of docs) {
    const mark = byId.get(doc.trademark_id);
    if (mark === undefined) continue;
    if (filters.offices !== null && !filters.offices.has(mark.office_code)) continue;
    if (filters.niceClasses !== null && !mark.classifications.some((c) => filters.niceClasses!.has(c.nice_class))) continue;
    kept.push({ doc, mark });
  }
  return { kept, exhausted };
}

/**
 * A candidate's three signals against the query's fingerprint and OCR text: visual (the best cosine
 * between the query or one of its views and the candidate or one of its indexed views), the pHash
 * distance, and the logo-text similarity (null unless both have words of MIN_TEXT_CHARACTERS).
 */
export function candidateSignals(
  fingerprint: ImageFingerprint,
  queryText: string | null,
  doc: ImageFingerprintDoc,
): { visual: number; distance: number; text: number | null } {
  const stored = [doc.descriptor, ...doc.views].map(decodeDescriptor);
  let visual = -1;
  for (const mine of [fingerprint.descriptor, ...fingerprint.views]) for (const theirs of stored) visual = Math.max(visual, cosine(mine, theirs));
  return {
    visual: Math.max(0, Math.min(1, visual)),
    distance: hammingDistance(fingerprint.phash, doc.phash),
    text: hasWords(queryText) && hasWords(doc.logo_text) ? scoreSimilarity({ text: queryText }, { text: doc.logo_text }).score : null,
  };
}

function score(query: Query, channels: Set<Channel>, doc: ImageFingerprintDoc, mark: TrademarkDoc): Scored | null {
  const checksumMatch = query.checksum !== null && doc.checksum_sha256 === query.checksum;
  const { visual, distance, text } = candidateSignals(query.fingerprint, query.text, doc);
  let best = 0;
  if (channels.has('exact_dup')) best = distance <= PHASH_NEAR ? 1 - distance / 64 : 0;
  if (channels.has('visual')) best = Math.max(best, visual);
  if (text !== null) best = Math.max(best, text);
  const combined = channels.has('exact_dup') && checksumMatch ? 1 : (best + TEXT_AGREEMENT * (text ?? 0)) / (1 + TEXT_AGREEMENT);
  return combined <= 0 ? null : { doc, mark, score: combined, visual, distance, checksumMatch, text };
}

async function search(deps: ImageSearchDeps, input: RouteInput) {
  const started = performance.now();
  const { body } = input;
  const channels = new Set<Channel>((body.channels as Channel[] | undefined) ?? CHANNELS);
  const limit = body.limit as number;
  const filters = parseFilters(body.filters);
  const query = await readQuery(deps, input, channels);
  const index = deps.index ?? null;
  // Usable only when the image indexer has saved one (the files are reloaded when another process
  // saved newer ones): until then an empty answer would read as "no similar logo".
  if (index !== null && (await index.refresh()) === undefined)
    throw new ApiError(
      'service_unavailable',
      'the image index is being built (first start, or after its fingerprints changed); no search can be answered from it yet',
      {},
      IMAGE_INDEX_RETRY_AFTER_SECONDS,
    );
  let scored: Scored[] = [];
  if (index !== null) {
    const filtered = filters.offices !== null || filters.niceClasses !== null;
    // Over-fetch (several times limit) so exact re-scoring can reorder what the ANN ranked; with
    // filters, widen until `limit` candidates pass them or the index has nothing more to give.
    for (let k = Math.max(50, limit * 3); ; k *= 4) {
      const { kept, exhausted } = await candidates(deps, index, query, channels, filters, k);
      scored = kept.map(({ doc, mark }) => score(query, channels, doc, mark)).filter((hit): hit is Scored => hit !== null);
      if (!filtered || scored.length >= limit || exhausted || k >= index.size) break;
    }
  }
  scored.sort((a, b) => b.score - a.score || a.distance - b.distance || a.doc._id.localeCompare(b.doc._id));
  const computed = CHANNELS.filter((channel) => channels.has(channel) && (channel !== 'logo_text' || query.text !== null));
  const data = scored.slice(0, limit).map(({ doc, mark, score: combined, visual, distance, checksumMatch, text }) => {
    const thumbnail = `/v1/media/${doc._id}/thumbnail`;
    return {
      object: 'image_search_hit',
      score: round(combined),
      band: band(combined),
      signals: {
        visual: channels.has('visual') ? { score: round(visual), band: band(visual), embedding_spec: EMBEDDING_SPEC } : null,
        logo_text: text === null ? null : { score: round(text), band: band(text), query_text: query.text!, matched_text: doc.logo_text },
        exact_dup: channels.has('exact_dup') ? { checksum_match: checksumMatch, phash_distance: distance } : null,
        vienna_overlap: viennaOverlap(query.viennaCodes, mark.vienna_codes),
      },
      matched_image: {
        image_id: imageIdOf(doc._id),
        checksum: doc.checksum_sha256,
        office: mark.office_code,
        jurisdiction: mark.jurisdiction_code,
        thumbnail_url: thumbnail,
      },
      thumbnail_url: thumbnail,
      trademark: {
        id: mark._id,
        mark_text: mark.mark_text,
        mark_feature_type: mark.mark_feature_type,
        office_code: mark.office_code,
        status: { primary: mark.status.primary, stage: mark.status.stage },
      },
    };
  });
  return {
    data,
    has_more: false,
    pagination: { cursor: null },
    search_meta: {
      search_id: randomId('imgsrch_'),
      query_mode: query.mode,
      channels: computed,
      embedding_spec: EMBEDDING_SPEC,
      index_version: IMAGE_INDEX_VERSION,
      total_results: data.length,
      execution_time_ms: Math.round(performance.now() - started),
    },
  };
}

const DESCRIPTION = [
  'Marks whose stored image looks like the query image (beta: shapes may change). Requires scope image-search:read and a plan with the image_search feature (403 plan_upgrade_required otherwise; enterprise only); counted in the image_search pool: its per-minute limit applies, no monthly quota (unmetered, like monitoring).',
  'Three input modes. JSON {"image_url": "https://..."}: the image is fetched (https only in production, never from a private, loopback, link-local or metadata address, checked when connecting; redirects not followed; at most 8 MB; errors name image_url and the rule). multipart/form-data with an `image` file part (at most 8 MB) and optional JSON-encoded filters, crop, channels and limit fields. JSON {"media_id": "med_..."}: a stored image, its indexed fingerprint reused. PNG, JPEG, WebP or GIF; SVG and non-images are 400. `crop` {x, y, width, height} (pixels, upload and image_url modes) searches with that part of the image. The query image is decoded in memory and never stored.',
  'Channels (default all three): visual (marque-handcrafted-v1: DCT low band, foreground colour histogram and edge-orientation histogram, L2-normalised; the best cosine similarity between the query image, or it with 4 % cut off one side, and the stored image, or it with 12 % cut off two adjacent sides, so that a logo cut out of a larger picture still meets its original); exact_dup (SHA-256 equality, and the Hamming distance of 64-bit DCT perceptual hashes); logo_text (the words OCR reads in the query image, within a time budget, against those read once in each stored image, scored by the text similarity of similarity watches). vienna_overlap reports the Vienna design codes a media_id query’s mark shares with each hit (null in the other modes).',
  'Candidates come from approximate-nearest-neighbour indexes (USearch HNSW) kept by the image indexer, one per channel, and are re-scored exactly; filters apply to the candidates, fetched wider while a filter leaves fewer than limit. Results are a bounded top-K (limit, 1 to 100, default 10) sorted by score: has_more is false and the cursor null. Until the image indexer has built its index (a first start, or after an upgrade changed the fingerprints: minutes to hours on a large register) the route answers 503 service_unavailable with retry_after rather than an empty list.',
].join('\n\n');

export function imageSearchRoutes(deps: ImageSearchDeps): RouteDef[] {
  const route: CustomRoute = {
    kind: 'custom',
    id: 'searchTrademarksByImage',
    method: 'POST',
    path: '/v1/trademarks/search/image',
    summary: 'Image similarity search (beta)',
    description: DESCRIPTION,
    tag: 'Trademarks',
    contract: 'named-without-detail',
    scope: 'image-search:read',
    pool: 'image_search',
    tier: 'search',
    feature: 'image_search',
    idempotency: 'exempt',
    pathParams: [],
    query: [],
    body: bodyParams,
    upload: {
      field: 'image',
      maxBytes: MEDIA_MAX_BYTES,
      contentTypes: Object.values(MEDIA_MIME_TYPES),
      schema: named('ImageSearchUpload', uploadSchema),
    },
    successStatus: 200,
    envelope: 'list',
    response: imageSearchHitSchema,
    listExtras: { search_meta: imageSearchMetaSchema },
    errors: [400, 404],
    handle: async (input) => ({ status: 200, body: await search(deps, input) }),
  };
  return [route];
}
