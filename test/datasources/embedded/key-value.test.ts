import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createEmbeddedKeyValue } from '../../../datasources/embedded/key-value';
import { DependencyUnavailableError } from '../../../datasources/ports';
import { expectOpenedTogetherInWal } from '../../support/open-together';
import { describeKeyValueContract } from '../key-value.contract';

describe('embedded KeyValue on a file', () => {
  let directory: string;
  before(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marque-kv-contract-'));
  });
  after(() => {
    fs.rmSync(directory, { recursive: true, force: true });
  });

  // The file is what several API processes of one data directory share.
  describeKeyValueContract('embedded (SQLite file)', () => ({ adapter: 'embedded', path: path.join(directory, 'kv.sqlite') }));
});

describe('embedded KeyValue persistence', () => {
  let directory: string;

  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'marque-kv-'));
  });
  afterEach(() => {
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('opens a new file from several processes at the same moment, in WAL mode, none failing', async function () {
    this.timeout(60_000);
    // `serve` and `marque worker` started together on a new data directory.
    await expectOpenedTogetherInWal('key-value', directory);
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

  it('keeps sliding windows across closing and reopening the file', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const check = { key: 'rl:org_1:pool:read', limit: 2, windowMs: 60_000 };
    const start = Date.now();
    const first = createEmbeddedKeyValue({ path: file });
    await first.consumeWindows([check], 1, start);
    await first.consumeWindows([check], 1, start + 1_000);
    await first.close();

    const reopened = createEmbeddedKeyValue({ path: file });
    const refused = await reopened.consumeWindows([check], 1, start + 2_000);
    expect(refused.allowed).to.equal(false);
    // The unit charged at `start` leaves at start + 60 s, 58 s after this refusal.
    expect(refused.windows[0]).to.include({ used: 2, resetMs: 58_000 });
    await reopened.close();
  });

  it('sweeps expired entries of every kind out of the file periodically, keeping the live ones', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const store = createEmbeddedKeyValue({ path: file, pruneIntervalMs: 20 });
    const nowMs = Date.now();
    await store.consumeCounters([{ key: 'short', limit: 5, resetsAt: nowMs + 30 }], 1, nowMs);
    await store.consumeCounters([{ key: 'long', limit: 5, resetsAt: nowMs + 3_600_000 }], 1, nowMs);
    await store.beginIdempotent('claim', 'hash', 30);
    await store.set('cached', 'stale', { ttlMs: 30 });
    await store.set('kept', 'forever');
    await store.consumeWindows([{ key: 'idle', limit: 5, windowMs: 30 }], 2, nowMs);
    await store.consumeWindows([{ key: 'busy', limit: 5, windowMs: 60_000 }], 1, nowMs);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reader = new Database(file, { readonly: true });
    const keys = (table: string): unknown[] => reader.prepare(`SELECT DISTINCT key FROM ${table} ORDER BY key`).pluck().all();
    try {
      expect(keys('counters')).to.deep.equal(['long']);
      expect(keys('idempotency')).to.deep.equal([]);
      expect(keys('entries')).to.deep.equal(['kept']);
      expect(keys('windows')).to.deep.equal(['busy']);
      expect(keys('window_units')).to.deep.equal(['busy']);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('sweeps backlogs larger than one batch of 500 rows', async () => {
    const file = path.join(directory, 'kv.sqlite');
    // Written with no sweep due, so the whole backlog waits for the next store's first sweep.
    const writer = createEmbeddedKeyValue({ path: file, pruneIntervalMs: 3_600_000 });
    const nowMs = Date.now();
    // Keys sort as idle and live alternately, so every batch of the walk over windows holds both.
    const label = (index: number): string => String(index).padStart(4, '0');
    for (let index = 0; index < 1_200; index += 1) {
      const windowMs = index % 2 === 0 ? 30 : 60_000;
      await writer.consumeWindows([{ key: `w${label(index)}`, limit: 5, windowMs }], 1, nowMs);
      await writer.consumeCounters([{ key: `c${label(index)}`, limit: 5, resetsAt: nowMs + 30 }], 1, nowMs);
    }
    await writer.close();
    await new Promise((resolve) => setTimeout(resolve, 40));
    const store = createEmbeddedKeyValue({ path: file, pruneIntervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reader = new Database(file, { readonly: true });
    try {
      const windowKeys = reader.prepare('SELECT key FROM windows ORDER BY key').pluck().all();
      expect(windowKeys).to.have.length(600);
      expect(windowKeys.every((key) => Number(String(key).slice(1)) % 2 === 1)).to.equal(true);
      expect(reader.prepare('SELECT COUNT(*) FROM window_units').pluck().get()).to.equal(600);
      expect(reader.prepare('SELECT COUNT(*) FROM counters').pluck().get()).to.equal(0);
    } finally {
      reader.close();
      await store.close();
    }
  });

  it('reports the cache unavailable while another connection holds the write lock past busyDeadlineMs, and serves once it is released', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const store = createEmbeddedKeyValue({ path: file, busyDeadlineMs: 200 });
    const check = { key: 'locked', limit: 5, windowMs: 60_000 };
    const holder = new Database(file);
    try {
      holder.exec('BEGIN IMMEDIATE');
      let failure: unknown = null;
      await store.consumeWindows([check], 1, Date.now()).catch((error: unknown) => (failure = error));
      expect(failure).to.be.instanceOf(DependencyUnavailableError);
      expect((failure as DependencyUnavailableError).dependency).to.equal('cache');
      holder.exec('COMMIT');
      expect((await store.consumeWindows([check], 1, Date.now())).windows[0]!.used).to.equal(1);
    } finally {
      holder.close();
      await store.close();
    }
  });

  it('keeps the file and its write-ahead log private (0600)', async () => {
    const file = path.join(directory, 'kv.sqlite');
    const store = createEmbeddedKeyValue({ path: file });
    await store.consumeWindows([{ key: 'w', limit: 5, windowMs: 60_000 }], 1, Date.now());
    try {
      for (const name of ['kv.sqlite', 'kv.sqlite-wal', 'kv.sqlite-shm']) {
        expect(fs.statSync(path.join(directory, name)).mode & 0o777, name).to.equal(0o600);
      }
    } finally {
      await store.close();
    }
  });

  describe('operations asked for together', () => {
    /** Frames in the write-ahead log: one per page a commit writes (24-byte frame header + the page). */
    const walFrames = (file: string): number => {
      const pageBytes = new Database(file, { readonly: true }).pragma('page_size', { simple: true }) as number;
      return Math.max(0, fs.statSync(`${file}-wal`).size - 32) / (24 + pageBytes);
    };

    it('share one commit when they are charges: fifty window checks of one key write its pages once, not fifty times', async () => {
      const file = path.join(directory, 'kv.sqlite');
      const store = createEmbeddedKeyValue({ path: file });
      const check = { key: 'plan:org_1:read', limit: 1_000, windowMs: 60_000 };
      await store.consumeWindows([check], 1, Date.now());
      const before = walFrames(file);
      const nowMs = Date.now();
      const decisions = await Promise.all(Array.from({ length: 50 }, (_, index) => store.consumeWindows([check], 1, nowMs + index)));
      // Each check saw the ones asked for before it, in order, as if run one after another.
      expect(decisions.map((decision) => decision.windows[0]!.used)).to.deep.equal(Array.from({ length: 50 }, (_, index) => index + 2));
      // Separate commits would write the window's row page and its log page each time: 100 frames.
      expect(walFrames(file) - before).to.be.below(10);
      await store.close();
    });

    it('undo only the one that fails; an operation asked for after them sees them', async () => {
      const store = createEmbeddedKeyValue({ path: path.join(directory, 'kv.sqlite') });
      const resetsAt = Date.now() + 3_600_000;
      const good = { key: 'quota:good', limit: 5, resetsAt };
      // An expiry SQLite stores as NULL breaks the counter's NOT NULL constraint mid-operation.
      const broken = { key: 'quota:broken', limit: 5, resetsAt: Number.NaN };
      const window = { key: 'plan:org_1:read', limit: 5, windowMs: 60_000 };
      const [counted, failed, charged, peeked] = await Promise.allSettled([
        store.consumeCounters([good], 1, Date.now()),
        store.consumeCounters([good, broken], 1, Date.now()),
        store.consumeWindows([window], 1, Date.now()),
        store.peekCounters([good], Date.now()),
      ]);
      expect(counted.status).to.equal('fulfilled');
      expect(failed.status).to.equal('rejected');
      expect(charged.status).to.equal('fulfilled');
      // The failed charge of `good` was undone with its operation; the first one stands.
      expect(peeked).to.deep.include({ status: 'fulfilled' });
      expect((peeked as PromiseFulfilledResult<Array<{ used: number }>>).value[0]!.used).to.equal(1);
      expect((await store.peekWindows([window], Date.now()))[0]!.used).to.equal(1);
      await store.close();
    });

    it('never wait for a later turn of the event loop', async () => {
      // A DocumentStore transaction holds its file's write lock across awaits: a key-value call
      // inside one must not let another turn (and another connection's write) in; nor may a
      // request's admission, or Node drops the request of a client that half-closed.
      const store = createEmbeddedKeyValue({ path: path.join(directory, 'kv.sqlite') });
      let turned = false;
      setImmediate(() => (turned = true));
      const nowMs = Date.now();
      await Promise.all([
        store.consumeWindows([{ key: 'plan:org_1:read', limit: 5, windowMs: 60_000 }], 1, nowMs),
        store.consumeCounters([{ key: 'quota:org_1', limit: 5, resetsAt: nowMs + 60_000 }], 1, nowMs),
      ]);
      await store.set('key', 'value');
      await store.increment('count', 1);
      await store.beginIdempotent('idem:1', 'f1:x', 60_000);
      await store.holdLease('lease', 'me', 1_000);
      expect(await store.get('key')).to.equal('value');
      expect(turned).to.equal(false);
      await store.close();
    });

    it('are committed by close, when it is asked for at once', async () => {
      const file = path.join(directory, 'kv.sqlite');
      const store = createEmbeddedKeyValue({ path: file });
      const check = { key: 'plan:org_1:read', limit: 5, windowMs: 60_000 };
      const charged = store.consumeWindows([check], 1, Date.now());
      await store.close();
      expect((await charged).allowed).to.equal(true);
      const reopened = createEmbeddedKeyValue({ path: file });
      expect((await reopened.peekWindows([check], Date.now()))[0]!.used).to.equal(1);
      await reopened.close();
    });
  });

  it('creates the directory of the file when missing', async () => {
    const store = createEmbeddedKeyValue({ path: path.join(directory, 'nested', 'kv.sqlite') });
    await store.ping();
    await store.close();
    expect(fs.existsSync(path.join(directory, 'nested', 'kv.sqlite'))).to.equal(true);
  });
});
