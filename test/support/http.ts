/**
 * Small HTTP helpers shared by the black-box tests: send a request as a client would, and assert
 * a success or an error envelope.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { TestApp } from './harness';

export interface ErrorResponse {
  error: { type: string; status: number; detail: string; suggestion: string; [extra: string]: unknown };
  request_id: string;
}

/**
 * Sends `method path` with the test organization's full key (or `key`; null sends none), a JSON
 * body when given, and a fresh Idempotency-Key on every write.
 */
export function send(app: TestApp, method: string, path: string, body?: unknown, key?: string | null, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(app.baseUrl + path, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key ?? app.keys.full}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(method === 'GET' ? {} : { 'idempotency-key': randomUUID() }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The body of a response that must have `status`. */
export async function ok<T>(response: Response, status = 200): Promise<T> {
  const body = (await response.json()) as T;
  expect(response.status, JSON.stringify(body)).to.equal(status);
  return body;
}

/** The error envelope of a response that must fail with `status` and `type` (and a detail part). */
export async function fails(response: Response, status: number, type: string, detailPart?: string): Promise<ErrorResponse> {
  const body = (await response.json()) as ErrorResponse;
  expect(response.status, JSON.stringify(body)).to.equal(status);
  expect(body.error.type).to.equal(type);
  if (detailPart) expect(body.error.detail).to.contain(detailPart);
  return body;
}
