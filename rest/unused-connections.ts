/**
 * Node's `server.close()` waits for every connection that is not idle between two requests, and a
 * connection that has not sent a byte yet (a browser's or a proxy's preconnect, a client that
 * opened one and never used it) counts as busy: it holds the close until `headersTimeout` (60 s)
 * or the shutdown timeout cuts it (it held the shared test app's close for 39.9 s). So when the app
 * closes, each such connection is ended once it has been open QUIET_MS without a byte; one whose
 * request is on its way is left to send it and be answered.
 */
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

const QUIET_MS = 1_000;

export function endUnusedConnectionsOnClose(app: FastifyInstance): void {
  const openedAt = new Map<Socket, number>();
  app.server.on('connection', (socket: Socket) => {
    openedAt.set(socket, Date.now());
    socket.once('close', () => openedAt.delete(socket));
  });
  const sweep = (): void => {
    let waiting = false;
    for (const [socket, opened] of openedAt) {
      if (socket.bytesRead > 0) continue;
      if (Date.now() - opened >= QUIET_MS) socket.destroy();
      else waiting = true;
    }
    if (waiting) setTimeout(sweep, QUIET_MS / 4).unref();
  };
  app.addHook('preClose', (done) => {
    sweep();
    done();
  });
}
