/**
 * The XML documents named on an ingest command line, in the order given: an `.xml` file; every
 * `.xml` entry of a `.zip`, in the archive's order, streamed straight out of it (yauzl; nothing is
 * unpacked to disk); a directory's `.xml` and `.zip` files by name (USPTO names such as
 * apc240914.zip sort by date). Each document is decoded by its own declaration (UTF-8 unless a
 * byte-order mark or `encoding="…"` says otherwise); bytes that are not valid in that encoding
 * stop the file. Files a record names (a mark's image) are read from beside its document: the
 * same folder, or the same folder of the same archive.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, extname, join, posix } from 'node:path';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * A failure caused by an input file rather than by this code: the run stops and reports it (the
 * summary's `error`). `document` names the document being read when there is one (a zip's entry
 * too), so the summary can mark that file failed.
 */
export class InputFileError extends Error {
  override readonly name = 'InputFileError';
  constructor(
    message: string,
    readonly document: string | null = null,
  ) {
    super(message);
  }
}

/** yauzl's refusals of an entry name (a path out of the archive's folder: never extracted). */
const UNSAFE_ENTRY = /^(?:invalid relative path|absolute path|invalid characters in fileName): (.*)$/s;

/** A yauzl error reading the archive at `path` or one of its entries, as the input's fault. */
function zipError(path: string, error: unknown, entry?: string): InputFileError {
  const message = error instanceof Error ? error.message : String(error);
  const unsafe = UNSAFE_ENTRY.exec(message);
  if (unsafe) return new InputFileError(`${path}: zip entry '${unsafe[1]}' has an unsafe path`);
  return new InputFileError(
    entry === undefined ? `${path}: unreadable zip archive (${message})` : `${path}: zip entry '${entry}' cannot be read (${message})`,
    entry === undefined ? null : `${basename(path)}!${entry}`,
  );
}

export interface XmlDocument {
  /** Locator of the document: `apc240914.xml`, or `apc240914.zip!apc240914.xml` for a zip entry. */
  name: string;
  /** Bytes it contributes to progress: the file's size, or the entry's uncompressed size. */
  size: number;
  open(): Promise<Readable>;
  /**
   * The files of these names (plain names, no folders) found beside the document, by name; at
   * most `maxBytes` + 1 bytes of each, so a caller can tell one that is too large.
   */
  readBeside(names: readonly string[], maxBytes: number): Promise<Map<string, Buffer>>;
  /** Done with: no more `open` or `readBeside` (a zip archive closes after its last document). */
  close(): void;
}

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error ? reject(new InputFileError(`${path}: not a readable zip archive (${error.message})`)) : resolve(zip),
    ),
  );
}

/** Calls `visit` for each entry of the archive at `path`, in order. */
async function eachEntry(path: string, zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => boolean | void): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => (visit(entry) === false ? resolve() : zip.readEntry()));
    zip.on('end', () => resolve());
    // yauzl reports a damaged central directory or an unsafe entry name here: the file's fault.
    zip.on('error', (error: unknown) => reject(zipError(path, error)));
    zip.readEntry();
  });
}

