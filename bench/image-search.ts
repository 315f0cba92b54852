/**
 * `npm run bench:image`: image search quality and latency (issue 21).
 *
 * 1. A fresh embedded data directory (.tmp/bench-images) seeded with BENCH_IMAGE_MARKS marks; the
 *    image indexer's rebuild renders every generated logo, fingerprints and OCRs it and builds the
 *    ANN indexes (timed: images per second, which is what indexing a larger register costs).
 * 2. Recall@10: every generated near-duplicate (`derived_from`) is uploaded over HTTP to
 *    POST /v1/trademarks/search/image, once per channel alone and once with all three; a hit is
 *    its original's image in the top 10 (the goal's figure), and in two more columns also an
 *    identical copy of it (same SHA-256) or a logo with its drawing (the same SVG without the
 *    words: an earlier demo generator repeated drawings under other words). Latency: the
 *    combined uploads' server-side wall time as the client sees it (p50/p95/max), OCR of the
 *    query included. Then the fingerprints' ceiling (featureCeiling) and the combined recall
 *    split by the words OCR read, by transform and by kind of logo (figurative or with words).
 * 3. Scale of the ANN step alone: BENCH_IMAGE_ANN_SIZE random non-negative unit vectors of the
 *    descriptor's dimension in one USearch index configured as the visual index (each image holds
 *    five: itself and four views); insert rate, p50/p95 of a k=50 query, and whether a near-duplicate
 *    of a stored vector (it plus noise, cosine about 0.9) finds it in the top 10.
 *
 * Settings (environment): BENCH_IMAGE_MARKS (3000), BENCH_IMAGE_ANN_SIZE (100000),
 * BENCH_OUTPUT (BENCHMARKS-IMAGES.md).
 *
 * On a register already indexed (the 1M-mark data set of bench/dataset.ts), steps 2 only:
 *
 *   MARQUE_DATA_DIR=.tmp/bench-data/m1000000 marque worker indexer   # until every image is indexed (hours)
 *   BENCH_IMAGE_DATA=.tmp/bench-data/m1000000 npm run bench:image    # writes BENCHMARKS-IMAGES-1M.md
 *
 * BENCH_IMAGE_VARIANTS (300) variants, taken evenly from all of them, are uploaded per channel set.
 * The directory gains a bench organization and key; nothing else is written.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../bin/config';
import { closeAdapters, openAdapters, type Adapters } from '../bin/adapters';
import { createServer } from '../bin/compose';
import { createEmbeddedDocumentStore } from '../datasources/embedded/document-store';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import { createEmbeddedMediaStore } from '../datasources/embedded/media-store';
import { createEmbeddedSearchIndex } from '../datasources/embedded/search-index';
import { VectorIndex } from '../datasources/embedded/vector-index';
import { DESCRIPTOR_DIMENSIONS, fingerprintImage } from '../datasources/image-descriptors';
import { ImageIndex, type ImageFingerprintDoc } from '../datasources/image-index';
import type { MediaStore } from '../datasources/ports';
import { COLLECTIONS } from '../domain/records';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization } from '../resolvers/accounts/organizations';
import { candidateSignals, CHANNELS, nearestKeys } from '../rest/routes/image-search';
import { STORE_INDEXES } from '../resolvers/store-indexes';
import { withGeneratedLogos, type GeneratedLogoDoc } from '../workers/ingest/generated-logos';
import { LOGO_TRANSFORMS } from '../workers/ingest/generator';
import { seedStore } from '../workers/ingest/seed';
import { PROJECT_ROOT } from './processes';
import { machineDescription } from './report';
import { envInt, percentile } from './samples';

const MARKS = envInt('BENCH_IMAGE_MARKS', 3000);
const ANN_SIZE = envInt('BENCH_IMAGE_ANN_SIZE', 100_000);
/** An existing data directory whose image index is built, measured instead of a fresh one. */
const EXISTING = process.env.BENCH_IMAGE_DATA;
const SAMPLED_VARIANTS = envInt('BENCH_IMAGE_VARIANTS', 300);
const OUTPUT = process.env.BENCH_OUTPUT ?? join(PROJECT_ROOT, EXISTING ? 'BENCHMARKS-IMAGES-1M.md' : 'BENCHMARKS-IMAGES.md');
const CHANNEL_SETS: ReadonlyArray<{ label: string; channels: string[] }> = [
  { label: 'visual', channels: ['visual'] },
  { label: 'exact_dup', channels: ['exact_dup'] },
  { label: 'logo_text', channels: ['logo_text'] },
  { label: 'combined (all three)', channels: ['visual', 'logo_text', 'exact_dup'] },
];

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const RESULTS_HEADER = [
  '| channels | recall@10 | an identical copy counting | the original’s drawing counting | p50 | p95 | max |',
  '| --- | --- | --- | --- | --- | --- | --- |',
].join('\n');

