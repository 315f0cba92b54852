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

async function zipDocuments(path: string): Promise<XmlDocument[]> {
  const zip = await openZip(path);
  const entries: Array<{ fileName: string; size: number }> = [];
  try {
    await eachEntry(path, zip, (entry) => {
      if (isXmlEntry(entry)) entries.push({ fileName: entry.fileName, size: entry.uncompressedSize });
    });
  } finally {
    zip.close();
  }
  // As for a directory: named and holding nothing to load, most likely not the archive meant.
  if (entries.length === 0) throw new InputFileError(`${path}: no .xml document in this zip archive`);
  return entries.map(({ fileName, size }) => ({
    name: `${basename(path)}!${fileName}`,
    size,
    open: async () => {
      const archive = await openZip(path);
      let found: yauzl.Entry | null = null;
      await eachEntry(path, archive, (entry) => {
        if (entry.fileName !== fileName) return true;
        found = entry;
        return false;
      });
      const entry = found as yauzl.Entry | null;
      if (entry === null) throw new InputFileError(`${path}: entry ${fileName} disappeared`);
      const stream = await entryStream(path, archive, entry);
      stream.once('close', () => archive.close());
      return stream;
    },
    readBeside: async (names, maxBytes) => {
      const folder = posix.dirname(fileName);
      const wanted = new Map(names.filter(isPlainName).map((name) => [folder === '.' ? name : `${folder}/${name}`, name]));
      const found = new Map<string, Buffer>();
      if (wanted.size === 0) return found;
      const archive = await openZip(path);
      try {
        const entries: yauzl.Entry[] = [];
        await eachEntry(path, archive, (entry) => void (wanted.has(entry.fileName) && entries.push(entry)));
        for (const entry of entries) {
          const stream = await entryStream(path, archive, entry);
          found.set(wanted.get(entry.fileName)!, await readAtMost(stream, maxBytes + 1));
        }
      } finally {
        archive.close();
      }
      return found;
    },
  }));
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

/** The document's text, decoded chunk by chunk; `onBytes` hears every chunk's size as it is read. */
export async function* decodedText(document: XmlDocument, stream: Readable, onBytes: (bytes: number) => void): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  let offset = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (decoder === null) {
      const encoding = declaredEncoding(chunk);
      try {
        decoder = new TextDecoder(encoding, { fatal: true });
      } catch {
        throw new InputFileError(`${document.name}: unsupported encoding ${encoding}`);
      }
    }
    try {
      yield decoder.decode(chunk, { stream: true });
    } catch {
      throw new InputFileError(`${document.name}: bytes that are not ${decoder.encoding} within bytes ${offset}–${offset + chunk.length}`);
    }
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
