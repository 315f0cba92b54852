/**
 * One HTTP request to a server we do not run, and its answer read to a byte cap: what a webhook
 * delivery (post-json.ts) and an image search's `image_url` (get-image.ts) both do. The URL has
 * passed outbound-url.ts; in production the socket's `lookup` is the connect-time address guard of
 * address-policy.ts, so no request reaches a private, loopback, link-local or metadata address even
 * when the name has been rebound since the URL was checked.
 *
 * Built on node:http/https rather than undici: each request takes its own `lookup` (the guard) and
 * owns its socket, so a timeout or the byte cap destroys exactly this request's connection, with no
 * dependency and no shared connection pool. `agent: false` gives every request a fresh connection:
 * keep-alive would let a socket opened under one guard decision carry later requests.
 *
 * - Timeouts: `connectTimeoutMs` runs from the call until the TCP connection is open (so it covers
 *   name resolution); `responseTimeoutMs` runs from the call until the response has been read (TLS
 *   handshake, sending, the server's processing, the body).
 * - A server has answered once its status line and headers have arrived: from then on the result
 *   is that status with the body read so far, and `complete` says whether the body ended by itself
 *   (rather than reaching the cap, being cut off or running past the response deadline).
 * - At most `maxResponseBytes` bytes of the body are read, then the connection is destroyed.
 * - Redirects are not followed: a 3xx is returned as the status (following one would reach a URL
 *   nobody checked).
 *
 * A request that fails never throws: the result says why. The promise rejects only on a programming
 * error (a header name or value Node refuses), which no server or network can cause.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { ApiError } from '../../domain/errors';
import { addressRefusal, guardedLookup, ipLiteralHost, systemLookup } from './address-policy';
import { parseOutboundUrl, type OutboundUrlOptions } from './outbound-url';

export interface ExchangeOptions extends OutboundUrlOptions {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  maxResponseBytes: number;
}

export type OutboundFailure = 'timeout' | 'connection_failed' | 'forbidden_address' | 'invalid_url';

export type ExchangeResult =
  { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer; complete: boolean } | { ok: false; error: OutboundFailure; message: string };

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string | number>;
  body?: string;
}

const failure = (error: OutboundFailure, message: string): ExchangeResult => ({ ok: false, error, message });

/** Sends `request` to `url` under the outbound rules; the parameter named in a refusal is `options.parameter` (default url). */
export async function exchange(url: string, request: OutboundRequest, options: ExchangeOptions): Promise<ExchangeResult> {
  let target: URL;
  try {
    target = parseOutboundUrl(url, options.production, options.parameter);
  } catch (error) {
    return failure('invalid_url', error instanceof ApiError ? error.detail : String(error));
  }
  // Node calls no lookup for an IP-literal host, so the guard cannot see it: check it here.
  const literal = ipLiteralHost(target);
  const refusal = options.production && literal !== null ? addressRefusal([literal], options.parameter) : null;
  if (refusal) return failure('forbidden_address', refusal.detail);
  return send(target, request, options);
}

function send(target: URL, outbound: OutboundRequest, options: ExchangeOptions): Promise<ExchangeResult> {
  return new Promise((resolve) => {
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(target, {
      method: outbound.method,
      agent: false,
      headers: outbound.headers,
      lookup: options.production ? guardedLookup(options.lookup ?? systemLookup, options.parameter) : options.lookup,
    });

    let settled = false;
    /** Set once the server has answered: ends the call with its status and the body read so far. */
    let answer: ((complete: boolean) => void) | null = null;
    const settle = (result: ExchangeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(responseTimer);
      request.destroy();
      resolve(result);
    };
    const connectTimer = setTimeout(() => settle(failure('timeout', `no connection within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
    const responseTimer = setTimeout(
      () => (answer ? answer(false) : settle(failure('timeout', `no response within ${options.responseTimeoutMs} ms`))),
      options.responseTimeoutMs,
    );

    request.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    request.on('error', (error) => {
      if (answer) answer(false);
      // The guard's refusal is the only ApiError a request can raise.
      else if (error instanceof ApiError) settle(failure('forbidden_address', error.detail));
      else settle(failure('connection_failed', error.message));
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let remaining = options.maxResponseBytes;
      // statusCode is always set on a response a client received; 0 only satisfies the type.
      const answered = (complete: boolean): void =>
        settle({ ok: true, status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), complete });
      answer = answered;
      response.on('data', (chunk: Buffer) => {
        const kept = chunk.subarray(0, remaining);
        chunks.push(kept);
        remaining -= kept.length;
        if (remaining <= 0) answered(false);
      });
      response.on('end', () => answered(true));
      response.on('error', () => answered(false)).on('close', () => answered(false));
      if (remaining <= 0) answered(false);
    });
    request.end(outbound.body);
  });
}
