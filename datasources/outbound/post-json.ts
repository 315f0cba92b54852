/**
 * The one way Marque sends a request to a server it does not run: POST a JSON body to a webhook
 * URL, under the rules of outbound-url.ts (checked again on every call, since the stored URL and the
 * environment may have changed) and, in production, the connect-time address guard of
 * address-policy.ts, so no request reaches a private, loopback, link-local or metadata address even
 * when the name has been rebound since the endpoint was checked.
 *
 * Built on node:http/https rather than undici: each request takes its own `lookup` (the guard) and
 * owns its socket, so a timeout or the byte cap destroys exactly this delivery's connection, with no
 * dependency and no shared connection pool. `agent: false` gives every delivery a fresh connection:
 * keep-alive would save little at webhook rates and would let a socket opened under one guard
 * decision carry later requests.
 *
 * - Timeouts: `connectTimeoutMs` runs from the call until the TCP connection is open (so it covers
 *   name resolution); `responseTimeoutMs` runs from the call until the response has been read (TLS
 *   handshake, sending, the receiver's processing, the body).
 * - A receiver has answered once its status line and headers have arrived: from then on the result
 *   is that status with the body read so far, whether the body ends, reaches the cap, is cut off or
 *   the response deadline passes (the body is kept only for diagnostics). Before that, a passed
 *   deadline is `timeout`.
 * - At most `maxResponseBytes` bytes of the body are read, then the connection is destroyed; they are
 *   decoded as UTF-8, dropping a character the cap cut in two.
 * - Redirects are not followed: a 3xx is returned as the status (following one would send the signed
 *   payload to a URL nobody checked).
 *
 * A delivery that fails never throws: the result says why. The promise rejects only on a programming
 * error (a header name or value Node refuses), which no receiver or network can cause.
 */
import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { ApiError } from '../../domain/errors';
import { addressRefusal, guardedLookup, ipLiteralHost, systemLookup } from './address-policy';
import { parseOutboundUrl, type OutboundUrlOptions } from './outbound-url';

export const USER_AGENT = 'Marque-Webhooks/1';

export interface PostJsonOptions extends OutboundUrlOptions {
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  maxResponseBytes: number;
}

export type OutboundFailure = 'timeout' | 'connection_failed' | 'forbidden_address' | 'invalid_url';

export type OutboundResponse = { ok: true; status: number; body: string } | { ok: false; error: OutboundFailure; message: string };

const failure = (error: OutboundFailure, message: string): OutboundResponse => ({ ok: false, error, message });

/** POSTs `body` (JSON text) to `url` with `headers` plus content-type, content-length and user-agent. */
export async function postJson(url: string, body: string, headers: Record<string, string>, options: PostJsonOptions): Promise<OutboundResponse> {
  let target: URL;
  try {
    target = parseOutboundUrl(url, options.production);
  } catch (error) {
    return failure('invalid_url', error instanceof ApiError ? error.detail : String(error));
  }
  // Node calls no lookup for an IP-literal host, so the guard cannot see it: check it here.
  const literal = ipLiteralHost(target);
  const refusal = options.production && literal !== null ? addressRefusal([literal]) : null;
  if (refusal) return failure('forbidden_address', refusal.detail);
  return send(target, body, headers, options);
}

function send(target: URL, body: string, headers: Record<string, string>, options: PostJsonOptions): Promise<OutboundResponse> {
  return new Promise((resolve) => {
    const transport = target.protocol === 'https:' ? https : http;
    const request = transport.request(target, {
      method: 'POST',
      agent: false,
      // Ours come last so a caller's differently cased copy cannot replace them (Node folds header case).
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
      lookup: options.production ? guardedLookup(options.lookup ?? systemLookup) : options.lookup,
    });

    let settled = false;
    /** Set once the receiver has answered: ends the call with its status and the body read so far. */
    let answer: (() => void) | null = null;
    const settle = (result: OutboundResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(responseTimer);
      request.destroy();
      resolve(result);
    };
    const connectTimer = setTimeout(() => settle(failure('timeout', `no connection within ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
    const responseTimer = setTimeout(
      () => (answer ? answer() : settle(failure('timeout', `no response within ${options.responseTimeoutMs} ms`))),
      options.responseTimeoutMs,
    );

    request.on('socket', (socket) => socket.once('connect', () => clearTimeout(connectTimer)));
    request.on('error', (error) => {
      if (answer) answer();
      // The guard's refusal is the only ApiError a request can raise.
      else if (error instanceof ApiError) settle(failure('forbidden_address', error.detail));
      else settle(failure('connection_failed', error.message));
    });
    request.on('response', (response) => {
      const decoder = new StringDecoder('utf8');
      let text = '';
      let remaining = options.maxResponseBytes;
      // statusCode is always set on a response a client received; 0 only satisfies the type.
      const answered = (): void => settle({ ok: true, status: response.statusCode ?? 0, body: text });
      answer = answered;
      response.on('data', (chunk: Buffer) => {
        const kept = chunk.subarray(0, remaining);
        text += decoder.write(kept);
        remaining -= kept.length;
        if (remaining <= 0) answered();
      });
      response.on('end', answered).on('error', answered).on('close', answered);
      if (remaining <= 0) answered();
    });
    request.end(body);
  });
}
