/**
 * Parsing side of an ingestion: documents → decoded text → records (saxes) → mapped items, in
 * batches. A batch never spans two documents. `emit` is awaited after every chunk of input, so a
 * slow consumer holds the reading back (the input is never read ahead further than the batches
 * in flight). Runs inside the parse thread (parse-thread.ts) or, for tests, in-process.
 */
import { MEDIA_MAX_BYTES } from '../../datasources/ports';
import { formatReader, type FormatReader, type IngestFormat, type ParsedItem } from './formats';
import type { ImageFileInput } from './mark-input';
import { RecordRejection } from './record-rejection';
import { decodedText, InputFileError, InvalidEncodingError, xmlDocuments, type XmlDocument } from './xml/documents';
import { XmlRecordReader } from './xml/record-reader';

export interface ParseRequest {
  format: IngestFormat;
  paths: string[];
  /** The project's data/ directory (code tables). */
  dataDir: string;
  batchSize: number;
}

export interface Rejection {
  document: string;
  /** 1-based position of the record in its document. */
  record: number;
  /** The record's key (serial number, reel/frame, proceeding number) when it has one. */
  key: string | null;
  reason: string;
}

export interface ParsedBatch {
  document: string;
  items: ParsedItem[];
  rejected: Rejection[];
  /** Records this batch read (items and rejections). */
  records: number;
  /** Input bytes read since the previous batch (compressed or not, as the document counts them). */
  bytes: number;
}

export type ParseEvent =
  | { kind: 'documents'; documents: Array<{ name: string; size: number }> }
  /** Reading of this document starts (so a failure the parser cannot report itself, such as running out of memory, can name it). */
  | { kind: 'document'; name: string }
  | { kind: 'batch'; batch: ParsedBatch };

/** Reads the image files the batch's marks name from beside its document, in one pass. */
async function withImages(batch: ParsedBatch, document: XmlDocument): Promise<ParsedBatch> {
  const images = batch.items.flatMap((item): ImageFileInput[] => (item.kind === 'mark' && item.mark.image ? [item.mark.image] : []));
  if (images.length === 0) return batch;
  const found = await document.readBeside([...new Set(images.map((image) => image.file_name))], MEDIA_MAX_BYTES);
  for (const image of images) image.bytes = found.get(image.file_name) ?? null;
  return batch;
}

export async function parseDocuments(request: ParseRequest, emit: (event: ParseEvent) => Promise<void>): Promise<void> {
  const format = formatReader(request.format, request.dataDir);
  const documents = await xmlDocuments(request.paths);
  try {
    await emit({ kind: 'documents', documents: documents.map(({ name, size }) => ({ name, size })) });
    for (const document of documents) {
      await parseDocument(request, format, document, emit);
      document.close();
    }
  } finally {
    for (const document of documents) document.close();
  }
}

async function parseDocument(request: ParseRequest, format: FormatReader, document: XmlDocument, emit: (event: ParseEvent) => Promise<void>): Promise<void> {
  await emit({ kind: 'document', name: document.name });
  const emitBatch = async (full: ParsedBatch) => emit({ kind: 'batch', batch: await withImages(full, document) });
  let batch: ParsedBatch = { document: document.name, items: [], rejected: [], records: 0, bytes: 0 };
  const ready: ParsedBatch[] = [];
  const reader = new XmlRecordReader(document.name, format.recordName, (record) => {
    batch.records++;
    try {
      batch.items.push(format.map(record, document.name));
    } catch (error) {
      if (!(error instanceof RecordRejection)) throw error;
      batch.rejected.push({ document: document.name, record: record.index, key: format.keyOf(record.element), reason: error.message });
    }
    if (batch.records >= request.batchSize) {
      ready.push(batch);
      batch = { document: document.name, items: [], rejected: [], records: 0, bytes: 0 };
    }
  });
  const stream = await document.open();
  try {
    for await (const text of decodedText(document, stream, (bytes) => (batch.bytes += bytes))) {
      reader.write(text);
      for (const full of ready.splice(0)) await emitBatch(full);
    }
    reader.end();
    if (reader.records === 0 && reader.root !== null && !format.documents.hasRoot(reader.root)) {
      const namespace = reader.root.namespace === null ? '' : ` (namespace ${reader.root.namespace})`;
      throw new InputFileError(
        `${document.name}: holds no <${format.recordName}> record and its root element is <${reader.root.name}>${namespace}: not ${format.documents.description}; is this the command for this file?`,
        document.name,
      );
    }
  } catch (error) {
    // The records completed before the failure point are still delivered, then the failure.
    for (const full of ready.splice(0)) await emitBatch(full);
    if (batch.records > 0) await emitBatch(batch);
    // The reader has read every character before bad bytes, so it stands where they do.
    if (error instanceof InvalidEncodingError) reader.fail(`bytes that are not UTF-8 (byte ${error.offset} of the document)`);
    throw error;
  } finally {
    stream.destroy();
  }
  if (batch.records > 0 || batch.bytes > 0) await emitBatch(batch);
}
