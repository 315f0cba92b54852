/**
 * KeyValue for the embedded default: one process owns everything, so every operation is atomic by
 * being synchronous. Sliding windows and plain keys live in memory (a restart may forget them:
 * they last a minute or are caches). Quota counters and idempotency records must survive a
 * restart, so they are written through to a small SQLite file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openPrivateDatabase } from './sqlite-file';
import type { CounterCheck, CounterState, CountersDecision, IdempotencyBegin, KeyValue, SetOptions, WindowCheck, WindowState, WindowsDecision } from '../ports';

export interface EmbeddedKeyValueOptions {
  /** SQLite file for counters and idempotency records; ':memory:' keeps them in memory only. */
  path: string;
  /** How often expired entries are swept (default 30 s); reads also ignore expired entries. */
  pruneIntervalMs?: number;
}

/**
 * An exact sliding log of one window: every admitted unit's timestamp, oldest first. A unit counts
 * while `timestamp > now - windowMs`. Arrays with a moving head keep appends and expiry O(1).
 */
class SlidingLog {
  private readonly times: number[] = [];
  private readonly costs: number[] = [];
  private head = 0;
  total = 0;

  constructor(public windowMs: number) {}

  prune(nowMs: number): void {
    const cutoff = nowMs - this.windowMs;
    while (this.head < this.times.length && (this.times[this.head] as number) <= cutoff) {
      this.total -= this.costs[this.head] as number;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.costs.splice(0, this.head);
      this.head = 0;
    }
  }

  add(nowMs: number, cost: number): void {
    // A caller whose clock reading is slightly older than the newest entry is recorded at the newest
    // entry's time, keeping the log sorted (it then expires a few milliseconds late, never early).
    const newest = this.newest();
    this.times.push(newest === null ? nowMs : Math.max(nowMs, newest));
    this.costs.push(cost);
    this.total += cost;
  }

  newest(): number | null {
    return this.times.length > this.head ? (this.times[this.times.length - 1] as number) : null;
  }

  /** Milliseconds until `needed` more units fit under `limit`. */
  msUntilRoom(needed: number, limit: number, nowMs: number): number {
    const excess = this.total + needed - limit;
    if (excess <= 0) return 0;
    if (needed > limit) return this.windowMs;
    let freed = 0;
    for (let index = this.head; index < this.times.length; index += 1) {
      freed += this.costs[index] as number;
      if (freed >= excess) return (this.times[index] as number) + this.windowMs - nowMs;
    }
    return this.windowMs;
  }
}

interface ExpiringValue {
  value: string;
  /** Epoch ms; null: never expires. */
  expiresAt: number | null;
}

interface CounterValue {
  used: number;
  expiresAt: number;
}

