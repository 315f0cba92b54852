/**
 * The idempotency stage (spec: Idempotency), after limits and before parsing:
 *
 * - `Idempotency-Key` is 1 to 255 characters of A-Za-z0-9_-; a malformed key is 400 on every
 *   authenticated route, exempt or not; a missing key is 400 where the route requires one
 *   (`route.idempotency === 'required'`: PATCH, DELETE, non-exempt POST).
 * - Keys are scoped to the organization. The first request claims the key (KeyValue
 *   beginIdempotent, atomic on every adapter); the request's fingerprint is the calling key (its
 *   ID and scopes; an OAuth caller's token subject) + the door it came in by (HTTP or an MCP tool)
 *   + method + request target (path with IDs, and query) + canonical JSON body, so the same key on
 *   another resource, with another body, from another API key or user, or by the other door is a
 *   different request (409). A replay thus never hands one key what another key's request answered, such
 *   as the secret of a key it could not have created itself.
 * - A replay with the same fingerprint gets the first response back: status, body (with its
 *   original request_id) and the headers that belong to the result (Content-Type, Location), plus
 *   `Idempotent-Replayed: true`. The exchange's own headers (Request-Id, RateLimit-*, X-Quota-*)
 *   describe the replay request itself.
 * - Same key, other fingerprint → 409 conflict; same key while the first request still runs →
 *   409 idempotency_processing (retryable).
 * - Only 2xx responses are stored, for 24 hours; anything else releases the key so a retry runs.
 * - Stored responses are sealed (AES-256-GCM under a key derived from the server secret): a key
 *   creation or rotation replays its secret, and that secret must not lie readable in the
 *   KeyValue or the store.
 * - A write (a route that requires the key) is atomic with its receipt: the operation runs in a
 *   DocumentStore transaction that also stores the sealed response (`idempotency_receipts`). If
 *   the process dies after that commit but before the KeyValue records the completion, the retry
 *   finds the receipt, heals the KeyValue and replays: the write is never made twice.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { DocumentStore, IdempotencyBegin, KeyValue } from '../datasources/ports';
import { ApiError, invalid } from '../domain/errors';
import { COLLECTIONS, type IdempotencyReceiptDoc } from '../domain/records';
import type { Caller } from '../resolvers/context';
import type { RouteDef } from './route';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{1,255}$/;
/** Completed responses are replayed for 24 hours (spec: Other constants). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim stays "in flight". Longer than any request runs; if the process holding it dies,
 * the key becomes usable again after this.
 */
export const IN_FLIGHT_TTL_MS = 60_000;
/** Response headers that are part of the stored result (the rest describe the exchange). */
const REPLAYED_HEADERS = ['content-type', 'location'] as const;

/** Reads and checks the header; null when absent. Malformed → 400 on any route. */
export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw invalid(IDEMPOTENCY_HEADER, 'must be 1 to 255 characters of A-Z, a-z, 0-9, _ and - (header Idempotency-Key)');
  }
  return value;
}

