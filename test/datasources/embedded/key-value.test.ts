import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createEmbeddedKeyValue } from '../../../datasources/embedded/key-value';
import { describeKeyValueContract } from '../key-value.contract';

describeKeyValueContract('embedded (:memory:)', async () => createEmbeddedKeyValue({ path: ':memory:' }));

describe('embedded KeyValue persistence', () => {
  let directory: string;

  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marque-kv-'));
  });
  afterEach(() => {
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('keeps quota counters across closing and reopening the file', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const check = { key: 'quota:org_1:search:monthly', limit: 3, resetsAt: Date.now() + 3_600_000 };
    const first = createEmbeddedKeyValue({ path: file });
    await first.consumeCounters([check], 1, Date.now());
    await first.consumeCounters([check], 1, Date.now());
    await first.close();

    const reopened = createEmbeddedKeyValue({ path: file });
    expect((await reopened.peekCounters([check], Date.now()))[0]!.used).to.equal(2);
    expect((await reopened.consumeCounters([check], 1, Date.now())).allowed).to.equal(true);
    expect((await reopened.consumeCounters([check], 1, Date.now())).refusedIndex).to.equal(0);
    await reopened.close();
  });

  it('keeps completed and in-flight idempotency records across closing and reopening the file', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const first = createEmbeddedKeyValue({ path: file });
    await first.beginIdempotent('org_1:done', 'hash-a', 30_000);
    await first.completeIdempotent('org_1:done', 'hash-a', '{"data":1}', 86_400_000);
    await first.beginIdempotent('org_1:running', 'hash-b', 30_000);
    await first.close();

    const reopened = createEmbeddedKeyValue({ path: file });
    expect(await reopened.beginIdempotent('org_1:done', 'hash-a', 30_000)).to.deep.equal({
      state: 'completed',
      fingerprint: 'hash-a',
      response: '{"data":1}',
    });
    expect(await reopened.beginIdempotent('org_1:running', 'hash-c', 30_000)).to.deep.equal({
      state: 'in_flight',
      fingerprint: 'hash-b',
    });
    await reopened.close();
  });

  it('sweeps expired counters and idempotency records out of the file periodically', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const store = createEmbeddedKeyValue({ path: file, pruneIntervalMs: 20 });
    await store.consumeCounters([{ key: 'short', limit: 5, resetsAt: Date.now() + 30 }], 1, Date.now());
    await store.consumeCounters([{ key: 'long', limit: 5, resetsAt: Date.now() + 3_600_000 }], 1, Date.now());
    await store.beginIdempotent('claim', 'hash', 30);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reader = new Database(file, { readonly: true });
    try {
      expect(reader.prepare('SELECT key FROM counters').pluck().all()).to.deep.equal(['long']);
      expect(reader.prepare('SELECT COUNT(*) FROM idempotency').pluck().get()).to.equal(0);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('creates the directory of the file when missing', async () => {
    const store = createEmbeddedKeyValue({ path: path.join(directory, 'nested', 'kv.sqlite') });
    await store.ping();
    await store.close();
    expect(fs.existsSync(path.join(directory, 'nested', 'kv.sqlite'))).to.equal(true);
  });
});
