/**
 * KeyValue for the embedded default: everything (plain keys, sliding windows, quota counters,
 * idempotency records) lives in one SQLite file, `kv.sqlite`, which every API process of a data
 * directory opens with its own connection. Each operation is atomic, writes under the write lock
 * taken first, and the window and quota charges of one admission share one commit
 * (key-value/transactions.ts), so operations from any number of processes are atomic and
 * the limits stay exact, as Redis's Lua scripts make them. WAL mode with
 * `synchronous = NORMAL`: a commit appends to the WAL without an fsync (a power loss may forget
 * the last commits, never corrupt the file). What a commit costs is mostly one write per page it
 * dirtied (here a three-page commit took 26 µs with 4 KB pages, 15 µs with 1 KB ones), so the
 * file uses 1 KB pages, and the hot statements avoid dirtying index pages; checkpoints, which
 * fsync, come every 10,000 pages of WAL rather than 1,000. A file created before this keeps its
 * 4 KB pages: SQLite cannot change the page size in WAL mode. Everything survives a restart, the
 * windows included.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startSweeps } from './key-value/sweep';
import { keyValueTransactions } from './key-value/transactions';
import { slidingWindows, WINDOW_SCHEMA } from './key-value/windows';
import { openPrivateDatabase, useWriteAheadLog } from './sqlite-file';
import type { CounterCheck, CounterState, CountersDecision, IdempotencyBegin, KeyValue, SetOptions } from '../ports';

export interface EmbeddedKeyValueOptions {
  /** The SQLite file; ':memory:' keeps everything in this process's memory only. */
  path: string;
  /** How often expired entries are swept (default 30 s); reads also ignore expired entries. */
  pruneIntervalMs?: number;
  /** Longest wait for a lock another process holds before reporting the cache unavailable (default 5 s). */
  busyDeadlineMs?: number;
}

interface IdempotencyRow {
  state: 'in_flight' | 'completed';
  fingerprint: string;
  response: string | null;
}

// `expires_at` is epoch ms; a row whose expiry has passed is absent to every reader.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS entries (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    expires_at INTEGER -- NULL: never
  ) WITHOUT ROWID;
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
  CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires_at);
  CREATE INDEX IF NOT EXISTS counters_expiry ON counters (expires_at);
  CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency (expires_at);
  ${WINDOW_SCHEMA}
