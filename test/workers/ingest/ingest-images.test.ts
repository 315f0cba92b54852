/**
 * The images ST.96 records name (`MarkImage/FileName`), stored as the marks' images when the file
 * is beside the document: the real TSDR record of serial 87881347 names `87881347.png`. No
 * office image file is among the samples, so the PNGs here are rendered from fixed SVGs by sharp.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { catalogId } from '../../../domain/ids';
import { COLLECTIONS, type TrademarkDoc } from '../../../domain/records';
import { runIngest, type IngestSummary } from '../../../workers/ingest/run-ingest';
import { startTestApp, type TestApp } from '../../support/harness';
import { ok } from '../../support/http';
import { fixture, writeZip, zipEntriesReadDuring } from '../../support/uspto-samples';

const DATA = join(__dirname, '..', '..', '..', 'data');
const SERIAL = '87881347';
const RECORD = fixture('st96', 'uspto-tsdr-st96-sn87881347.xml');
const TRADEMARK_ID = catalogId('tm_', 'US', SERIAL);

const logo = (text: string, colour: string): Promise<Buffer> =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160"><rect width="400" height="160" fill="white"/>` +
        `<text x="20" y="100" font-family="DejaVu Sans" font-size="44" font-weight="bold" fill="${colour}">${text}</text></svg>`,
    ),
  )
    .png()
    .toBuffer();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('workers/ingest/ingest-images: the image an ST.96 record names, stored with its mark', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dir: string;
  let image: Buffer;

  const ingest = (paths: string[], dryRun = false): Promise<IngestSummary> =>
    runIngest(dryRun ? null : app.adapters, { format: 'st96', paths, dataDir: DATA, dryRun, thread: false });
  const stored = () => app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({ _id: TRADEMARK_ID });
  /** A folder holding the record and, when given, a file of the name it gives. */
  const folder = (name: string, file?: Buffer | string): string => {
    const path = join(dir, name);
    mkdirSync(path);
    copyFileSync(RECORD, join(path, 'record.xml'));
    if (file !== undefined) writeFileSync(join(path, `${SERIAL}.png`), file);
    return join(path, 'record.xml');
  };

  before(async () => {
    app = await startTestApp({ marks: 30, organization: { plan: 'enterprise' } });
    dir = mkdtempSync(join(tmpdir(), 'marque-ingest-images-'));
    image = await logo('BURGER ADDICT', '#b22222');
  });

  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a record whose image file is not beside it loads without an image, the file named in the summary', async () => {
    const summary = await ingest([folder('without', undefined)]);
    expect(summary).to.deep.include({ inserted: 1, rejected: 0, error: null });
    expect(summary.images).to.deep.include({ named: 1, stored: 0, missing: 1, refused: 0 });
    expect(summary.images!.problems).to.deep.equal([{ key: SERIAL, file: `${SERIAL}.png`, reason: 'no such file beside the document' }]);
    const detail = await ok<{ media: unknown[]; has_media: boolean }>(await app.get(`/v1/trademarks/${TRADEMARK_ID}`));
    expect(detail).to.deep.include({ media: [], has_media: false });
  });

  it('with the file beside it: a new version links the image, served byte for byte at GET /v1/media/{id}', async () => {
    const versionBefore = (await stored())!.version;
    const summary = await ingest([folder('with', image)]);
    expect(summary.images).to.deep.include({ named: 1, stored: 1, missing: 0, refused: 0, problems: [] });
    // The same XML was ingested before: its source is known, but the record's media changed.
    const detail = await ok<{ media: Array<{ id: string; kind: string; mime_type: string; url: string }>; has_media: boolean; version: number }>(
      await app.get(`/v1/trademarks/${TRADEMARK_ID}`),
    );
    expect(detail.has_media).to.equal(true);
    expect(detail.media).to.have.length(1);
    const [link] = detail.media;
    expect(link).to.include({ kind: 'image', mime_type: 'image/png', url: `/v1/media/${link!.id}` });
    expect(link!.id).to.match(/^med_/);
    expect(detail.version).to.equal(versionBefore + 1);
    const served = await app.get(link!.url);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).to.equal(sha256(image));
    const changes = await ok<{ data: Array<{ changed_fields: string[] }> }>(await app.get(`/v1/trademarks/${TRADEMARK_ID}/changes`));
    expect(changes.data[0]!.changed_fields).to.include('media');
  });

  it('re-ingesting the same record and image changes nothing', async () => {
    const before = await stored();
    const summary = await ingest([join(dir, 'with', 'record.xml')]);
    expect(summary).to.deep.include({ unchanged: 1, inserted: 0, updated: 0 });
    expect(summary.images).to.deep.include({ named: 1, stored: 0, unchanged: 1 });
    expect((await stored())!.version).to.equal(before!.version);
  });

  it('a changed image beside the same record replaces the stored one under the same media ID', async () => {
    const recoloured = await logo('BURGER ADDICT', '#1e3a8a');
    const summary = await ingest([folder('recoloured', recoloured)]);
    expect(summary.images).to.deep.include({ stored: 1, unchanged: 0 });
    const mark = (await stored())!;
    const served = await app.get(mark.media[0]!.url);
    expect(sha256(new Uint8Array(await served.arrayBuffer()))).to.equal(sha256(recoloured));
    writeFileSync(join(dir, 'with', `${SERIAL}.png`), image);
    expect((await ingest([join(dir, 'with', 'record.xml')])).images).to.deep.include({ stored: 1 });
  });

  it('the stored image is found by image search once the image indexer has run', async () => {
    await app.server.imageIndexer!.catchUp();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'query.png');
    form.append('channels', 'exact_dup');
    const response = await fetch(`${app.baseUrl}/v1/trademarks/search/image`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${app.keys.full}` },
    });
    const body = await ok<{ data: Array<{ trademark: { id: string }; signals: { exact_dup: { checksum_match: boolean } } }> }>(response);
    expect(body.data[0]!.trademark.id).to.equal(TRADEMARK_ID);
    expect(body.data[0]!.signals.exact_dup.checksum_match).to.equal(true);
  });

  it('a file of that name that is not an image is refused in the summary; the mark keeps the image it had', async () => {
    const before = (await stored())!;
    const summary = await ingest([folder('not-an-image', 'this is not a PNG')]);
    expect(summary.images).to.deep.include({ named: 1, stored: 0, refused: 1 });
    expect(summary.images!.problems[0]).to.include({ key: SERIAL, file: `${SERIAL}.png` });
    expect(summary.images!.problems[0]!.reason).to.match(/not an image/);
    const after = (await stored())!;
    expect(after.version).to.equal(before.version);
    expect(after.media).to.deep.equal(before.media);
    expect((await app.get(after.media[0]!.url)).status).to.equal(200);
  });

  it('a file over 8 MB is refused without being read whole', async () => {
    const summary = await ingest([folder('too-large', Buffer.alloc(9 * 1024 * 1024, 0x89))]);
    expect(summary.images).to.deep.include({ named: 1, stored: 0, refused: 1 });
    expect(summary.images!.problems[0]).to.deep.equal({ key: SERIAL, file: `${SERIAL}.png`, reason: 'larger than 8 MB' });
  });

  it('reads the image from the same folder of the same zip archive', async () => {
    const path = join(dir, 'tsdr.zip');
    await writeZip(path, [
      { name: `${SERIAL}/status.xml`, content: readFileSync(RECORD, 'utf8') },
      { name: `${SERIAL}/${SERIAL}.png`, content: image },
      { name: `${SERIAL}.png`, content: 'a file of that name in another folder is not the record’s' },
    ]);
    const summary = await ingest([path]);
    expect(summary.images).to.deep.include({ named: 1, refused: 0, missing: 0 });
    const mark = (await stored())!;
    expect(mark.media).to.have.length(1);
    expect(sha256((await app.adapters.media.get(mark.media[0]!.id))!.bytes)).to.equal(sha256(image));
  });

  it('reads the images of a zip of many records with the same pass over its directory as the records, not one per record', async () => {
    const records = 40;
    const path = join(dir, 'tsdr-many.zip');
    const record = readFileSync(RECORD, 'utf8');
    await writeZip(
      path,
      Array.from({ length: records }, (_, i) => [
        { name: `folder${i}/status.xml`, content: record },
        { name: `folder${i}/${SERIAL}.png`, content: image },
      ]).flat(),
    );
    let summary: IngestSummary | null = null;
    const read = await zipEntriesReadDuring(async () => (summary = await ingest([path])));
    expect(summary!.images).to.deep.include({ named: records, refused: 0, missing: 0 });
    // One pass lists the documents, one reads them and their images: each reads every entry and finds the end.
    expect(read).to.be.at.most(2 * (2 * records + 1));
  });

  it('a dry run checks the image and stores nothing; a record that names no image file counts none', async () => {
    const dry = await ingest([folder('dry', await logo('DRY RUN', '#000000'))], true);
    expect(dry.images).to.deep.include({ named: 1, checked: 1, stored: 0 });
    const noImage = await ingest([fixture('st96', 'uspto-tsdr-st96-rn2178784.xml')]);
    expect(noImage.images).to.deep.include({ named: 0, missing: 0 });
  });
});