/** The entry's data; errors while reading it (bad deflate data, wrong sizes) are the file's fault. */
async function entryStream(path: string, archive: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  const raw = await new Promise<Readable>((resolve, reject) =>
    archive.openReadStream(entry, (error, s) => (error ? reject(zipError(path, error, entry.fileName)) : resolve(s))),
  );
  const chunks = async function* () {
    try {
      for await (const chunk of raw as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      throw zipError(path, error, entry.fileName);
    }
  };
  const stream = Readable.from(chunks(), { objectMode: false });
  // Closing the wrapper (read to the end, or destroyed early) releases the entry's stream too.
  stream.once('close', () => raw.destroy());
  return stream;
}

const isPlainName = (name: string) => name !== '' && name === basename(name) && name !== '.' && name !== '..';

/** The stream's first `limit` bytes (all of it when shorter); the stream is destroyed after. */
async function readAtMost(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= limit) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

const isXmlEntry = (entry: yauzl.Entry) => !entry.fileName.endsWith('/') && extname(entry.fileName).toLowerCase() === '.xml';

/** Every entry of the archive at `path`, in order: one pass over its central directory. */
async function readEntries(path: string, zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  const entries: yauzl.Entry[] = [];
  await eachEntry(path, zip, (entry) => void entries.push(entry));
  return entries;
}

/**
 * A zip archive while its documents are read: opened, and its central directory read, once for
 * all of them (an archive of thousands of documents, or of thousands of images beside its
 * records, is read in one pass rather than once per document or image), and closed when the last
 * of its documents is closed. Opened on first use, so a directory of many archives holds one open
 * at a time.
 */
class ZipArchive {
  private opened: Promise<{ zip: yauzl.ZipFile; entries: yauzl.Entry[]; byName: Map<string, yauzl.Entry> }> | null = null;

  constructor(
    private readonly path: string,
    /** Its documents not yet closed. */
    private unreleased: number,
  ) {}

  private contents() {
    this.opened ??= (async () => {
      const zip = await openZip(this.path);
      try {
        const entries = await readEntries(this.path, zip);
        const byName = new Map<string, yauzl.Entry>();
        // The first of two entries of one name, as an unzip tool would.
        for (const entry of entries) if (!byName.has(entry.fileName)) byName.set(entry.fileName, entry);
        return { zip, entries, byName };
      } catch (error) {
        zip.close();
        throw error;
      }
    })();
    return this.opened;
  }

  /** The data of the archive's `index`th entry, which the listing found named `fileName`. */
  async stream(index: number, fileName: string): Promise<Readable> {
    const { zip, entries } = await this.contents();
    const entry = entries[index];
    if (entry?.fileName !== fileName) throw new InputFileError(`${this.path}: the archive changed while it was read (entry ${fileName})`);
    return entryStream(this.path, zip, entry);
  }

  /** At most `maxBytes` bytes of each of the entries of these names that exist. */
  async read(names: Map<string, string>, maxBytes: number): Promise<Map<string, Buffer>> {
    const { zip, byName } = await this.contents();
    const found = new Map<string, Buffer>();
    for (const [entryName, name] of names) {
      const entry = byName.get(entryName);
      if (entry !== undefined) found.set(name, await readAtMost(await entryStream(this.path, zip, entry), maxBytes));
    }
    return found;
  }

  /** One of its documents is done with; the last one closes the archive. */
  release(): void {
    if (--this.unreleased > 0 || this.opened === null) return;
    void this.opened.then(({ zip }) => zip.close()).catch(() => undefined);
  }
}

async function zipDocuments(path: string): Promise<XmlDocument[]> {
  const zip = await openZip(path);
  let listed: Array<{ index: number; fileName: string; size: number }>;
  try {
    listed = (await readEntries(path, zip)).flatMap((entry, index) =>
      isXmlEntry(entry) ? [{ index, fileName: entry.fileName, size: entry.uncompressedSize }] : [],
    );
  } finally {
    zip.close();
  }
  // As for a directory: named and holding nothing to load, most likely not the archive meant.
  if (listed.length === 0) throw new InputFileError(`${path}: no .xml document in this zip archive`);
  const archive = new ZipArchive(path, listed.length);
  return listed.map(({ index, fileName, size }) => {
    let released = false;
    return {
      name: `${basename(path)}!${fileName}`,
      size,
      open: () => archive.stream(index, fileName),
      readBeside: async (names, maxBytes) => {
        const folder = posix.dirname(fileName);
        const wanted = new Map(names.filter(isPlainName).map((name) => [folder === '.' ? name : `${folder}/${name}`, name]));
        return wanted.size === 0 ? new Map() : archive.read(wanted, maxBytes + 1);
      },
      close: () => {
        if (!released) archive.release();
        released = true;
      },
    };
  });
}

function fileDocument(path: string): XmlDocument {
  return {
    name: basename(path),
    size: statSync(path).size,
    open: async () => createReadStream(path, { highWaterMark: 256 * 1024 }),
    readBeside: async (names, maxBytes) => {
      const found = new Map<string, Buffer>();
      for (const name of names.filter(isPlainName)) {
        const file = await open(join(dirname(path), name)).catch(() => null);
        if (file === null) continue;
        try {
          if ((await file.stat()).isFile()) found.set(name, await readAtMost(file.createReadStream({ autoClose: false }), maxBytes + 1));
        } finally {
          await file.close();
        }
      }
      return found;
    },
    close: () => undefined,
  };
}

async function documentsOf(path: string): Promise<XmlDocument[]> {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new InputFileError(`${path}: no such file or directory`);
  }
  if (stat.isDirectory()) {
    const names = readdirSync(path)
      .filter((name) => ['.xml', '.zip'].includes(extname(name).toLowerCase()))
      .sort();
    // Given by name and holding nothing to load: most likely not the directory meant.
    if (names.length === 0) throw new InputFileError(`${path}: no .xml or .zip file in this directory`);
    return (await Promise.all(names.map((name) => documentsOf(join(path, name))))).flat();
  }
  const extension = extname(path).toLowerCase();
  if (extension === '.zip') return zipDocuments(path);
  if (extension === '.xml') return [fileDocument(path)];
  throw new InputFileError(`${path}: not an .xml or .zip file`);
}