/**
 * A generated logo's drawing: its SVG without the words and the output size, so the same device,
 * frame and colours at any size (the generator draws devices from a few parameters, so a large
 * register holds many logos with one drawing and other words).
 */
const drawingOf = (svg: string): string => svg.replace(/<text[^>]*>[^<]*<\/text>/g, '').replace(/ width="\d+" height="\d+"/, '');

function randomUnit(dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    // Non-negative like the descriptor's histograms, so neighbours are not trivially far apart.
    vector[i] = Math.random() ** 2;
    norm += vector[i]! * vector[i]!;
  }
  return vector.map((value) => value / Math.sqrt(norm));
}

/** `vector` moved by Gaussian noise of `sigma` per dimension (clamped at 0) and normalised again: a stand-in for a near-duplicate. */
function perturbed(vector: Float32Array, sigma: number): Float32Array {
  const out = vector.map((value) => {
    const gaussian = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
    return Math.max(0, value + sigma * gaussian);
  });
  const norm = Math.sqrt(out.reduce((sum, value) => sum + value * value, 0));
  return out.map((value) => value / norm);
}

async function annScale(): Promise<{ lines: string[]; p95: number }> {
  // Configured as the image index's visual index (several vectors per key), one vector per key here.
  const index = new VectorIndex({ metric: 'cos', dimensions: DESCRIPTOR_DIMENSIONS, multi: true });
  const planted: Float32Array[] = [];
  const QUERIES = 100;
  const started = performance.now();
  for (let i = 0; i < ANN_SIZE; i++) {
    const vector = randomUnit(DESCRIPTOR_DIMENSIONS);
    if (i % Math.floor(ANN_SIZE / QUERIES) === 0 && planted.length < QUERIES) planted.push(vector);
    index.upsert(BigInt(i), [vector]);
  }
  const buildSeconds = (performance.now() - started) / 1000;
  const times: number[] = [];
  let found = 0;
  let similarity = 0;
  const step = Math.floor(ANN_SIZE / QUERIES);
  for (let q = 0; q < planted.length; q++) {
    // A near-duplicate of a stored vector (cosine about 0.9 to it, as a generated variant's visual score):
    // is the stored one among the 10 nearest?
    const query = perturbed(planted[q]!, 0.035);
    let dot = 0;
    for (let d = 0; d < query.length; d++) dot += query[d]! * planted[q]![d]!;
    similarity += dot;
    const t0 = performance.now();
    const neighbours = index.search(query, 50);
    times.push(performance.now() - t0);
    if (neighbours.slice(0, 10).some((n) => n.key === BigInt(q * step))) found += 1;
  }
  times.sort((a, b) => a - b);
  const lines = [
    `- ${ANN_SIZE.toLocaleString('en')} random non-negative unit vectors of ${DESCRIPTOR_DIMENSIONS} dimensions added in ${buildSeconds.toFixed(1)} s (${Math.round(ANN_SIZE / buildSeconds).toLocaleString('en')}/s, one thread).`,
    `- k=50 query: p50 ${ms(percentile(times, 0.5))}, p95 ${ms(percentile(times, 0.95))}, max ${ms(times[times.length - 1]!)} (${QUERIES} queries).`,
    `- planted near-duplicates (a stored vector plus noise, mean cosine ${(similarity / planted.length).toFixed(3)} to it): ${found}/${planted.length} found in the top 10.`,
  ];
  return { lines, p95: percentile(times, 0.95) };
}

