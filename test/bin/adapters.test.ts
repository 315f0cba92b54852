import { expect } from 'chai';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAdapters, cursorSecret, openAdapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('bin/adapters: the embedded data directory is private (finding 9)', () => {
  let parent: string;

  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), 'marque-private-'));
  });

  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('creates the directory 0700 and every data file 0600, write-ahead logs included', async () => {
    const dataDir = join(parent, 'data');
    const config = readConfig({ MARQUE_DATA_DIR: dataDir });
    const adapters = await openAdapters(config);
    cursorSecret(config);
    await adapters.store.collection('probe').insertOne({ _id: 'x' });
    const files = readdirSync(dataDir);
    expect(files).to.include.members(['marque.sqlite', 'search.sqlite', 'kv.sqlite', 'cursor-secret.key', 'marque.sqlite-wal']);
    expect(mode(dataDir)).to.equal(0o700);
    for (const file of files) expect(mode(join(dataDir, file)), file).to.equal(0o600);
    await closeAdapters(adapters);
  });

  it('narrows data files an earlier version left readable to 0600', async () => {
    const dataDir = join(parent, 'data');
    const config = readConfig({ MARQUE_DATA_DIR: dataDir });
    await closeAdapters(await openAdapters(config));
    for (const file of readdirSync(dataDir)) chmodSync(join(dataDir, file), 0o644);
    const adapters = await openAdapters(config);
    for (const file of ['marque.sqlite', 'search.sqlite', 'kv.sqlite']) expect(mode(join(dataDir, file)), file).to.equal(0o600);
    expect(existsSync(join(dataDir, 'marque.sqlite'))).to.equal(true);
    await closeAdapters(adapters);
  });
});
