/**
 * Indexes marks in a worker thread while `marque seed` writes them (embedded default only), so
 * the store and the search index fill on both cores at once. The thread reads the marks' parties
 * through its own store connection (they are written before any mark) and writes the trademark
 * index through its own bulk-loading connection; closing that builds the index's B-trees.
 *
 * Main side: `startIndexThread`; thread side: this module run as a worker (isMainThread false).
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import type { TrademarkDoc } from '../../domain/records';
import { trademarkProjection } from '../projections/trademarks';
import { threadExecArgv } from './thread-exec-argv';

export interface IndexThreadFiles {
  storePath: string;
  searchPath: string;
}

type ToThread = { kind: 'marks'; docs: readonly TrademarkDoc[] } | { kind: 'finish' };
type FromThread = { kind: 'indexed'; count: number } | { kind: 'finished' } | { kind: 'failed'; message: string };

/** Batches sent but not yet indexed before `index` waits (bounds the memory of a slow thread). */
const MAX_OUTSTANDING_BATCHES = 8;

export interface IndexThread {
  /** Hands over a batch; resolves at once unless too many batches are waiting. */
  index(docs: readonly TrademarkDoc[]): Promise<void>;
  /** Waits until every batch is indexed and the index's B-trees are built, then ends the thread. */
  finish(): Promise<void>;
}

export function startIndexThread(files: IndexThreadFiles, onIndexed: (total: number) => void): IndexThread {
  const worker = new Worker(__filename, {
    workerData: files,
    execArgv: threadExecArgv(__filename),
  });
  let outstanding = 0;
  let indexed = 0;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  let finished: (() => void) | null = null;
  const settle = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (message: FromThread) => {
    if (message.kind === 'indexed') {
      outstanding--;
      indexed += message.count;
      onIndexed(indexed);
    } else if (message.kind === 'failed') {
      failure = new Error(`index thread: ${message.message}`);
      finished?.();
    } else {
      finished?.();
    }
    settle();
  });
  worker.on('error', (error) => {
    failure = error;
    settle();
    finished?.();
  });
  const check = () => {
    if (failure) throw failure;
  };
  return {
    async index(docs) {
      check();
      outstanding++;
      worker.postMessage({ kind: 'marks', docs } satisfies ToThread);
      while (outstanding > MAX_OUTSTANDING_BATCHES && !failure) await new Promise<void>((resolve) => (wake = resolve));
      check();
    },
    async finish() {
      check();
      const done = new Promise<void>((resolve) => (finished = resolve));
      worker.postMessage({ kind: 'finish' } satisfies ToThread);
      await done;
      await worker.terminate();
      check();
    },
  };
}

function runThread(port: NonNullable<typeof parentPort>, files: IndexThreadFiles): void {
  const store = createEmbeddedDocumentStore({ path: files.storePath, feedCollections: [] });
  const search = createEmbeddedSearchIndex({ path: files.searchPath, bulkLoad: true });
  const ready = search.ensureIndex(TRADEMARK_INDEX).then(() => undefined);
  // Messages are handled one at a time, in order.
  let queue: Promise<void> = ready;
  port.on('message', (message: ToThread) => {
    queue = queue
      .then(async () => {
        if (message.kind === 'marks') {
          await search.upsert(TRADEMARK_INDEX.name, await trademarkProjection.toIndexDocuments(message.docs, { store, search }));
          port.postMessage({ kind: 'indexed', count: message.docs.length } satisfies FromThread);
        } else {
          await search.close();
          await store.close();
          port.postMessage({ kind: 'finished' } satisfies FromThread);
        }
      })
      .catch((error: unknown) => port.postMessage({ kind: 'failed', message: (error as Error).stack ?? String(error) } satisfies FromThread));
  });
}

if (!isMainThread && parentPort) runThread(parentPort, workerData as IndexThreadFiles);