const WORDS_READ = ['the same words', 'other words', "the variant's words unread", "the original's words unread", 'no words in either'] as const;
type WordsRead = (typeof WORDS_READ)[number];

function wordsRead(variant: string, original: string): WordsRead {
  if (variant !== '' && original !== '') return variant === original ? 'the same words' : 'other words';
  if (variant === '' && original === '') return 'no words in either';
  return variant === '' ? "the variant's words unread" : "the original's words unread";
}

/** Found / asked counts of the combined channel set, split by one property of the variants. */
class Split<Key extends string> {
  private readonly counts = new Map<Key, { found: number; of: number }>();

  add(key: Key, found: boolean): void {
    const count = this.counts.get(key) ?? { found: 0, of: 0 };
    this.counts.set(key, { found: count.found + (found ? 1 : 0), of: count.of + 1 });
  }

  /** `heading: key found/of; …`, in the order of `keys`, leaving out keys no variant had. */
  line(heading: string, keys: readonly Key[]): string {
    const present = keys.filter((key) => this.counts.has(key));
    return `${heading}: ${present.map((key) => `${key} ${this.counts.get(key)!.found}/${this.counts.get(key)!.of}`).join('; ')}.`;
  }
}

const LOGO_KINDS = ['figurative (no words drawn)', 'with words'] as const;

/** Candidates taken from each ANN index for the ceiling (the route takes 50 for a top 10). */
const CEILING_CANDIDATES = 200;

/**
 * What no ranking of the three signals can beat. For each variant (fingerprinted from its stored
 * bytes with its query views and its indexed OCR text, as an upload of it is), the candidates of the
 * three ANN indexes, and how many of them other than the original are at least as close on every
 * signal (visual cosine, pHash distance, logo-text similarity). An original that ten or more images
 * dominate so cannot be in the top 10 whatever the weights; the share of the others bounds
 * recall@10 for these fingerprints.
 */
async function featureCeiling(index: ImageIndex, media: MediaStore, variants: GeneratedLogoDoc[]): Promise<{ within: number; measured: number }> {
  let within = 0;
  let measured = 0;
  for (const variant of variants) {
    const [indexed, original, content] = [
      await index.byMediaId(variant._id),
      await index.byMediaId(variant.derived_from!.media_id),
      await media.get(variant._id),
    ];
    if (indexed === null || original === null || content === null) continue;
    measured += 1;
    const query = { fingerprint: await fingerprintImage(content.bytes, { views: 'query' }), text: indexed.logo_text || null };
    const { keys } = nearestKeys(index, query, new Set(CHANNELS), CEILING_CANDIDATES);
    const signals = (doc: ImageFingerprintDoc) => candidateSignals(query.fingerprint, query.text, doc);
    const candidates = await index.byKeys([...keys]);
    if (!candidates.some((doc) => doc._id === original._id)) continue;
    const target = signals(original);
    const dominating = candidates.filter((doc) => {
      if (doc._id === original._id) return false;
      const other = signals(doc);
      return other.visual >= target.visual && other.distance <= target.distance && (other.text ?? 0) >= (target.text ?? 0);
    }).length;
    if (dominating < 10) within += 1;
  }
  return { within, measured };
}

function ceilingLine({ within, measured }: { within: number; measured: number }): string {
  return `Ceiling of the fingerprints (bench/image-search.ts, featureCeiling): for ${within} of ${measured} variants = ${(within / Math.max(1, measured)).toFixed(3)}, the original is among the ${CEILING_CANDIDATES} nearest of some channel and fewer than 10 other images are at least as close on all three signals; for the rest no weighting of visual, pHash and logo text puts it in the top 10.`;
}

/** The variants (near-duplicates) of the register's generated logos. */
async function variantsOf(store: Adapters['store']): Promise<GeneratedLogoDoc[]> {
  return store.collection<GeneratedLogoDoc>(COLLECTIONS.generatedLogos).find({ derived_from: { $ne: null } });
}

