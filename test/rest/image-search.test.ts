/**
 * POST /v1/trademarks/search/image (beta), black-box over HTTP on an enterprise organization whose
 * seeded figurative and combined marks carry generated logos, some near-duplicates of others
 * (`derived_from`, the ground truth of the recall measured here).
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import sharp from 'sharp';
import { fingerprintImage } from '../../datasources/image-descriptors';
import { encodeDescriptor, type ImageFingerprintDoc } from '../../datasources/image-index';
import type { MediaRecord } from '../../datasources/ports';
import { randomId } from '../../domain/ids';
import { COLLECTIONS } from '../../domain/records';
import { candidateSignals } from '../../rest/routes/image-search';
import type { GeneratedLogoDoc } from '../../workers/ingest/generated-logos';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok } from '../support/http';
import { blankPng, cutTopLeft, edgeToEdgeDrawingPng } from '../support/drawing';
import { wordmarkPng } from '../support/wordmark';

const PATH = '/v1/trademarks/search/image';
const thumbnailOf = (mediaId: string): string => `/v1/media/${mediaId}/thumbnail`;

interface Hit {
  object: string;
  score: number;
  band: string;
  signals: {
    visual: { score: number; band: string; embedding_spec: string } | null;
    logo_text: { score: number; band: string; query_text: string; matched_text: string } | null;
    exact_dup: { checksum_match: boolean; phash_distance: number } | null;
    vienna_overlap: { score: number; shared_codes: string[] } | null;
  };
  matched_image: { image_id: string; checksum: string; office: string; jurisdiction: string; thumbnail_url: string };
  thumbnail_url: string;
  trademark: { id: string; mark_text: string; mark_feature_type: string; office_code: string; status: { primary: string; stage: string } };
}

interface SearchBody {
  object: string;
  data: Hit[];
  has_more: boolean;
  pagination: { cursor: string | null };
  search_meta: {
    search_id: string;
    query_mode: string;
    channels: string[];
    embedding_spec: string;
    index_version: string;
    total_results: number;
    execution_time_ms: number;
  };
  request_id: string;
}

describe('REST: image search (beta)', function () {
  let app: TestApp;
  let logos: GeneratedLogoDoc[];
  let variants: GeneratedLogoDoc[];

  const upload = (
    bytes: Buffer,
    fields: Record<string, string> = {},
    key: string | null = app.keys.full,
    type = 'image/png',
    name = 'query.png',
  ): Promise<Response> => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
    return fetch(app.baseUrl + PATH, { method: 'POST', body: form, headers });
  };
  const bytesOf = async (id: string): Promise<Buffer> => (await app.adapters.media.get(id))!.bytes;
  const mediaCount = (): Promise<number> => app.adapters.store.collection<MediaRecord>(COLLECTIONS.media).countDocuments({});

  before(async function () {
    this.timeout(300_000);
    // A per-minute limit of its own on the image_search pool, so the RateLimit-Policy header shows which pool a call spends.
    app = await startTestApp({ organization: { plan: 'enterprise', limitsOverride: { per_minute: { image_search: 1_234 } } } });
    logos = await app.adapters.store.collection<GeneratedLogoDoc>(COLLECTIONS.generatedLogos).find({});
    variants = logos.filter((logo) => logo.derived_from !== null);
    // The image indexer renders every generated logo into the MediaStore, fingerprints and OCRs it, and builds the ANN indexes.
    await app.server.imageIndexer!.catchUp();
  });

  after(() => app?.close());

  it("an upload of a logo's exact bytes finds its mark first, with checksum_match, in the spec's hit shape and search_meta", async () => {
    const counts = new Map<string, number>();
    for (const logo of logos) counts.set(logo.svg, (counts.get(logo.svg) ?? 0) + 1);
    const unique = logos.find((logo) => logo.derived_from === null && counts.get(logo.svg) === 1)!;
    const body = await ok<SearchBody>(await upload(await bytesOf(unique._id)));
    expect(body).to.include({ object: 'list', has_more: false });
    expect(body.pagination.cursor).to.equal(null);
    expect(body.data).to.have.length(10);
    const first = body.data[0]!;
    expect(first.trademark.id).to.equal(unique.trademark_id);
    expect(first).to.include({ object: 'image_search_hit', score: 1, band: 'strong', thumbnail_url: `/v1/media/${unique._id}/thumbnail` });
    expect(first.signals.exact_dup).to.deep.equal({ checksum_match: true, phash_distance: 0 });
    expect(first.signals.visual).to.include({ band: 'strong', embedding_spec: 'marque-handcrafted-v1' });
    expect(first.signals.visual!.score).to.be.closeTo(1, 1e-3);
    // The stored image's ID (img_) has the media item's ID body; its thumbnail is served under the media item.
    expect(first.matched_image).to.include({ image_id: `img_${unique._id.slice(4)}`, thumbnail_url: `/v1/media/${unique._id}/thumbnail` });
    expect(first.matched_image.checksum).to.match(/^[0-9a-f]{64}$/);
    expect(Object.keys(first.trademark).sort()).to.deep.equal(['id', 'mark_feature_type', 'mark_text', 'office_code', 'status']);
    // The mark's status in brief, as list rows give it (it was the status object written as "[object Object]").
    const detail = await ok<{ mark_text: string; status: { primary: string; stage: string } }>(await app.get(`/v1/trademarks/${unique.trademark_id}`));
    expect(first.trademark.status).to.deep.equal({ primary: detail.status.primary, stage: detail.status.stage });
    expect(first.trademark.mark_text).to.equal(detail.mark_text);
    expect(body.data.slice(1).every((hit) => hit.signals.exact_dup!.checksum_match === false)).to.equal(true);
    const scores = body.data.map((hit) => hit.score);
    expect(scores).to.deep.equal([...scores].sort((a, b) => b - a));
    expect(body.search_meta).to.include({ query_mode: 'upload', embedding_spec: 'marque-handcrafted-v1', total_results: 10 });
    expect(body.search_meta.search_id).to.match(/^imgsrch_/);
    expect(body.search_meta.channels).to.include.members(['visual', 'exact_dup']);
    expect(body.search_meta.index_version).to.contain('usearch-hnsw');
    expect(body.search_meta.execution_time_ms).to.be.a('number');
  });

  it('a generated near-duplicate variant finds its original in the top 10 (recall over every variant of the fixture)', async function () {
    this.timeout(120_000);
    expect(variants.length).to.be.greaterThan(20);
    const byTransform = new Map<string, { found: number; total: number }>();
    let found = 0;
    const misses: string[] = [];
    for (const variant of variants) {
      const body = await ok<SearchBody>(await app.post(PATH, { media_id: variant._id, limit: 10 }));
      const hit = body.data.find((candidate) => candidate.thumbnail_url === thumbnailOf(variant.derived_from!.media_id));
      if (hit !== undefined) found += 1;
      else misses.push(`${variant._id} (${variant.derived_from!.transforms.join('+')})`);
      for (const transform of variant.derived_from!.transforms) {
        const tally = byTransform.get(transform) ?? { found: 0, total: 0 };
        tally.total += 1;
        if (hit !== undefined) tally.found += 1;
        byTransform.set(transform, tally);
      }
    }
    const recall = found / variants.length;
    const perTransform = [...byTransform].map(([transform, { found: f, total }]) => `${transform} ${f}/${total}`).join(', ');
    console.log(`      recall@10 of near-duplicate variants: ${found}/${variants.length} = ${recall.toFixed(3)} (${perTransform})`);
    if (misses.length > 0) console.log(`      missed: ${misses.join(', ')}`);
    expect(recall).to.be.at.least(0.9);

    // Several variants as uploads: the original is in the top 10, found by visual or exact_dup.
    for (const variant of variants.slice(0, 5).filter((v) => !misses.some((miss) => miss.startsWith(v._id)))) {
      const body = await ok<SearchBody>(await upload(await bytesOf(variant._id)));
      const hit = body.data.find((candidate) => candidate.thumbnail_url === thumbnailOf(variant.derived_from!.media_id));
      expect(hit, variant._id).not.to.equal(undefined);
      expect(hit!.trademark.id).to.equal(variant.derived_from!.trademark_id);
      expect(hit!.signals.exact_dup!.checksum_match).to.equal(false);
      // The score: the best channel (visual, logo_text, or a pHash within 10 bits as 1 − d/64), plus 0.05 × logo_text, over 1.05.
      const { visual, logo_text: text, exact_dup: dup } = hit!.signals;
      const best = Math.max(visual!.score, text?.score ?? 0, dup!.phash_distance <= 10 ? 1 - dup!.phash_distance / 64 : 0);
      expect(hit!.score, variant._id).to.be.closeTo((best + 0.05 * (text?.score ?? 0)) / 1.05, 2e-4);
    }
  });

  it('media_id mode searches with a stored image and honours limit and filters', async () => {
    const logo = logos.find((candidate) => candidate.derived_from === null)!;
    const body = await ok<SearchBody>(await app.post(PATH, { media_id: logo._id, limit: 3 }));
    expect(body.search_meta).to.include({ query_mode: 'media_id', total_results: 3 });
    expect(body.data).to.have.length(3);
    expect(body.data[0]!.signals.exact_dup!.checksum_match).to.equal(true);

    const office = body.data[0]!.trademark.office_code;
    const filtered = await ok<SearchBody>(await app.post(PATH, { media_id: logo._id, limit: 100, filters: { offices: [office] } }));
    expect(filtered.data.length).to.be.greaterThan(0);
    expect(filtered.data.every((hit) => hit.trademark.office_code === office && hit.matched_image.office === office)).to.equal(true);

    const mark = (await ok<{ classifications: Array<{ nice_class: number }> }>(await app.get(`/v1/trademarks/${body.data[0]!.trademark.id}`))).classifications;
    const niceClass = mark[0]!.nice_class;
    const byClass = await ok<SearchBody>(await app.post(PATH, { media_id: logo._id, filters: { nice_classes: [niceClass] } }));
    expect(byClass.data.map((hit) => hit.trademark.id)).to.include(body.data[0]!.trademark.id);

    // Multipart fields are JSON-encoded.
    const viaForm = await ok<SearchBody>(await upload(await bytesOf(logo._id), { limit: '2', filters: JSON.stringify({ offices: [office] }) }));
    expect(viaForm.data).to.have.length(2);
    expect(viaForm.data.every((hit) => hit.trademark.office_code === office)).to.equal(true);

    await fails(await app.post(PATH, { media_id: logo._id, limit: 101 }), 400, 'validation_error', 'limit');
    await fails(await app.post(PATH, { media_id: logo._id, limit: 0 }), 400, 'validation_error', 'limit');
    await fails(await app.post(PATH, { media_id: logo._id, filters: { nice_classes: [99] } }), 400, 'validation_error', 'nice_classes');
    await fails(await app.post(PATH, { media_id: randomId('med_') }), 404, 'not_found');
    await fails(await app.post(PATH, {}), 400, 'validation_error', 'media_id');
  });

  it('never stores the query image', async () => {
    const before = await mediaCount();
    const query = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366cc' } })
      .composite([{ input: Buffer.from('<svg width="120" height="80"><circle cx="40" cy="40" r="30" fill="#ffcc00"/></svg>'), left: 90, top: 60 }])
      .png()
      .toBuffer();
    const body = await ok<SearchBody>(await upload(query));
    expect(body.data.length).to.be.greaterThan(0);
    expect(body.data.every((hit) => hit.signals.exact_dup!.checksum_match === false)).to.equal(true);
    expect(await mediaCount()).to.equal(before);
  });

  it('refuses SVG, a 9 MB file and a non-image, naming image', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    await fails(await upload(svg, {}, app.keys.full, 'image/svg+xml', 'logo.svg'), 400, 'validation_error', 'image: SVG');
    await fails(await upload(Buffer.alloc(9 * 1024 * 1024, 7)), 400, 'validation_error', 'image: must be one file of at most 8 MB');
    await fails(
      await upload(Buffer.from('just some text, not an image'), {}, app.keys.full, 'text/plain', 'notes.txt'),
      400,
      'validation_error',
      'image: not an image',
    );
  });

  it('refuses a form field longer than 64 KB, naming it, rather than reading what is left of it once cut', async () => {
    const logo = logos[0]!;
    const long = JSON.stringify(['visual', ...Array.from({ length: 20_000 }, () => 'visual')]);
    expect(Buffer.byteLength(long)).to.be.greaterThan(64 * 1024);
    await fails(await upload(await bytesOf(logo._id), { channels: long }), 400, 'validation_error', 'channels: must be at most 64 KB');
  });

  it('needs the image-search:read scope, and a plan with the image_search feature', async () => {
    const bytes = await bytesOf(logos[0]!._id);
    const noScope = await fails(await upload(bytes, {}, app.keys.legacy), 403, 'forbidden', 'image-search:read');
    expect(noScope.error.type).to.equal('forbidden');
    await fails(await app.post(PATH, { media_id: logos[0]!._id }, app.keys.legacy), 403, 'forbidden', 'image-search:read');
    await fails(await upload(bytes, {}, null), 401, 'unauthorized');

    const starter = await startTestApp({ organization: { plan: 'starter' }, marks: 50 });
    try {
      const refused = await fails(await starter.post(PATH, { media_id: randomId('med_') }), 403, 'plan_upgrade_required', 'image_search');
      expect(refused.error.type).to.equal('plan_upgrade_required');
    } finally {
      await starter.close();
    }
  });

  it('meters the image_search pool (its own per-minute window, not the search pool)', async () => {
    const response = await app.post(PATH, { media_id: logos[0]!._id, limit: 1 });
    await ok(response);
    expect(response.headers.get('ratelimit-policy')).to.match(/^1234;w=60/);
  });

  it('is described in the OpenAPI document with both bodies: JSON (media_id) and multipart/form-data (image)', async () => {
    interface Schema {
      $ref?: string;
      properties?: Record<string, unknown>;
      required?: string[];
    }
    interface MediaTypeDoc {
      schema: Schema;
      encoding?: Record<string, { contentType: string }>;
    }
    interface OperationDoc {
      description: string;
      'x-marque-scope': string;
      'x-marque-pool': string;
      requestBody: { content: Record<string, MediaTypeDoc> };
    }
    const document = await ok<{ paths: Record<string, Record<string, OperationDoc>>; components: { schemas: Record<string, Schema> } }>(
      await app.get('/v1/openapi.json', null),
    );
    const operation = document.paths[PATH]!.post!;
    expect(operation['x-marque-scope']).to.equal('image-search:read');
    expect(operation['x-marque-pool']).to.equal('image_search');
    const content = operation.requestBody.content;
    const resolve = (schema: Schema): Schema => (schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!]! : schema);
    expect(Object.keys(resolve(content['application/json']!.schema).properties!)).to.include.members([
      'media_id',
      'image_url',
      'crop',
      'filters',
      'channels',
      'limit',
    ]);
    const form = resolve(content['multipart/form-data']!.schema);
    expect(form.required).to.deep.equal(['image']);
    expect(Object.keys(form.properties!)).to.include.members(['image', 'filters', 'crop', 'channels', 'limit']);
    expect(content['multipart/form-data']!.encoding!.image!.contentType).to.contain('image/png');
    expect(operation.description).to.contain('USearch HNSW');
  });
  it('a strip far taller or wider than a logo (50 × 5,000 px, 100,000 × 1 px) is answered, and the server goes on', async () => {
    for (const [width, height] of [
      [50, 5_000],
      [100_000, 1],
    ] as const) {
      const body = await ok<SearchBody>(await upload(await blankPng(width, height), { channels: JSON.stringify(['logo_text', 'visual']) }));
      expect(body.object, `${width} × ${height}`).to.equal('list');
    }
    expect((await fetch(`${app.baseUrl}/health/live`)).status).to.equal(200);
  });

  it('logo_text: the words of a generated combined logo are read and find its mark', async function () {
    this.timeout(60_000);
    const marks = await app.adapters.store.collection<{ _id: string; mark_text: string; mark_feature_type: string }>(COLLECTIONS.trademarks).find({
      mark_feature_type: 'combined',
    });
    const texts = new Map(marks.map((mark) => [mark._id, mark.mark_text]));
    // A combined logo of its own (not a variant, not shared by a family) whose text is a plain word of 5+ letters.
    const counts = new Map<string, number>();
    for (const logo of logos) counts.set(logo.svg, (counts.get(logo.svg) ?? 0) + 1);
    const logo = logos.find(
      (candidate) => candidate.derived_from === null && counts.get(candidate.svg) === 1 && /^[A-Z]{5,}$/i.test(texts.get(candidate.trademark_id) ?? ''),
    )!;
    const word = texts.get(logo.trademark_id)!;
    const body = await ok<SearchBody>(await upload(await bytesOf(logo._id), { channels: JSON.stringify(['logo_text']) }));
    expect(body.search_meta.channels).to.deep.equal(['logo_text']);
    const hit = body.data.find((candidate) => candidate.trademark.id === logo.trademark_id);
    expect(hit, `${word} found by logo_text`).not.to.equal(undefined);
    expect(hit!.signals.logo_text!.query_text.toUpperCase()).to.contain(word.toUpperCase());
    expect(hit!.signals.logo_text!.matched_text.toUpperCase()).to.contain(word.toUpperCase());
    expect(hit!.signals.logo_text!.score).to.equal(1);
    expect(hit!.signals.visual).to.equal(null);
    expect(hit!.signals.exact_dup).to.equal(null);
  });

  it("media_id mode reports vienna_overlap: the design codes the query's mark shares with each hit", async () => {
    const logo = logos.find((candidate) => candidate.derived_from === null)!;
    const codes = (await ok<{ vienna_codes: string[] }>(await app.get(`/v1/trademarks/${logo.trademark_id}`))).vienna_codes;
    expect(codes.length).to.be.greaterThan(0);
    const body = await ok<SearchBody>(await app.post(PATH, { media_id: logo._id, limit: 20 }));
    const self = body.data.find((hit) => hit.thumbnail_url === thumbnailOf(logo._id))!;
    expect(self.signals.vienna_overlap).to.deep.equal({ score: 1, shared_codes: [...new Set(codes)].sort() });
    for (const hit of body.data) {
      const theirs = (await ok<{ vienna_codes: string[] }>(await app.get(`/v1/trademarks/${hit.trademark.id}`))).vienna_codes;
      const shared = [...new Set(theirs)].filter((code) => codes.includes(code)).sort();
      const union = new Set([...codes, ...theirs]).size;
      if (theirs.length === 0) expect(hit.signals.vienna_overlap).to.equal(null);
      else expect(hit.signals.vienna_overlap).to.deep.equal({ score: Math.round((shared.length / union) * 10_000) / 10_000, shared_codes: shared });
    }
    // An uploaded image has no design codes.
    const uploaded = await ok<SearchBody>(await upload(await bytesOf(logo._id), { limit: '3' }));
    expect(uploaded.data.every((hit) => hit.signals.vienna_overlap === null)).to.equal(true);
  });

  it('crop: searching with the part of an image that holds a logo finds that logo; a crop outside the image is refused naming crop', async () => {
    const logo = logos.find((candidate) => candidate.derived_from === null && !candidate.svg.includes('<text'))!;
    const original = await bytesOf(logo._id);
    const { width, height } = await sharp(original).metadata();
    // The logo pasted into a larger white canvas at (150, 90): the crop cuts exactly that region back out.
    const canvas = await sharp({ create: { width: width! + 300, height: height! + 180, channels: 3, background: '#ffffff' } })
      .composite([{ input: await sharp(original).flatten({ background: '#ffffff' }).png().toBuffer(), left: 150, top: 90 }])
      .png()
      .toBuffer();
    const crop = { x: 150, y: 90, width: width!, height: height! };
    const body = await ok<SearchBody>(await upload(canvas, { crop: JSON.stringify(crop), channels: JSON.stringify(['visual', 'exact_dup']) }));
    const hit = body.data.find((candidate) => candidate.thumbnail_url === thumbnailOf(logo._id));
    expect(hit, 'the cropped logo is found').not.to.equal(undefined);
    expect(hit!.signals.exact_dup!.checksum_match).to.equal(false);
    expect(hit!.signals.exact_dup!.phash_distance).to.be.at.most(10);

    await fails(await upload(canvas, { crop: JSON.stringify({ ...crop, x: 400 }) }), 400, 'validation_error', 'crop: the box must lie inside the image');
    await fails(await upload(canvas, { crop: JSON.stringify({ x: 0, y: 0, width: 4, height: 4 }) }), 400, 'validation_error', 'crop: width and height');
    await fails(await upload(canvas, { crop: JSON.stringify({ x: 0, y: 0, width: 10 }) }), 400, 'validation_error', 'crop.height');
    await fails(await app.post(PATH, { media_id: logo._id, crop }), 400, 'validation_error', 'crop');
  });

  describe('image_url mode', () => {
    let images: HttpServer;
    let imagesBase: string;
    let requests: string[];

    before(async () => {
      requests = [];
      const logoBytes = await bytesOf(logos[0]!._id);
      images = createHttpServer((request, response) => {
        requests.push(request.url ?? '');
        if (request.url === '/logo.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(logoBytes);
        if (request.url === '/moved.png') return void response.writeHead(302, { location: '/logo.png' }).end();
        if (request.url === '/logo.svg')
          return void response
            .writeHead(200, { 'content-type': 'image/svg+xml' })
            .end('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
        if (request.url === '/huge.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(9 * 1024 * 1024, 1));
        response.writeHead(404).end();
      });
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      imagesBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
    });

    after(() => new Promise<void>((resolve) => images.close(() => resolve())));

    it('development: fetches the image from a real local HTTP server and searches with it (never stored)', async () => {
      const before = await mediaCount();
      const body = await ok<SearchBody>(await app.post(PATH, { image_url: `${imagesBase}/logo.png`, limit: 5 }));
      expect(body.search_meta.query_mode).to.equal('image_url');
      expect(body.data[0]!.signals.exact_dup!.checksum_match).to.equal(true);
      expect(body.data[0]!.matched_image.checksum).to.equal((await app.adapters.media.get(logos[0]!._id))!.record.checksum_sha256);
      expect(await mediaCount()).to.equal(before);
    });

    it('refuses, naming image_url and the rule: an error status, a redirect (not followed), SVG, over 8 MB, a bad scheme', async () => {
      await fails(await app.post(PATH, { image_url: `${imagesBase}/missing.png` }), 400, 'validation_error', 'image_url: the server answered 404');
      requests.length = 0;
      await fails(await app.post(PATH, { image_url: `${imagesBase}/moved.png` }), 400, 'validation_error', 'image_url: redirects are not followed');
      expect(requests).to.deep.equal(['/moved.png']);
      await fails(await app.post(PATH, { image_url: `${imagesBase}/logo.svg` }), 400, 'validation_error', 'image_url: SVG is not accepted');
      await fails(await app.post(PATH, { image_url: `${imagesBase}/huge.png` }), 400, 'validation_error', 'image_url: the image is larger than 8 MB');
      await fails(await app.post(PATH, { image_url: 'ftp://example.com/logo.png' }), 400, 'validation_error', 'image_url: must use http or https');
      await fails(await app.post(PATH, { image_url: `${imagesBase}/logo.png`, media_id: logos[0]!._id }), 400, 'validation_error', 'cannot be combined');
    });

    it('production: http, a private-address or loopback URL and a name resolving to loopback are refused before any request', async function () {
      this.timeout(120_000);
      const production = await startTestApp({ organization: { plan: 'enterprise' }, marks: 30, webhooks: { environment: 'production' } });
      try {
        requests.length = 0;
        await fails(await production.post(PATH, { image_url: `${imagesBase}/logo.png` }), 400, 'validation_error', 'image_url: must use https in production');
        await fails(
          await production.post(PATH, { image_url: 'https://10.1.2.3/logo.png' }),
          400,
          'validation_error',
          'image_url: must not resolve to a private, loopback, link-local or metadata address in production (resolved to 10.1.2.3: private)',
        );
        await fails(await production.post(PATH, { image_url: 'https://169.254.169.254/latest/meta-data' }), 400, 'validation_error', 'cloud metadata');
        const port = (images.address() as AddressInfo).port;
        await fails(await production.post(PATH, { image_url: `https://127.0.0.1:${port}/logo.png` }), 400, 'validation_error', 'image_url: must not resolve');
        // A name is checked at connect time, on the addresses the socket would use.
        await fails(await production.post(PATH, { image_url: `https://localhost:${port}/logo.png` }), 400, 'validation_error', 'image_url: must not resolve');
        expect(requests).to.deep.equal([]);
      } finally {
        await production.close();
      }
    });
  });
});

describe('REST: image search before the image index is built', function () {
  let app: TestApp;

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 200, organization: { plan: 'enterprise' } });
  });

  after(() => app?.close());

  it('answers 503 service_unavailable with retry_after rather than an empty list, and searches once the indexer has built it', async function () {
    this.timeout(120_000);
    const search = async (): Promise<Response> => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(await wordmarkPng('NOVA PEAK'))], { type: 'image/png' }), 'query.png');
      return fetch(app.baseUrl + PATH, { method: 'POST', body: form, headers: { authorization: `Bearer ${app.keys.full}` } });
    };
    // retry_after in the body (the spec sends the Retry-After header on 429 only).
    const refused = await fails(await search(), 503, 'service_unavailable', 'image index is being built');
    expect(refused.error).to.include({ retry_after: 60 });

    await app.server.imageIndexer!.catchUp();
    const body = await ok<SearchBody>(await search());
    expect(body.data.length).to.be.greaterThan(0);
  });
});

describe('REST: image search scoring', () => {
  it('logo_text is scored only when the words of both images hold three letters or digits (two are as often a device read as letters)', async () => {
    const fingerprint = await fingerprintImage(await wordmarkPng('SIGNAL'));
    const stored = (logoText: string): ImageFingerprintDoc => ({
      _id: 'med_scoring',
      key: '0',
      trademark_id: 'tm_scoring',
      checksum_sha256: '0'.repeat(64),
      phash: fingerprint.phash,
      descriptor: encodeDescriptor(fingerprint.descriptor),
      views: [],
      logo_text: logoText,
    });
    const score = (query: string, matched: string): number | null => candidateSignals(fingerprint, query, stored(matched)).text;
    expect(score('MY', 'MY')).to.equal(null);
    expect(score('MY', 'MYRA')).to.equal(null);
    expect(score('MYRA', 'MY')).to.equal(null);
    expect(score('A-B', 'A B')).to.equal(null);
    expect(score('MYR', 'MYR')).to.equal(1);
    expect(score('MYRA', 'MYRA')).to.equal(1);
  });

  it('visual is the best cosine between the query or one of its views and the stored image or one of its views', async () => {
    const original = await edgeToEdgeDrawingPng();
    const stored = await fingerprintImage(original, { views: 'indexed' });
    const doc: ImageFingerprintDoc = {
      _id: 'med_scoring',
      key: '0',
      trademark_id: 'tm_scoring',
      checksum_sha256: '0'.repeat(64),
      phash: stored.phash,
      descriptor: encodeDescriptor(stored.descriptor),
      views: stored.views.map(encodeDescriptor),
      logo_text: '',
    };
    // 8 % off the left and 12 % off the top: between the stored views, until its view with 4 % more
    // off the left (about 12 % of the original's width) meets the stored corner view cut 12 % and 12 %.
    const query = await fingerprintImage(await cutTopLeft(original, 32, 48), { views: 'query' });
    expect(candidateSignals(query, null, doc).visual).to.be.above(0.99);
    expect(candidateSignals({ ...query, views: [] }, null, doc).visual).to.be.below(0.99);
  });
});
