/**
 * The words written in a logo, for image search's `logo_text` channel: OCR with `tesseract.js`
 * (Tesseract's LSTM engine compiled to WebAssembly, in a worker thread) and the English model from
 * the `@tesseract.js-data/eng` package, read from node_modules: `langPath` is that package's
 * folder and `cacheMethod: 'none'`, so nothing is downloaded (tesseract.js would otherwise fetch the
 * model from a CDN) and nothing is written to a cache.
 *
 * One engine is one worker thread doing one recognition at a time (about 22 ms a register logo on average once
 * warm; starting it costs about a second and 100 MB). It starts on first use and stops after a
 * minute unused, or on `close`, so an idle process holds no thread.
 *
 * Engines start and stop one at a time in a process, and a stop ends when its thread has exited:
 * Node can crash (SIGSEGV) when a worker thread starts while another is being torn down
 * (nodejs/node#56312), and tesseract.js's `terminate` returns before its thread has gone. Two
 * servers in one process, or a server closed and another opened, each own an engine.
 *
 * What counts as text: words Tesseract reads with a confidence of at least 60 that hold at least
 * two letters or digits (a device's circle read as "O", or a stray bar read as "|", is dropped).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import type { Worker as Thread } from 'node:worker_threads';
import type sharp from 'sharp';
import type { Worker } from 'tesseract.js';

/** Names how `recognize` reads a logo: stored with each image's text, so that changing it reads every image again. */
export const OCR_SPEC = 'ocr-tesseract-eng4';
const MIN_CONFIDENCE = 60;
const IDLE_MS = 60_000;
/**
 * Tesseract reads best with letters 20 px or more high: narrower images are enlarged to this
 * width. 400 px reads the register's logos (256–480 px wide) as 800 px did, at half the time
 * (BENCHMARKS-IMAGES.md).
 */
const MIN_WIDTH = 400;
/**
 * The longest side an image is read at: a logo's words stay legible, and a photograph of 50
 * megapixels, or a strip of 100,000 × 1, is not handed to Tesseract whole (whose sides stop at
 * 32,767 px, and whose time grows with the pixels).
 */
const MAX_SIDE = 2_000;

const ENGLISH_MODEL = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0');

type Sharp = typeof sharp;
let loadedSharp: Promise<Sharp> | null = null;
const loadSharp = (): Promise<Sharp> => (loadedSharp ??= import('sharp').then((module) => module.default));

/** An engine: tesseract.js's handle and the worker thread it runs in (null on a Node that does not announce threads). */
interface Engine {
  worker: Worker;
  thread: Thread | null;
}

/** Every engine start and stop in the process, one after another (see the header). */
let lifecycle: Promise<unknown> = Promise.resolve();
function inTurn<T>(step: () => Promise<T>): Promise<T> {
  const turn = lifecycle.then(step);
  lifecycle = turn.catch(() => undefined);
  return turn;
}

/**
 * Starts an engine, and finds its thread: tesseract.js creates it synchronously inside
 * `createWorker` and does not expose it; Node announces every new thread on the `worker_threads`
 * diagnostics channel (Node 20.20 here does; on a release that does not, nothing is announced and
 * a stop cannot wait for the thread).
 */
async function startEngine(): Promise<Engine> {
  const { createWorker, OEM } = await import('tesseract.js');
  const threads: Thread[] = [];
  const announced = (message: unknown): void => void threads.push((message as { worker: Thread }).worker);
  subscribe('worker_threads', announced);
  let starting: Promise<Worker>;
  try {
    starting = createWorker('eng', OEM.LSTM_ONLY, {
      langPath: ENGLISH_MODEL,
      gzip: true,
      cacheMethod: 'none',
      logger: () => undefined,
      // Without a handler tesseract.js throws a failed job's error inside its message listener,
      // where nothing can catch it and the process ends; the job's promise is rejected either way.
      errorHandler: () => undefined,
    });
  } finally {
    unsubscribe('worker_threads', announced);
  }
  const worker = await starting;
  if (threads.length > 1) {
    await worker.terminate();
    throw new Error(`tesseract.js started ${threads.length} worker threads for one engine; expected one`);
  }
  const thread = threads[0] ?? null;
  // PNGs carry no resolution Tesseract trusts; without one it warns on stderr at every image.
  await worker.setParameters({ user_defined_dpi: '300' });
  return { worker, thread };
}

