/**
 * The OCR of image search's `logo_text` channel (datasources/logo-ocr.ts) with the real engine:
 * words rendered into a PNG are read back, several recognitions asked for at once each answer with
 * their own image's words (images are prepared outside the engine's queue), and bytes that are not
 * an image are refused without stopping the recognitions queued after them. Engines start and stop
 * one at a time in the process, a stop ending when its thread has exited (Node can crash when a
 * worker thread starts while another is torn down).
 */
import { expect } from 'chai';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Worker as Thread } from 'node:worker_threads';
import { LogoOcr, OcrBusyError } from '../../datasources/logo-ocr';
import { blankPng } from '../support/drawing';
import { wordmarkPng } from '../support/wordmark';

const wordmark = (text: string): Promise<Buffer> => wordmarkPng(text, { fontSize: 48 });

describe('datasources: logo OCR', function () {
  this.timeout(60_000);
  const ocr = new LogoOcr();
  after(() => ocr.close());

  it('reads the words written in a logo', async () => {
    expect(await ocr.recognize(await wordmark('NORTHWIND'))).to.equal('NORTHWIND');
  });

  it('answers recognitions asked for at once each with its own image’s words', async () => {
    const words = ['HARBOR', 'LANTERN', 'QUARTZ', 'MEADOW'];
    const images = await Promise.all(words.map(wordmark));
    expect(await Promise.all(images.map((image) => ocr.recognize(image)))).to.deep.equal(words);
  });

  it('refuses bytes that are not an image, queued between two recognitions that still answer', async () => {
    // A rejection seen unhandled would end a worker process (Node's default for unhandled rejections).
    const unhandled: unknown[] = [];
    const record = (reason: unknown): number => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const before = ocr.recognize(await wordmark('SUMMIT'));
      const refused = ocr.recognize(Buffer.from('not an image at all'));
      const next = ocr.recognize(await wordmark('CANYON'));
      let error: unknown = null;
      await refused.catch((caught: unknown) => (error = caught));
      expect(error).to.be.instanceOf(Error);
      expect([await before, await next]).to.deep.equal(['SUMMIT', 'CANYON']);
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('reads a strip of 50 × 5,000 px and of 100,000 × 1 px as no words (Tesseract stops at 32,767 px a side), and the engine goes on', async () => {
    for (const [width, height] of [
      [50, 5_000],
      [100_000, 1],
    ] as const) {
      expect(await ocr.recognize(await blankPng(width, height)), `${width} × ${height}`).to.equal('');
    }
    expect(await ocr.recognize(await wordmark('GLACIER'))).to.equal('GLACIER');
  });

  it('reads the words of an image larger than it reads at (reduced, not cut)', async () => {
    const sharp = (await import('sharp')).default;
    const large = await sharp(await wordmark('TIMBERLINE'))
      .resize({ width: 5_200 })
      .png()
      .toBuffer();
    expect(await ocr.recognize(large)).to.equal('TIMBERLINE');
  });

  it('refuses a recognition past the ones that may wait (OcrBusyError); those waiting still answer', async () => {
    const limited = new LogoOcr(2);
    try {
      const images = await Promise.all(['DELTA', 'ORCHID', 'PRAIRIE'].map(wordmark));
      const first = limited.recognize(images[0]!);
      const second = limited.recognize(images[1]!);
      let refusal: unknown = null;
      await limited.recognize(images[2]!).catch((caught: unknown) => (refusal = caught));
      expect(refusal).to.be.instanceOf(OcrBusyError);
      expect([await first, await second]).to.deep.equal(['DELTA', 'ORCHID']);
      expect(await limited.recognize(images[2]!)).to.equal('PRAIRIE');
    } finally {
      await limited.close();
    }
  });

  it('close ends when the engine’s thread has exited, and an engine of another instance starts only after', async () => {
    // Every thread the engines start, with the order of thread starts and exits as they happen.
    const events: string[] = [];
    const announced = (message: unknown): void => {
      const thread = (message as { worker: Thread }).worker;
      const id = thread.threadId;
      events.push(`start ${id}`);
      thread.once('exit', () => events.push(`exit ${id}`));
    };
    subscribe('worker_threads', announced);
    const first = new LogoOcr();
    const second = new LogoOcr();
    try {
      expect(await first.recognize(await wordmark('GLACIER'))).to.equal('GLACIER');
      const image = await wordmark('ORCHARD');
      // Asked for while the first engine is being stopped.
      const [, words] = await Promise.all([first.close().then(() => events.push('closed')), second.recognize(image)]);
      expect(words).to.equal('ORCHARD');
      const [firstStart, firstExit, closed, secondStart] = events;
      const firstId = firstStart?.split(' ')[1];
      expect([firstStart, firstExit, closed]).to.deep.equal([`start ${firstId}`, `exit ${firstId}`, 'closed']);
      expect(secondStart)
        .to.match(/^start \d+$/)
        .and.not.equal(firstStart);
    } finally {
      unsubscribe('worker_threads', announced);
      await Promise.all([first.close(), second.close()]);
    }
  });
});
