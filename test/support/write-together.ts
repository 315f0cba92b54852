/**
 * Processes writing one embedded search index at the same moment (`serve` and `marque worker`
 * each refilling it after an upgrade): child processes each upsert batches of documents into the
 * same file and report whether any write failed. Processes, not threads: SQLite's file locks only
 * conflict between processes (and better-sqlite3 runs each transaction to its end synchronously).
 */
import { fork } from 'node:child_process';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import type { IndexDefinition } from '../../datasources/ports';

const CHILD_ENV = 'MARQUE_TEST_WRITE_TOGETHER';

export const WRITE_TOGETHER_DEFINITION: IndexDefinition = { name: 'things', fields: { name: { kind: 'text' }, size: { kind: 'number', sortable: true } } };

interface ChildTask {
  path: string;
  writer: number;
  batches: number;
  batchSize: number;
}

async function runChild({ path, writer, batches, batchSize }: ChildTask): Promise<void> {
  const index = createEmbeddedSearchIndex({ path });
  let error: string | null = null;
  try {
    await index.ensureIndex(WRITE_TOGETHER_DEFINITION);
    for (let batch = 0; batch < batches; batch += 1) {
      const docs = Array.from({ length: batchSize }, (_, i) => ({ id: `w${writer}-${batch}-${i}`, name: `thing ${writer} ${batch} ${i}`, size: i }));
      await index.upsert(WRITE_TOGETHER_DEFINITION.name, docs);
    }
  } catch (caught) {
    error = String(caught);
  } finally {
    await index.close();
  }
  process.send!({ error });
  process.disconnect();
}

if (process.env[CHILD_ENV] !== undefined && process.send !== undefined) void runChild(JSON.parse(process.env[CHILD_ENV]) as ChildTask);

/** Starts `writers` processes upserting `batches` × `batchSize` documents each into `path`; the errors they met. */
export async function writeTogether(path: string, writers: number, batches: number, batchSize: number): Promise<string[]> {
  const errors: string[] = [];
  await Promise.all(
    Array.from({ length: writers }, (_, writer) => {
      const child = fork(__filename, [], {
        env: { ...process.env, [CHILD_ENV]: JSON.stringify({ path, writer, batches, batchSize } satisfies ChildTask) },
        execArgv: [...process.execArgv, '-r', 'ts-node/register/transpile-only'],
      });
      child.on('message', (message: { error: string | null }) => {
        if (message.error !== null) errors.push(message.error);
      });
      return new Promise<void>((resolve) => child.once('exit', () => resolve()));
    }),
  );
  return errors;
}
