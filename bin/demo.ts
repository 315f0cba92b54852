/**
 * First start on an empty store: seed the demo dataset, index it, create a demo organization
 * with a key holding every customer scope, print the key once and keep it in demo-key.txt (0600),
 * and give it two watches the change simulator (workers/demo-changes.ts) feeds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbeddedDocumentStore } from '../datasources/embedded/document-store';
import { createEmbeddedMediaStore } from '../datasources/embedded/media-store';
import { createEmbeddedSearchIndex } from '../datasources/embedded/search-index';
import type { DocumentStore, MediaStore, SearchIndex } from '../datasources/ports';
import { COLLECTIONS } from '../domain/records';
import { CUSTOMER_SCOPES } from '../domain/scopes';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization } from '../resolvers/accounts/organizations';
import { createRequestContext, type Services } from '../resolvers/context';
import { watchMutationResolvers } from '../resolvers/watches/watches';
import { DEMO_PROTECTED_MARK } from '../workers/demo-changes';
import { TRADEMARK_INDEX } from '../datasources/index-definitions';
import { SearchIndexer } from '../workers/indexer';
import { startIndexThread, type IndexThreadFiles } from '../workers/ingest/index-thread';
import { clearSeed, seedStore } from '../workers/ingest/seed';
import { PROJECTIONS } from '../workers/projections';
import { mediaDirectory, searchFile, storeFile, type Adapters } from './adapters';
import type { Config } from './config';
import type { Progress, ProgressBar } from './progress';

export async function isEmptyStore(store: DocumentStore): Promise<boolean> {
  return (await store.collection(COLLECTIONS.trademarks).findOne({})) === null;
}

/** What the demo seed of a data directory was asked for. */
export interface DemoSeed {
  marks: number;
  seed: number;
}

/** The `meta` document saying that the demo seed began, with what, and whether it finished. */
interface DemoSeedDoc extends DemoSeed {
  _id: string;
  state: 'seeding' | 'done';
}

const DEMO_SEED_ID = 'demo_seed';

/** The demo seed that began here and never finished (the process was stopped during it), or null. */
export async function interruptedDemoSeed(store: DocumentStore): Promise<DemoSeed | null> {
  const doc = await store.collection<DemoSeedDoc>(COLLECTIONS.meta).findOne({ _id: DEMO_SEED_ID });
  return doc?.state === 'seeding' ? { marks: doc.marks, seed: doc.seed } : null;
}

export async function recordDemoSeed(store: DocumentStore, state: DemoSeedDoc['state'], { marks, seed }: DemoSeed): Promise<void> {
  await store.collection<DemoSeedDoc>(COLLECTIONS.meta).replaceOne({ _id: DEMO_SEED_ID, state, marks, seed });
}

/**
 * Deletes what a demo seed cut short wrote, so it can run again from the start; on the embedded
 * default through a connection that writes no change feed, as the seed's own.
 */
export async function clearInterruptedSeed(config: Config, adapters: Adapters): Promise<void> {
  const store = config.mongodbUrl ? adapters.store : createEmbeddedDocumentStore({ path: storeFile(config.dataDir), feedCollections: [] });
  try {
    await clearSeed(store);
  } finally {
    if (store !== adapters.store) await store.close();
  }
}

export interface SeedReport {
  marks: number;
  seconds: number;
  /** Until every mark was in the store (and, on the embedded default, mostly indexed too). */
  storeSeconds: number;
  /** Until every index was complete. */
  indexSeconds: number;
}

/**
 * Second connections to the embedded files in bulk-load mode, for filling an empty store: the
 * store writes no change feed (the rebuild that follows indexes everything) and both defer their
 * B-tree indexes to the end. MongoDB and Elasticsearch are used as configured.
 */
function openBulkLoad(config: Config, adapters: Adapters): { store: DocumentStore; search: SearchIndex; media: MediaStore; files: IndexThreadFiles | null } {
  const files = { storePath: storeFile(config.dataDir), searchPath: searchFile(config.dataDir) };
  const store = config.mongodbUrl ? adapters.store : createEmbeddedDocumentStore({ path: files.storePath, feedCollections: [], bulkLoad: true });
  return {
    store,
    // Logos rendered during the seed are recorded through the same bulk-loading connection as the marks.
    media: store === adapters.store ? adapters.media : createEmbeddedMediaStore({ directory: mediaDirectory(config.dataDir), store }),
    search: config.elasticsearchUrl ? adapters.search : createEmbeddedSearchIndex({ path: files.searchPath, bulkLoad: true }),
    files: config.mongodbUrl || config.elasticsearchUrl ? null : files,
  };
}