/**
 * Uploads each variant once per channel set to a bench organization's key over HTTP: recall@10
 * (its original among the hits; and counting a byte-identical copy of the original, another
 * mark's image with the same SHA-256, as found) and the client's latency, as table rows.
 */
async function measure(
  server: Awaited<ReturnType<typeof createServer>>,
  adapters: Adapters,
  variants: GeneratedLogoDoc[],
): Promise<{ results: string[]; combinedTimes: number[]; combinedRecall: number; breakdown: string }> {
  const { store } = adapters;
  const org = await createOrganization(store, { name: 'bench', plan: 'enterprise' });
  await store.collection(COLLECTIONS.organizations).updateOne({ _id: org._id }, { $set: { limits_override: { per_minute: { image_search: 1_000_000 } } } });
  const { secret } = await createApiKey(store, { organizationId: org._id, name: 'bench', scopes: ['image-search:read'] });
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const results: string[] = [];
  let combinedTimes: number[] = [];
  let combinedRecall = 0;
  const originalChecksums = new Map<string, string | undefined>();
  const words = new Map<string, WordsRead>();
  for (const variant of variants) {
    const [own, original] = [await adapters.images!.byMediaId(variant._id), await adapters.images!.byMediaId(variant.derived_from!.media_id)];
    originalChecksums.set(variant._id, original?.checksum_sha256);
    words.set(variant._id, wordsRead(own?.logo_text ?? '', original?.logo_text ?? ''));
  }
  const byWords = new Split<WordsRead>();
  const byTransform = new Split<string>();
  const byKind = new Split<(typeof LOGO_KINDS)[number]>();
  const logos = store.collection<GeneratedLogoDoc>(COLLECTIONS.generatedLogos);
  const originalDrawings = new Map<string, string>();
  for (const variant of variants) originalDrawings.set(variant._id, drawingOf((await logos.findOne({ _id: variant.derived_from!.media_id }))!.svg));
  for (const { label, channels } of CHANNEL_SETS) {
    let found = 0;
    let foundCopy = 0;
    let foundDrawing = 0;
    const times: number[] = [];
    for (const variant of variants) {
      const bytes = (await adapters.media.get(variant._id))!.bytes;
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'query.png');
      form.append('channels', JSON.stringify(channels));
      const t0 = performance.now();
      const response = await fetch(`${base}/v1/trademarks/search/image`, { method: 'POST', body: form, headers: { authorization: `Bearer ${secret}` } });
      const body = (await response.json()) as { data: Array<{ thumbnail_url: string; matched_image: { checksum: string } }> };
      times.push(performance.now() - t0);
      if (!response.ok) throw new Error(`search failed: ${JSON.stringify(body)}`);
      const hit = body.data.some((hit) => hit.thumbnail_url === `/v1/media/${variant.derived_from!.media_id}/thumbnail`);
      if (hit) found += 1;
      if (channels.length === 3) {
        byWords.add(words.get(variant._id)!, hit);
        for (const transform of variant.derived_from!.transforms) byTransform.add(transform, hit);
        byKind.add(variant.svg.includes('<text') ? 'with words' : 'figurative (no words drawn)', hit);
      }
      if (body.data.some((hit) => hit.matched_image.checksum === originalChecksums.get(variant._id))) foundCopy += 1;
      const hitLogos = await logos.findByIds(body.data.map((hit) => hit.thumbnail_url.split('/')[3]!));
      if (hitLogos.some((logo) => drawingOf(logo.svg) === originalDrawings.get(variant._id))) foundDrawing += 1;
    }
    times.sort((a, b) => a - b);
    const recall = found / variants.length;
    results.push(
      `| ${label} | ${found}/${variants.length} = ${recall.toFixed(3)} | ${(foundCopy / variants.length).toFixed(3)} | ${(foundDrawing / variants.length).toFixed(3)} | ${ms(percentile(times, 0.5))} | ${ms(percentile(times, 0.95))} | ${ms(times[times.length - 1]!)} |`,
    );
    console.log(results[results.length - 1]);
    if (channels.length === 3) [combinedTimes, combinedRecall] = [times, recall];
  }
  const breakdown = [
    byWords.line("Combined recall@10 by the words the indexer's OCR read in the variant and in its original", WORDS_READ),
    byTransform.line('By transform (a variant counts under each it had)', LOGO_TRANSFORMS),
    byKind.line('By logo', LOGO_KINDS),
  ].join('\n\n');
  return { results, combinedTimes, combinedRecall, breakdown };
}

