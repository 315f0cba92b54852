/**
 * One `marque ingest` run: parses the named files (in a worker thread by default) and writes each
 * batch through the write path as it arrives, one transaction per batch, then summarizes.
 *
 * Failure: a malformed or truncated file, one that cannot be read (a damaged zip, an entry with an
 * unsafe path, a zip with no .xml document), or one the parse thread runs out of memory on, stops
 * the run (an error of this code itself still throws). Every record read before the failure point
 * is committed, in whole batches (each batch is one transaction, so no record is ever
 * half-written); later files are not read. The summary says so (`error`, and
 * per file `status`), and re-running after fixing the file is safe because writes are idempotent.
 * A record that cannot be loaded (an impossible date, no serial number) is rejected with its key
 * and reason while the rest load. `dryRun` parses, maps and validates everything and writes
 * nothing (no store is needed).
 *
 * Counts: `records_read` counts records in the files; inserted / updated / unchanged /
 * skipped_older / not_found count marks (an assignment or proceeding can name several; a mark a
 * proceeding loaded earlier awaited is joined to it on arrival, counted once, as inserted); for
 * proceedings also `proceedings` inserted / updated / unchanged; for ST.96 also `images`
 * (ingest-images.ts).
 */
import type { DocumentStore, MediaStore } from '../../datasources/ports';
import { catalogId } from '../../domain/ids';
import type { IngestFormat, ParsedItem } from './formats';
import { RecordImages, type ImageCounts } from './ingest-images';
import type { MarkAmendment, MarkInput, OwnerHistoryInput } from './mark-input';
import { MarkWriter, type WriteOutcome } from './mark-writer';
import { parseDocuments, type ParseEvent, type ParseRequest, type Rejection } from './parse-pipeline';
import { parseInThread } from './parse-thread';
import { ProceedingWriter, type ProceedingOutcome } from './proceeding-writer';
import type { AssignmentRecord } from './uspto/assignments';
import type { ProceedingRecord } from './uspto/ttab';
import { InputFileError } from './xml/documents';
import { XmlFormatError } from './xml/record-reader';

export const DEFAULT_BATCH_SIZE = 500;
/** Rejections listed in the summary (all are counted). */
const MAX_LISTED_REJECTIONS = 1000;

export interface IngestProgress {
  /** The documents found, with the bytes each contributes. */
  documents(documents: ReadonlyArray<{ name: string; size: number }>): void;
  /** After each written batch: bytes read and records read since the last call. */
  advance(bytes: number, records: number): void;
}

export interface IngestOptions {
  format: IngestFormat;
  paths: string[];
  dataDir: string;
  dryRun: boolean;
  batchSize?: number;
  /** Parse in a worker thread (default) or in this thread (tests). */
  thread?: boolean;
  /** The parse thread's heap cap in MB (default PARSE_HEAP_MB); tests lower it to run out of memory cheaply. */
  parseHeapMb?: number;
  progress?: IngestProgress;
  now?: () => Date;
}

export interface IngestFileSummary {
  file: string;
  status: 'loaded' | 'failed' | 'not_read';
  records_read: number;
  rejected: number;
}

export interface IngestSummary {
  format: IngestFormat;
  dry_run: boolean;
  files: IngestFileSummary[];
  records_read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped_older: number;
  not_found: number;
  rejected: number;
  proceedings?: Record<ProceedingOutcome, number>;
  /** ST.96: the images records name (the other formats carry none). */
  images?: ImageCounts;
  /** The first MAX_LISTED_REJECTIONS rejections. */
  rejections: Rejection[];
  /** Set when a file stopped the run: where and why. */
  error: { file: string | null; line: number | null; column: number | null; message: string } | null;
  seconds: number;
  records_per_second: number;
}

function amendmentsOf(assignment: AssignmentRecord): MarkAmendment[] {
  const row =
    (role: 'assignor' | 'assignee') =>
    (owner: AssignmentRecord['assignors'][number]): OwnerHistoryInput => ({
      owner,
      name: owner.name,
      role,
      office_party_type: null,
      recorded_date: assignment.recorded_date,
      reference: assignment.reference,
      conveyance: assignment.conveyance,
    });
  const history = [...assignment.assignors.map(row('assignor')), ...assignment.assignees.map(row('assignee'))];
  return assignment.serials.map((serial) => ({
    trademark_id: catalogId('tm_', 'US', serial),
    owner_history: history,
    events: assignment.event ? [assignment.event] : [],
    data_date: assignment.recorded_date,
  }));
}

function describeError(error: unknown): NonNullable<IngestSummary['error']> {
  if (error instanceof XmlFormatError) return { file: error.file, line: error.line, column: error.column, message: error.message };
  if (error instanceof InputFileError) return { file: error.document, line: null, column: null, message: error.message };
  throw error;
}

/** Where an ingestion writes: the store, and the MediaStore for the images records name. */
export interface IngestTarget {
  store: DocumentStore;
  media: MediaStore;
}