interface IdempotencyRow {
  state: 'in_flight' | 'completed';
  fingerprint: string;
  response: string | null;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS counters (
    key TEXT PRIMARY KEY,
    used INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS idempotency (
    key TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    response TEXT,
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
`;

function isExpired(expiresAt: number | null, nowMs: number): boolean {
  return expiresAt !== null && expiresAt <= nowMs;
}

export function createEmbeddedKeyValue(options: EmbeddedKeyValueOptions): KeyValue {
  if (options.path !== ':memory:') fs.mkdirSync(path.dirname(options.path), { recursive: true });
  const db = openPrivateDatabase(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);

  const statements = {
    loadCounters: db.prepare<[number], { key: string; used: number; expires_at: number }>('SELECT key, used, expires_at FROM counters WHERE expires_at > ?'),
    saveCounter: db.prepare<[string, number, number]>(
      `INSERT INTO counters (key, used, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET used = excluded.used, expires_at = excluded.expires_at`,
    ),
    pruneCounters: db.prepare<[number]>('DELETE FROM counters WHERE expires_at <= ?'),
    // Claims the key when absent or expired, in one statement; `changes` says whether it did.
    claimIdempotency: db.prepare<[{ key: string; fingerprint: string; expiresAt: number; nowMs: number }]>(
      `INSERT INTO idempotency (key, state, fingerprint, response, expires_at)
       VALUES (@key, 'in_flight', @fingerprint, NULL, @expiresAt)
       ON CONFLICT (key) DO UPDATE SET state = 'in_flight', fingerprint = @fingerprint, response = NULL,
         expires_at = @expiresAt
       WHERE idempotency.expires_at <= @nowMs`,
    ),
    readIdempotency: db.prepare<[string], IdempotencyRow>('SELECT state, fingerprint, response FROM idempotency WHERE key = ?'),
    completeIdempotency: db.prepare<[string, string, string, number]>(
      `INSERT INTO idempotency (key, state, fingerprint, response, expires_at)
       VALUES (?, 'completed', ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET state = 'completed', fingerprint = excluded.fingerprint,
         response = excluded.response, expires_at = excluded.expires_at`,
    ),
    deleteIdempotency: db.prepare<[string]>('DELETE FROM idempotency WHERE key = ?'),
    pruneIdempotency: db.prepare<[number]>('DELETE FROM idempotency WHERE expires_at <= ?'),
  };

  const windows = new Map<string, SlidingLog>();
  const values = new Map<string, ExpiringValue>();
  // The in-memory counters are the source of truth; SQLite is their write-through copy.
  const counters = new Map<string, CounterValue>();
  for (const row of statements.loadCounters.iterate(Date.now())) {
    counters.set(row.key, { used: row.used, expiresAt: row.expires_at });
  }
  const saveCounters = db.transaction((changed: ReadonlyArray<[string, CounterValue]>) => {
    for (const [key, counter] of changed) statements.saveCounter.run(key, counter.used, counter.expiresAt);
  });

  function readValue(key: string): ExpiringValue | null {
    const entry = values.get(key);
    if (entry === undefined) return null;
    if (isExpired(entry.expiresAt, Date.now())) {
      values.delete(key);
      return null;
    }
    return entry;
  }

  function windowLog(check: WindowCheck, nowMs: number): SlidingLog {
    let log = windows.get(check.key);
    if (log === undefined) {
      log = new SlidingLog(check.windowMs);
      windows.set(check.key, log);
    }
    log.windowMs = check.windowMs;
    log.prune(nowMs);
    return log;
  }

  /** Checks every window for `cost`; charges all of them only when `charge` and all have room. */
  function evaluateWindows(checks: readonly WindowCheck[], cost: number, nowMs: number, charge: boolean): WindowsDecision {
    const logs = checks.map((check) => windowLog(check, nowMs));
    const allowed = checks.every((check, index) => (logs[index] as SlidingLog).total + cost <= check.limit);
    const charged = allowed && charge;
    if (charged) for (const log of logs) log.add(nowMs, cost);
    // After a charge the question is room for the next request; after a refusal, room for this one.
    const needed = charged ? 1 : cost;
    const states = checks.map((check, index): WindowState => {
      const log = logs[index] as SlidingLog;
      return {
        key: check.key,
        limit: check.limit,
        used: log.total,
        remaining: Math.max(0, check.limit - log.total),
        resetMs: log.msUntilRoom(needed, check.limit, nowMs),
      };
    });
    return { allowed, windows: states };
  }

  function counterUsed(key: string, nowMs: number): number {
    const counter = counters.get(key);
    if (counter === undefined || counter.expiresAt <= nowMs) return 0;
    return counter.used;
  }

  function counterStates(checks: readonly CounterCheck[], nowMs: number): CounterState[] {
    return checks.map((check) => ({
      key: check.key,
      limit: check.limit,
      used: counterUsed(check.key, nowMs),
      resetsAt: check.resetsAt,
    }));
  }

  function prune(): void {
    const nowMs = Date.now();
    for (const [key, log] of windows) {
      log.prune(nowMs);
      if (log.newest() === null) windows.delete(key);
    }
    for (const [key, entry] of values) if (isExpired(entry.expiresAt, nowMs)) values.delete(key);
    for (const [key, counter] of counters) if (counter.expiresAt <= nowMs) counters.delete(key);
    statements.pruneCounters.run(nowMs);
    statements.pruneIdempotency.run(nowMs);
  }
  const pruneTimer = setInterval(prune, options.pruneIntervalMs ?? 30_000);
  pruneTimer.unref();

  return {
    async get(key) {
      return readValue(key)?.value ?? null;
    },

    async set(key: string, value: string, setOptions: SetOptions = {}) {
      if (setOptions.onlyIfAbsent && readValue(key) !== null) return false;
      const expiresAt = setOptions.ttlMs === undefined ? null : Date.now() + setOptions.ttlMs;
      values.set(key, { value, expiresAt });
      return true;
    },

    async delete(key) {
      values.delete(key);
    },

    async increment(key, by, ttlMs) {
      const entry = readValue(key);
      if (entry === null) {
        values.set(key, { value: String(by), expiresAt: ttlMs === undefined ? null : Date.now() + ttlMs });
        return by;
      }
      const current = Number(entry.value);
      if (!Number.isSafeInteger(current)) throw new Error(`value of ${key} is not an integer`);
      entry.value = String(current + by);
      return current + by;
    },

    async consumeWindows(checks, cost, nowMs) {
      return evaluateWindows(checks, cost, nowMs, true);
    },

    async peekWindows(checks, nowMs) {
      return evaluateWindows(checks, 1, nowMs, false).windows;
    },

    async consumeCounters(checks, cost, nowMs): Promise<CountersDecision> {
      const states = counterStates(checks, nowMs);
      const refusedIndex = states.findIndex((state) => state.limit !== null && state.used + cost > state.limit);
      if (refusedIndex !== -1) return { allowed: false, refusedIndex, counters: states };
      const changed = states.map((state): [string, CounterValue] => {
        state.used += cost;
        return [state.key, { used: state.used, expiresAt: state.resetsAt }];
      });
      for (const [key, counter] of changed) counters.set(key, counter);
      saveCounters(changed);
      return { allowed: true, refusedIndex: -1, counters: states };
    },

    async peekCounters(checks, nowMs) {
      return counterStates(checks, nowMs);
    },

    async beginIdempotent(key, fingerprint, inFlightTtlMs): Promise<IdempotencyBegin> {
      const nowMs = Date.now();
      const claim = { key, fingerprint, expiresAt: nowMs + inFlightTtlMs, nowMs };
      if (statements.claimIdempotency.run(claim).changes === 1) {
        return { state: 'started' };
      }
      const row = statements.readIdempotency.get(key);
      if (row === undefined) throw new Error(`idempotency record ${key} vanished while being claimed`);
      if (row.state === 'completed' && row.response !== null) {
        return { state: 'completed', fingerprint: row.fingerprint, response: row.response };
      }
      return { state: 'in_flight', fingerprint: row.fingerprint };
    },

    async completeIdempotent(key, fingerprint, response, ttlMs) {
      statements.completeIdempotency.run(key, fingerprint, response, Date.now() + ttlMs);
    },

    async abandonIdempotent(key) {
      statements.deleteIdempotency.run(key);
    },

    async ping() {
      if (!db.open) throw new Error('embedded key-value store is closed');
    },

    async close() {
      clearInterval(pruneTimer);
      if (db.open) db.close();
    },
  };
}