/** The key a route may use: a required key must be present. Null: no idempotency for this request. */
export function idempotencyKeyFor(route: Pick<RouteDef, 'idempotency' | 'method'>, header: string | string[] | undefined): string | null {
  const key = readIdempotencyKey(header);
  if (route.idempotency !== 'required') return null;
  if (key === null) {
    throw invalid(
      IDEMPOTENCY_HEADER,
      `header is required on ${route.method} requests to this endpoint; send a unique key per operation (1 to 255 characters of A-Za-z0-9_-)`,
    );
  }
  return key;
}

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` fingerprint alike; nulls kept. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, member]) => `${JSON.stringify(k)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What a key stands for: who sent it, the method, the request target as sent (path with its IDs,
 * and query) and the body. The same key on another resource (`DELETE /v1/portfolios/pf_b` after
 * `…/pf_a`) is another request, so it is refused as a conflict rather than answered with the
 * first resource's result; so is the same request from another API key, or from the same key
 * after its scopes changed (rotation keeps a key's ID, so a retry with the new secret replays).
 */
export function requestFingerprint(
  sender: Pick<Caller, 'apiKeyId' | 'subject' | 'scopes'>,
  method: string,
  target: string,
  body: unknown,
  door: RequestDoor,
): string {
  // An OAuth caller has no key: its token's subject stands for it.
  const who = `${sender.apiKeyId ?? `token:${sender.subject ?? ''}`} ${[...sender.scopes].sort().join(',')} ${door}`;
  const hash = createHash('sha256')
    .update(`${who}\n${method} ${target}\n${canonicalJson(body)}`)
    .digest('base64url');
  return `${FINGERPRINT_FORMULA}:${hash}`;
}

/**
 * The fingerprint formula, named in every fingerprint so that a key claimed under another one (by
 * the release before an upgrade, within its 24 hours) is told apart from a different request. The
 * formula changed as security fixes widened what a request is (the sending key, its scopes, the
 * door), so an older fingerprint cannot be compared with a newer request and is never replayed;
 * the fingerprints written without a name are this formula's own.
 */
const FINGERPRINT_FORMULA = 'f1';

/** Whether a stored fingerprint names the request's: the same, or this formula's written without its name. */
function sameRequest(stored: string, fingerprint: string): boolean {
  return stored === fingerprint || stored === fingerprint.slice(FINGERPRINT_FORMULA.length + 1);
}

/** A stored fingerprint with no formula name that is not this formula's: written by an older release. */
const olderRelease = (stored: string): boolean => !stored.includes(':');

/**
 * Where a request came in: over HTTP, or as an MCP tool call (which goes through the route). Part
 * of the fingerprint, so that a key used by a tool is not replayed over HTTP: a tool result never
 * shows a signing secret, and its key must not hand the secret to a REST replay either.
 */
export type RequestDoor = 'http' | 'mcp';

/** Organization scope: two organizations may use the same key independently. */
export function idempotencyStorageKey(organizationId: string, key: string): string {
  return `idem:${organizationId}:${key}`;
}

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export type IdempotencyOutcome = { kind: 'run' } | { kind: 'replay'; sealed: string };

/** What a claim attempt means for this request; throws the 409s. */
export function interpretBegin(begin: IdempotencyBegin, fingerprint: string): IdempotencyOutcome {
  if (begin.state === 'started') return { kind: 'run' };
  if (!sameRequest(begin.fingerprint, fingerprint)) {
    if (olderRelease(begin.fingerprint)) {
      throw new ApiError(
        'conflict',
        `${IDEMPOTENCY_HEADER} was used in the last 24 hours for another request, or for this one before the service was upgraded, when requests were compared differently; ` +
          'before retrying with a new key, check whether the first request took effect',
      );
    }
    throw new ApiError('conflict', `${IDEMPOTENCY_HEADER} was already used for a different request (another body, method, endpoint or API key); use a new key`);
  }
  if (begin.state === 'in_flight') {
    throw new ApiError('idempotency_processing', `the first request with this ${IDEMPOTENCY_HEADER} is still running; retry shortly`, {}, 1);
  }
  return { kind: 'replay', sealed: begin.response };
}

/** The claim meets a receipt: the same request replays it, another body is a conflict. */
export function interpretReceipt(receipt: Pick<IdempotencyReceiptDoc, 'fingerprint' | 'response'>, fingerprint: string): IdempotencyOutcome {
  return interpretBegin({ state: 'completed', fingerprint: receipt.fingerprint, response: receipt.response }, fingerprint);
}

const SEAL_VERSION = 'v1';

/**
 * Seals stored responses with AES-256-GCM. The key is derived (HKDF-SHA256) from the server secret,
 * which every API process shares (it also signs cursors), so any of them can replay.
 */
export class ResponseSealer {
  private readonly key: Buffer;

  constructor(serverSecret: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'marque idempotent responses', 32));
  }

  seal(response: StoredResponse): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
    return [SEAL_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Throws when the text was not sealed with this secret (tampered, or another secret). */
  open(sealed: string): StoredResponse {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== SEAL_VERSION || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('stored response is not sealed');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(plain) as StoredResponse;
  }
}

/** What is kept of a response for its replay; a body sent as bytes is kept as its text. */
export function storedResponse(status: number, body: string | Buffer, headers: Record<string, unknown>): StoredResponse {
  const kept: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (typeof value === 'string') kept[name] = value;
  }
  return { status, body: typeof body === 'string' ? body : body.toString('utf8'), headers: kept };
}

