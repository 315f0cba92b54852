/**
 * Parsing side of an ingestion: documents → decoded text → records (saxes) → mapped items, in
 * batches. A batch never spans two documents. `emit` is awaited after every chunk of input, so a
 * slow consumer holds the reading back (the input is never read ahead further than the batches
 * in flight). Runs inside the parse thread (parse-thread.ts) or, for tests, in-process.
 */
import { formatReader, type IngestFormat, type ParsedItem } from './formats';
import { RecordRejection } from './record-rejection';
import { decodedText, xmlDocuments } from './xml/documents';
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

export type ParseEvent = { kind: 'documents'; documents: Array<{ name: string; size: number }> } | { kind: 'batch'; batch: ParsedBatch };

export async function parseDocuments(request: ParseRequest, emit: (event: ParseEvent) => Promise<void>): Promise<void> {
  const format = formatReader(request.format, request.dataDir);
  const documents = await xmlDocuments(request.paths);
  await emit({ kind: 'documents', documents: documents.map(({ name, size }) => ({ name, size })) });
  for (const document of documents) {
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
        for (const full of ready.splice(0)) await emit({ kind: 'batch', batch: full });
      }
      reader.end();
    } catch (error) {
      // The records completed before the failure point are still delivered, then the failure.
      for (const full of ready.splice(0)) await emit({ kind: 'batch', batch: full });
      if (batch.records > 0) await emit({ kind: 'batch', batch });
      throw error;
    } finally {
      stream.destroy();
    }
    if (batch.records > 0 || batch.bytes > 0) await emit({ kind: 'batch', batch });
  }
}
