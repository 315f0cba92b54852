/**
 * The adapters of a data directory: the only place that chooses them. MONGODB_URL,
 * ELASTICSEARCH_URL and REDIS_URL select the production adapters; with none set, everything runs
 * embedded in this process on MARQUE_DATA_DIR. Kept apart from the server's composition
 * (compose.ts) so that commands which only read or write data (ingest, marks, orgs, keys, seed)
 * load neither the HTTP stack nor the workers.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createEmbeddedDocumentStore } from '../datasources/embedded/document-store';
import { createEmbeddedKeyValue } from '../datasources/embedded/key-value';
import { createEmbeddedMediaStore } from '../datasources/embedded/media-store';
import { createEmbeddedSearchIndex } from '../datasources/embedded/search-index';
import { ImageIndex } from '../datasources/image-index';
import type { DocumentStore, KeyValue, MediaStore, SearchIndex } from '../datasources/ports';
import { CATALOG_COLLECTIONS, COLLECTIONS } from '../domain/records';
import { STORE_INDEXES } from '../resolvers/store-indexes';
import { withGeneratedLogos } from '../workers/ingest/generated-logos';
import { upgradePartyKeys } from '../workers/ingest/party-key-upgrade';
import { ConfigError, type Config } from './config';

export interface Adapters {
  store: DocumentStore;
  search: SearchIndex;
  kv: KeyValue;
  /** Image bytes under `<dataDir>/media`, their records in the store (an object store is a later adapter). */
  media: MediaStore;
  /** Image search's fingerprints and ANN indexes (files under `<dataDir>/image-index`); absent: image search finds nothing. */
  images?: ImageIndex;
}

/** Collections whose writes feed the change stream (high-volume internal ones stay out). */
const FEED_COLLECTIONS = [
  COLLECTIONS.trademarks,
  // Every version of a mark, with what changed: the watch evaluator reads these.
  COLLECTIONS.trademarkChanges,
  COLLECTIONS.owners,
  COLLECTIONS.attorneys,
  COLLECTIONS.firms,
  COLLECTIONS.entities,
  COLLECTIONS.proceedings,
  // The organizations' event logs: webhooks and the alertCreated subscription follow them.
  COLLECTIONS.events,
  // Stored and generated logos: the image indexer follows them.
  COLLECTIONS.media,
  COLLECTIONS.generatedLogos,
];

export interface OpenOptions {
  /** The embedded store's WAL checkpoint interval in pages (long write bursts: see EmbeddedDocumentStoreOptions). */
  storeCheckpointPages?: number;
}

/**
 * The data directory holds keys' hashes, request logs, sealed responses and the server secret:
 * created 0700. A directory that already exists keeps its permissions (it may be shared on
 * purpose); the files Marque creates in it are 0600 whatever the directory allows.
 */
function ensurePrivateDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // A configuration mistake (a path under a file, a directory we may not write), said as one.
    throw new ConfigError(`MARQUE_DATA_DIR ${dir} cannot be used as the data directory: ${(error as Error).message}`);
  }
}

/** The embedded DocumentStore's file in a data directory. */
export const storeFile = (dataDir: string): string => join(dataDir, 'marque.sqlite');
/** The embedded SearchIndex's file in a data directory. */
export const searchFile = (dataDir: string): string => join(dataDir, 'search.sqlite');

/**
 * Opens the configured adapters. The drivers of MongoDB, Elasticsearch and Redis are loaded only
 * when configured, which keeps the embedded default's start-up short.
 */
export async function openAdapters(config: Config, options: OpenOptions = {}): Promise<Adapters> {
  ensurePrivateDirectory(config.dataDir);
  const store = config.mongodbUrl
    ? (await import('../datasources/mongo/document-store')).createMongoDocumentStore({
        url: config.mongodbUrl,
        database: config.mongodbDatabase,
        feedCollections: FEED_COLLECTIONS,
      })
    : createEmbeddedDocumentStore({
        path: storeFile(config.dataDir),
        feedCollections: FEED_COLLECTIONS,
        checkpointPages: options.storeCheckpointPages,
        // The catalog, which the read routes fetch by ID (document-store/document-cache.ts).
        cache: { collections: CATALOG_COLLECTIONS, entries: config.documentCacheEntries },
      });
  const search = config.elasticsearchUrl
    ? (await import('../datasources/elastic/search-index')).createElasticSearchIndex({ node: config.elasticsearchUrl })
    : createEmbeddedSearchIndex({ path: searchFile(config.dataDir) });
  const kv = config.redisUrl
    ? await (await import('../datasources/redis/key-value')).createRedisKeyValue({ url: config.redisUrl })
    : createEmbeddedKeyValue({ path: join(config.dataDir, 'kv.sqlite') });
  await store.ensureIndexes(STORE_INDEXES);
  // Before anything ingests: a party key of an older fold would not match and make a duplicate.
  const refolded = await upgradePartyKeys(store);
  if (refolded > 0) process.stderr.write(`marque: refolded the keys of ${refolded} parties (owners, attorneys, firms, entities) to the current text fold\n`);
  // The demo's logos are rendered into the MediaStore when first read (workers/ingest/generated-logos.ts).
  const media = withGeneratedLogos(createEmbeddedMediaStore({ directory: mediaDirectory(config.dataDir), store }), store);
  return { store, search, kv, media, images: new ImageIndex({ store, directory: join(config.dataDir, 'image-index') }) };
}

/** Where the embedded MediaStore keeps its files. */
export function mediaDirectory(dataDir: string): string {
  return join(dataDir, 'media');
}

export async function closeAdapters(adapters: Adapters): Promise<void> {
  await Promise.allSettled([adapters.store.close(), adapters.search.close(), adapters.kv.close()]);
}

/** The cursor-signing secret: configured, or generated once and kept beside the data. */
export function cursorSecret(config: Config): Buffer {
  if (config.cursorSecret) return Buffer.from(config.cursorSecret, 'utf8');
  const file = join(config.dataDir, 'cursor-secret.key');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
