/**
 * The MediaStore contract: one suite every adapter must pass unchanged. Images are made here with
 * sharp, so their dimensions and bytes are known; what the store reports is checked against them.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import sharp from 'sharp';
import { MEDIA_THUMBNAIL_MAX_SIDE, MediaFormatError, type MediaStore } from '../../datasources/ports';
import { stableId } from '../../domain/ids';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A solid image with a square in it, `width` × `height`, in `format`. */
async function image(width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif'): Promise<Buffer> {
  const square = Math.max(1, Math.floor(Math.min(width, height) / 2));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#f4e1c1"/><rect x="${Math.floor(width / 4)}" y="${Math.floor(height / 4)}" width="${square}" height="${square}" fill="#1d4e89"/></svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}

export function describeMediaStoreContract(name: string, open: () => Promise<MediaStore>, cleanup?: () => Promise<void>): void {
  describe(`MediaStore contract: ${name}`, function () {
    this.timeout(20_000);
    let store: MediaStore;
    let sequence = 0;
    const runId = Math.random().toString(36).slice(2, 8);
    /** An ID no other test (or earlier run against shared storage) uses. */
    const freshId = (): string => stableId('med_', `contract:${runId}:${++sequence}`);

    before(async function () {
      store = await open();
    });
    after(async function () {
      await cleanup?.();
    });

    it('stores a PNG and reports its format, dimensions, size and SHA-256', async function () {
      const bytes = await image(640, 400, 'png');
      const id = freshId();
      const record = await store.put(bytes, { id, trademark_id: 'tm_0000000000000000000a' });
      expect(record).to.include({
        _id: id,
        format: 'png',
        mime_type: 'image/png',
        width: 640,
        height: 400,
        byte_size: bytes.byteLength,
        checksum_sha256: sha256(bytes),
        trademark_id: 'tm_0000000000000000000a',
        derived_from: null,
      });
      expect(Date.parse(record.created_at)).to.be.a('number').and.not.NaN;
    });

    it('gives back the same bytes and the same record', async function () {
      const bytes = await image(300, 300, 'png');
      const id = freshId();
      const record = await store.put(bytes, { id });
      const content = await store.get(id);
      expect(content).not.to.equal(null);
      expect(Buffer.compare(content!.bytes, bytes)).to.equal(0);
      expect(content!.record).to.deep.equal(record);
      expect(await store.exists(id)).to.equal(true);
    });

    it('makes a PNG thumbnail at most 256 px on its longer side, keeping the aspect ratio', async function () {
      const id = freshId();
      const record = await store.put(await image(1000, 500, 'png'), { id });
      expect(record.thumbnail).to.include({ format: 'png', mime_type: 'image/png', width: MEDIA_THUMBNAIL_MAX_SIDE, height: 128 });
      const thumbnail = await store.getThumbnail(id);
      expect(thumbnail!.record).to.deep.equal(record);
      expect(thumbnail!.bytes.byteLength).to.equal(record.thumbnail.byte_size);
      expect(sha256(thumbnail!.bytes)).to.equal(record.thumbnail.checksum_sha256);
      const decoded = await sharp(thumbnail!.bytes).metadata();
      expect([decoded.format, decoded.width, decoded.height]).to.deep.equal(['png', 256, 128]);
    });

    it('never enlarges a small image for its thumbnail', async function () {
      const record = await store.put(await image(40, 90, 'png'), { id: freshId() });
      expect([record.thumbnail.width, record.thumbnail.height]).to.deep.equal([40, 90]);
    });

    it('accepts JPEG, WebP and GIF with their own format and type', async function () {
      for (const [format, mime] of [
        ['jpeg', 'image/jpeg'],
        ['webp', 'image/webp'],
        ['gif', 'image/gif'],
      ] as const) {
        const bytes = await image(120, 80, format);
        const record = await store.put(bytes, { id: freshId() });
        expect(record, format).to.include({ format, mime_type: mime, width: 120, height: 80, checksum_sha256: sha256(bytes) });
        expect(Buffer.compare((await store.get(record._id))!.bytes, bytes), format).to.equal(0);
      }
    });

    it('refuses SVG, non-images and truncated images, storing nothing', async function () {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
      const png = await image(200, 200, 'png');
      for (const [label, bytes] of [
        ['svg', svg],
        ['text', Buffer.from('hello, not an image')],
        ['empty', Buffer.alloc(0)],
        ['truncated png', png.subarray(0, Math.floor(png.byteLength / 2))],
      ] as const) {
        const id = freshId();
        let thrown: unknown = null;
        try {
          await store.put(bytes, { id });
        } catch (error) {
          thrown = error;
        }
        expect(thrown, label).to.be.instanceOf(MediaFormatError);
        // The reason is the client's to read: what is wrong with the image, not the decoder's own words.
        expect((thrown as Error).message, label).not.to.match(/vips|target/i);
        expect(await store.exists(id), label).to.equal(false);
      }
    });

    it('answers null for unknown and malformed IDs', async function () {
      const unknown = freshId();
      expect(await store.get(unknown)).to.equal(null);
      expect(await store.getThumbnail(unknown)).to.equal(null);
      expect(await store.exists(unknown)).to.equal(false);
      for (const id of ['tm_0000000000000000000a', 'med_', 'med_UPPER', '../../etc/passwd', '']) {
        expect(await store.get(id), id).to.equal(null);
        expect(await store.exists(id), id).to.equal(false);
      }
    });

    it('mints a med_ ID when none is given, and refuses an ID of another kind', async function () {
      const record = await store.put(await image(10, 10, 'png'));
      expect(record._id).to.match(/^med_[0-9a-hjkmnp-tv-z]+$/);
      expect(await store.exists(record._id)).to.equal(true);
      let thrown: unknown = null;
      try {
        await store.put(await image(10, 10, 'png'), { id: 'tm_0000000000000000000a' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).to.be.instanceOf(RangeError);
    });

    it('replaces an ID put again, format included', async function () {
      const id = freshId();
      await store.put(await image(50, 50, 'png'), { id });
      const jpeg = await image(70, 30, 'jpeg');
      const replaced = await store.put(jpeg, { id });
      expect(replaced).to.include({ format: 'jpeg', width: 70, height: 30 });
      const content = await store.get(id);
      expect(Buffer.compare(content!.bytes, jpeg)).to.equal(0);
      expect(content!.record).to.deep.equal(replaced);
    });

    it('keeps where a near-duplicate comes from', async function () {
      const original = await store.put(await image(64, 64, 'png'), { id: freshId(), trademark_id: 'tm_00000000000000000001' });
      const derivation = { media_id: original._id, trademark_id: 'tm_00000000000000000001', transforms: ['recolour', 'crop'] };
      const variant = await store.put(await image(60, 64, 'png'), { id: freshId(), trademark_id: 'tm_00000000000000000002', derived_from: derivation });
      expect((await store.get(variant._id))!.record.derived_from).to.deep.equal(derivation);
    });
  });
}
