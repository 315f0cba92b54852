/**
 * A loopback HTTP front that hands each request to the next of several servers in turn, for
 * running the test suite against two serving processes' worth of state (MARQUE_TEST_SERVERS=2 in
 * harness.ts). `marque serve --workers N` hands out connections, not requests; alternating every
 * request is the stricter test: a client's consecutive requests, even on one kept-alive connection,
 * meet a different server's caches, connections and in-memory state each time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AlternatingProxy {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1): a proxy must not pass
 * them on. Passing the servers' `Keep-Alive: timeout=72` (Fastify's) to a client of this front,
 * whose own connections close after Node's 5 s, had the client reuse a connection the front had
 * just closed: a request now and then failed with ECONNRESET.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** A raw header list ([name, value, name, value, …]) without the connection's own headers. */
function endToEnd(rawHeaders: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (!HOP_BY_HOP.has(rawHeaders[i]!.toLowerCase())) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

/** `backends` (base URLs) is read at each request, so servers may join after the front starts. */
export async function startAlternatingProxy(backends: readonly string[]): Promise<AlternatingProxy> {
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  // Headers and URLs up to 1 MiB pass, so that the servers' own limits are what a client meets.
  const server = http.createServer({ maxHeaderSize: 1 << 20 }, (request, response) => {
    const backend = new URL(backends[next++ % backends.length]!);
    const upstream = http.request(
      { agent, host: backend.hostname, port: backend.port, method: request.method, path: request.url, headers: endToEnd(request.rawHeaders) },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`alternating proxy: ${error.message}`);
    });
    // A client that goes away (an aborted stream) takes its upstream request with it.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
