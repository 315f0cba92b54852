/**
 * The graceful stop of a real `marque serve` process (finding 7): readiness says shutting_down
 * while the drain lasts, every request in flight is answered (one whose body is still arriving
 * when the listener closes, too), the process exits 0; a second signal exits at once. With one
 * process and with two HTTP workers under a primary (which forwards the stop to each).
 */
import Ajv from 'ajv';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as delay } from 'node:timers/promises';
import { MARQUE, startServe, type ServeProcess } from '../support/serve-process';

// Long enough that, on a loaded two-core machine, readiness is asked while the 50 requests are still in flight.
const DRAIN_MS = 3_000;

interface Running extends ServeProcess {
  key: string;
}

async function start(dataDir: string, key: string, workers: number, drainMs = DRAIN_MS): Promise<Running> {
  return {
    ...(await startServe({ MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '0', MARQUE_DRAIN_MS: String(drainMs), MARQUE_WORKERS: String(workers) })),
    key,
  };
}

/** A POST whose headers arrive now and whose body arrives when `sendBody` is called. */
function slowPost(baseUrl: string, path: string, key: string, body: string): { sendBody(): void; response: Promise<string> } {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const response = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
  return { sendBody: () => socket.end(body), response };
}

for (const workers of [1, 2])
  describe(`bin: the graceful stop of marque serve --workers ${workers} (finding 7)`, function () {
    this.timeout(120_000);
    let dataDir: string;
    let key: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'marque-stop-'));
      const run = promisify(execFile);
      const env = { ...process.env, MARQUE_DATA_DIR: dataDir, MARQUE_LOG_LEVEL: 'silent' };
      await run(process.execPath, [MARQUE, 'seed', '--marks', '300', '--seed', '11'], { env });
      const org = JSON.parse((await run(process.execPath, [MARQUE, 'orgs', 'create', '--name', 'Stop test'], { env })).stdout) as { id: string };
      key = (
        JSON.parse((await run(process.execPath, [MARQUE, 'keys', 'create', '--org', org.id, '--scopes', 'trademarks:read'], { env })).stdout) as {
          secret: string;
        }
      ).secret;
    });

    after(() => rmSync(dataDir, { recursive: true, force: true }));

    it('answers all 50 requests in flight at SIGTERM, shows shutting_down first, and exits 0', async () => {
      const server = await start(dataDir, key, workers);
      // The 503 is a readiness body, as the served OpenAPI document says (not the error envelope).
      const ajv = new Ajv({ strict: false });
      ajv.addSchema(await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json(), 'openapi.json', undefined, false);
      const readiness503 = ajv.compile({ $ref: 'openapi.json#/paths/~1health~1ready/get/responses/503/content/application~1json/schema' });
      const items = Array.from({ length: 1000 }, (_, i) => ({ jurisdiction: 'US', registration_date: `20${String(10 + (i % 10))}-03-0${1 + (i % 9)}` }));
      const slow = slowPost(server.baseUrl, '/v1/deadlines/compute', key, JSON.stringify({ items: items.slice(0, 10), as_of_date: '2026-01-01' }));
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const inFlight = [
        fetch(`${server.baseUrl}/v1/deadlines/compute`, { method: 'POST', headers, body: JSON.stringify({ items, as_of_date: '2026-01-01' }) }),
        ...Array.from({ length: 49 }, (_, i) => fetch(`${server.baseUrl}/v1/trademarks?offices=US&limit=${1 + (i % 20)}`, { headers })),
      ];
      server.child.kill('SIGTERM');
      let readiness: { status: number; body: { status?: string } } | null = null;
      for (let tries = 0; tries < 50 && readiness?.body.status !== 'shutting_down'; tries++) {
        const response = await fetch(`${server.baseUrl}/health/ready`);
        readiness = { status: response.status, body: (await response.json()) as { status?: string } };
        await delay(20);
      }
      expect(readiness).to.deep.include({ status: 503 });
      expect(readiness?.body.status).to.equal('shutting_down');
      const documented = readiness503(readiness?.body);
      const statuses = await Promise.all(inFlight.map(async (request) => (await request).status));
      expect(statuses).to.deep.equal(new Array(50).fill(200));
      // Past the drain the listener closes; a request whose body was still arriving is answered whole.
      await delay(DRAIN_MS + 300);
      slow.sendBody();
      expect(await slow.response).to.match(/^HTTP\/1\.1 200 OK/);
      expect(await server.exit).to.equal(0);
      expect(documented, JSON.stringify(readiness503.errors)).to.equal(true);
    });

    it('exits at once on a second signal during the drain', async () => {
      // A drain longer than this test's timeout: only the second signal can end the process in time.
      const server = await start(dataDir, key, workers, 600_000);
      server.child.kill('SIGTERM');
      await delay(100);
      server.child.kill('SIGTERM');
      expect(await server.exit).to.equal(128 + 15);
    });
  });
