/**
 * SearchIndex on SQLite (better-sqlite3): typed columns and side tables for filters and sorts,
 * FTS5 for text. See search-index/schema.ts for the tables and search-index/query-sql.ts for the
 * query semantics (shared with the Elasticsearch adapter through the contract suite).
 */
import type Database from 'better-sqlite3';
import { openPrivateDatabase, useWriteAheadLog } from './sqlite-file';
import {
  StaleSnapshotError,
  UnsupportedQueryError,
  type EnsuredIndex,
  type IndexDefinition,
  type IndexDocument,
  type SearchFilter,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
  type TermCount,
} from '../ports';
import { assertValidFilter, assertValidQuery, assertValidTermsField, sortsByScore } from '../search-query-rules';
import { KeptMatches, type KeptSet } from './search-index/kept-matches';
import { searchSql, termsSql, textMatches } from './search-index/query-sql';
import { ensureTables, ftsTables, layoutFor, markTablesFilled, secondaryIndexes, type IndexLayout } from './search-index/schema';
import { createIndexWriter, type IndexWriter } from './search-index/writer';
import type { SqlFragment } from './search-index/filter-sql';

export interface EmbeddedSearchIndexOptions {
  /** Database file, or ':memory:'. */
  path: string;
  /**
   * For filling indexes from scratch in one go (`marque seed`): an index found empty by
   * `ensureIndex` loses its B-tree indexes until its first query (or `close`), which builds each
   * once from sorted data instead of updating it per document; FTS5 flushes larger segments;
   * this connection skips fsyncs (a crash mid-load leaves an index to rebuild anyway).
   */
  bulkLoad?: boolean;
}

interface OpenIndex {
  layout: IndexLayout;
  writer: IndexWriter;
  /** Snapshots at or below it were taken of tables since dropped (ensureTables). */
  baseSequence: number;
}

type Row = Record<string, string | number | null>;

/** Distinct query shapes are few (one per route and filter combination); this bounds the cache. */
const STATEMENT_CACHE_SIZE = 500;
/**
 * Below this many text matches (per FTS table) the matches drive an unranked query; from it on,
 * the query walks its filter and sort index instead. On 1M marks a common word (50,000-100,000
 * matches) took 90-180 ms driven and 13-40 ms walked; a rare one 1 ms driven and up to 12 ms
 * walked (every row of an office); reading up to this many matches, to learn which, costs under
 * 1 ms.
 */
const TEXT_DRIVES_BELOW = 2000;
/** Refresh planner statistics whenever an index has grown by this factor since the last time. */
const STATISTICS_GROWTH_FACTOR = 2;
/** FTS5 in-memory term buffer per table during a bulk load (SQLite's default is 1 MB). */
const BULK_LOAD_FTS_HASH_BYTES = 64 * 1024 * 1024;
const DEFAULT_FTS_HASH_BYTES = 1024 * 1024;
/** Page cache of a bulk-loading connection, in KiB (the default connection uses 128 MiB). */
const BULK_LOAD_CACHE_KIB = 512 * 1024;
/** WAL pages between checkpoints during a bulk load (about 256 MB instead of SQLite's 4 MB). */
const BULK_LOAD_CHECKPOINT_PAGES = 65536;