export async function runIngest(given: IngestTarget | null, options: IngestOptions): Promise<IngestSummary> {
  const started = Date.now();
  if (given === null && !options.dryRun) throw new Error('runIngest needs a store unless dryRun');
  // A dry run writes nothing, whatever it is given.
  const target = options.dryRun ? null : given;
  const store = target?.store ?? null;
  const markWriter = store ? new MarkWriter(store, options.now) : null;
  const images = new RecordImages(target?.media ?? null);
  const proceedingWriter = store && markWriter ? new ProceedingWriter(store, markWriter) : null;
  const summary: IngestSummary = {
    format: options.format,
    dry_run: options.dryRun,
    files: [],
    records_read: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    skipped_older: 0,
    not_found: 0,
    rejected: 0,
    ...(options.format === 'uspto-ttab' ? { proceedings: { inserted: 0, updated: 0, unchanged: 0 } } : {}),
    ...(options.format === 'st96' ? { images: images.counts } : {}),
    rejections: [],
    error: null,
    seconds: 0,
    records_per_second: 0,
  };
  const count = (outcome: WriteOutcome) => summary[outcome]++;
  const files = new Map<string, IngestFileSummary>();

  const write = async (items: ParsedItem[]) => {
    const marks: MarkInput[] = [];
    const amendments: MarkAmendment[] = [];
    const proceedings: ProceedingRecord[] = [];
    for (const item of items) {
      if (item.kind === 'mark') marks.push(item.mark);
      else if (item.kind === 'assignment') amendments.push(...amendmentsOf(item.assignment));
      else proceedings.push(item.proceeding);
    }
    const linked = await images.link(marks);
    if (markWriter === null || proceedingWriter === null) return images.store(linked, []);
    if (marks.length > 0) {
      const results = await markWriter.write(marks);
      const outcomes = results.map((result) => result.outcome);
      outcomes.forEach(count);
      await images.store(linked, outcomes);
      // Proceedings loaded before these marks join them now (counted as the marks' insertion); asked
      // for every mark of the batch, so a run stopped between the two transactions completes it again.
      await proceedingWriter.joinArrived(results.map((result) => result.trademark_id));
    }
    if (amendments.length > 0) for (const result of await markWriter.amend(amendments)) count(result.outcome);
    if (proceedings.length > 0) {
      const result = await proceedingWriter.write(proceedings);
      for (const outcome of result.proceedings) summary.proceedings![outcome]++;
      for (const mark of result.marks) count(mark.outcome);
    }
  };

  const request: ParseRequest = { format: options.format, paths: options.paths, dataDir: options.dataDir, batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE };
  const events: AsyncIterable<ParseEvent> = options.thread === false ? inProcess(request) : parseInThread(request, options.parseHeapMb);
  try {
    for await (const event of events) {
      if (event.kind === 'document') continue;
      if (event.kind === 'documents') {
        for (const document of event.documents) files.set(document.name, { file: document.name, status: 'not_read', records_read: 0, rejected: 0 });
        summary.files = [...files.values()];
        options.progress?.documents(event.documents);
        continue;
      }
      const { batch } = event;
      await write(batch.items);
      const file = files.get(batch.document)!;
      file.status = 'loaded';
      file.records_read += batch.records;
      file.rejected += batch.rejected.length;
      summary.records_read += batch.records;
      summary.rejected += batch.rejected.length;
      summary.rejections.push(...batch.rejected.slice(0, MAX_LISTED_REJECTIONS - summary.rejections.length));
      options.progress?.advance(batch.bytes, batch.records);
    }
  } catch (error) {
    summary.error = describeError(error);
    const failed = summary.error.file === null ? undefined : files.get(summary.error.file);
    if (failed) failed.status = 'failed';
  }
  summary.seconds = (Date.now() - started) / 1000;
  summary.records_per_second = Math.round(summary.records_read / Math.max(summary.seconds, 0.001));
  return summary;
}

/** The parse events of `request`, parsed in this thread (one event ahead of the writer). */
async function* inProcess(request: ParseRequest): AsyncGenerator<ParseEvent> {
  const queue: ParseEvent[] = [];
  const state: { failure: unknown; finished: boolean; consumer: (() => void) | null; producer: (() => void) | null } = {
    failure: null,
    finished: false,
    consumer: null,
    producer: null,
  };
  const wakeConsumer = () => {
    state.consumer?.();
    state.consumer = null;
  };
  const parsing = parseDocuments(request, async (event) => {
    queue.push(event);
    wakeConsumer();
    while (queue.length > 1) await new Promise<void>((resolve) => (state.producer = resolve));
  }).then(
    () => {
      state.finished = true;
      wakeConsumer();
    },
    (error: unknown) => {
      state.failure = error ?? new Error('parse failed');
      wakeConsumer();
    },
  );
  for (;;) {
    while (queue.length === 0 && !state.finished && state.failure === null) await new Promise<void>((resolve) => (state.consumer = resolve));
    const event = queue.shift();
    state.producer?.();
    state.producer = null;
    if (event !== undefined) {
      yield event;
      continue;
    }
    await parsing;
    if (state.failure !== null) throw state.failure;
    return;
  }
}
