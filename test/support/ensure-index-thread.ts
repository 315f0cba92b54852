/**
 * A thread that stands for one process of several started together on one data directory: for
 * each of the given files it waits until every thread is ready, then ensures the trademark index
 * there, and reports whether it created the tables or what it threw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';

export interface EnsureIndexThreadData {
  paths: string[];
  threads: number;
  /** One Int32 per path: how many threads have arrived at its start. */
  arrivals: SharedArrayBuffer;
}

export type EnsureIndexOutcome = { path: string; created: boolean } | { path: string; error: string };

async function run({ paths, threads, arrivals }: EnsureIndexThreadData): Promise<void> {
  const arrived = new Int32Array(arrivals);
  for (const [round, path] of paths.entries()) {
    const index = createEmbeddedSearchIndex({ path });
    Atomics.add(arrived, round, 1);
    while (Atomics.load(arrived, round) < threads) Atomics.wait(arrived, round, Atomics.load(arrived, round), 1);
    Atomics.notify(arrived, round);
    let outcome: EnsureIndexOutcome;
    try {
      outcome = { path, created: (await index.ensureIndex(TRADEMARK_INDEX)).created };
    } catch (error) {
      outcome = { path, error: String(error) };
    }
    await index.close();
    parentPort!.postMessage(outcome);
  }
}

if (parentPort) void run(workerData as EnsureIndexThreadData);
