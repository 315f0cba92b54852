import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import { createEmbeddedMediaStore } from '../../../datasources/embedded/media-store';
import type { DocumentStore, MediaRecord } from '../../../datasources/ports';
import { stableId } from '../../../domain/ids';
import { describeMediaStoreContract } from '../media-store.contract';

let contractDirectory: string | undefined;
let contractStore: DocumentStore | undefined;

describeMediaStoreContract(
  'embedded (temporary directory)',
  async () => {
    contractDirectory = mkdtempSync(join(tmpdir(), 'marque-media-'));
    contractStore = createEmbeddedDocumentStore({ path: join(contractDirectory, 'documents.sqlite') });
    return createEmbeddedMediaStore({ directory: join(contractDirectory, 'media'), store: contractStore });
  },
  async () => {
    await contractStore?.close();
    if (contractDirectory) rmSync(contractDirectory, { recursive: true, force: true });
  },
);

describe('embedded MediaStore', function () {
  let directory: string;
  const png = (): Promise<Buffer> =>
    sharp({ create: { width: 300, height: 200, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'marque-media-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('lays files out as <directory>/<aa>/<id>.<ext> and <id>.thumb.png, with the record in the collection media', async () => {
    const store = createEmbeddedDocumentStore({ path: join(directory, 'documents.sqlite') });
    const media = createEmbeddedMediaStore({ directory: join(directory, 'media'), store });
    const id = stableId('med_', 'layout');
    await media.put(await png(), { id });
    const folder = join(directory, 'media', id.slice(4, 6));
    expect(readdirSync(folder).sort()).to.deep.equal([`${id}.png`, `${id}.thumb.png`]);
    const record = await store.collection<MediaRecord>('media').findOne({ _id: id });
    expect(record).to.include({ format: 'png', width: 300, height: 200 });
    await store.close();
  });

  it('serves what was stored after the store and the folder are opened again', async () => {
    const file = join(directory, 'documents.sqlite');
    const first = createEmbeddedDocumentStore({ path: file });
    const bytes = await png();
    const record = await createEmbeddedMediaStore({ directory: join(directory, 'media'), store: first }).put(bytes);
    await first.close();

    const reopened = createEmbeddedDocumentStore({ path: file });
    const content = await createEmbeddedMediaStore({ directory: join(directory, 'media'), store: reopened }).get(record._id);
    expect(content!.record).to.deep.equal(record);
    expect(Buffer.compare(content!.bytes, bytes)).to.equal(0);
    await reopened.close();
  });

  it('removes the file of the former format when an ID is replaced by another format', async () => {
    const store = createEmbeddedDocumentStore({ path: ':memory:' });
    const media = createEmbeddedMediaStore({ directory: join(directory, 'media'), store });
    const id = stableId('med_', 'replaced');
    await media.put(await png(), { id });
    await media.put(
      await sharp(await png())
        .jpeg()
        .toBuffer(),
      { id },
    );
    const folder = join(directory, 'media', id.slice(4, 6));
    expect(existsSync(join(folder, `${id}.png`))).to.equal(false);
    expect(readdirSync(folder).sort()).to.deep.equal([`${id}.jpeg`, `${id}.thumb.png`]);
    await store.close();
  });
});
