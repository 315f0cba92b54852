/**
 * Opaque pagination cursors: HMAC-signed, bound to the query that produced them, expiring after
 * 24 hours, and carrying the snapshot that pins the result set (inserts after the first page never
 * appear in later pages).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, invalid } from '../domain/errors';

export const CURSOR_TTL_MS = 24 * 60 * 60 * 1000;

export type CursorKey = ReadonlyArray<string | number | boolean | null>;

export interface CursorPosition {
  /** Snapshot sequence (search index) or highest version/position (store lists). */
  snapshot: number;
  /** Sort values of the last row returned. */
  after: CursorKey;
  /** The list's total as its first counted page gave it, so every later page gives the same. */
  total?: number;
}

interface CursorPayload {
  b: string; // binding hash
  s: number;
  a: CursorKey;
  t: number; // issued at, epoch ms
  n?: number; // total
}

/** JSON with object keys sorted, so equal bindings hash equally whatever their key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export class CursorCodec {
  constructor(
    private readonly secret: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  private sign(body: string): Buffer {
    return createHmac('sha256', this.secret).update(body).digest().subarray(0, 16);
  }

  private static bindingHash(binding: unknown): string {
    return createHash('sha256').update(stableJson(binding)).digest('base64url').slice(0, 22);
  }

  encode(binding: unknown, position: CursorPosition): string {
    const payload: CursorPayload = {
      b: CursorCodec.bindingHash(binding),
      s: position.snapshot,
      a: position.after,
      t: this.now(),
      ...(position.total === undefined ? {} : { n: position.total }),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body).toString('base64url')}`;
  }

  /** Verifies signature, binding and age; `parameter` names the field in error details. */
  decode(cursor: string, binding: unknown, parameter = 'cursor'): CursorPosition {
    const malformed = invalid(parameter, 'is not a cursor issued by this API (cursors are opaque; pass back pagination.cursor unchanged)');
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 4096) throw malformed;
    const body = cursor.slice(0, dot);
    const signature = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const expected = this.sign(body);
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw malformed;
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw malformed;
    }
    if (this.now() - payload.t > CURSOR_TTL_MS) {
      throw new ApiError('cursor_expired', `${parameter}: was issued more than 24 hours ago`, { parameter });
    }
    if (payload.b !== CursorCodec.bindingHash(binding)) {
      throw invalid(parameter, 'was issued for a different query, sort or filters; changing any of them requires starting from the first page');
    }
    return { snapshot: payload.s, after: payload.a, ...(typeof payload.n === 'number' ? { total: payload.n } : {}) };
  }
}
