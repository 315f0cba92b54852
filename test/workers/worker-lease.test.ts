/**
 * Worker leases (workers/worker-lease.ts) over the real embedded KeyValue: of two processes' copies
 * of one worker exactly one runs; the other takes over at its next ask when the first stops
 * cleanly, and within 4/3 of the time to live when the first vanished without a word; a holder that cannot renew
 * stops its worker once its last hold has lapsed. Times are short (a 300 ms lease) and every
 * wait polls for the outcome rather than sleeping a fixed time.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import type { KeyValue } from '../../datasources/ports';
import { WorkerLease, type LeasedWork } from '../../workers/worker-lease';

const TTL_MS = 300;

/** A worker that records whether it runs. */
class RecordedWork implements LeasedWork {
  running = false;
  starts = 0;
  start(): void {
    this.running = true;
    this.starts += 1;
  }
  async stop(): Promise<void> {
    this.running = false;
  }
}

async function until(condition: () => boolean, withinMs = 5_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await delay(10);
  }
}

describe('workers: worker leases', () => {
  let dir: string;
  let kv: KeyValue;
  const leases: WorkerLease[] = [];
  const lease = (name: string, work: LeasedWork, holder: string, store: KeyValue = kv): WorkerLease => {
    const created = new WorkerLease(store, name, work, { ttlMs: TTL_MS }, holder);
    leases.push(created);
    return created;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'marque-lease-'));
    kv = createEmbeddedKeyValue({ path: join(dir, 'kv.sqlite') });
  });
  afterEach(async () => {
    for (const created of leases.splice(0)) await created.stop();
    await kv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs one of two copies of a worker, and the other at once after the first stops', async () => {
    const [first, second] = [new RecordedWork(), new RecordedWork()];
    const a = lease('webhooks', first, 'process-a');
    const b = lease('webhooks', second, 'process-b');
    a.start();
    await until(() => first.running);
    b.start();
    // Several renewal periods: the second never starts while the first holds the lease.
    await delay(TTL_MS * 2);
    expect([first.running, second.running]).to.deep.equal([true, false]);
    expect([a.holds, b.holds]).to.deep.equal([true, false]);
    await a.stop();
    expect(first.running).to.equal(false);
    // A clean stop releases the lease: the next check (a third of the ttl) takes it.
    await until(() => second.running, TTL_MS);
    expect(second.starts).to.equal(1);
  });

  it('keeps the lease while its worker takes longer than the lease to stop, so no other copy starts beside it', async () => {
    let stopping = false;
    const slow: LeasedWork & { running: boolean } = {
      running: false,
      start() {
        this.running = true;
      },
      async stop() {
        stopping = true;
        await delay(TTL_MS * 2.5);
        this.running = false;
        stopping = false;
      },
    };
    const other = new RecordedWork();
    const a = lease('webhooks', slow, 'process-a');
    a.start();
    await until(() => slow.running);
    lease('webhooks', other, 'process-b').start();
    const stopped = a.stop();
    await until(() => stopping);
    while (stopping) {
      expect(other.running, 'the other copy started while the first was still stopping').to.equal(false);
      await delay(10);
    }
    await stopped;
    await until(() => other.running, TTL_MS);
  });

  it('takes over a worker whose holder vanished once its lease has lapsed', async () => {
    // A holder that died (kill -9) leaves its lease behind, unrenewed.
    expect(await kv.holdLease('worker-lease:indexer', 'dead-process', TTL_MS)).to.equal(true);
    const work = new RecordedWork();
    const startedAt = Date.now();
    lease('indexer', work, 'process-b').start();
    await until(() => work.running);
    expect(Date.now() - startedAt).to.be.at.least(TTL_MS - 20);
  });

  it('runs each worker name under its own lease', async () => {
    const [indexer, webhooks] = [new RecordedWork(), new RecordedWork()];
    lease('indexer', indexer, 'process-a').start();
    lease('webhooks', webhooks, 'process-b').start();
    await until(() => indexer.running && webhooks.running);
  });

  it('stops the worker of a holder that cannot renew once its last hold has lapsed, and lets another take it', async () => {
    let reachable = true;
    const flaky: KeyValue = {
      ...kv,
      holdLease: (key, holder, ttlMs) => (reachable ? kv.holdLease(key, holder, ttlMs) : Promise.reject(new Error('KeyValue unreachable'))),
      releaseLease: (key, holder) => (reachable ? kv.releaseLease(key, holder) : Promise.reject(new Error('KeyValue unreachable'))),
    };
    const [cut, other] = [new RecordedWork(), new RecordedWork()];
    lease('watches', cut, 'process-a', flaky).start();
    await until(() => cut.running);
    reachable = false;
    lease('watches', other, 'process-b').start();
    await until(() => !cut.running, TTL_MS * 3);
    await until(() => other.running, TTL_MS * 3);
  });
});

describe('workers: one-off work in turn (inTurn)', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'marque-in-turn-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a process stopped by ${signal} while it holds the lease lets go of it before it ends, long before the lease would lapse`, async function () {
      this.timeout(30_000);
      const path = join(directory, 'kv.sqlite');
      const child = fork(require.resolve('../support/lease-holder'), [], {
        env: { ...process.env, MARQUE_TEST_KV_PATH: path, MARQUE_TEST_LEASE_KEY: 'demo-seed' },
        execArgv: [...process.execArgv, '-r', 'ts-node/register/transpile-only'],
      });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, by) => resolve(by)));
      await new Promise<void>((resolve) => child.once('message', () => resolve()));
      const kv = createEmbeddedKeyValue({ path });
      try {
        expect(await kv.get('demo-seed'), 'held while working').to.not.equal(null);
        child.kill(signal);
        // Ended by the signal, as it would have been without inTurn; the lease (60 s) is free at once.
        expect(await exited).to.equal(signal);
        expect(await kv.get('demo-seed')).to.equal(null);
      } finally {
        await kv.close();
      }
    });
  }
});