/** One request's hold on a key, from the claim to storing (2xx) or releasing (anything else). */
export interface IdempotencyClaim {
  storageKey: string;
  fingerprint: string;
}

export class IdempotencyStage {
  constructor(
    private readonly kv: KeyValue,
    private readonly store: DocumentStore,
    private readonly sealer: ResponseSealer,
    private readonly clock: () => number = Date.now,
  ) {}

  private get receipts() {
    return this.store.collection<IdempotencyReceiptDoc>(COLLECTIONS.idempotencyReceipts);
  }

  /**
   * Claims the request's key. Returns null when the route takes no key (or none was sent on an
   * exempt route), a claim to finish later, or the stored response to replay.
   */
  async begin(
    route: RouteDef,
    /** The request target as sent: path and query. */
    target: string,
    caller: Caller,
    header: string | string[] | undefined,
    body: unknown,
    door: RequestDoor,
  ): Promise<{ claim: IdempotencyClaim } | { replay: StoredResponse } | null> {
    const key = idempotencyKeyFor(route, header);
    if (key === null) return null;
    const claim: IdempotencyClaim = {
      storageKey: idempotencyStorageKey(caller.organizationId, key),
      fingerprint: requestFingerprint(caller, route.method, target, body, door),
    };
    let outcome = interpretBegin(await this.kv.beginIdempotent(claim.storageKey, claim.fingerprint, IN_FLIGHT_TTL_MS), claim.fingerprint);
    if (outcome.kind === 'run' && route.idempotency === 'required') {
      const receipt = await this.receipts.findOne({ _id: claim.storageKey, expires_at: { $gt: new Date(this.clock()).toISOString() } });
      if (receipt) {
        outcome = interpretReceipt(receipt, claim.fingerprint);
        // The write committed but its completion never reached the KeyValue: record it now.
        if (outcome.kind === 'replay') await this.kv.completeIdempotent(claim.storageKey, claim.fingerprint, receipt.response, IDEMPOTENCY_TTL_MS);
      }
    }
    return outcome.kind === 'run' ? { claim } : { replay: this.sealer.open(outcome.sealed) };
  }

  /**
   * Runs a write and stores its receipt in one DocumentStore transaction, so the write and the
   * record that it happened commit together. `run` returns the response to send.
   */
  async runWrite(claim: IdempotencyClaim, run: () => Promise<StoredResponse>): Promise<StoredResponse> {
    return this.store.transaction(async () => {
      const response = await run();
      const receipt: IdempotencyReceiptDoc = {
        _id: claim.storageKey,
        fingerprint: claim.fingerprint,
        response: this.sealer.seal(response),
        expires_at: new Date(this.clock() + IDEMPOTENCY_TTL_MS).toISOString(),
      };
      await this.receipts.replaceOne(receipt);
      return response;
    });
  }

  /** Stores a 2xx response for replay; releases the key for anything else. */
  async finish(claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
    if (response.status >= 200 && response.status < 300) {
      await this.kv.completeIdempotent(claim.storageKey, claim.fingerprint, this.sealer.seal(response), IDEMPOTENCY_TTL_MS);
    } else {
      await this.kv.abandonIdempotent(claim.storageKey);
    }
  }

  async release(claim: IdempotencyClaim): Promise<void> {
    await this.kv.abandonIdempotent(claim.storageKey);
  }
}
