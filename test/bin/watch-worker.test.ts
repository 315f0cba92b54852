/**
 * `marque worker watches` killed with SIGKILL in the middle of a stream of changes and started
 * again produces exactly the alerts an uninterrupted run produces: none lost, none twice, none
 * with a new identity.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { closeAdapters, openAdapters } from '../../bin/adapters';
import { createServer } from '../../bin/compose';
import { readConfig } from '../../bin/config';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { addMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { MARQUE } from '../support/serve-process';

const MARKS = 2_400;

/** Alert IDs in a data directory, read straight from its store file. */
function alertIds(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'marque.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT _id FROM alerts ORDER BY _id').pluck().all() as string[]).slice();
  } catch {
    return [];
  } finally {
    db.close();
  }
}

function startWorker(dataDir: string) {
  const child = spawn(process.execPath, [MARQUE, 'worker', 'watches'], {
    env: { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, exited };
}

/** Runs the worker until the alert count stops growing at `expected`. */
async function runUntil(dataDir: string, expected: number): Promise<void> {
  const worker = startWorker(dataDir);
  try {
    for (let tries = 0; tries < 600 && alertIds(dataDir).length < expected; tries++) await delay(100);
    await delay(300);
  } finally {
    worker.child.kill('SIGTERM');
    await worker.exited;
  }
}

describe('bin: marque worker watches after kill -9', function () {
  this.timeout(240_000);
  let root: string;
  let interrupted: string;
  let uninterrupted: string;
  let matching = 0;

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'marque-watch-worker-'));
    interrupted = join(root, 'a');
    uninterrupted = join(root, 'b');
    const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: interrupted }));
    try {
      const org = await createOrganization(adapters.store, { name: 'Worker test', plan: 'pro' });
      const { secret } = await createApiKey(adapters.store, { organizationId: org._id, name: 'k', scopes: [...CUSTOMER_SCOPES] });
      const server = await createServer(adapters, Buffer.from('secret'), { workers: [], runRetention: false, log: () => undefined });
      await server.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = server.app.server.address() as AddressInfo;
      for (const query of [{ filters: { offices: ['us'] } }, { filters: { niceClasses: [9] } }]) {
        const response = await fetch(`http://127.0.0.1:${port}/v1/watches`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': JSON.stringify(query).replace(/\W/g, '') },
          body: JSON.stringify({ watch_type: 'filter', query }),
        });
        expect(response.status).to.equal(201);
      }
      await server.close();
      // Marks written after the watches exist, through the one write path: US or EM, class 9 or 25.
      const writer = new MarkWriter(adapters.store);
      for (let i = 0; i < MARKS; i++) {
        const office = i % 2 === 0 ? 'US' : 'EM';
        const classes = i % 3 === 0 ? [9] : [25];
        await addMark(adapters.store, writer, { markText: `Mark ${i}`, officeCode: office, classes, ownerName: null, status: 'pending', today: '2026-11-20' });
        matching += (office === 'US' ? 1 : 0) + (classes[0] === 9 ? 1 : 0);
      }
    } finally {
      await closeAdapters(adapters);
    }
    cpSync(interrupted, uninterrupted, { recursive: true });
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('the alerts after SIGKILL and a restart equal those of an uninterrupted run', async () => {
    const worker = startWorker(interrupted);
    let atKill = 0;
    for (let tries = 0; tries < 2_000; tries++) {
      atKill = alertIds(interrupted).length;
      if (atKill > 0) break;
      await delay(5);
    }
    worker.child.kill('SIGKILL');
    await worker.exited;
    const afterKill = alertIds(interrupted).length;
    expect(afterKill, 'killed mid-stream').to.be.above(0).and.below(matching);
    await runUntil(interrupted, matching);
    await runUntil(uninterrupted, matching);
    const resumed = alertIds(interrupted);
    expect(resumed).to.have.length(matching);
    expect(resumed).to.deep.equal(alertIds(uninterrupted));
  });
});
