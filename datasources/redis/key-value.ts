/**
 * KeyValue on Redis (node-redis v5). The atomic operations are Lua scripts (scripts.ts). The
 * client never queues commands while disconnected: they fail at once as
 * DependencyUnavailableError('cache') (→ 503), and the client keeps reconnecting in the
 * background so service resumes by itself when Redis is back. A server that accepts commands but
 * stops answering (paused, or a silently dropped connection) fails calls after `timeoutMs`:
 * node-redis's own command timeout only covers the wait before the command is written.
 *
 * Each kind of entry has its own key namespace under `keyPrefix`, so a window, a counter, an
 * idempotency record and a plain key may share a name without clashing (as in the embedded adapter).
 */
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  DisconnectsClientError,
  ErrorReply,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
} from 'redis';
import {
  DependencyUnavailableError,
  type CounterCheck,
  type CounterState,
  type IdempotencyBegin,
  type KeyValue,
  type SetOptions,
  type WindowCheck,
  type WindowsDecision,
} from '../ports';
import { BEGIN_IDEMPOTENT_SCRIPT, COUNTERS_SCRIPT, HOLD_LEASE_SCRIPT, INCREMENT_SCRIPT, RELEASE_LEASE_SCRIPT, WINDOWS_SCRIPT, type LuaScript } from './scripts';

