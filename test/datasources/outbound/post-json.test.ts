import http from 'node:http';
import net, { type LookupFunction, type Socket } from 'node:net';
import { expect } from 'chai';
import { checkOutboundUrl } from '../../../datasources/outbound/outbound-url';
import { scriptedLookup } from '../../support/fake-lookup';
import { postJson, USER_AGENT, type OutboundFailure, type OutboundResponse, type PostJsonOptions } from '../../../datasources/outbound/post-json';

// ---------------------------------------------------------------------------------------------
// Local receivers: real node:http servers on 127.0.0.1, closed (with their connections) after each test.

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  port: number;
  /** http://127.0.0.1:PORT */
  base: string;
  /** Every request that arrived, with its whole body. */
  received: Received[];
  /** TCP connections accepted: a request refused before connecting leaves this at 0. */
  connections: number;
}

/** Called once a request and its whole body have arrived. */
type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;

const servers: net.Server[] = [];
const sockets = new Set<Socket>();

function track(server: net.Server, onConnection: () => void = () => undefined): void {
  servers.push(server);
  server.on('connection', (socket: Socket) => {
    onConnection();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
}

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

async function startReceiver(handler: Handler = (_request, response) => response.end('received')): Promise<Receiver> {
  const receiver: Receiver = { port: 0, base: '', received: [], connections: 0 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      receiver.received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      handler(request, response, body);
    });
  });
  track(server, () => (receiver.connections += 1));
  receiver.port = await listen(server);
  receiver.base = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** A port nothing listens on: one a server held a moment ago. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

async function closeEverything(): Promise<void> {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map(close));
}

// ---------------------------------------------------------------------------------------------
// Resolvers and options.

/** A resolver that never answers. */
const silentLookup: LookupFunction = () => undefined;

const PUBLIC_V4 = '93.184.216.34';

const DEVELOPMENT: PostJsonOptions = { production: false, connectTimeoutMs: 5_000, responseTimeoutMs: 10_000, maxResponseBytes: 65_536 };
const PRODUCTION: PostJsonOptions = { ...DEVELOPMENT, production: true };

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function expectFailure(result: OutboundResponse, error: OutboundFailure): string {
  expect(result, JSON.stringify(result)).to.include({ ok: false, error });
  if (result.ok) throw new Error('unreachable');
  expect(result.message).to.be.a('string').and.not.equal('');
  return result.message;
}

function expectAnswer(result: OutboundResponse, status: number): string {
  expect(result, JSON.stringify(result)).to.include({ ok: true, status });
  if (!result.ok) throw new Error('unreachable');
  return result.body;
}

const BODY = JSON.stringify({ type: 'trademark.updated', data: { id: 'tm_1', name: 'Café ™' } });

// ---------------------------------------------------------------------------------------------

