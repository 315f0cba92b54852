/**
 * `marque ingest FORMAT [--dry-run] [--batch-size N] FILE_OR_DIR...`: loads office bulk files
 * through the write path (workers/ingest/run-ingest.ts), showing progress on stderr and printing
 * the summary as JSON on stdout. A file that stops the run (malformed, truncated, unreadable)
 * also gets a message naming the file, line and column, and the exit code is 1.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../resolvers/project-root';
import { INGEST_FORMATS, type IngestFormat } from '../workers/ingest/formats';
import { DEFAULT_BATCH_SIZE, runIngest, type IngestOptions, type IngestProgress } from '../workers/ingest/run-ingest';
import { err, positiveInt, print, progressFor, UsageError, withAdapters } from './cli-support';
import type { Config } from './config';
import type { Progress } from './progress';

/** Checkpoint the store's write-ahead log every 64 MB while ingesting (twice the speed of every 4 MB). */
const INGEST_CHECKPOINT_PAGES = 16_384;

function progressOf(progress: Progress, format: string): IngestProgress {
  let bar: ReturnType<Progress['bar']> | null = null;
  let bytes = 0;
  let records = 0;
  return {
    documents: (documents) => {
      bar = progress.bar(
        `ingest ${format}`,
        documents.reduce((sum, document) => sum + document.size, 0),
        'records',
      );
    },
    advance: (moreBytes, moreRecords) => {
      bytes += moreBytes;
      records += moreRecords;
      bar?.update(bytes, records);
    },
  };
}

export async function ingest(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'dry-run': { type: 'boolean' }, 'batch-size': { type: 'string' } } });
  const [format, ...paths] = positionals;
  if (format === undefined || !(INGEST_FORMATS as readonly string[]).includes(format))
    throw new UsageError(`ingest needs a format, one of ${INGEST_FORMATS.join(', ')}`);
  if (paths.length === 0) throw new UsageError('ingest needs at least one file or directory');
  const batchSize = positiveInt('batch-size', values['batch-size'], DEFAULT_BATCH_SIZE);
  if (batchSize < 1) throw new UsageError('--batch-size must be at least 1');
  const progress = progressFor(config);
  const options: IngestOptions = {
    format: format as IngestFormat,
    paths,
    dataDir: join(projectRoot(), 'data'),
    dryRun: values['dry-run'] === true,
    batchSize,
    progress: progressOf(progress, format),
  };
  let summary;
  try {
    summary = options.dryRun
      ? await runIngest(null, options)
      : await withAdapters(config, ({ store, media }) => runIngest({ store, media }, options), { storeCheckpointPages: INGEST_CHECKPOINT_PAGES });
  } finally {
    progress.stop();
  }
  print(summary);
  if (summary.error) {
    err(`marque: ${summary.error.message}`);
    process.exitCode = 1;
  }
}
