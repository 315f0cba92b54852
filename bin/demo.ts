/**
 * First start on an empty store: seed the demo dataset, index it, create a demo organization
 * with a key holding every customer scope, print the key once and keep it in demo-key.txt (0600).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbeddedDocumentStore } from '../datasources/embedded/document-store';
import { createEmbeddedSearchIndex } from '../datasources/embedded/search-index';
import type { DocumentStore, SearchIndex } from '../datasources/ports';
import { COLLECTIONS } from '../domain/records';
import { CUSTOMER_SCOPES } from '../domain/scopes';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization } from '../resolvers/accounts/organizations';
import { SearchIndexer } from '../workers/indexer';
import { seedStore } from '../workers/ingest/seed';
import type { Adapters } from './compose';
import type { Config } from './config';

export async function isEmptyStore(store: DocumentStore): Promise<boolean> {
  return (await store.collection(COLLECTIONS.trademarks).findOne({})) === null;
}

export interface SeedReport {
  marks: number;
  seconds: number;
  storeSeconds: number;
  indexSeconds: number;
}

/**
 * Second connections to the embedded files in bulk-load mode, for filling an empty store: the
 * store writes no change feed (the rebuild that follows indexes everything) and both defer their
 * B-tree indexes to the end. MongoDB and Elasticsearch are used as configured.
 */
function openBulkLoad(config: Config, adapters: Adapters): { store: DocumentStore; search: SearchIndex } {
  return {
    store: config.mongodbUrl ? adapters.store : createEmbeddedDocumentStore({ path: join(config.dataDir, 'marque.sqlite'), feedCollections: [], bulkLoad: true }),
    search: config.elasticsearchUrl ? adapters.search : createEmbeddedSearchIndex({ path: join(config.dataDir, 'search.sqlite'), bulkLoad: true }),
  };
}

/** Seeds `marks` marks into an empty store and indexes them, printing progress to stderr. */
export async function seedAndIndex(config: Config, adapters: Adapters, marks: number, seed: number, progress: (line: string) => void): Promise<SeedReport> {
  const started = Date.now();
  const labelStarted = new Map<string, number>();
  let lastShown = 0;
  const show = (label: string, done: number, total: number) => {
    if (!labelStarted.has(label)) labelStarted.set(label, Date.now());
    if (Date.now() - lastShown < 1000 && done < total) return;
    lastShown = Date.now();
    const rate = Math.round(done / Math.max((Date.now() - labelStarted.get(label)!) / 1000, 0.001));
    progress(`${label}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} (${rate.toLocaleString('en-US')}/s)`);
  };
  const bulk = openBulkLoad(config, adapters);
  try {
    await seedStore(bulk.store, { marks, seed, onProgress: (done, total) => show('stored marks', done, total) });
  } finally {
    if (bulk.store !== adapters.store) await bulk.store.close();
  }
  const storeSeconds = (Date.now() - started) / 1000;
  const indexStarted = Date.now();
  try {
    const indexer = new SearchIndexer(adapters.store, bulk.search);
    await indexer.ensureIndexes();
    await indexer.rebuild((index, done) => show(`indexed ${index}`, done, index === 'trademarks' ? marks : done));
    progress('building search indexes…');
  } finally {
    if (bulk.search !== adapters.search) await bulk.search.close();
  }
  return { marks, seconds: (Date.now() - started) / 1000, storeSeconds, indexSeconds: (Date.now() - indexStarted) / 1000 };
}

export async function createDemoAccount(store: DocumentStore, dataDir: string): Promise<string> {
  const org = await createOrganization(store, { name: 'Demo organization', plan: 'beta' });
  const { secret } = await createApiKey(store, { organizationId: org._id, name: 'Demo key', scopes: [...CUSTOMER_SCOPES] });
  writeFileSync(join(dataDir, 'demo-key.txt'), `${secret}\n`, { mode: 0o600 });
  return secret;
}