export function createEmbeddedSearchIndex(options: EmbeddedSearchIndexOptions): SearchIndex {
  const db = openPrivateDatabase(options.path);
  useWriteAheadLog(db);
  db.pragma(options.bulkLoad ? 'synchronous = OFF' : 'synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -131072');
  db.pragma('temp_store = MEMORY');
  if (options.bulkLoad) {
    db.pragma(`wal_autocheckpoint = ${BULK_LOAD_CHECKPOINT_PAGES}`);
    db.pragma(`cache_size = -${BULK_LOAD_CACHE_KIB}`);
  }
  const indexes = new Map<string, OpenIndex>();
  /** Indexes loading in bulk whose B-tree indexes are still to be built. */
  const deferred = new Set<string>();
  const statements = new Map<string, Database.Statement>();
  let sequenceAtLastStatistics = 0;
  const keptMatches = new KeptMatches(db, (table) => {
    for (const sql of statements.keys()) if (sql.includes(table)) statements.delete(sql);
  });

  function statement(sql: string): Database.Statement {
    let prepared = statements.get(sql);
    if (!prepared) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  }

  function rows(fragment: SqlFragment): Row[] {
    return statement(fragment.sql).all(...fragment.params) as Row[];
  }

  function opened(name: string): OpenIndex {
    const index = indexes.get(name);
    if (!index) throw new UnsupportedQueryError(`search index "${name}" was not ensured in this process`);
    return index;
  }

  /** An index about to be read: builds the B-tree indexes a bulk load deferred. */
  function queryable(name: string): OpenIndex {
    const index = opened(name);
    if (deferred.delete(name)) {
      secondaryIndexes(index.layout).forEach((secondary) => db.exec(secondary.create));
      ftsTables(index.layout).forEach((table) => setFtsHashSize(table, DEFAULT_FTS_HASH_BYTES));
      // Exact statistics (a few seconds per million documents): sampled ones misjudge the
      // low-cardinality keyword columns, and the planner then filters by the wrong index.
      db.pragma('analysis_limit = 0');
      [index.layout.mainTable, ...index.layout.arrayFields.map(index.layout.sideTable)].forEach((table) => db.exec(`ANALYZE ${table}`));
      statements.clear();
    }
    return index;
  }

  /** FTS5 keeps this setting in the table, so a bulk load puts the default back when done. */
  function setFtsHashSize(table: string, bytes: number): void {
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${Math.trunc(bytes)})`);
  }

  function deferSecondaryIndexes(layout: IndexLayout): void {
    if (db.prepare(`SELECT 1 FROM ${layout.mainTable} LIMIT 1`).get() !== undefined) return;
    secondaryIndexes(layout).forEach((secondary) => db.exec(`DROP INDEX IF EXISTS ${secondary.name}`));
    ftsTables(layout).forEach((table) => setFtsHashSize(table, BULK_LOAD_FTS_HASH_BYTES));
    deferred.add(layout.definition.name);
  }

  /** Keeps the planner's statistics roughly current while a bulk load grows the tables. */
  function refreshStatisticsAfterGrowth(writer: IndexWriter): void {
    const sequence = writer.currentSequence();
    if (sequence < 1000 || sequence < sequenceAtLastStatistics * STATISTICS_GROWTH_FACTOR) return;
    sequenceAtLastStatistics = sequence;
    db.pragma('analysis_limit = 1000');
    db.exec('ANALYZE');
  }

  /**
   * How a text query that is not ranked by relevance reads its matches: from the sets kept for
   * it (kept-matches.ts) when every FTS expression's are, else from FTS5. With fewer than
   * TEXT_DRIVES_BELOW matches they drive the query (`driving`); from it on, SQLite walks an index
   * of the filters and sort, testing each row against them, and stops after one page
   * (`filtering`), which finds a page sooner than sorting every match.
   */
  function textPlan(layout: IndexLayout, query: SearchQuery): { unranked: 'driving' | 'filtering'; kept?: KeptSet[] } {
    const matches = query.text === undefined || sortsByScore(query) ? [] : textMatches(layout, query);
    if (matches.length === 0) return { unranked: 'driving' };
    const sets = keptMatches.setsFor(matches, TEXT_DRIVES_BELOW);
    const kept = sets.filter((set): set is KeptSet => set !== 'many').sort((a, b) => a.size - b.size);
    const few = kept.length > 0 && kept[0]!.size < TEXT_DRIVES_BELOW;
    return { unranked: few ? 'driving' : 'filtering', ...(kept.length === sets.length ? { kept } : {}) };
  }

  function sortValue(layout: IndexLayout, field: string, value: string | number | null): string | number | boolean | null {
    if (value === null || field === '_score') return value;
    return layout.definition.fields[field]!.kind === 'boolean' ? value === 1 : value;
  }

  function toHit(layout: IndexLayout, query: SearchQuery, row: Row): SearchHit {
    const id = row.id as string;
    const score = row.score as number | null;
    return {
      id,
      score,
      sortValues: [...query.sort.map((sort, index) => sortValue(layout, sort.field, row[`k${index}`] ?? null)), id],
    };
  }

  return {
    async ensureIndex(definition: IndexDefinition): Promise<EnsuredIndex> {
      const layout = layoutFor(definition);
      keptMatches.noteWrite();
      const { needsRefill, baseSequence } = ensureTables(db, layout);
      if (options.bulkLoad) deferSecondaryIndexes(layout);
      statements.clear();
      const writer = createIndexWriter(db, layout);
      // An index opened already grown has its statistics; refresh them only once it grows again.
      sequenceAtLastStatistics = Math.max(sequenceAtLastStatistics, writer.currentSequence());
      indexes.set(definition.name, { layout, writer, baseSequence });
      return { needsRefill };
    },

    async markFilled(index: string): Promise<void> {
      markTablesFilled(db, opened(index).layout.definition.name);
    },

    async upsert(index: string, docs: readonly IndexDocument[]): Promise<void> {
      const { writer } = opened(index);
      keptMatches.noteWrite();
      db.transaction(() => writer.upsert(docs)).immediate();
      if (!deferred.has(index)) refreshStatisticsAfterGrowth(writer);
    },

    async remove(index: string, ids: readonly string[]): Promise<void> {
      const { writer } = opened(index);
      keptMatches.noteWrite();
      db.transaction(() => writer.remove(ids)).immediate();
    },

    async search(query: SearchQuery): Promise<SearchResult> {
      const { layout, writer, baseSequence } = queryable(query.index);
      assertValidQuery(layout.definition, query);
      // A snapshot of these tables is above the sequence they were created at: every page walk saw a document.
      if (query.snapshot !== undefined && baseSequence > 0 && query.snapshot <= baseSequence) {
        throw new StaleSnapshotError(`snapshot ${query.snapshot} predates the index "${query.index}", recreated at sequence ${baseSequence}`);
      }
      const snapshot = query.snapshot ?? writer.currentSequence();
      const text = textPlan(layout, query);
      const sql = searchSql(layout, query, snapshot, text.unranked, text.kept);
      const countWanted = query.countUpTo;
      if (sql.matchesNothing) {
        return { hits: [], snapshot, ...(countWanted === undefined ? {} : { total: { value: 0, approximate: false } }) };
      }
      const hits = query.limit === 0 ? [] : rows(sql.hits).map((row) => toHit(layout, query, row));
      if (!sql.count || countWanted === undefined) return { hits, snapshot };
      const counted = rows(sql.count)[0]!.n as number;
      const total = { value: Math.min(counted, countWanted), approximate: counted > countWanted };
      return { hits, snapshot, total };
    },

    async terms(index: string, field: string, filters: readonly SearchFilter[], size: number): Promise<TermCount[]> {
      const { layout } = queryable(index);
      assertValidTermsField(layout.definition, field);
      filters.forEach((filter) => assertValidFilter(layout.definition, filter));
      return rows(termsSql(layout, field, filters, size)).map((row) => ({
        value: row.value as string | number,
        count: row.n as number,
      }));
    },

    async currentSnapshot(index: string): Promise<number> {
      return opened(index).writer.currentSequence();
    },

    async ping(): Promise<void> {
      db.prepare('SELECT 1').get();
    },

    async close(): Promise<void> {
      [...deferred].forEach(queryable);
      db.close();
    },
  };
}
