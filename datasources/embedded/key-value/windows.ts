/**
 * Sliding windows as exact logs in SQLite: a window's admitted units are rows (key, at, cost) of
 * `window_units`, clustered by key and time, and `windows` keeps each window's running total so
 * a check reads one row instead of summing the log. A unit counts while `at > now - windowMs`;
 * units that left are deleted (and subtracted) by the next check of their window, whole idle
 * windows by the sweep. Units charged in the same millisecond share a row: they leave together,
 * so the log stays exact with fewer rows under bursts.
 *
 * `evaluate` must run inside a write transaction: it reads, prunes and charges several windows
 * as one step.
 */
import type Database from 'better-sqlite3';
import type { WindowCheck, WindowsDecision } from '../../ports';

export const WINDOW_SCHEMA = `
  CREATE TABLE IF NOT EXISTS windows (
    key TEXT PRIMARY KEY,
    total INTEGER NOT NULL,
    window_ms INTEGER NOT NULL,
    -- When the newest unit leaves: the window is empty from then on.
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS window_units (
    key TEXT NOT NULL,
    at INTEGER NOT NULL,
    cost INTEGER NOT NULL,
    PRIMARY KEY (key, at)
  ) WITHOUT ROWID;
`;

export type EvaluateWindows = (checks: readonly WindowCheck[], cost: number, nowMs: number, charge: boolean) => WindowsDecision;

export function slidingWindows(db: Database.Database): EvaluateWindows {
  const statements = {
    total: db.prepare<[string], number>('SELECT total FROM windows WHERE key = ?').pluck(),
    // Asking first is cheaper than a delete that finds nothing, which is the common case.
    leftCost: db.prepare<[string, number], number | null>('SELECT SUM(cost) FROM window_units WHERE key = ? AND at <= ?').pluck(),
    pruneUnits: db.prepare<[string, number]>('DELETE FROM window_units WHERE key = ? AND at <= ?'),
    addUnits: db.prepare<[string, number, number]>(
      `INSERT INTO window_units (key, at, cost) VALUES (?, ?, ?)
       ON CONFLICT (key, at) DO UPDATE SET cost = cost + excluded.cost`,
    ),
    saveWindow: db.prepare<[{ key: string; total: number; windowMs: number; expiresAt: number }]>(
      `INSERT INTO windows (key, total, window_ms, expires_at) VALUES (@key, @total, @windowMs, @expiresAt)
       ON CONFLICT (key) DO UPDATE SET total = excluded.total, window_ms = excluded.window_ms,
         expires_at = MAX(windows.expires_at, excluded.expires_at)`,
    ),
    oldestUnits: db.prepare<[string], { at: number; cost: number }>('SELECT at, cost FROM window_units WHERE key = ? ORDER BY at'),
  };

  /** The window's total after dropping the units that have left it by `nowMs`. */
  function currentTotal(check: WindowCheck, nowMs: number): number {
    const stored = statements.total.get(check.key);
    if (stored === undefined) return 0;
    const cutoff = nowMs - check.windowMs;
    const left = statements.leftCost.get(check.key, cutoff) ?? null;
    if (left === null) return stored;
    statements.pruneUnits.run(check.key, cutoff);
    const total = stored - left;
    // expiresAt 0 keeps the stored one (the upsert keeps the later of the two).
    statements.saveWindow.run({ key: check.key, total, windowMs: check.windowMs, expiresAt: 0 });
    return total;
  }

  /** Milliseconds until `needed` more units fit: when enough of the oldest units have left. */
  function msUntilRoom(check: WindowCheck, used: number, needed: number, nowMs: number): number {
    const excess = used + needed - check.limit;
    if (excess <= 0) return 0;
    if (needed > check.limit) return check.windowMs;
    let freed = 0;
    for (const unit of statements.oldestUnits.iterate(check.key)) {
      freed += unit.cost;
      if (freed >= excess) return unit.at + check.windowMs - nowMs;
    }
    return check.windowMs;
  }

  return (checks, cost, nowMs, charge) => {
    const used = checks.map((check) => currentTotal(check, nowMs));
    const allowed = checks.every((check, index) => (used[index] as number) + cost <= check.limit);
    const charged = allowed && charge && cost > 0;
    if (charged) {
      checks.forEach((check, index) => {
        const total = (used[index] as number) + cost;
        used[index] = total;
        statements.addUnits.run(check.key, nowMs, cost);
        statements.saveWindow.run({ key: check.key, total, windowMs: check.windowMs, expiresAt: nowMs + check.windowMs });
      });
    }
    // After a charge the question is room for the next request; after a refusal, room for this one.
    const needed = charged ? 1 : cost;
    return {
      allowed,
      windows: checks.map((check, index) => {
        const total = used[index] as number;
        return {
          key: check.key,
          limit: check.limit,
          used: total,
          remaining: Math.max(0, check.limit - total),
          resetMs: msUntilRoom(check, total, needed, nowMs),
        };
      }),
    };
  };
}