/** Recall and upload latency on a register whose image index is built already (BENCH_IMAGE_DATA). */
async function measureExisting(dataDir: string): Promise<void> {
  // What `marque serve` opens on that directory (embedded adapters).
  const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dataDir }));
  if ((await adapters.images!.refresh()) === undefined)
    throw new Error(`${dataDir}: no saved image index; run \`MARQUE_DATA_DIR=${dataDir} marque worker indexer\` until it has indexed every image`);
  const marks = await adapters.store.collection(COLLECTIONS.trademarks).countDocuments({});
  const all = await variantsOf(adapters.store);
  const count = Math.min(SAMPLED_VARIANTS, all.length);
  const sample = Array.from({ length: count }, (_, i) => all[Math.floor((i * all.length) / count)]!);
  const server = await createServer(adapters, Buffer.from('bench-image-secret'), { workers: [], runRetention: false, log: () => undefined });
  const { results, combinedTimes, combinedRecall, breakdown } = await measure(server, adapters, sample);
  const ceiling = await featureCeiling(adapters.images!, adapters.media, sample);
  await server.close();
  const images = adapters.images!.size;
  await closeAdapters(adapters);
  const p95 = percentile(combinedTimes, 0.95);
  const report = [
    '# Image search benchmark on the 1M-mark data set (issue 21)',
    '',
    `\`BENCH_IMAGE_DATA=${dataDir} npm run bench:image\` (bench/image-search.ts), ${new Date().toISOString().slice(0, 10)}, ${JSON.stringify(machineDescription())}.`,
    '',
    `## Recall@10 and upload latency, ${marks.toLocaleString('en')} marks (${images.toLocaleString('en')} logo images indexed, ${count} of ${all.length.toLocaleString('en')} near-duplicate variants, taken evenly)`,
    '',
    'Each variant uploaded as multipart/form-data over HTTP on 127.0.0.1 to one server over the embedded adapters; a hit is its original in the top 10. Latency is per request as the client sees it, OCR of the query included when logo_text is asked for.',
    '',
    RESULTS_HEADER,
    ...results,
    '',
    `Goal: recall@10 ≥ 0.9 combined (${combinedRecall.toFixed(3)}: ${combinedRecall >= 0.9 ? 'met' : 'not met'}), p95 < 300 ms (${ms(p95)}: ${p95 < 300 ? 'met' : 'not met'}).`,
    '',
    ceilingLine(ceiling),
    '',
    breakdown,
  ].join('\n');
  writeFileSync(OUTPUT, `${report}\n`);
  console.log(report);
}

