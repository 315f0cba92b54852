/**
 * First start on an empty store: seed the demo dataset, index it, create a demo organization
 * with a key holding every customer scope, print the key once and keep it in demo-key.txt (0600).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentStore } from '../datasources/ports';
import { COLLECTIONS } from '../domain/records';
import { CUSTOMER_SCOPES } from '../domain/scopes';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization } from '../resolvers/accounts/organizations';
import type { SearchIndexer } from '../workers/indexer';
import { seedStore } from '../workers/ingest/seed';

export async function isEmptyStore(store: DocumentStore): Promise<boolean> {
  return (await store.collection(COLLECTIONS.trademarks).findOne({})) === null;
}

export interface SeedReport {
  marks: number;
  seconds: number;
}

/** Seeds `marks` marks and indexes them, printing progress to stderr. */
export async function seedAndIndex(store: DocumentStore, indexer: SearchIndexer, marks: number, seed: number, progress: (line: string) => void): Promise<SeedReport> {
  const started = Date.now();
  let lastShown = 0;
  const show = (label: string, done: number, total: number) => {
    if (Date.now() - lastShown < 1000 && done < total) return;
    lastShown = Date.now();
    const rate = Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
    progress(`${label}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} (${rate.toLocaleString('en-US')}/s)`);
  };
  await seedStore(store, { marks, seed, onProgress: (done, total) => show('stored', done, total) });
  await indexer.ensureIndexes();
  await indexer.rebuild((index, done) => show(`indexed ${index}`, done, index === 'trademarks' ? marks : done));
  return { marks, seconds: (Date.now() - started) / 1000 };
}

export async function createDemoAccount(store: DocumentStore, dataDir: string): Promise<string> {
  const org = await createOrganization(store, { name: 'Demo organization', plan: 'beta' });
  const { secret } = await createApiKey(store, { organizationId: org._id, name: 'Demo key', scopes: [...CUSTOMER_SCOPES] });
  writeFileSync(join(dataDir, 'demo-key.txt'), `${secret}\n`, { mode: 0o600 });
  return secret;
}
