/**
 * The benchmark's data directory: seeded once per size under .tmp/bench-data/m<marks> by the real
 * `marque seed` command (its progress is shown), then reused. It also holds the bench
 * organization's key and the seed's own figures.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createEmbeddedDocumentStore } from '../datasources/embedded/document-store';
import type { LimitsOverride } from '../domain/plans';
import { COLLECTIONS, type OrganizationDoc } from '../domain/records';
import { METERED_POOLS, POOLS, TIERS } from '../domain/plans';
import { CUSTOMER_SCOPES } from '../domain/scopes';
import { createApiKey } from '../resolvers/accounts/api-keys';
import { createOrganization } from '../resolvers/accounts/organizations';
import { STORE_INDEXES } from '../resolvers/store-indexes';
import { nodeArgs, PROJECT_ROOT } from './processes';

export interface SeedFigures {
  marks: number;
  seconds: number;
  marks_per_second: number;
  store_marks_per_second: number;
  index_marks_per_second: number;
  data_dir_bytes: number;
}

export interface Dataset {
  dir: string;
  seed: SeedFigures;
  apiKey: string;
  /** Trademark IDs spread over the whole store. */
  ids: string[];
  /** Words of real mark texts, for text queries. */
  words: string[];
}

const READY_FILE = 'bench-ready.json';
const KEY_FILE = 'bench-key.txt';
const SAMPLE_SIZE = 1000;
const UNLIMITED = 1_000_000_000;

/** The bench organization has no per-minute limits or quotas worth the name (limits_override). */
const BENCH_LIMITS: LimitsOverride = {
  per_minute: Object.fromEntries(POOLS.map((pool) => [pool, UNLIMITED])),
  monthly: Object.fromEntries(METERED_POOLS.map((pool) => [pool, null])),
  tier_ceilings: Object.fromEntries(TIERS.map((tier) => [tier, UNLIMITED])),
};

function runSeed(dir: string, marks: number): Promise<SeedFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, nodeArgs(['-e', `require('./bin/cli.ts').main(['seed', '--marks', '${marks}'])`]), {
      cwd: PROJECT_ROOT,
      env: { ...process.env, MARQUE_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`marque seed exited with ${code}`));
      // The command prints two JSON objects: the seed report, then the directory size.
      const objects = out.split(/\n(?=\{)/).map((text) => JSON.parse(text) as Record<string, number>);
      resolve(Object.assign({}, ...objects) as SeedFigures);
    });
  });
}

async function benchKey(dir: string): Promise<string> {
  const file = join(dir, KEY_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  // Like `marque orgs create`: accounts produce no change-feed rows (no projection reads them).
  const store = createEmbeddedDocumentStore({ path: join(dir, 'marque.sqlite'), feedCollections: [] });
  try {
    await store.ensureIndexes(STORE_INDEXES);
    const org = await createOrganization(store, { name: 'Benchmark organization', plan: 'enterprise' });
    await store.collection<OrganizationDoc>(COLLECTIONS.organizations).updateOne({ _id: org._id }, { $set: { limits_override: BENCH_LIMITS } });
    const { secret } = await createApiKey(store, { organizationId: org._id, name: 'Benchmark key', scopes: [...CUSTOMER_SCOPES] });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  } finally {
    await store.close();
  }
}

function sample(dir: string): { ids: string[]; words: string[] } {
  const db = new Database(join(dir, 'marque.sqlite'), { readonly: true });
  try {
    const count = db.prepare('SELECT max(rowid) FROM trademarks').pluck().get() as number;
    const step = Math.max(1, Math.floor(count / SAMPLE_SIZE));
    const rows = db.prepare("SELECT _id, doc ->> '$.mark_text' AS text FROM trademarks WHERE rowid % ? = 0 LIMIT ?").all(step, SAMPLE_SIZE) as Array<{
      _id: string;
      text: string;
    }>;
    const words = [...new Set(rows.flatMap((row) => row.text.toLowerCase().split(/[^a-z]+/)).filter((word) => word.length >= 4))];
    return { ids: rows.map((row) => row._id), words: words.slice(0, 50) };
  } finally {
    db.close();
  }
}

export async function prepareDataset(root: string, marks: number): Promise<Dataset> {
  const dir = join(root, `m${marks}`);
  const readyFile = join(dir, READY_FILE);
  if (!existsSync(readyFile)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    console.log(`bench: seeding ${marks.toLocaleString('en-US')} marks into ${dir} (reused by later runs)…`);
    writeFileSync(readyFile, JSON.stringify(await runSeed(dir, marks), null, 2));
  }
  const seed = JSON.parse(readFileSync(readyFile, 'utf8')) as SeedFigures;
  return { dir, seed, apiKey: await benchKey(dir), ...sample(dir) };
}
