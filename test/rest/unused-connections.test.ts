/**
 * Closing the app does not wait for connections that never sent a byte (Node counts them as busy
 * until its 60 s headers timeout), and still answers a request that arrives on a fresh connection
 * while it closes.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import Fastify, { type FastifyInstance } from 'fastify';
import { endUnusedConnectionsOnClose } from '../../rest/unused-connections';

async function openApp(): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ return503OnClosing: false });
  endUnusedConnectionsOnClose(app);
  app.get('/', async () => 'ok');
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as { port: number }).port };
}

async function connected(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

describe('REST: connections at close', () => {
  it('a connection that never sent a byte is ended, so the close completes', async function () {
    this.timeout(10_000);
    const { app, port } = await openApp();
    const silent = await connected(port);
    const ended = once(silent, 'close');
    // Without the sweep, Node keeps the server open for this socket until its 60 s headers timeout.
    await app.close();
    await ended;
  });

  it('a request sent on a fresh connection while the app closes is answered', async function () {
    this.timeout(10_000);
    const { app, port } = await openApp();
    const socket = await connected(port);
    const closed = app.close();
    let response = '';
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    await once(socket, 'close');
    await closed;
    expect(response).to.match(/^HTTP\/1\.1 200 /);
    expect(response).to.match(/\r\n\r\nok$/);
  });
});