`;

/** A commit costs about one write per dirty page; small pages make those writes cheaper. */
const PAGE_BYTES = 1024;
/** About 10 MB of WAL between checkpoints: a checkpoint's fsyncs every few thousand requests, not every few hundred. */
const CHECKPOINT_PAGES = 10_000;

const NOT_EXPIRED = '(expires_at IS NULL OR expires_at > @nowMs)';

export function createEmbeddedKeyValue(options: EmbeddedKeyValueOptions): KeyValue {
  if (options.path !== ':memory:') fs.mkdirSync(path.dirname(options.path), { recursive: true });
  const db = openPrivateDatabase(options.path);
  const transactions = keyValueTransactions(db, options.busyDeadlineMs ?? 5_000);
  // Only a new file takes the page size (it must precede the first table); see the header.
  db.pragma(`page_size = ${PAGE_BYTES}`);
  useWriteAheadLog(db);
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  // Two processes creating the schema at once: the second waits for the lock and finds it there.
  transactions.write(() => db.exec(SCHEMA));

  const statements = {
    readEntry: db.prepare<[{ key: string; nowMs: number }], string>(`SELECT value FROM entries WHERE key = @key AND ${NOT_EXPIRED}`).pluck(),
    // `replace` 0 writes only over an absent or expired entry; `changes` says whether it did.
    writeEntry: db.prepare<[{ key: string; value: string; expiresAt: number | null; nowMs: number; replace: 0 | 1 }]>(
      `INSERT INTO entries (key, value, expires_at) VALUES (@key, @value, @expiresAt)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
       WHERE @replace = 1 OR NOT ${NOT_EXPIRED}`,
    ),
    setEntryValue: db.prepare<[string, string]>('UPDATE entries SET value = ? WHERE key = ?'),
    deleteEntry: db.prepare<[string]>('DELETE FROM entries WHERE key = ?'),
    // Takes an absent or expired lease, or extends the holder's own; `changes` says whether it did.
    holdLease: db.prepare<[{ key: string; holder: string; expiresAt: number; nowMs: number }]>(
      `INSERT INTO entries (key, value, expires_at) VALUES (@key, @holder, @expiresAt)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
       WHERE entries.value = excluded.value OR NOT ${NOT_EXPIRED}`,
    ),
    releaseLease: db.prepare<[string, string]>('DELETE FROM entries WHERE key = ? AND value = ?'),
    readCounter: db.prepare<[string, number], number>('SELECT used FROM counters WHERE key = ? AND expires_at > ?').pluck(),
    // The common charge leaves the expiry (and so its index) untouched; it costs a page write less.
    chargeCounter: db.prepare<[number, string, number]>('UPDATE counters SET used = ? WHERE key = ? AND expires_at = ?'),
    saveCounter: db.prepare<[string, number, number]>(
      `INSERT INTO counters (key, used, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET used = excluded.used, expires_at = excluded.expires_at`,
    ),
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
  };

  const evaluateWindows = slidingWindows(db);

  function counterStates(checks: readonly CounterCheck[], nowMs: number): CounterState[] {
    return checks.map((check) => ({
      key: check.key,
      limit: check.limit,
      used: statements.readCounter.get(check.key, nowMs) ?? 0,
      resetsAt: check.resetsAt,
    }));
  }

  // One read transaction: the counters of one peek come from the same snapshot.
  const counterSnapshot = db.transaction(counterStates);

  const sweeper = startSweeps(db, transactions, options.pruneIntervalMs ?? 30_000);

  return {
    async get(key) {
      return transactions.read(() => statements.readEntry.get({ key, nowMs: Date.now() }) ?? null);
    },

    async set(key: string, value: string, setOptions: SetOptions = {}) {
      const nowMs = Date.now();
      const expiresAt = setOptions.ttlMs === undefined ? null : nowMs + setOptions.ttlMs;
      const write = { key, value, expiresAt, nowMs, replace: setOptions.onlyIfAbsent ? 0 : 1 } as const;
      return transactions.write(() => statements.writeEntry.run(write).changes === 1);
    },

    async delete(key) {
      transactions.write(() => statements.deleteEntry.run(key));
    },

    async holdLease(key, holder, ttlMs) {
      const nowMs = Date.now();
      return transactions.write(() => statements.holdLease.run({ key, holder, expiresAt: nowMs + ttlMs, nowMs }).changes === 1);
    },

    async releaseLease(key, holder) {
      transactions.write(() => statements.releaseLease.run(key, holder));
    },

    async increment(key, by, ttlMs) {
      return transactions.write(() => {
        const nowMs = Date.now();
        const current = statements.readEntry.get({ key, nowMs });
        if (current === undefined) {
          const expiresAt = ttlMs === undefined ? null : nowMs + ttlMs;
          statements.writeEntry.run({ key, value: String(by), expiresAt, nowMs, replace: 1 });
          return by;
        }
        const value = Number(current);
        if (!Number.isSafeInteger(value)) throw new Error(`value of ${key} is not an integer`);
        statements.setEntryValue.run(String(value + by), key);
        return value + by;
      });
    },

    async consumeWindows(checks, cost, nowMs) {
      return transactions.writeGrouped(() => evaluateWindows(checks, cost, nowMs, true));
    },

    async peekWindows(checks, nowMs) {
      // A peek prunes the logs it reads, so it writes too.
      return transactions.write(() => evaluateWindows(checks, 1, nowMs, false).windows);
    },

    async consumeCounters(checks, cost, nowMs): Promise<CountersDecision> {
      return transactions.writeGrouped(() => {
        const states = counterStates(checks, nowMs);
        const refusedIndex = states.findIndex((state) => state.limit !== null && state.used + cost > state.limit);
        if (refusedIndex !== -1) return { allowed: false, refusedIndex, counters: states };
        for (const state of states) {
          state.used += cost;
          if (statements.chargeCounter.run(state.used, state.key, state.resetsAt).changes === 0) {
            statements.saveCounter.run(state.key, state.used, state.resetsAt);
          }
        }
        return { allowed: true, refusedIndex: -1, counters: states };
      });
    },

    async peekCounters(checks, nowMs) {
      return transactions.read(() => counterSnapshot(checks, nowMs));
    },

    async beginIdempotent(key, fingerprint, inFlightTtlMs): Promise<IdempotencyBegin> {
      return transactions.write(() => {
        const nowMs = Date.now();
        if (statements.claimIdempotency.run({ key, fingerprint, expiresAt: nowMs + inFlightTtlMs, nowMs }).changes === 1) {
          return { state: 'started' };
        }
        const row = statements.readIdempotency.get(key);
        if (row === undefined) throw new Error(`idempotency record ${key} vanished inside its transaction`);
        if (row.state === 'completed' && row.response !== null) {
          return { state: 'completed', fingerprint: row.fingerprint, response: row.response };
        }
        return { state: 'in_flight', fingerprint: row.fingerprint };
      });
    },

    async completeIdempotent(key, fingerprint, response, ttlMs) {
      transactions.write(() => statements.completeIdempotency.run(key, fingerprint, response, Date.now() + ttlMs));
    },

    async abandonIdempotent(key) {
      transactions.write(() => statements.deleteIdempotency.run(key));
    },

    async ping() {
      if (!db.open) throw new Error('embedded key-value store is closed');
    },

    async close() {
      sweeper.stop();
      if (!db.open) return;
      transactions.flush();
      db.close();
    },
  };
}
