/**
 * HTTP/1.1 written by hand on a socket, for requests a client library refuses to send (bad
 * percent-encoding, oversized headers): returns everything the server wrote before it closed,
 * and whether the socket ended gracefully or was reset.
 */
import { connect } from 'node:net';

export interface RawExchange {
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  reset: boolean;
}

export function rawRequest(baseUrl: string, request: string): Promise<RawExchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let text = '';
    let reset = false;
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => (reset = true));
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ text, status: Number(statusLine.split(' ')[1]), headers, body, reset });
    });
  });
}
