/**
 * POST /v1/trademarks/search/image (beta): marks whose stored image looks like the query image.
 *
 * First cut, said plainly in the route's description too:
 * - input: JSON `media_id` (a stored image) or a multipart/form-data upload (`image`, at most 8 MB,
 *   PNG, JPEG, WebP or GIF). The contract's third mode, JSON `image_url`, is not implemented yet and
 *   is not documented in the body; `crop` is not implemented either.
 * - channels: `exact_dup` (SHA-256 equality and a 64-bit DCT pHash with its Hamming distance) and
 *   `visual` (the hand-built descriptor `marque-handcrafted-v1`, datasources/image-descriptors.ts,
 *   cosine similarity). `logo_text` (OCR) and `vienna_overlap` are not computed: absent from hits.
 * - candidates: every mark's stored image (the MediaStore records with a trademark, and the demo
 *   generator's logos, rendered into the MediaStore on first need). Each candidate's fingerprint is
 *   computed once and kept in this process's memory, keyed by media ID and checksum. The search is an
 *   exhaustive scan over all of them; an approximate-nearest-neighbour index is the next step.
 *
 * The query image is decoded in memory and never stored.
 */
import { performance } from 'node:perf_hooks';
import { cosine, EMBEDDING_SPEC, fingerprintImage, hammingDistance, type ImageFingerprint } from '../../datasources/image-descriptors';
import { processImage } from '../../datasources/media-images';
import { MEDIA_MIME_TYPES, MediaFormatError, type DocumentStore, type MediaRecord, type MediaStore, type StoredDocument } from '../../datasources/ports';
import { ApiError, invalid } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import type { ParamSpec } from '../params';
import type { CustomRoute, RouteDef, RouteInput, UploadedFile } from '../route';
import { arrayOf, bool, constant, int, named, num, object, str, type JsonSchema } from '../schemas/json-schema';

export const IMAGE_UPLOAD_MAX_BYTES = 8 * 1024 * 1024;
/** Bumped when what a candidate's fingerprint holds changes. */
export const IMAGE_INDEX_VERSION = `${EMBEDDING_SPEC}+phash64-dct/exhaustive-1`;
const CHANNELS = ['visual', 'exact_dup'] as const;
type Channel = (typeof CHANNELS)[number];

/** A pHash this close (of 64 bits) counts as an exact-duplicate signal in the score. */
const PHASH_NEAR = 10;

// ---------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------

const bandSchema: JsonSchema = { type: 'string', enum: ['strong', 'moderate', 'weak'], description: 'strong ≥ 0.9, moderate ≥ 0.75, weak below.' };

const visualSignalSchema = object(
  { score: num('Cosine similarity of the descriptors, 0 to 1.'), band: bandSchema, embedding_spec: str('The descriptor compared (marque-handcrafted-v1).') },
  'The visual channel; null when not asked for.',
  true,
);
const exactDupSignalSchema = object(
  {
    checksum_match: bool('True when the SHA-256 of the bytes is the same.'),
    phash_distance: int('Hamming distance (0 to 64) of the 64-bit DCT perceptual hashes; 0 to about 10 is a near-duplicate.'),
  },
  'The exact_dup channel; null when not asked for.',
  true,
);

export const imageSearchHitSchema: JsonSchema = named(
  'ImageSearchHit',
  object({
    object: constant('image_search_hit'),
    score: num('Combined score, 0 to 1: 1 for the same bytes; else the visual score, raised towards 1 by a close pHash.'),
    band: bandSchema,
    signals: object(
      { visual: visualSignalSchema, exact_dup: exactDupSignalSchema },
      'What each channel computed. logo_text and vienna_overlap are not computed yet and are absent.',
    ),
    matched_image: object({
      image_id: str('The stored image (med_...), served at /v1/media/{image_id}.'),
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
      status: str(),
    }),
  }),
);

