/**
 * Runs the parse pipeline (parse-pipeline.ts) in a worker thread, so parsing and mapping (XML,
 * hashing, gzip) use one core while the calling thread writes to the store on another. The thread
 * keeps at most MAX_BATCHES_IN_FLIGHT batches ahead of the writer; the caller acknowledges each
 * batch by asking for the next one. A parse failure (malformed or truncated XML, an unreadable
 * file) ends the iteration with that error, after every batch read before it.
 *
 * The thread's heap is capped (256 MB old generation, room for the largest real case-file, about
 * 11 MB of XML) so that V8 collects garbage instead of growing: the resident size of an ingestion
 * stays flat however large the file. A file can still exhaust it (hundreds of MB of text, comments
 * or nesting outside any record, which the XML parser holds whole): the thread then dies, and that
 * is reported as an InputFileError naming the document it was reading, like a malformed file.
 *
 * Main side: `parseInThread`; thread side: this module run as a worker (isMainThread false).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseDocuments, type ParseEvent, type ParseRequest } from './parse-pipeline';
import { InputFileError } from './xml/documents';
import { XmlFormatError } from './xml/record-reader';
import { threadExecArgv } from './thread-exec-argv';

const MAX_BATCHES_IN_FLIGHT = 3;
/** The parse thread's old-generation cap, in MB (see above). */
export const PARSE_HEAP_MB = 256;

type FromThread =
  | { kind: 'event'; event: ParseEvent }
  | { kind: 'done' }
  | { kind: 'failed'; error: SerializedError }
  /** The thread died of its input (out of memory): `reason` is completed with the document being read. */
  | { kind: 'died'; reason: string };

interface SerializedError {
  name: string;
  message: string;
  document?: string | null;
  xml?: { file: string; line: number; column: number; reason: string };
}

function serialize(error: unknown): SerializedError {
  if (error instanceof XmlFormatError)
    return { name: error.name, message: error.message, xml: { file: error.file, line: error.line, column: error.column, reason: error.reason } };
  if (error instanceof InputFileError) return { name: error.name, message: error.message, document: error.document };
  if (error instanceof Error) return { name: error.name, message: error.stack ?? error.message };
  return { name: 'Error', message: String(error) };
}

function revive(error: SerializedError): Error {
  if (error.xml) return new XmlFormatError(error.xml.file, error.xml.line, error.xml.column, error.xml.reason);
  if (error.name === 'InputFileError') return new InputFileError(error.message, error.document ?? null);
  return new Error(error.message);
}

const isOutOfMemory = (error: unknown) => error instanceof Error && (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';

/** The parse events of `request`, parsed in a worker thread whose old generation is capped at `heapMb`. */
export async function* parseInThread(request: ParseRequest, heapMb = PARSE_HEAP_MB): AsyncGenerator<ParseEvent> {
  const worker = new Worker(__filename, {
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
    execArgv: threadExecArgv(__filename),
  });
  const queue: FromThread[] = [];
  let wake: (() => void) | null = null;
  const deliver = (message: FromThread) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', deliver);
  // An error thrown in the thread outside the pipeline is a bug of this code and stays one; running
  // out of memory, or dying without an error, is the input's doing (the thread only parses it).
  worker.on('error', (error) =>
    deliver(
      isOutOfMemory(error)
        ? { kind: 'died', reason: `the parser ran out of memory (more than ${heapMb} MB): too much text, comments or nesting outside any record` }
        : { kind: 'failed', error: serialize(error) },
    ),
  );
  worker.on('exit', (code) => deliver(code === 0 ? { kind: 'done' } : { kind: 'died', reason: `the parse thread stopped (exit code ${code})` }));
  // The document the thread is reading, as far as the events taken so far tell.
  let reading: string | null = null;
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift()!;
      if (message.kind === 'done') return;
      if (message.kind === 'failed') throw revive(message.error);
      if (message.kind === 'died')
        throw new InputFileError(reading === null ? `${request.paths.join(', ')}: ${message.reason}` : `${reading}: ${message.reason}`, reading);
      if (message.event.kind === 'document') reading = message.event.name;
      yield message.event;
      if (message.event.kind === 'batch') worker.postMessage('ack');
    }
  } finally {
    await worker.terminate();
  }
}

function runThread(port: NonNullable<typeof parentPort>, request: ParseRequest): void {
  let inFlight = 0;
  let credit: (() => void) | null = null;
  port.on('message', () => {
    inFlight--;
    credit?.();
    credit = null;
  });
  parseDocuments(request, async (event) => {
    port.postMessage({ kind: 'event', event } satisfies FromThread);
    if (event.kind !== 'batch') return;
    inFlight++;
    while (inFlight >= MAX_BATCHES_IN_FLIGHT) await new Promise<void>((resolve) => (credit = resolve));
  }).then(
    () => {
      port.postMessage({ kind: 'done' } satisfies FromThread);
      port.close();
    },
    (error: unknown) => {
      port.postMessage({ kind: 'failed', error: serialize(error) } satisfies FromThread);
      port.close();
    },
  );
}

if (!isMainThread && parentPort) runThread(parentPort, workerData as ParseRequest);
