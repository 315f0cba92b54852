/**
 * Files built at run time from the real USPTO sample (test/fixtures/uspto/apc-sample-4-case-files.xml,
 * see test/fixtures/SOURCES.md): the same document with other case-files, the real case-files
 * repeated with fresh serial numbers (tests and bench/ingest.ts), truncated copies, zips, and one
 * deliberately broken value (`withElementText`, for the tests of invalid records).
 */
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';
import { XmlRecordReader, type XmlRecord } from '../../workers/ingest/xml/record-reader';

export const FIXTURES = join(__dirname, '..', 'fixtures');
export const fixture = (...parts: string[]): string => join(FIXTURES, ...parts);
export const APPLICATIONS_SAMPLE = fixture('uspto', 'apc-sample-4-case-files.xml');

export interface ApplicationsSample {
  /** Everything before the first case-file: XML declaration, internal DTD, framing. */
  prolog: string;
  /** The four real case-files, as written. */
  caseFiles: string[];
  /** Everything after the last case-file. */
  epilog: string;
}

export function applicationsSample(): ApplicationsSample {
  const text = readFileSync(APPLICATIONS_SAMPLE, 'utf8');
  const caseFiles = text.match(/<case-file>[\s\S]*?<\/case-file>/g) ?? [];
  const first = text.indexOf('<case-file>');
  const last = text.lastIndexOf('</case-file>') + '</case-file>'.length;
  return { prolog: text.slice(0, first), caseFiles, epilog: text.slice(last) };
}

/** The sample case-file whose serial number is `serial`. */
export function sampleCaseFile(serial: string): string {
  const found = applicationsSample().caseFiles.find((caseFile) => caseFile.includes(`<serial-number>${serial}</serial-number>`));
  if (!found) throw new Error(`no sample case-file ${serial}`);
  return found;
}

export function withSerial(caseFile: string, serial: string): string {
  return caseFile.replace(/<serial-number>\d+<\/serial-number>/, `<serial-number>${serial}</serial-number>`);
}

/** The same case-file with one element's text replaced (a broken value for the invalid-record tests). */
export function withElementText(caseFile: string, element: string, text: string): string {
  return caseFile.replace(new RegExp(`<${element}>[^<]*</${element}>`), `<${element}>${text}</${element}>`);
}

/** The records of an XML text, read the way ingestion reads them. */
export function readRecords(text: string, recordName: string, document = 'test.xml'): XmlRecord[] {
  const records: XmlRecord[] = [];
  const reader = new XmlRecordReader(document, recordName, (record) => records.push(record));
  for (let offset = 0; offset < text.length; offset += 4096) reader.write(text.slice(offset, offset + 4096));
  reader.end();
  return records;
}

/** A daily-applications document holding these case-files in the sample's real framing. */
export function applicationsDocument(caseFiles: readonly string[]): string {
  const { prolog, epilog } = applicationsSample();
  return `${prolog}${caseFiles.join('\n')}${epilog}`;
}

/**
 * Writes a daily-applications document of the four sample case-files repeated in turn with serial
 * numbers from `firstSerial` on, until `records` case-files or `bytes` bytes; streams, so any size
 * can be built in little memory.
 */
export async function writeRepeatedApplications(
  path: string,
  options: { firstSerial: number; records?: number; bytes?: number },
): Promise<{ records: number; bytes: number }> {
  const { prolog, caseFiles, epilog } = applicationsSample();
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(prolog);
  let records = 0;
  while ((options.records === undefined || records < options.records) && (options.bytes === undefined || bytes < options.bytes)) {
    await write(`${withSerial(caseFiles[records % caseFiles.length]!, String(options.firstSerial + records).padStart(8, '0'))}\n`);
    records++;
  }
  await write(epilog);
  out.end();
  await once(out, 'close');
  return { records, bytes };
}

/** Writes a zip holding these entries, in order. */
export async function writeZip(path: string, entries: ReadonlyArray<{ name: string; content: string | Buffer }>): Promise<void> {
  const zip = new ZipFile();
  for (const entry of entries) zip.addBuffer(typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content, entry.name);
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}

/**
 * Counts the central-directory entries every zip reader reads while `run` runs (yauzl's
 * `readEntry`, which reads one entry per call): what reading an archive of many entries costs.
 */
export async function zipEntriesReadDuring(run: () => Promise<unknown>): Promise<number> {
  const readEntry = yauzl.ZipFile.prototype.readEntry;
  let count = 0;
  yauzl.ZipFile.prototype.readEntry = function (this: yauzl.ZipFile) {
    count++;
    return readEntry.call(this);
  };
  try {
    await run();
  } finally {
    yauzl.ZipFile.prototype.readEntry = readEntry;
  }
  return count;
}

/** The first `share` of a file's text (a download cut short). */
export function writeTruncated(source: string, path: string, share: number): void {
  const text = readFileSync(source, 'utf8');
  writeFileSync(path, text.slice(0, Math.floor(text.length * share)));
}