async function stopEngine({ worker, thread }: Engine): Promise<void> {
  // threadId is -1 once a thread has exited (an engine that crashed has nothing left to wait for).
  const exited = thread === null || thread.threadId === -1 ? Promise.resolve() : once(thread, 'exit');
  await worker.terminate();
  await exited;
}

/** A recognition refused because as many as the engine may hold are already waiting. */
export class OcrBusyError extends Error {
  constructor(waiting: number) {
    super(`the OCR engine has ${waiting} recognitions waiting; try again later`);
  }
}

export class LogoOcr {
  private engine: Promise<Engine> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private idle: NodeJS.Timeout | null = null;

  /**
   * `maxWaiting`: recognitions that may wait for the engine at once; past it `recognize` refuses
   * (OcrBusyError). Image search's queries, whose answer does not wait for a slow recognition, must
   * not pile up work it goes on doing after they are answered; the image indexer waits for each.
   */
  constructor(private readonly maxWaiting = Number.POSITIVE_INFINITY) {}

  private start(): Promise<Engine> {
    if (this.engine !== null) return this.engine;
    const engine = inTurn(startEngine);
    // An engine that failed to start is asked for again at the next recognition.
    engine.catch(() => {
      if (this.engine === engine) this.engine = null;
    });
    return (this.engine = engine);
  }

  /**
   * The logo's words, space-separated ('' when none is read); one recognition at a time per engine.
   * The image is prepared (libvips, on libuv's pool) before it joins the queue, so the engine does
   * not wait for one image's decoding between two recognitions.
   */
  recognize(bytes: Uint8Array): Promise<string> {
    if (this.waiting >= this.maxWaiting) return Promise.reject(new OcrBusyError(this.waiting));
    this.waiting++;
    const prepared = prepare(bytes);
    // Handled where the queue reaches it; until then a refused image must not count as unhandled.
    prepared.catch(() => undefined);
    const run = this.queue.then(() => this.read(prepared)).finally(() => this.waiting--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(prepared: Promise<Buffer>): Promise<string> {
    if (this.idle !== null) clearTimeout(this.idle);
    try {
      const image = await prepared;
      const engine = this.start();
      const { worker } = await engine;
      let data: Awaited<ReturnType<Worker['recognize']>>['data'];
      try {
        ({ data } = await worker.recognize(image, {}, { blocks: true, text: false }));
      } catch {
        // An image Tesseract fails on has no words it can read; the engine is started afresh for
        // the next one rather than trusted after a failure.
        await this.replace(engine);
        return '';
      }
      const words: string[] = [];
      for (const block of data.blocks ?? [])
        for (const paragraph of block.paragraphs)
          for (const line of paragraph.lines)
            for (const word of line.words) {
              const text = word.text.trim();
              if (word.confidence >= MIN_CONFIDENCE && (text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 2) words.push(text);
            }
      return words.join(' ');
    } finally {
      this.idle = setTimeout(() => void this.close(), IDLE_MS);
      this.idle.unref();
    }
  }

  /** Stops `engine` if it is still the current one (the next recognition starts another). */
  private async replace(engine: Promise<Engine>): Promise<void> {
    if (this.engine !== engine) return;
    this.engine = null;
    const started = await engine;
    await inTurn(() => stopEngine(started));
  }

  /** Stops the engine's thread once the recognitions queued have ended (the next recognition starts it again). */
  async close(): Promise<void> {
    // Terminating the engine under a recognition would leave that recognition unanswered for ever.
    await this.queue;
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    const engine = this.engine;
    this.engine = null;
    if (engine !== null) {
      const started = await engine.catch(() => null);
      if (started !== null) await inTurn(() => stopEngine(started));
    }
  }
}

/** Grey, transparency on white, enlarged when narrow and reduced when large: what Tesseract reads best. */
async function prepare(bytes: Uint8Array): Promise<Buffer> {
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const image = sharp(input, { limitInputPixels: 50_000_000 }).rotate().flatten({ background: '#ffffff' }).greyscale();
  const { width = MIN_WIDTH, height = MIN_WIDTH } = await image.metadata();
  const scale = Math.min(Math.max(1, MIN_WIDTH / width), MAX_SIDE / Math.max(width, height));
  const sized =
    scale === 1 ? image : image.resize({ width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)), fit: 'fill' });
  return sized.png({ compressionLevel: 1 }).toBuffer();
}
