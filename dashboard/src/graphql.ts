/**
 * The dashboard's only way to the server: the named operations of queries.ts sent to /graphql
 * with the caller's key. Errors keep the catalog's shape (extensions.type, message = detail).
 */
import { OPERATIONS, type OperationName } from './queries';

export const GRAPHQL_URL = '/graphql';

export class GraphqlFailure extends Error {
  constructor(
    message: string,
    readonly type: string,
    readonly status: number,
  ) {
    super(message);
  }
}

interface GraphqlBody<T> {
  data?: T | null;
  errors?: Array<{ message: string; extensions?: { type?: string; status?: number } }>;
}

export type Variables = Record<string, unknown>;

function failureOf(body: GraphqlBody<unknown>, status: number): GraphqlFailure | null {
  const [first] = body.errors ?? [];
  if (!first) return null;
  return new GraphqlFailure(first.message, first.extensions?.type ?? 'error', first.extensions?.status ?? status);
}

export async function request<T>(key: string, name: OperationName, variables: Variables = {}): Promise<T> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: OPERATIONS[name], operationName: name, variables }),
  });
  let body: GraphqlBody<T>;
  try {
    body = (await response.json()) as GraphqlBody<T>;
  } catch {
    throw new GraphqlFailure(`The server answered ${response.status} without a GraphQL body`, 'error', response.status);
  }
  const failure = failureOf(body, response.status);
  if (failure) throw failure;
  if (!body.data) throw new GraphqlFailure('The server answered without data', 'error', response.status);
  return body.data;
}

/**
 * A subscription over server-sent events (graphql-yoga's "distinct connections" protocol): a POST
 * with `Accept: text/event-stream`, read as a stream. Not EventSource, which cannot send the
 * Authorization header. Resolves when the stream ends or `signal` aborts; rejects on a refusal.
 */
export async function subscribe<T>(key: string, name: OperationName, onData: (data: T) => void, signal: AbortSignal, onOpen?: () => void): Promise<void> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: OPERATIONS[name], operationName: name }),
    signal,
  });
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
    const body = (await response.json().catch(() => ({}))) as GraphqlBody<T>;
    throw failureOf(body, response.status) ?? new GraphqlFailure(`Live updates refused (${response.status})`, 'error', response.status);
  }
  onOpen?.();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      // Events are separated by a blank line; a partial event waits for the next chunk.
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (!data) continue; // keep-alive comments and the closing "complete" event
        const body = JSON.parse(data) as GraphqlBody<T>;
        const failure = failureOf(body, 200);
        if (failure) throw failure;
        if (body.data) onData(body.data);
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    throw error;
  }
}