export async function xmlDocuments(paths: readonly string[]): Promise<XmlDocument[]> {
  const documents: XmlDocument[] = [];
  for (const path of paths) documents.push(...(await documentsOf(path)));
  return documents;
}

/** The encoding a document declares (byte-order mark, then `encoding="…"`), UTF-8 by default. */
export function declaredEncoding(head: Uint8Array): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const declaration = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(Buffer.from(head.subarray(0, 200)).toString('latin1'));
  return declaration?.[1]?.toLowerCase() ?? 'utf-8';
}

/**
 * Bytes that are not valid UTF-8, the first at byte `offset` of the document: the text before it
 * has been yielded, so the caller can name the line and column it stands at.
 */
export class InvalidEncodingError extends Error {
  override readonly name = 'InvalidEncodingError';
  constructor(
    readonly document: string,
    readonly offset: number,
  ) {
    super(`${document}: bytes that are not UTF-8 at byte ${offset}`);
  }
}

/** The bytes at the end of `bytes` that begin a UTF-8 character it does not finish (a decoder holds them back). */
function unfinishedUtf8(bytes: Uint8Array): Uint8Array {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 3); i--) {
    const byte = bytes[i]!;
    if (byte < 0x80) break;
    if (byte >= 0xc0) return bytes.length - i < (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2) ? bytes.subarray(i) : bytes.subarray(0, 0);
  }
  return bytes.subarray(0, 0);
}

/**
 * The text of `chunk` before the first byte sequence that is not valid UTF-8, and the index where
 * that sequence starts (negative when it starts in the chunk before), for a chunk a streaming
 * decoder refused; `held` is what the decoder held back from the chunk before. A prefix decodes
 * (streamed) exactly when no invalid sequence ends inside it, so the longest one is found by
 * halving; a character it leaves unfinished is where the invalid sequence starts.
 */
function validUtf8Prefix(held: Uint8Array, chunk: Uint8Array): { text: string; invalidAt: number } {
  const prefix = (length: number) => Buffer.concat([held, chunk.subarray(0, length)]);
  const decode = (length: number) => new TextDecoder('utf-8', { fatal: true }).decode(prefix(length), { stream: true });
  let [valid, invalid] = [0, chunk.length];
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >>> 1;
    try {
      decode(middle);
      valid = middle;
    } catch {
      invalid = middle;
    }
  }
  return { text: decode(valid), invalidAt: valid - unfinishedUtf8(prefix(valid)).length };
}

/**
 * The document's text, decoded chunk by chunk; `onBytes` hears every chunk's size as it is read.
 * Bytes not valid in its encoding stop it: in UTF-8 (every office file so far) the text up to the
 * first of them is yielded, then an InvalidEncodingError says where it is; in another encoding an
 * InputFileError names the chunk.
 */
export async function* decodedText(document: XmlDocument, stream: Readable, onBytes: (bytes: number) => void): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  let offset = 0;
  let previous: Uint8Array = new Uint8Array(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (decoder === null) {
      const encoding = declaredEncoding(chunk);
      try {
        decoder = new TextDecoder(encoding, { fatal: true });
      } catch {
        throw new InputFileError(`${document.name}: unsupported encoding ${encoding}`);
      }
    }
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      if (decoder.encoding !== 'utf-8')
        throw new InputFileError(`${document.name}: bytes that are not ${decoder.encoding} within bytes ${offset}–${offset + chunk.length}`);
      const { text: valid, invalidAt } = validUtf8Prefix(unfinishedUtf8(previous), chunk);
      if (valid !== '') yield valid;
      throw new InvalidEncodingError(document.name, offset + invalidAt);
    }
    yield text;
    previous = chunk;
    offset += chunk.length;
    onBytes(chunk.length);
  }
  try {
    const rest = decoder?.decode() ?? '';
    if (rest !== '') yield rest;
  } catch {
    throw new InputFileError(`${document.name}: ends inside a ${decoder?.encoding ?? 'utf-8'} character (truncated)`);
  }
}