const imageSearchMetaSchema: JsonSchema = object({
  search_id: str('ID of this execution (imgsrch_...).'),
  query_mode: { type: 'string', enum: ['upload', 'media_id'], description: 'How the query image was given.' },
  channels: arrayOf({ type: 'string', enum: [...CHANNELS] }, 'Channels computed.'),
  embedding_spec: str('The visual descriptor (marque-handcrafted-v1).'),
  index_version: str('What the candidates were fingerprinted and searched with.'),
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
  maxItems: 2,
  description: 'Channels to compute: visual, exact_dup (default both). logo_text is not available yet.',
};
const filtersParam: ParamSpec = { name: 'filters', kind: { type: 'object', schema: filtersSchema }, description: 'offices and/or nice_classes.' };

const bodyParams: readonly ParamSpec[] = [
  {
    name: 'media_id',
    kind: { type: 'id', prefix: 'med_' },
    description: 'JSON mode: search with a stored image (med_..., as a trademark record links it). Required unless the body is multipart.',
  },
  filtersParam,
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
}

interface Candidate {
  record: MediaRecord;
  fingerprint: ImageFingerprint;
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

function band(score: number): 'strong' | 'moderate' | 'weak' {
  return score >= 0.9 ? 'strong' : score >= 0.75 ? 'moderate' : 'weak';
}

const round = (value: number): number => Math.round(value * 10_000) / 10_000;

/** The candidates' fingerprints, kept per process: computed on first need, again when a record's checksum changes. */
class CandidateIndex {
  private readonly cache = new Map<string, Candidate>();
  private warming: Promise<Candidate[]> | null = null;

  constructor(
    private readonly media: MediaStore,
    private readonly store: DocumentStore,
  ) {}

  /** Every mark's image with its fingerprint (renders generated logos not yet in the MediaStore). */
  async all(): Promise<Candidate[]> {
    // One scan at a time: concurrent first searches share the work.
    this.warming ??= this.load().finally(() => (this.warming = null));
    return this.warming;
  }

  private async load(): Promise<Candidate[]> {
    const records = await this.store.collection<MediaRecord>(COLLECTIONS.media).find({ trademark_id: { $ne: null } });
    const known = new Map(records.map((record) => [record._id, record]));
    // The demo generator's logos not rendered yet (their media IDs; reading one renders it).
    const logos = await this.store.collection<StoredDocument>(COLLECTIONS.generatedLogos).find({});
    const ids = [...records.map((record) => record._id), ...logos.map((logo) => logo._id).filter((id) => !known.has(id))];
    const out: Candidate[] = [];
    let next = 0;
    const work = async (): Promise<void> => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const record = known.get(id) ?? null;
        const cached = this.cache.get(id);
        if (cached !== undefined && record !== null && cached.record.checksum_sha256 === record.checksum_sha256) {
          out.push(cached);
          continue;
        }
        const content = await this.media.get(id);
        if (content === null || content.record.trademark_id === null) continue;
        const candidate = { record: content.record, fingerprint: await fingerprintImage(content.bytes) };
        this.cache.set(id, candidate);
        out.push(candidate);
      }
    };
    await Promise.all(Array.from({ length: 4 }, work));
    return out;
  }
}

function queryError(error: unknown): never {
  if (error instanceof MediaFormatError) throw new ApiError('validation_error', `image: ${error.message}`, { parameter: 'image' });
  throw error;
}

