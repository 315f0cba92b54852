import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAdapters, openAdapters, type Adapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';
import { DEMO_KEY_FILE, seedAndIndex } from '../../bin/demo';
import { silentProgress } from '../../bin/progress';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { SearchIndexer } from '../../workers/indexer';
import { startServe } from '../support/serve-process';

describe('bin/demo: seedAndIndex on the embedded default', function () {
  this.timeout(60_000);
  let dataDir: string;
  let adapters: Adapters;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-seed-'));
    const config = readConfig({ MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '0' });
    adapters = await openAdapters(config);
    await seedAndIndex(config, adapters, 300, 5, silentProgress);
    await new SearchIndexer(adapters.store, adapters.search).ensureIndexes();
  });

  after(async () => {
    await closeAdapters(adapters);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('indexes every stored mark (the index thread) and finds one by its text and office', async () => {
    const marks = await adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({});
    expect(marks).to.have.length(300);
    const all = await adapters.search.search({ index: TRADEMARK_INDEX.name, filters: [], sort: [], limit: 1000, countUpTo: 1000 });
    expect(all.total?.value).to.equal(300);
    const mark = marks.find((m) => m.mark_text.length >= 4)!;
    const found = await adapters.search.search({
      index: TRADEMARK_INDEX.name,
      text: mark.mark_text,
      filters: [{ field: 'office_code', op: 'eq', value: mark.office_code }],
      sort: [],
      limit: 1000,
    });
    expect(found.hits.map((hit) => hit.id)).to.include(mark._id);
  });

  it('fills the party indexes from the store and writes no change-feed rows for the seed', async () => {
    const owners = await adapters.store.collection(COLLECTIONS.owners).countDocuments({});
    const indexed = await adapters.search.search({ index: 'owners', filters: [], sort: [], limit: 1, countUpTo: 100_000 });
    expect(indexed.total?.value).to.equal(owners);
    expect(await adapters.store.latestPosition()).to.equal(null);
  });
});

describe('bin/serve: a demo asked for in production', function () {
  this.timeout(120_000);

  it('writes its key to demo-key.txt only: nothing the process prints holds it, and the key works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'marque-demo-production-'));
    const serve = await startServe({
      MARQUE_DATA_DIR: dataDir,
      MARQUE_ENV: 'production',
      MARQUE_DEMO_MARKS: '200',
      MARQUE_WORKERS: '1',
      MARQUE_DEMO_CHANGES_PER_MINUTE: '0',
    });
    try {
      const key = readFileSync(join(dataDir, DEMO_KEY_FILE), 'utf8').trim();
      expect(key).to.match(/^mq_/);
      expect(serve.stdout() + serve.stderr()).to.not.contain(key);
      expect(serve.stderr()).to.contain(join(dataDir, DEMO_KEY_FILE));
      const response = await fetch(`${serve.baseUrl}/v1/trademarks?offices=US&limit=1`, { headers: { authorization: `Bearer ${key}` } });
      expect(response.status).to.equal(200);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exit;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
