/**
 * The image indexer over a real embedded store and real files: it rebuilds from the generated
 * logos, follows the change feed of stored images (new, replaced, OCR'd once), and saves its ANN
 * indexes so another process (a second ImageIndex on the same directory) searches the same
 * images without rebuilding; a change of fingerprint or OCR spec computes again what it changes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedMediaStore } from '../../datasources/embedded/media-store';
import { DESCRIPTOR_DIMENSIONS, fingerprintImage, FINGERPRINT_SPEC } from '../../datasources/image-descriptors';
import { decodeDescriptor, encodeDescriptor, IMAGE_INDEXER_CHECKPOINT_ID, IMAGE_REBUILD_PROGRESS_ID, ImageIndex } from '../../datasources/image-index';
import { LogoOcr, OCR_SPEC } from '../../datasources/logo-ocr';
import type { DocumentStore, MediaStore } from '../../datasources/ports';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { ImageIndexer } from '../../workers/image-index';
import { withGeneratedLogos, type GeneratedLogoDoc } from '../../workers/ingest/generated-logos';
import { seedStore } from '../../workers/ingest/seed';
import { wordmarkPng } from '../support/wordmark';

const wordmark = (text: string, background: string): Promise<Buffer> => wordmarkPng(text, { background });

describe('workers: image indexer', function () {
  this.timeout(180_000);
  let dir: string;
  let store: DocumentStore;
  let media: MediaStore;
  let index: ImageIndex;
  let indexer: ImageIndexer;
  let logos: GeneratedLogoDoc[];
  let markId: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marque-image-index-'));
    store = createEmbeddedDocumentStore({ path: join(dir, 'marque.sqlite') });
    await seedStore(store, { marks: 80, seed: 7 });
    media = withGeneratedLogos(createEmbeddedMediaStore({ directory: join(dir, 'media'), store }), store);
    index = new ImageIndex({ store, directory: join(dir, 'image-index') });
    indexer = new ImageIndexer(store, media, index);
    logos = await store.collection<GeneratedLogoDoc>(COLLECTIONS.generatedLogos).find({});
    markId = (await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({}, { limit: 1 }))[0]!._id;
  });

  after(async () => {
    await indexer.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('first run: rebuilds from every generated logo (rendering each once) and saves the indexes', async () => {
    expect(logos.length).to.be.greaterThan(5);
    await indexer.catchUp();
    expect(index.size).to.equal(logos.length);
    expect(await index.records.countDocuments({})).to.equal(logos.length);
    expect(await store.collection(COLLECTIONS.media).countDocuments({})).to.equal(logos.length);
    // Each image is its own nearest neighbour.
    for (const logo of logos.slice(0, 5)) {
      const doc = (await index.byMediaId(logo._id))!;
      const [nearest] = index.nearest('visual', decodeDescriptor(doc.descriptor), 1);
      const [found] = await index.byKeys([nearest!.key]);
      expect(found!.checksum_sha256).to.equal(doc.checksum_sha256);
      expect(doc.trademark_id).to.equal(logo.trademark_id);
    }
  });

  it('follows the feed: a new image of a mark is fingerprinted and OCR’d once; a replaced one again', async () => {
    const record = await media.put(await wordmark('QUANTUM FORGE', '#ffffff'), { trademark_id: markId });
    expect(await indexer.catchUp()).to.be.greaterThan(0);
    const doc = (await index.byMediaId(record._id))!;
    expect(doc.checksum_sha256).to.equal(record.checksum_sha256);
    expect(doc.logo_text).to.equal('QUANTUM FORGE');
    expect(index.size).to.equal(logos.length + 1);

    const replaced = await media.put(await wordmark('NOVA PEAK', '#ffeecc'), { id: record._id, trademark_id: markId });
    await indexer.catchUp();
    const again = (await index.byMediaId(record._id))!;
    expect(again.checksum_sha256).to.equal(replaced.checksum_sha256);
    expect(again.logo_text).to.equal('NOVA PEAK');
    expect(index.size).to.equal(logos.length + 1);

    // An image of no mark is not a candidate.
    const loose = await media.put(await wordmark('LOOSE', '#ffffff'));
    await indexer.catchUp();
    expect(await index.byMediaId(loose._id)).to.equal(null);
  });

  it('another process loads the saved indexes (same neighbours) and resumes from the saved position without rebuilding', async () => {
    const other = new ImageIndex({ store, directory: join(dir, 'image-index') });
    expect(await other.refresh()).to.be.a('string');
    expect(other.size).to.equal(index.size);
    const probe = (await index.byMediaId(logos[0]!._id))!;
    const mine = index.nearest('visual', decodeDescriptor(probe.descriptor), 5).map((n) => n.key);
    expect(other.nearest('visual', decodeDescriptor(probe.descriptor), 5).map((n) => n.key)).to.deep.equal(mine);

    const resumed = new ImageIndexer(store, media, other);
    expect(await resumed.catchUp()).to.equal(0);
    expect(await other.records.countDocuments({})).to.equal(logos.length + 1);
    await resumed.stop();
  });

  it('reads a batch it failed to apply again: the image is indexed by the retry, not skipped past', async () => {
    let failing = false;
    // The media store as an unreadable disk leaves it: every read fails until it is back.
    const flakyMedia = new Proxy(media, {
      get(target, prop, receiver) {
        if (prop === 'get' && failing) return async () => Promise.reject(new Error('EIO: media unreadable'));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const flaky = new ImageIndexer(store, flakyMedia, index);
    await flaky.catchUp();
    failing = true;
    const record = await media.put(await wordmark('HALCYON GATE', '#ffffff'), { trademark_id: markId });
    let failure: unknown = null;
    await flaky.catchUp().catch((error: unknown) => (failure = error));
    expect(String(failure)).to.contain('EIO');
    failing = false;
    expect(await flaky.catchUp()).to.be.greaterThan(0);
    expect((await index.byMediaId(record._id))?.logo_text).to.equal('HALCYON GATE');
    await flaky.stop();
  });
});

describe('workers: image indexer, a rebuild cut short', function () {
  this.timeout(180_000);

  it('resumes from its saved progress and the fingerprints stored after it, instead of starting over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marque-image-resume-'));
    const store = createEmbeddedDocumentStore({ path: join(dir, 'marque.sqlite') });
    try {
      await seedStore(store, { marks: 80, seed: 7 });
      const media = withGeneratedLogos(createEmbeddedMediaStore({ directory: join(dir, 'media'), store }), store);
      const total = await store.collection(COLLECTIONS.generatedLogos).countDocuments({});
      const meta = store.collection(COLLECTIONS.meta);
      const first = new ImageIndex({ store, directory: join(dir, 'image-index') });
      const firstIndexer = new ImageIndexer(store, media, first, { progressEvery: 4 });
      const running = firstIndexer.catchUp();
      let settled = false;
      void running.then(
        () => (settled = true),
        () => (settled = true),
      );
      // Past the first progress save (4 images), and on to a record or more after it.
      while (!settled && (await first.records.countDocuments({})) < 6) await new Promise((resolve) => setTimeout(resolve, 20));
      await firstIndexer.stop();
      // The images in flight at the stop finish first (their records are written); the rest wait for the next run.
      await running.catch(() => undefined);
      const done = await first.records.countDocuments({});
      expect(done).to.be.within(6, total - 1);
      // While the rebuild is unfinished no process searches its partial indexes; its progress holds the feed for retention.
      expect(await meta.findOne({ _id: IMAGE_INDEXER_CHECKPOINT_ID })).to.equal(null);
      expect(await meta.findOne({ _id: IMAGE_REBUILD_PROGRESS_ID })).to.not.equal(null);
      expect(await new ImageIndex({ store, directory: join(dir, 'image-index') }).refresh()).to.equal(undefined);

      const second = new ImageIndex({ store, directory: join(dir, 'image-index') });
      expect(await second.beginRebuild()).to.equal(true);
      const saved = second.size;
      expect(saved).to.be.within(4, done);
      const fingerprinted: string[] = [];
      const put = second.put.bind(second);
      second.put = (mediaId, ...rest) => (fingerprinted.push(mediaId), put(mediaId, ...rest));
      const secondIndexer = new ImageIndexer(store, media, second);
      await secondIndexer.catchUp();
      await secondIndexer.stop();
      expect(fingerprinted).to.have.length(total - done);
      expect(second.size).to.equal(total);
      expect(await second.records.countDocuments({})).to.equal(total);
      expect(await meta.findOne({ _id: IMAGE_REBUILD_PROGRESS_ID })).to.equal(null);

      // The same neighbours as indexes built in one go from the same records.
      const whole = new ImageIndex({ store, directory: join(dir, 'image-index-whole') });
      await whole.reloadFromRecords();
      const probe = (await second.records.find({}, { limit: 1 }))[0]!;
      const near = (index: ImageIndex) => index.nearest('visual', decodeDescriptor(probe.descriptor), 5).map((n) => n.key);
      expect(near(second)).to.deep.equal(near(whole));
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('workers: image indexer, a change of fingerprint or OCR spec', function () {
  this.timeout(180_000);

  it('fingerprints every image again, reads the text again only where the OCR changed, and searches nothing of the old spec meanwhile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marque-image-spec-'));
    const store = createEmbeddedDocumentStore({ path: join(dir, 'marque.sqlite') });
    const recognize = LogoOcr.prototype.recognize;
    try {
      await seedStore(store, { marks: 80, seed: 7 });
      const media = withGeneratedLogos(createEmbeddedMediaStore({ directory: join(dir, 'media'), store }), store);
      const first = new ImageIndex({ store, directory: join(dir, 'image-index') });
      const firstIndexer = new ImageIndexer(store, media, first);
      await firstIndexer.catchUp();
      await firstIndexer.stop();
      const records = await first.records.find({});
      expect(records.length).to.be.greaterThan(5);

      // As an older release would have left them: another descriptor (here a wrong one) under another
      // fingerprint spec, one text under another OCR spec, and the saved indexes of that spec.
      const [keptText, staleText] = records;
      const wrong = encodeDescriptor(new Float32Array(DESCRIPTOR_DIMENSIONS).fill(1 / Math.sqrt(DESCRIPTOR_DIMENSIONS)));
      for (const doc of records) await first.records.replaceOne({ ...doc, descriptor: wrong, fingerprint_spec: 'marque-handcrafted-v0+phash64-dct' });
      await first.records.updateOne({ _id: keptText!._id }, { $set: { logo_text: 'KEPT WHILE THE OCR IS THE SAME' } });
      await first.records.updateOne({ _id: staleText!._id }, { $set: { logo_text: 'READ BY AN OLDER OCR', ocr_spec: 'ocr-older' } });
      await store
        .collection(COLLECTIONS.meta)
        .updateOne({ _id: IMAGE_INDEXER_CHECKPOINT_ID }, { $set: { spec: 'marque-handcrafted-v0+phash64-dct+ocr-older' } });
      expect(await new ImageIndex({ store, directory: join(dir, 'image-index') }).refresh()).to.equal(undefined);

      const read: number[] = [];
      LogoOcr.prototype.recognize = function (bytes) {
        read.push(bytes.length);
        return recognize.call(this, bytes);
      };
      const second = new ImageIndex({ store, directory: join(dir, 'image-index') });
      const secondIndexer = new ImageIndexer(store, media, second);
      await secondIndexer.catchUp();
      await secondIndexer.stop();

      expect(read).to.have.length(1);
      expect(second.size).to.equal(records.length);
      const after = new Map((await second.records.find({})).map((doc) => [doc._id, doc]));
      for (const doc of after.values()) {
        expect(doc.fingerprint_spec).to.equal(FINGERPRINT_SPEC);
        expect(doc.ocr_spec).to.equal(OCR_SPEC);
      }
      expect(after.get(keptText!._id)!.logo_text).to.equal('KEPT WHILE THE OCR IS THE SAME');
      expect(after.get(staleText!._id)!.logo_text).to.equal(staleText!.logo_text);
      const fresh = await fingerprintImage((await media.get(keptText!._id))!.bytes, { views: 'indexed' });
      expect(after.get(keptText!._id)!.descriptor).to.equal(encodeDescriptor(fresh.descriptor));
      // Each image is again its own nearest neighbour, and other processes use the new indexes.
      const [nearest] = second.nearest('visual', fresh.descriptor, 1);
      expect((await second.byKeys([nearest!.key]))[0]!._id).to.equal(keptText!._id);
      expect(await new ImageIndex({ store, directory: join(dir, 'image-index') }).refresh()).to.be.a('string');
    } finally {
      LogoOcr.prototype.recognize = recognize;
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
