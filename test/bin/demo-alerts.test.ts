/**
 * `npm start` on a fresh machine: `marque serve` seeds the demo, prints a key, creates the demo
 * watches, and its change simulator makes them alert; the newcomer reads alerts with that key.
 * Two processes started together seed once; a seed cut short starts over at the next start.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { COLLECTIONS } from '../../domain/records';
import { MARQUE, startServe } from '../support/serve-process';

describe('bin: the demo (marque serve on an empty data directory)', function () {
  this.timeout(120_000);
  let dataDir: string;

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-demo-alerts-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the demo watches have alerts within a minute', async () => {
    // 60 changes a minute instead of the default 6, so the test waits seconds, not a minute.
    const { child, baseUrl, exit: exited } = await startServe({ MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '300', MARQUE_DEMO_CHANGES_PER_MINUTE: '60' });
    try {
      const key = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
      const headers = { authorization: `Bearer ${key}` };
      const watches = (await (await fetch(`${baseUrl}/v1/watches`, { headers })).json()) as { data: Array<{ name: string }> };
      expect(watches.data.map((watch) => watch.name).sort()).to.deep.equal(['Look-alikes of LUMINARA', 'New US filings in class 9']);
      let alerts: Array<{ trigger: { type: string } }> = [];
      for (let tries = 0; tries < 60 && alerts.length === 0; tries++) {
        await delay(1000);
        alerts = ((await (await fetch(`${baseUrl}/v1/alerts`, { headers })).json()) as { data: typeof alerts }).data;
      }
      expect(alerts.length).to.be.above(0);
      expect(alerts.map((alert) => alert.trigger.type)).to.include('new_filing');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('two processes started together on one empty data directory: one seeds while the other waits, both serve the one demo', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'marque-demo-twice-'));
    const env = { MARQUE_DATA_DIR: directory, MARQUE_DEMO_MARKS: '300', MARQUE_DEMO_CHANGES_PER_MINUTE: '0', MARQUE_WORKERS: '1' };
    const started = await Promise.allSettled([startServe(env), startServe(env)]);
    const serves = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    try {
      for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason;
      expect(serves.filter((serve) => serve.stderr().includes('seeding the demo dataset'))).to.have.length(1);
      const headers = { authorization: `Bearer ${readFileSync(join(directory, 'demo-key.txt'), 'utf8').trim()}` };
      for (const { baseUrl } of serves) {
        const watches = (await (await fetch(`${baseUrl}/v1/watches`, { headers })).json()) as { data: unknown[] };
        expect(watches.data).to.have.length(2);
      }
    } finally {
      for (const serve of serves) serve.child.kill('SIGTERM');
      await Promise.all(serves.map((serve) => serve.exit));
    }
    const store = createEmbeddedDocumentStore({ path: join(directory, 'marque.sqlite'), feedCollections: [] });
    try {
      expect(await store.collection(COLLECTIONS.trademarks).countDocuments({})).to.equal(300);
      expect(await store.collection(COLLECTIONS.organizations).countDocuments({})).to.equal(1);
    } finally {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  // Killed outright, the first holds the seed's lease until it lapses (2 s here).
  for (const signal of ['SIGKILL'] as const) {
    it(`a seed stopped half-way by ${signal} starts over at the next start, with what it was asked for, and gives the demo key`, async () => {
      const directory = mkdtempSync(join(tmpdir(), 'marque-demo-cut-'));
      try {
        const env = { MARQUE_DATA_DIR: directory, MARQUE_DEMO_CHANGES_PER_MINUTE: '0', MARQUE_WORKERS: '1', MARQUE_WORKER_LEASE_MS: '2000' };
        const first = spawn(process.execPath, [MARQUE, 'serve'], { env: { ...process.env, ...env, PORT: '0', MARQUE_DEMO_MARKS: '5000' }, stdio: 'ignore' });
        const exited = new Promise((resolve) => first.once('exit', resolve));
        // Stopped once the first chunk of 1,000 marks is committed, long before the fifth.
        await until(() => storedMarks(directory) > 0, 60_000);
        first.kill(signal);
        await exited;
        const cut = storedMarks(directory);
        expect(cut, 'marks stored when stopped').to.be.above(0).and.below(5000);

        // Asked for fewer this time: the seed that was cut short is the one that runs again.
        const second = await startServe({ ...env, MARQUE_DEMO_MARKS: '300' });
        try {
          expect(second.stderr()).to.include('was cut short; starting it over (5,000 marks)');
          const headers = { authorization: `Bearer ${readFileSync(join(directory, 'demo-key.txt'), 'utf8').trim()}` };
          const watches = (await (await fetch(`${second.baseUrl}/v1/watches`, { headers })).json()) as { data: unknown[] };
          expect(watches.data).to.have.length(2);
        } finally {
          second.child.kill('SIGTERM');
          await second.exit;
        }
        expect(storedMarks(directory)).to.equal(5000);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  }
});

/** Marks in the data directory's store, read as another process would (0 before the table exists). */
function storedMarks(directory: string): number {
  const path = join(directory, 'marque.sqlite');
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM trademarks').pluck().get() as number;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}

async function until(condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await delay(20);
  }
}
