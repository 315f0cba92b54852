/**
 * The webhook delivery: POST a JSON body to a webhook URL through exchange.ts (the outbound rules,
 * checked again on every call since the stored URL and the environment may have changed, and in
 * production the connect-time address guard).
 *
 * A receiver has answered once its status line and headers have arrived: the result is that status
 * with the body read so far (at most `maxResponseBytes`, kept only for diagnostics, decoded as UTF-8
 * dropping a character the cap cut in two), whether the body ends, reaches the cap, is cut off or
 * the response deadline passes. Redirects are not followed: a 3xx is the status (following one would
 * send the signed payload to a URL nobody checked).
 *
 * A delivery that fails never throws: the result says why.
 */
import { StringDecoder } from 'node:string_decoder';
import { exchange, type ExchangeOptions, type OutboundFailure } from './exchange';

export type { OutboundFailure } from './exchange';

export const USER_AGENT = 'Marque-Webhooks/1';

export type PostJsonOptions = ExchangeOptions;

export type OutboundResponse = { ok: true; status: number; body: string } | { ok: false; error: OutboundFailure; message: string };

/** POSTs `body` (JSON text) to `url` with `headers` plus content-type, content-length and user-agent. */
export async function postJson(url: string, body: string, headers: Record<string, string>, options: PostJsonOptions): Promise<OutboundResponse> {
  const result = await exchange(
    url,
    {
      method: 'POST',
      // Ours come last so a caller's differently cased copy cannot replace them (Node folds header case).
      headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': USER_AGENT },
      body,
    },
    options,
  );
  if (!result.ok) return result;
  // write() without end(): a character the cap cut in two is dropped rather than replaced.
  return { ok: true, status: result.status, body: new StringDecoder('utf8').write(result.body) };
}
