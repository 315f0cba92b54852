/**
 * The entry point of one HTTP worker process of `marque serve --workers N` (forked by the primary
 * in bin/serve.ts with node:cluster; not a command of its own).
 */
import { err } from './cli-support';
import { readConfig } from './config';
import { serveWorker } from './serve';

serveWorker(readConfig()).catch((error: unknown) => {
  err(`marque: HTTP worker failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
