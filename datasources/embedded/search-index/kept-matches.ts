/**
 * The documents a text expression matches, kept between queries in temp tables of the index's
 * connection, so a repeated word is not matched by FTS5 again: FTS5 reads every match of a
 * trigram phrase with its positions (30 ms for a word in 100,000 marks on 1M, and a few ms for
 * a rare long word whose trigrams are common), while a kept set answers a page by probing its
 * primary key (under 1 ms).
 *
 * An expression with few matches (under the caller's `few`) is kept the first time: reading them
 * costs what counting them did, and they then drive the query without FTS5 being read again. One
 * with more is kept the second time it is searched, so a common word searched once costs what it
 * did. Every kept set is dropped when the index may have changed: a write through this connection
 * (`noteWrite`), or another connection's commit (SQLite's `data_version`). Bounded in rows; the
 * least recently used sets go first.
 */
import type Database from 'better-sqlite3';
import type { FtsMatch } from './text-match';

export interface KeptSet {
  /** `temp.<name>`: one row `(seq INTEGER PRIMARY KEY)` per matching document. */
  table: string;
  size: number;
}

/** What is known of one expression's matches: kept, or at least `few` of them and not kept. */
export type MatchSet = KeptSet | 'many';

/** Rows kept in all (a temp B-tree holds about 10 bytes a row: some 20 MB). */
const MAX_KEPT_ROWS = 2_000_000;
/** Where the matches of an expression searched for the first time are read (see `keep`). */
const SCRATCH_TABLE = 'temp.si_kept_scratch';
/** Expressions remembered as searched once; forgotten all at once beyond this. */
const MAX_SEEN = 10_000;

export class KeptMatches {
  private readonly kept = new Map<string, KeptSet>();
  private readonly seen = new Set<string>();
  private readonly scratchFills = new Map<string, Database.Statement>();
  private readonly dataVersion: Database.Statement;
  private keptRows = 0;
  private tableCount = 0;
  private writes = 0;
  private token = '';

  /** `forget` is told of each dropped table, so prepared statements naming it can go. */
  constructor(
    private readonly db: Database.Database,
    private readonly forget: (table: string) => void,
  ) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** A write through this connection: the kept sets may be stale. */
  noteWrite(): void {
    this.writes += 1;
  }

  /** The matches of each of `matches`, in their order, keeping them as described above. */
  setsFor(matches: readonly FtsMatch[], few: number): MatchSet[] {
    this.dropIfChanged();
    const keys = matches.map((match) => `${match.table}\u0000${match.expression}`);
    return matches.map((match, index) => {
      const key = keys[index]!;
      const set = this.kept.get(key) ?? this.keep(key, match, this.seen.has(key) ? undefined : few, keys);
      if (set === undefined) {
        if (this.seen.size >= MAX_SEEN) this.seen.clear();
        this.seen.add(key);
        return 'many';
      }
      // Most recently used last: eviction takes the first.
      this.kept.delete(key);
      this.kept.set(key, set);
      this.seen.delete(key);
      return set;
    });
  }

  clear(): void {
    for (const set of this.kept.values()) this.drop(set);
    this.kept.clear();
    this.seen.clear();
    this.keptRows = 0;
  }

  /**
   * Keeps the matches of `match` when there are fewer than `below` (all of them when undefined,
   * up to MAX_KEPT_ROWS), making room by dropping sets other than those of `inUse`. Fewer than
   * `below` are first read into a scratch table, so an expression with more changes no schema
   * (a schema change makes this connection prepare its statements again).
   */
  private keep(key: string, match: FtsMatch, below: number | undefined, inUse: readonly string[]): KeptSet | undefined {
    const limit = below ?? MAX_KEPT_ROWS + 1;
    if (below !== undefined && this.fill(SCRATCH_TABLE, match, limit) >= limit) return undefined;
    this.tableCount += 1;
    const table = `temp.si_kept_${this.tableCount}`;
    this.db.exec(`CREATE TABLE ${table} (seq INTEGER PRIMARY KEY)`);
    const size = below === undefined ? this.fill(table, match, limit) : this.db.prepare(`INSERT INTO ${table} SELECT seq FROM ${SCRATCH_TABLE}`).run().changes;
    const set = { table, size };
    if (size >= limit) {
      this.drop(set);
      return undefined;
    }
    this.keptRows += size;
    for (const [oldest, old] of this.kept) {
      if (this.keptRows <= MAX_KEPT_ROWS) break;
      if (inUse.includes(oldest)) continue;
      this.kept.delete(oldest);
      this.keptRows -= old.size;
      this.drop(old);
    }
    this.kept.set(key, set);
    return set;
  }

  /** Writes up to `limit` matches of `match` into `table` (emptied first); returns how many. */
  private fill(table: string, match: FtsMatch, limit: number): number {
    if (table === SCRATCH_TABLE) {
      this.db.exec(`CREATE TABLE IF NOT EXISTS ${SCRATCH_TABLE} (seq INTEGER PRIMARY KEY); DELETE FROM ${SCRATCH_TABLE}`);
    }
    const sql = `INSERT INTO ${table} SELECT rowid FROM ${match.table} WHERE ${match.table} MATCH ? LIMIT ?`;
    let insert = this.scratchFills.get(sql);
    if (!insert) {
      insert = this.db.prepare(sql);
      // Only the scratch table's statements recur; a kept table's is run once.
      if (table === SCRATCH_TABLE) this.scratchFills.set(sql, insert);
    }
    return insert.run(match.expression, limit).changes;
  }

  private drop(set: KeptSet): void {
    this.db.exec(`DROP TABLE IF EXISTS ${set.table}`);
    this.forget(set.table);
  }

  private dropIfChanged(): void {
    const token = `${this.dataVersion.get() as number}:${this.writes}`;
    if (token === this.token) return;
    this.token = token;
    this.clear();
  }
}