export interface RedisKeyValueOptions {
  url: string;
  /** Prepended to every key (default `marque:`), so several deployments or test runs can share a server. */
  keyPrefix?: string;
  /** Longest wait for a connection or a reply before reporting the cache unavailable (default 1000 ms). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 1_000;
const MAX_RECONNECT_DELAY_MS = 1_000;

/** Server replies that mean "not serving right now" rather than a bug in our command. */
const UNAVAILABLE_REPLY = /^(LOADING|MASTERDOWN|BUSY|TRYAGAIN|CLUSTERDOWN)\b/;

/** node-redis errors that mean the connection, not the command, failed. */
const CONNECTION_ERRORS = [
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ReconnectStrategyError,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
];

class ReplyDeadlineError extends Error {
  override readonly name = 'ReplyDeadlineError';
}

function isUnavailability(error: unknown): boolean {
  if (error instanceof ErrorReply) return UNAVAILABLE_REPLY.test(error.message);
  if (error instanceof ReplyDeadlineError) return true;
  if (CONNECTION_ERRORS.some((kind) => error instanceof kind)) return true;
  // Socket-level failures surface as Node system errors (ECONNRESET, ECONNREFUSED, EPIPE, ...).
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

function asArray(reply: unknown, script: string): unknown[] {
  if (!Array.isArray(reply)) throw new Error(`unexpected reply from the ${script} script`);
  return reply;
}

function asInteger(reply: unknown, script: string): number {
  if (typeof reply !== 'number' || !Number.isInteger(reply)) throw new Error(`unexpected reply from the ${script} script`);
  return reply;
}

function asStringOrNull(reply: unknown, script: string): string | null {
  if (reply === null || typeof reply === 'string') return reply;
  throw new Error(`unexpected reply from the ${script} script`);
}

/**
 * Connects (waiting at most `timeoutMs`) and returns the adapter. When Redis is down at start the
 * adapter is still returned: calls fail with DependencyUnavailableError until it comes up.
 */
export async function createRedisKeyValue(options: RedisKeyValueOptions): Promise<KeyValue> {
  const prefix = options.keyPrefix ?? 'marque:';
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: timeoutMs,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
    },
  });
  let lastError = 'not connected yet';
  // Without a listener node-redis errors would crash the process; the next call reports them.
  client.on('error', (error: unknown) => {
    lastError = error instanceof Error ? error.message : String(error);
  });

  // Keeps retrying in the background until Redis answers; failures arrive as 'error' events.
  client.connect().catch(() => undefined);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    const settle = (): void => {
      clearTimeout(timer);
      client.off('ready', settle);
      client.off('error', settle);
      resolve();
    };
    client.once('ready', settle);
    client.once('error', settle);
  });

  /** Runs one Redis call, turning unreachability and a late reply into DependencyUnavailableError. */
  async function guarded<T>(operation: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      // The rejection waits one setImmediate: after a long synchronous stretch the timer can fire
      // before the poll phase has delivered a reply that arrived meanwhile; this lets it win.
      timer = setTimeout(() => setImmediate(() => reject(new ReplyDeadlineError(`no reply within ${timeoutMs} ms`))), timeoutMs);
    });
    try {
      return await Promise.race([operation(), deadline]);
    } catch (error) {
      if (!isUnavailability(error)) throw error;
      const reason = error instanceof Error && error.message !== '' ? error.message : lastError;
      throw new DependencyUnavailableError('cache', `Redis is unavailable: ${reason}`);
    } finally {
      clearTimeout(timer);
    }
  }

  async function runScript(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(script.sha1, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof ErrorReply && error.message.startsWith('NOSCRIPT'))) throw error;
      return client.eval(script.source, { keys, arguments: args });
    }
  }

  const valueKey = (key: string): string => `${prefix}k:${key}`;
  const windowKey = (key: string): string => `${prefix}w:${key}`;
  const windowSequenceKey = (key: string): string => `${prefix}ws:${key}`;
  const counterKey = (key: string): string => `${prefix}c:${key}`;
  const idempotencyKey = (key: string): string => `${prefix}i:${key}`;

  async function evaluateWindows(checks: readonly WindowCheck[], cost: number, nowMs: number, charge: boolean): Promise<WindowsDecision> {
    const keys = checks.flatMap((check) => [windowKey(check.key), windowSequenceKey(check.key)]);
    const args = [String(nowMs), String(cost), charge ? '1' : '0'];
    for (const check of checks) args.push(String(check.limit), String(check.windowMs));
    const reply = asArray(await guarded(() => runScript(WINDOWS_SCRIPT, keys, args)), 'windows');
    return {
      allowed: asInteger(reply[0], 'windows') === 1,
      windows: checks.map((check, index) => {
        const used = asInteger(reply[1 + 2 * index], 'windows');
        return {
          key: check.key,
          limit: check.limit,
          used,
          remaining: Math.max(0, check.limit - used),
          resetMs: asInteger(reply[2 + 2 * index], 'windows'),
        };
      }),
    };
  }

  async function evaluateCounters(checks: readonly CounterCheck[], cost: number, charge: boolean): Promise<{ refusedIndex: number; counters: CounterState[] }> {
    const keys = checks.map((check) => counterKey(check.key));
    const args = [String(cost), charge ? '1' : '0'];
    for (const check of checks) args.push(String(check.limit ?? -1), String(check.resetsAt));
    const reply = asArray(await guarded(() => runScript(COUNTERS_SCRIPT, keys, args)), 'counters');
    return {
      refusedIndex: asInteger(reply[0], 'counters'),
      counters: checks.map((check, index) => ({
        key: check.key,
        limit: check.limit,
        used: asInteger(reply[1 + index], 'counters'),
        resetsAt: check.resetsAt,
      })),
    };
  }

  return {
    async get(key) {
      return guarded(() => client.get(valueKey(key)));
    },

    async set(key: string, value: string, setOptions: SetOptions = {}) {
      const reply = await guarded(() =>
        client.set(valueKey(key), value, {
          ...(setOptions.ttlMs === undefined ? {} : { expiration: { type: 'PX', value: setOptions.ttlMs } }),
          ...(setOptions.onlyIfAbsent ? { condition: 'NX' } : {}),
        }),
      );
      return reply !== null;
    },

    async delete(key) {
      await guarded(() => client.del(valueKey(key)));
    },

    async increment(key, by, ttlMs) {
      const args = [String(by), ttlMs === undefined ? '' : String(ttlMs)];
      return asInteger(await guarded(() => runScript(INCREMENT_SCRIPT, [valueKey(key)], args)), 'increment');
    },

    async holdLease(key, holder, ttlMs) {
      return asInteger(await guarded(() => runScript(HOLD_LEASE_SCRIPT, [valueKey(key)], [holder, String(ttlMs)])), 'hold-lease') === 1;
    },

    async releaseLease(key, holder) {
      await guarded(() => runScript(RELEASE_LEASE_SCRIPT, [valueKey(key)], [holder]));
    },

    consumeWindows(checks, cost, nowMs) {
      return evaluateWindows(checks, cost, nowMs, true);
    },

    async peekWindows(checks, nowMs) {
      return (await evaluateWindows(checks, 1, nowMs, false)).windows;
    },

    async consumeCounters(checks, cost) {
      const { refusedIndex, counters } = await evaluateCounters(checks, cost, true);
      return { allowed: refusedIndex === -1, refusedIndex, counters };
    },

    async peekCounters(checks) {
      return (await evaluateCounters(checks, 0, false)).counters;
    },

    async beginIdempotent(key, fingerprint, inFlightTtlMs): Promise<IdempotencyBegin> {
      const args = [fingerprint, String(inFlightTtlMs)];
      const reply = asArray(await guarded(() => runScript(BEGIN_IDEMPOTENT_SCRIPT, [idempotencyKey(key)], args)), 'begin-idempotent');
      if (reply.length === 0) return { state: 'started' };
      const [state = null, storedFingerprint = null, response = null] = reply.map((field) => asStringOrNull(field, 'begin-idempotent'));
      if (storedFingerprint === null) throw new Error(`idempotency record ${key} has no fingerprint`);
      if (state === 'completed' && response !== null) {
        return { state: 'completed', fingerprint: storedFingerprint, response };
      }
      return { state: 'in_flight', fingerprint: storedFingerprint };
    },

    async completeIdempotent(key, fingerprint, response, ttlMs) {
      const recordKey = idempotencyKey(key);
      await guarded(() => client.multi().hSet(recordKey, { state: 'completed', fingerprint, response }).pExpire(recordKey, ttlMs).exec());
    },

    async abandonIdempotent(key) {
      await guarded(() => client.del(idempotencyKey(key)));
    },

    async ping() {
      await guarded(() => client.ping());
    },

    async close() {
      if (!client.isOpen) return;
      if (!client.isReady) {
        client.destroy();
        return;
      }
      // Lets in-flight replies arrive; a server that stopped answering must not hold the process.
      await guarded(() => client.close()).catch(() => client.unref());
    },
  };
}