describe('outbound: postJson', () => {
  afterEach(closeEverything);

  describe('in development', () => {
    it('POSTs the body with content-type, content-length, the given headers and a user-agent', async () => {
      const receiver = await startReceiver((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
      const result = await postJson(`${receiver.base}/hooks/in?source=marque`, BODY, { 'webhook-id': 'msg_1', 'webhook-signature': 'v1,abc=' }, DEVELOPMENT);

      expect(result).to.deep.equal({ ok: true, status: 200, body: 'thanks' });
      expect(receiver.received).to.have.length(1);
      const [request] = receiver.received;
      expect(request?.method).to.equal('POST');
      expect(request?.url).to.equal('/hooks/in?source=marque');
      expect(request?.body).to.equal(BODY);
      expect(request?.headers['content-type']).to.equal('application/json');
      expect(request?.headers['content-length']).to.equal(String(Buffer.byteLength(BODY)));
      expect(request?.headers['webhook-id']).to.equal('msg_1');
      expect(request?.headers['webhook-signature']).to.equal('v1,abc=');
      expect(request?.headers['user-agent']).to.equal(USER_AGENT);
      expect(USER_AGENT).to.match(/Marque/);
    });

    it("keeps its own content-type and user-agent over a caller's differently cased copies", async () => {
      const receiver = await startReceiver();
      const result = await postJson(receiver.base, BODY, { 'Content-Type': 'text/plain', 'User-Agent': 'spoofed/1', 'X-Extra': 'yes' }, DEVELOPMENT);
      expectAnswer(result, 200);
      const headers = receiver.received[0]?.headers;
      expect(headers?.['content-type']).to.equal('application/json');
      expect(headers?.['user-agent']).to.equal(USER_AGENT);
      expect(headers?.['x-extra']).to.equal('yes');
    });

    it('returns a 500 from the receiver as an answer, with its body', async () => {
      const receiver = await startReceiver((_request, response) => response.writeHead(500).end('boom'));
      expect(await postJson(receiver.base, BODY, {}, DEVELOPMENT)).to.deep.equal({ ok: true, status: 500, body: 'boom' });
    });

    it('does not follow a redirect: the 3xx is the status and its target receives nothing', async () => {
      const elsewhere = await startReceiver();
      const receiver = await startReceiver((_request, response) => response.writeHead(302, { location: `${elsewhere.base}/stolen` }).end());
      const result = await postJson(`${receiver.base}/hook`, BODY, {}, DEVELOPMENT);
      expectAnswer(result, 302);
      await pause(100);
      expect(receiver.received).to.have.length(1);
      expect(elsewhere.connections).to.equal(0);
      expect(elsewhere.received).to.deep.equal([]);
    });

    it('answers timeout when the receiver never responds', async () => {
      const receiver = await startReceiver(() => undefined);
      const result = await postJson(receiver.base, BODY, {}, { ...DEVELOPMENT, responseTimeoutMs: 300 });
      expectFailure(result, 'timeout');
      expect(receiver.received).to.have.length(1);
    });

    it('answers timeout when the connection cannot be opened in time (name resolution included)', async () => {
      const result = await postJson(
        'http://never-answers.test:8080/',
        BODY,
        {},
        { ...DEVELOPMENT, lookup: silentLookup, connectTimeoutMs: 300, responseTimeoutMs: 60_000 },
      );
      expectFailure(result, 'timeout');
    });

    it('returns the status and the body read so far when the response deadline passes mid-body', async () => {
      const receiver = await startReceiver((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
      });
      const result = await postJson(receiver.base, BODY, {}, { ...DEVELOPMENT, responseTimeoutMs: 500 });
      expect(result).to.deep.equal({ ok: true, status: 200, body: 'partial' });
    });

    it('returns the status and the body read so far when the receiver cuts the body off', async () => {
      const receiver = await startReceiver((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        response.write('partial', () => response.socket?.destroy());
      });
      expect(await postJson(receiver.base, BODY, {}, DEVELOPMENT)).to.deep.equal({ ok: true, status: 200, body: 'partial' });
    });

    it('stops reading at maxResponseBytes and drops the connection of a receiver streaming 10 MB+', async function () {
      // The response deadline is beyond this test's timeout: only the cap can end the call in time.
      this.timeout(30_000);
      const total = 10 * 1024 * 1024 + 64 * 1024;
      let sent = 0;
      let responseClosed: Promise<void> = Promise.resolve();
      const receiver = await startReceiver((_request, response) => {
        responseClosed = new Promise((resolve) => response.on('close', () => resolve()));
        response.on('error', () => undefined);
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = (): void => {
          while (!response.destroyed && sent < total) {
            sent += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
          // Deliberately never ends the response.
        };
        pump();
      });

      const result = await postJson(receiver.base, BODY, {}, { ...DEVELOPMENT, maxResponseBytes: 1024, responseTimeoutMs: 120_000 });
      const body = expectAnswer(result, 200);
      expect(body.length).to.be.at.most(1024).and.above(0);
      expect(body).to.match(/^x+$/);
      await responseClosed; // the client dropped the connection of a response that never ends
    });

    it('drops a UTF-8 character the byte cap cuts in two', async () => {
      const receiver = await startReceiver((_request, response) =>
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('é'.repeat(1000)),
      );
      const body = expectAnswer(await postJson(receiver.base, BODY, {}, { ...DEVELOPMENT, maxResponseBytes: 1023 }), 200);
      expect(body).to.equal('é'.repeat(511));
    });

    it('answers connection_failed for a port nothing listens on', async () => {
      const port = await closedPort();
      expectFailure(await postJson(`http://127.0.0.1:${port}/hook`, BODY, {}, DEVELOPMENT), 'connection_failed');
    });

    it('answers connection_failed when the receiver drops the connection without answering', async () => {
      const receiver = await startReceiver((request) => request.socket.destroy());
      expectFailure(await postJson(receiver.base, BODY, {}, DEVELOPMENT), 'connection_failed');
    });

    it('answers connection_failed for a name that does not resolve', async () => {
      const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      expectFailure(await postJson('http://nowhere.test/', BODY, {}, { ...DEVELOPMENT, lookup: scriptedLookup([notFound]) }), 'connection_failed');
    });

    it('connects to whatever the injected resolver answers, loopback included', async () => {
      const receiver = await startReceiver();
      const asked: string[] = [];
      const result = await postJson(
        `http://receiver.test:${receiver.port}/hook`,
        BODY,
        {},
        { ...DEVELOPMENT, lookup: scriptedLookup([['127.0.0.1']], { names: asked }) },
      );
      expectAnswer(result, 200);
      expect(asked).to.deep.equal(['receiver.test']);
      expect(receiver.received[0]?.headers.host).to.equal(`receiver.test:${receiver.port}`);
    });

    it('answers invalid_url for credentials, another scheme or an unparsable URL', async () => {
      const receiver = await startReceiver();
      expect(expectFailure(await postJson(`http://user:pass@127.0.0.1:${receiver.port}/`, BODY, {}, DEVELOPMENT), 'invalid_url')).to.contain('url');
      expectFailure(await postJson(`ftp://127.0.0.1:${receiver.port}/`, BODY, {}, DEVELOPMENT), 'invalid_url');
      expectFailure(await postJson('not a url', BODY, {}, DEVELOPMENT), 'invalid_url');
      await pause(100);
      expect(receiver.connections).to.equal(0);
    });

    it('rejects on a header Node refuses (a programming error, not a delivery failure)', async () => {
      const receiver = await startReceiver();
      let rejection: unknown = null;
      await postJson(receiver.base, BODY, { 'bad header': 'x' }, DEVELOPMENT).then(
        () => undefined,
        (error: unknown) => (rejection = error),
      );
      expect(rejection).to.be.instanceOf(Error);
    });
  });

  describe('in production', () => {
    it('refuses an IP-literal loopback host before connecting', async () => {
      const receiver = await startReceiver();
      const message = expectFailure(await postJson(`https://127.0.0.1:${receiver.port}/hook`, BODY, {}, PRODUCTION), 'forbidden_address');
      expect(message).to.contain('loopback');
      await pause(100);
      expect(receiver.connections).to.equal(0);
    });

    it('refuses other forbidden IP literals', async () => {
      for (const host of ['[::1]', '[::ffff:127.0.0.1]', '10.0.0.1', '169.254.169.254', '0.0.0.0', '[fc00::1]', '2130706433']) {
        expectFailure(await postJson(`https://${host}:9/hook`, BODY, {}, PRODUCTION), 'forbidden_address');
      }
    });

    it('refuses a name that resolves to loopback, or to a public and a loopback address', async () => {
      const receiver = await startReceiver();
      for (const answer of [['127.0.0.1'], [PUBLIC_V4, '127.0.0.1'], ['127.0.0.1', PUBLIC_V4]]) {
        const result = await postJson(`https://internal.test:${receiver.port}/`, BODY, {}, { ...PRODUCTION, lookup: scriptedLookup([answer]) });
        expect(expectFailure(result, 'forbidden_address')).to.contain('127.0.0.1');
      }
      await pause(100);
      expect(receiver.connections).to.equal(0);
    });

    it('defeats DNS rebinding: a name public at check time and loopback at delivery is refused', async () => {
      const receiver = await startReceiver();
      const url = `https://rebind.test:${receiver.port}/`;
      const asked: string[] = [];
      const lookup = scriptedLookup([[PUBLIC_V4], ['127.0.0.1']], { names: asked });

      await checkOutboundUrl(url, { production: true, lookup });
      const result = await postJson(url, BODY, {}, { ...PRODUCTION, lookup });

      expect(expectFailure(result, 'forbidden_address')).to.contain('127.0.0.1');
      expect(asked).to.deep.equal(['rebind.test', 'rebind.test']);
      await pause(100);
      expect(receiver.connections).to.equal(0);
    });

    it('(control) the same rebinding resolver does reach the local receiver in development', async () => {
      const receiver = await startReceiver();
      const asked: string[] = [];
      const lookup = scriptedLookup([[PUBLIC_V4], ['127.0.0.1']], { names: asked });

      await checkOutboundUrl(`https://rebind.test:${receiver.port}/`, { production: true, lookup });
      const result = await postJson(`http://rebind.test:${receiver.port}/`, BODY, {}, { ...DEVELOPMENT, lookup });

      expectAnswer(result, 200);
      expect(asked).to.deep.equal(['rebind.test', 'rebind.test']);
      expect(receiver.received).to.have.length(1);
      expect(receiver.received[0]?.body).to.equal(BODY);
    });

    it('answers invalid_url for http:// and sends nothing', async () => {
      const receiver = await startReceiver();
      const message = expectFailure(await postJson(`${receiver.base}/hook`, BODY, {}, PRODUCTION), 'invalid_url');
      expect(message).to.contain('https');
      const named = await postJson(`http://receiver.test:${receiver.port}/`, BODY, {}, { ...PRODUCTION, lookup: scriptedLookup([[PUBLIC_V4]]) });
      expectFailure(named, 'invalid_url');
      await pause(100);
      expect(receiver.connections).to.equal(0);
    });

    it('answers connection_failed for a name that does not resolve', async () => {
      const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
      expectFailure(await postJson('https://nowhere.test/', BODY, {}, { ...PRODUCTION, lookup: scriptedLookup([notFound]) }), 'connection_failed');
    });
  });
});
