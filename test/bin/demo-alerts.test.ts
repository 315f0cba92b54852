/**
 * `npm start` on a fresh machine: `marque serve` seeds the demo, prints a key, creates the demo
 * watches, and its change simulator makes them alert; the newcomer reads alerts with that key.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const MARQUE = join(__dirname, '..', '..', 'bin', 'marque.js');

describe('bin: the demo keeps alerting (marque serve on an empty data directory)', function () {
  this.timeout(120_000);
  let dataDir: string;

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-demo-alerts-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the demo watches have alerts within a minute', async () => {
    const child = spawn(process.execPath, [MARQUE, 'serve'], {
      // 60 changes a minute instead of the default 6, so the test waits seconds, not a minute.
      env: { ...process.env, MARQUE_DATA_DIR: dataDir, PORT: '0', MARQUE_DEMO_MARKS: '300', MARQUE_DEMO_CHANGES_PER_MINUTE: '60', MARQUE_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const match = /serving (http:\/\/[^\s]+)\/v1/.exec(stderr);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', () => reject(new Error(`marque serve exited: ${stderr}`)));
      });
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
});