async function search(deps: ImageSearchDeps, index: CandidateIndex | null, input: RouteInput) {
  const started = performance.now();
  const { body } = input;
  const upload: UploadedFile | undefined = input.upload;
  const channels = new Set<Channel>((body.channels as Channel[] | undefined) ?? CHANNELS);
  const limit = body.limit as number;
  const filters = parseFilters(body.filters);
  let queryBytes: Buffer;
  let queryChecksum: string;
  let mode: 'upload' | 'media_id';
  if (upload !== undefined) {
    if (body.media_id !== undefined) throw invalid('media_id', 'cannot be combined with an uploaded image; send one or the other');
    // Decoded and checked in memory (raster only, SVG refused); nothing is written.
    const facts = await processImage(upload.bytes).catch(queryError);
    queryBytes = upload.bytes;
    queryChecksum = facts.original.checksum_sha256;
    mode = 'upload';
  } else {
    const mediaId = body.media_id as string | undefined;
    if (mediaId === undefined) throw invalid('media_id', 'is required (or send multipart/form-data with an image file part)');
    const content = deps.media === null ? null : await deps.media.get(mediaId);
    if (content === null) throw new ApiError('not_found', `media ${mediaId} does not exist`);
    queryBytes = content.bytes;
    queryChecksum = content.record.checksum_sha256;
    mode = 'media_id';
  }
  const query = await fingerprintImage(queryBytes).catch((error: unknown) =>
    queryError(error instanceof MediaFormatError ? error : new MediaFormatError('the image cannot be decoded')),
  );
  const candidates = index === null ? [] : await index.all();

  const trademarkIds = [...new Set(candidates.map((candidate) => candidate.record.trademark_id!))];
  const marks = deps.store === null ? [] : await deps.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ _id: { $in: trademarkIds } });
  const byId = new Map(marks.map((mark) => [mark._id, mark]));

  const scored = [];
  for (const candidate of candidates) {
    const mark = byId.get(candidate.record.trademark_id!);
    if (mark === undefined) continue;
    if (filters.offices !== null && !filters.offices.has(mark.office_code)) continue;
    if (filters.niceClasses !== null && !mark.classifications.some((c) => filters.niceClasses!.has(c.nice_class))) continue;
    const checksumMatch = candidate.record.checksum_sha256 === queryChecksum;
    const distance = hammingDistance(query.phash, candidate.fingerprint.phash);
    const visual = Math.max(0, Math.min(1, cosine(query.descriptor, candidate.fingerprint.descriptor)));
    let score: number;
    if (channels.has('exact_dup') && checksumMatch) score = 1;
    else {
      const dup = channels.has('exact_dup') && distance <= PHASH_NEAR ? 1 - distance / 64 : 0;
      score = channels.has('visual') ? Math.max(visual, dup) : dup;
    }
    if (score <= 0) continue;
    scored.push({ candidate, mark, checksumMatch, distance, visual, score });
  }
  scored.sort((a, b) => b.score - a.score || a.distance - b.distance || a.candidate.record._id.localeCompare(b.candidate.record._id));
  const data = scored.slice(0, limit).map(({ candidate, mark, checksumMatch, distance, visual, score }) => {
    const thumbnail = `/v1/media/${candidate.record._id}/thumbnail`;
    return {
      object: 'image_search_hit',
      score: round(score),
      band: band(score),
      signals: {
        visual: channels.has('visual') ? { score: round(visual), band: band(visual), embedding_spec: EMBEDDING_SPEC } : null,
        exact_dup: channels.has('exact_dup') ? { checksum_match: checksumMatch, phash_distance: distance } : null,
      },
      matched_image: {
        image_id: candidate.record._id,
        checksum: candidate.record.checksum_sha256,
        office: mark.office_code,
        jurisdiction: mark.jurisdiction_code,
        thumbnail_url: thumbnail,
      },
      thumbnail_url: thumbnail,
      trademark: { id: mark._id, mark_text: mark.mark_text, mark_feature_type: mark.mark_feature_type, office_code: mark.office_code, status: mark.status },
    };
  });
  return {
    data,
    has_more: false,
    pagination: { cursor: null },
    search_meta: {
      search_id: randomId('imgsrch_'),
      query_mode: mode,
      channels: CHANNELS.filter((channel) => channels.has(channel)),
      embedding_spec: EMBEDDING_SPEC,
      index_version: IMAGE_INDEX_VERSION,
      total_results: data.length,
      execution_time_ms: Math.round(performance.now() - started),
    },
  };
}

const DESCRIPTION = [
  'Marks whose stored image looks like the query image (beta: shapes may change). Requires scope image-search:read and a plan with the image_search feature (403 plan_upgrade_required otherwise; enterprise only); metered to the image_search pool.',
  'Two input modes: JSON {"media_id": "med_..."} searches with a stored image; multipart/form-data with an `image` file part (PNG, JPEG, WebP or GIF, at most 8 MB; SVG and non-images are 400 naming image) and optional JSON-encoded filters, channels and limit fields. The query image is decoded in memory and never stored. (The contract\'s image_url mode and crop are not available yet.)',
  'Channels: exact_dup (SHA-256 equality, and the Hamming distance of 64-bit DCT perceptual hashes) and visual (marque-handcrafted-v1: DCT low band, RGB histogram and edge-orientation histogram, L2-normalised, cosine similarity). logo_text and vienna_overlap are not computed yet and are absent from signals.',
  'Results are a bounded top-K (limit, 1 to 100, default 10) sorted by score: has_more is false and the cursor null. This first cut searches by exhaustive scan; an ANN index is the next step (every mark image is compared).',
].join('\n\n');

export function imageSearchRoutes(deps: ImageSearchDeps): RouteDef[] {
  const index = deps.media !== null && deps.store !== null ? new CandidateIndex(deps.media, deps.store) : null;
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
      maxBytes: IMAGE_UPLOAD_MAX_BYTES,
      contentTypes: Object.values(MEDIA_MIME_TYPES),
      schema: named('ImageSearchUpload', uploadSchema),
    },
    successStatus: 200,
    envelope: 'list',
    response: imageSearchHitSchema,
    listExtras: { search_meta: imageSearchMetaSchema },
    errors: [400, 404],
    handle: async (input) => ({ status: 200, body: await search(deps, index, input) }),
  };
  return [route];
}
