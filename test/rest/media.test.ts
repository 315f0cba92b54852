/**
 * GET /v1/media/{id} and /thumbnail, black-box over HTTP against the seeded fixture, whose
 * figurative and combined marks carry generated logos (some near-duplicates of others).
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import sharp from 'sharp';
import type { MediaRecord } from '../../datasources/ports';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import type { GeneratedLogoDoc } from '../../workers/ingest/generated-logos';
import { beforeShared, type TestApp } from '../support/harness';
import { fails } from '../support/http';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

interface TrademarkBody {
  id: string;
  mark_feature_type: string;
  has_media: boolean;
  media: Array<{ id: string; kind: string; mime_type: string; url: string }>;
}

describe('REST: media (mark images and thumbnails)', function () {
  let app: TestApp;
  let marks: TrademarkDoc[];
  let figurative: TrademarkDoc;
  let logos: GeneratedLogoDoc[];
  const stored = (id: string): Promise<MediaRecord | null> => app.adapters.store.collection<MediaRecord>(COLLECTIONS.media).findOne({ _id: id });

  beforeShared((fixture) => {
    app = fixture.app;
    marks = fixture.catalog.marks;
    figurative = marks.find((mark) => mark.mark_feature_type === 'figurative')!;
  });

  before(async () => {
    logos = await app.adapters.store.collection<GeneratedLogoDoc>(COLLECTIONS.generatedLogos).find({});
  });

  /** GET without a key: the media routes are public. */
  const fetchMedia = (path: string, init: RequestInit = {}): Promise<Response> => fetch(app.baseUrl + path, init);

  it("serves a figurative mark's linked image: 200 image/png, the stored dimensions, and an ETag that is its SHA-256", async () => {
    const detail = (await (await app.get(`/v1/trademarks/${figurative._id}`)).json()) as TrademarkBody;
    expect(detail.has_media).to.equal(true);
    expect(detail.media).to.have.length(1);
    const link = detail.media[0]!;
    expect(link).to.include({ kind: 'image', mime_type: 'image/png', url: `/v1/media/${link.id}` });

    const response = await fetchMedia(link.url);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    const stored = (await app.adapters.media.get(link.id))!.record;
    expect(stored.trademark_id).to.equal(figurative._id);
    expect(Number(response.headers.get('content-length'))).to.equal(stored.byte_size);
    const decoded = await sharp(bytes).metadata();
    expect([decoded.format, decoded.width, decoded.height]).to.deep.equal(['png', stored.width, stored.height]);
    expect(decoded.width).to.be.greaterThan(256);
    expect(response.headers.get('etag')).to.equal(`"${sha256(bytes)}"`);
    expect(sha256(bytes)).to.equal(stored.checksum_sha256);
    expect(response.headers.get('cache-control')).to.equal('public, max-age=86400, immutable');
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('request-id')).to.match(/^req_/);
  });

  it('serves a smaller PNG thumbnail with its own ETag', async () => {
    const id = figurative.media[0]!.id;
    const original = Buffer.from(await (await fetchMedia(`/v1/media/${id}`)).arrayBuffer());
    const response = await fetchMedia(`/v1/media/${id}/thumbnail`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    const [big, small] = await Promise.all([sharp(original).metadata(), sharp(bytes).metadata()]);
    expect(Math.max(small.width!, small.height!)).to.equal(256);
    expect(small.width! / small.height!).to.be.closeTo(big.width! / big.height!, 0.02);
    expect(bytes.byteLength).to.be.lessThan(original.byteLength);
    expect(response.headers.get('etag')).to.equal(`"${sha256(bytes)}"`);
    expect(response.headers.get('etag')).not.to.equal(`"${sha256(original)}"`);
    expect(response.headers.get('cache-control')).to.equal('public, max-age=86400, immutable');
  });

  it('serves every logo of the fixture a thumbnail of fewer bytes than the image itself', async () => {
    // The last 40 of the shared fixture's logos (rendered here on first read; the test of first reads takes an early one).
    const ids = logos.slice(-40).map((logo) => logo._id);
    expect(ids.length).to.be.greaterThan(30);
    const larger: string[] = [];
    for (const id of ids) {
      const [original, thumbnail] = await Promise.all([fetchMedia(`/v1/media/${id}`), fetchMedia(`/v1/media/${id}/thumbnail`)]);
      const [originalBytes, thumbnailBytes] = [(await original.arrayBuffer()).byteLength, (await thumbnail.arrayBuffer()).byteLength];
      if (thumbnailBytes >= originalBytes) larger.push(`${id}: ${thumbnailBytes} bytes, the image ${originalBytes}`);
    }
    expect(larger).to.deep.equal([]);
  });

  it('answers 304 without a body when If-None-Match names the current ETag (strong or weak, or in a list)', async () => {
    for (const path of [`/v1/media/${figurative.media[0]!.id}`, `/v1/media/${figurative.media[0]!.id}/thumbnail`]) {
      const etag = (await fetchMedia(path)).headers.get('etag')!;
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const response = await fetchMedia(path, { headers: { 'if-none-match': header } });
        expect(response.status, `${path} ${header}`).to.equal(304);
        expect(response.headers.get('etag')).to.equal(etag);
        expect(response.headers.get('cache-control')).to.equal('public, max-age=86400, immutable');
        expect((await response.arrayBuffer()).byteLength).to.equal(0);
      }
      const stale = await fetchMedia(path, { headers: { 'if-none-match': '"0000"' } });
      expect(stale.status).to.equal(200);
      await stale.arrayBuffer();
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const id = figurative.media[0]!.id;
    const stored = (await app.adapters.media.get(id))!.record;
    const response = await fetchMedia(`/v1/media/${id}`, { method: 'HEAD' });
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('image/png');
    expect(response.headers.get('etag')).to.equal(`"${stored.checksum_sha256}"`);
    expect(Number(response.headers.get('content-length'))).to.equal(stored.byte_size);
    expect((await response.arrayBuffer()).byteLength).to.equal(0);
    const thumbnail = await fetchMedia(`/v1/media/${id}/thumbnail`, { method: 'HEAD' });
    expect(thumbnail.status).to.equal(200);
    expect(Number(thumbnail.headers.get('content-length'))).to.equal(stored.thumbnail.byte_size);
  });

  it('needs no key (public register data), and ignores a wrong one', async () => {
    const path = `/v1/media/${figurative.media[0]!.id}`;
    const headerSets: Array<Record<string, string>> = [{}, { authorization: 'Bearer mq_not-a-key' }, { authorization: `Bearer ${app.keys.billingOnly}` }];
    for (const headers of headerSets) {
      const response = await fetchMedia(path, { headers });
      expect(response.status).to.equal(200);
      expect(response.headers.get('ratelimit')).to.equal(null);
      await response.arrayBuffer();
    }
  });

  it('answers 404 not_found in the error envelope for an unknown media ID, for both variants and HEAD', async () => {
    const unknown = 'med_00000000000000000000';
    for (const path of [`/v1/media/${unknown}`, `/v1/media/${unknown}/thumbnail`]) {
      const body = await fails(await fetchMedia(path), 404, 'not_found', unknown);
      expect(body.request_id).to.match(/^req_/);
    }
    expect((await fetchMedia(`/v1/media/${unknown}`, { method: 'HEAD' })).status).to.equal(404);
  });

  it("refuses another kind's ID with 400 id_type_mismatch, and a malformed one with 400 validation_error", async () => {
    await fails(await fetchMedia(`/v1/media/${figurative._id}`), 400, 'id_type_mismatch', 'med_');
    await fails(await fetchMedia(`/v1/media/img_0000000000/thumbnail`), 400, 'id_type_mismatch', 'med_');
    await fails(await fetchMedia('/v1/media/med_NOT-VALID'), 400, 'validation_error', 'med_');
  });

  it('has a generated logo for every image a mark links, and links none from word, sound and motion marks', async () => {
    const byId = new Map(logos.map((logo) => [logo._id, logo]));
    let linked = 0;
    for (const mark of marks) {
      if (['word', 'sound', 'motion', 'other'].includes(mark.mark_feature_type)) expect(mark.media, mark._id).to.deep.equal([]);
      for (const link of mark.media) {
        expect(link.kind).to.equal('image');
        expect(byId.get(link.id)?.trademark_id, link.id).to.equal(mark._id);
        linked++;
      }
    }
    expect(linked).to.equal(logos.length);
    expect(marks.filter((mark) => mark.mark_feature_type === 'combined' && mark.media.length === 1).length).to.be.greaterThan(100);
    // A sample over HTTP: each link answers with a PNG.
    for (const logo of logos.filter((_, i) => i % 97 === 0)) {
      const response = await fetchMedia(`/v1/media/${logo._id}/thumbnail`, { method: 'HEAD' });
      expect(response.status, logo._id).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('image/png');
    }
  });

  it('renders a generated logo into the MediaStore when it is first read, then serves the stored bytes', async () => {
    const logo = logos.find((candidate, i) => i % 97 !== 0 && candidate.trademark_id !== figurative._id)!;
    expect(await stored(logo._id)).to.equal(null);
    expect(await app.adapters.media.exists(logo._id)).to.equal(true);
    const [first, second] = await Promise.all([fetchMedia(`/v1/media/${logo._id}`), fetchMedia(`/v1/media/${logo._id}`)]);
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    const record = (await stored(logo._id))!;
    expect(record).to.include({ format: 'png', trademark_id: logo.trademark_id });
    expect(first.headers.get('etag')).to.equal(`"${record.checksum_sha256}"`);
    expect(second.headers.get('etag')).to.equal(first.headers.get('etag'));
    expect(sha256(Buffer.from(await first.arrayBuffer()))).to.equal(record.checksum_sha256);
    await second.arrayBuffer();
  });

  it('holds near-duplicate variants that name the mark and image they derive from, served with other bytes', async () => {
    const variants = logos.filter((logo) => logo.derived_from !== null);
    expect(variants.length).to.be.greaterThan(20);
    const byId = new Map(logos.map((logo) => [logo._id, logo]));
    const kinds = new Set<string>();
    for (const variant of variants) {
      const origin = byId.get(variant.derived_from!.media_id);
      expect(origin, variant._id).not.to.equal(undefined);
      expect(origin!.trademark_id).to.equal(variant.derived_from!.trademark_id);
      expect(origin!.derived_from).to.equal(null);
      expect(variant.derived_from!.trademark_id).not.to.equal(variant.trademark_id);
      expect(variant.svg).not.to.equal(origin!.svg);
      for (const transform of variant.derived_from!.transforms) kinds.add(transform);
    }
    expect([...kinds].sort()).to.deep.equal(['crop', 'recolour', 'rescale', 'retypeset']);

    const variant = variants[0]!;
    const detail = (await (await app.get(`/v1/trademarks/${variant.trademark_id}`)).json()) as TrademarkBody;
    expect(detail.media.map((link) => link.id)).to.deep.equal([variant._id]);
    const [copy, original] = await Promise.all([fetchMedia(`/v1/media/${variant._id}`), fetchMedia(`/v1/media/${variant.derived_from!.media_id}`)]);
    expect([copy.status, original.status]).to.deep.equal([200, 200]);
    expect(copy.headers.get('etag')).not.to.equal(original.headers.get('etag'));
    await Promise.all([copy.arrayBuffer(), original.arrayBuffer()]);
    expect((await stored(variant._id))!.derived_from).to.deep.equal(variant.derived_from);
  });
});