/**
 * Seeds `marks` marks into an empty store and indexes them, showing progress (bin/progress.ts). On
 * the embedded default a worker thread indexes the marks while they are written; the other
 * indexes (proceedings, parties) follow from the store.
 */
export async function seedAndIndex(
  config: Config,
  adapters: Adapters,
  marks: number,
  seed: number,
  progress: Progress,
  options: { renderLogos?: boolean } = {},
): Promise<SeedReport> {
  const started = Date.now();
  const bulk = openBulkLoad(config, adapters);
  const stored = progress.bar('stored marks', marks, 'marks');
  const indexedBar = bulk.files ? progress.bar('indexed marks', marks, 'marks') : null;
  const thread = bulk.files ? startIndexThread(bulk.files, (done) => indexedBar?.update(done)) : null;
  try {
    await seedStore(bulk.store, {
      marks,
      seed,
      // Logos are rendered when first read, unless asked for now (`marque seed --render-logos`).
      renderLogos: options.renderLogos ? bulk.media : undefined,
      onProgress: (done) => stored.update(done),
      onTrademarks: thread ? (docs) => thread.index(docs) : undefined,
    });
  } finally {
    if (bulk.store !== adapters.store) await bulk.store.close();
  }
  const storeSeconds = (Date.now() - started) / 1000;
  try {
    if (thread) {
      progress.log('building the trademark index…');
      await thread.finish();
    }
    const projections = thread ? PROJECTIONS.filter((projection) => projection.index.name !== TRADEMARK_INDEX.name) : PROJECTIONS;
    const indexer = new SearchIndexer(adapters.store, bulk.search, undefined, projections);
    // Party projections count marks in the trademark index, so this connection opens it too.
    await bulk.search.ensureIndex(TRADEMARK_INDEX);
    // The thread wrote every mark: the index needs no refill at the next start.
    if (thread) await bulk.search.markFilled(TRADEMARK_INDEX.name);
    // Ensured only: the rebuild below writes (and marks filled) every one of them, which a refill
    // by ensureIndexes would have done a first time.
    for (const projection of projections) await bulk.search.ensureIndex(projection.index);
    const bars = new Map<string, ProgressBar>();
    await indexer.rebuild((index, done) => {
      let bar = bars.get(index);
      if (bar === undefined) {
        bar = progress.bar(`indexed ${index}`, index === TRADEMARK_INDEX.name ? marks : null, 'documents');
        bars.set(index, bar);
      }
      bar.update(done);
    });
    progress.log('building search indexes…');
  } finally {
    if (bulk.search !== adapters.search) await bulk.search.close();
    progress.stop();
  }
  return { marks, seconds: (Date.now() - started) / 1000, storeSeconds, indexSeconds: (Date.now() - started) / 1000 };
}

export async function createDemoAccount(store: DocumentStore, dataDir: string): Promise<{ secret: string; organizationId: string }> {
  const org = await createOrganization(store, { name: 'Demo organization', plan: 'beta' });
  const { secret } = await createApiKey(store, { organizationId: org._id, name: 'Demo key', scopes: [...CUSTOMER_SCOPES] });
  writeFileSync(join(dataDir, DEMO_KEY_FILE), `${secret}\n`, { mode: 0o600 });
  return { secret, organizationId: org._id };
}

/** The demo data directory's key file; its presence marks a demo data directory. */
export const DEMO_KEY_FILE = 'demo-key.txt';

/** The demo organization's watches: new US class 9 filings, and look-alikes of the demo mark. */
export async function createDemoWatches(services: Services, organizationId: string): Promise<void> {
  const ctx = createRequestContext(services, { organizationId, apiKeyId: null, scopes: new Set(CUSTOMER_SCOPES) });
  await watchMutationResolvers.createWatch(
    null,
    { watch_type: 'filter', name: 'New US filings in class 9', query: { filters: { offices: ['us'], niceClasses: [9] } } },
    ctx,
  );
  await watchMutationResolvers.createWatch(
    null,
    { watch_type: 'similarity', name: `Look-alikes of ${DEMO_PROTECTED_MARK}`, query: { q: DEMO_PROTECTED_MARK, filters: { offices: ['us'] } } },
    ctx,
  );
}