async function main(): Promise<void> {
  if (EXISTING !== undefined) return measureExisting(EXISTING);
  const dir = join(PROJECT_ROOT, '.tmp', 'bench-images');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = createEmbeddedDocumentStore({ path: join(dir, 'marque.sqlite') });
  await store.ensureIndexes(STORE_INDEXES);
  const adapters: Adapters = {
    store,
    search: createEmbeddedSearchIndex({ path: join(dir, 'search.sqlite') }),
    kv: createEmbeddedKeyValue({ path: join(dir, 'kv.sqlite') }),
    media: withGeneratedLogos(createEmbeddedMediaStore({ directory: join(dir, 'media'), store }), store),
    images: new ImageIndex({ store, directory: join(dir, 'image-index') }),
  };
  await seedStore(store, { marks: MARKS, seed: 20261101 });
  const server = await createServer(adapters, Buffer.from('bench-image-secret'), { workers: [], runRetention: false, log: () => undefined });
  const indexStarted = performance.now();
  await server.imageIndexer!.rebuild();
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  const images = adapters.images!.size;
  console.log(`indexed ${images} images in ${indexSeconds.toFixed(1)} s`);

  const variants = await variantsOf(store);
  const { results, combinedTimes, combinedRecall, breakdown } = await measure(server, adapters, variants);
  const ceiling = await featureCeiling(adapters.images!, adapters.media, variants);
  await server.close();
  await closeAdapters(adapters);

  const scale = await annScale();
  // What indexing the 1M-mark data set takes, from this run's rates (measured on it: BENCH_IMAGE_DATA).
  const imagesPerMark = images / MARKS;
  const millionImages = Math.round(imagesPerMark * 1_000_000);
  const visualBytes = millionImages * 5 * (DESCRIPTOR_DIMENSIONS * 4 + 16 * 2 * 8);
  const machine = machineDescription();
  const report = [
    '# Image search benchmark (issue 21)',
    '',
    `\`npm run bench:image\` (bench/image-search.ts), ${new Date().toISOString().slice(0, 10)}, ${JSON.stringify(machine)}.`,
    '',
    `## Recall@10 and upload latency, ${MARKS.toLocaleString('en')} generated marks (${images} logo images, ${variants.length} near-duplicate variants)`,
    '',
    'Each variant (recoloured, rescaled, cropped and/or re-typeset) uploaded as multipart/form-data over HTTP on 127.0.0.1; a hit is its original in the top 10. Latency is per request as the client sees it, OCR of the query included when logo_text is asked for.',
    '',
    RESULTS_HEADER,
    ...results,
    '',
    `Goal: recall@10 ≥ 0.9 combined (${combinedRecall.toFixed(3)}: ${combinedRecall >= 0.9 ? 'met' : 'not met'}), p95 < 300 ms (${ms(percentile(combinedTimes, 0.95))}: ${percentile(combinedTimes, 0.95) < 300 ? 'met' : 'not met'}).`,
    '',
    ceilingLine(ceiling),
    '',
    breakdown,
    '',
    `Indexing (render, fingerprint, OCR, ANN insert): ${images} images in ${indexSeconds.toFixed(1)} s, ${(images / indexSeconds).toFixed(1)} images/s.`,
    '',
    '## The ANN step at register scale (synthetic vectors)',
    '',
    ...scale.lines,
    '',
    '## The 1M-mark data set',
    '',
    `- Measured on it by \`BENCH_IMAGE_DATA=.tmp/bench-data/m1000000 npm run bench:image\` (BENCHMARKS-IMAGES-1M.md) once \`marque worker indexer\` has indexed it: at ${imagesPerMark.toFixed(2)} logo images a mark, 1M marks hold about ${millionImages.toLocaleString('en')} images; at this run's ${(images / indexSeconds).toFixed(1)} images/s the first indexing (render, fingerprint, OCR) takes about ${(millionImages / (images / indexSeconds) / 3600).toFixed(1)} hours on this machine, OCR the largest share. It is done once per image (the indexer skips unchanged ones, and a stopped rebuild resumes), in the background.`,
    `- Memory of the visual index at that size: ${millionImages.toLocaleString('en')} images × 5 vectors × (${DESCRIPTOR_DIMENSIONS} float32 + about 16 × 2 graph links) ≈ ${(visualBytes / 2 ** 30).toFixed(1)} GiB (f16 quantization would halve the vectors' part).`,
    `- A search does a fixed amount of work apart from its seven ANN queries (visual for the query and its four views, pHash, text): decode, fingerprint, OCR of the query, re-scoring a few hundred candidates. Only the ANN step grows with the register, about logarithmically (HNSW): ${ms(scale.p95)} p95 a query at ${ANN_SIZE.toLocaleString('en')} vectors above, on top of the upload p95 measured at ${images} images.`,
  ].join('\n');
  writeFileSync(OUTPUT, `${report}\n`);
  console.log(report);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
