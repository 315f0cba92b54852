/**
 * A client that sends its request a byte at a time (with or without a key) does not hold a
 * connection of `marque serve` for ever: past MARQUE_REQUEST_TIMEOUT_MS the server answers with the
 * catalog's 400 naming the request ("was not received in time") and closes it, and goes on serving
 * others.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeProcess } from '../support/serve-process';

const TIMEOUT_MS = 1_500;
/** How long the drip would go on if nothing stopped it: one byte every 200 ms of a 1,000-byte body. */
const DRIP_MS = 200_000;

/** Sends `head`, then the body a byte every 200 ms; resolves with what the server wrote once it closes, and when. */
function drip(baseUrl: string, head: string): Promise<{ text: string; afterMs: number }> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let text = '';
    const timer = setInterval(() => socket.writable && socket.write('x'), 200);
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, afterMs: Date.now() - started });
    });
  });
}

describe('bin: slow clients of marque serve', function () {
  this.timeout(60_000);
  let dataDir: string;
  let server: ServeProcess;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-slow-clients-'));
    server = await startServe({ MARQUE_DATA_DIR: dataDir, MARQUE_DEMO_MARKS: '0', MARQUE_WORKERS: '1', MARQUE_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  });
  after(async () => {
    server.child.kill('SIGTERM');
    await server.exit;
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [who, authorization] of [
    ['without a key', ''],
    ['with a malformed key', 'Authorization: Bearer mq_not-a-key\r\n'],
  ] as const) {
    it(`a body sent a byte at a time ${who} is refused and its connection closed after the request timeout`, async () => {
      const head = `POST /v1/trademarks/batch HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n`;
      const { text, afterMs } = await drip(server.baseUrl, head);
      expect(text).to.match(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { type: string; parameter: string; detail: string } };
      expect(body.error).to.include({ type: 'validation_error', parameter: 'request' });
      expect(body.error.detail).to.contain('was not received in time');
      expect(afterMs).to.be.below(DRIP_MS / 10);
      expect((await fetch(`${server.baseUrl}/health/live`)).status).to.equal(200);
    });
  }
});
