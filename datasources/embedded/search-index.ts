/**
 * SearchIndex on SQLite (better-sqlite3): typed columns and side tables for filters and sorts,
 * FTS5 for text. See search-index/schema.ts for the tables and search-index/query-sql.ts for the
 * query semantics (shared with the Elasticsearch adapter through the contract suite).
 */
import Database from 'better-sqlite3';
import {
  UnsupportedQueryError,
  type IndexDefinition,
  type IndexDocument,
  type SearchFilter,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
  type TermCount,
} from '../ports';
import { assertValidFilter, assertValidQuery, assertValidTermsField } from '../search-query-rules';
import { searchSql, termsSql } from './search-index/query-sql';
import { ensureTables, layoutFor, type IndexLayout } from './search-index/schema';
import { createIndexWriter, type IndexWriter } from './search-index/writer';
import type { SqlFragment } from './search-index/filter-sql';

export interface EmbeddedSearchIndexOptions {
  /** Database file, or ':memory:'. */
  path: string;
}

interface OpenIndex {
  layout: IndexLayout;
  writer: IndexWriter;
}

type Row = Record<string, string | number | null>;

/** Distinct query shapes are few (one per route and filter combination); this bounds the cache. */
const STATEMENT_CACHE_SIZE = 500;
/** Refresh planner statistics whenever an index has grown by this factor since the last time. */
const STATISTICS_GROWTH_FACTOR = 2;

export function createEmbeddedSearchIndex(options: EmbeddedSearchIndexOptions): SearchIndex {
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -131072');
  db.pragma('temp_store = MEMORY');
  const indexes = new Map<string, OpenIndex>();
  const statements = new Map<string, Database.Statement>();
  let sequenceAtLastStatistics = 0;

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

  /** Keeps the planner's statistics roughly current while a bulk load grows the tables. */
  function refreshStatisticsAfterGrowth(writer: IndexWriter): void {
    const sequence = writer.currentSequence();
    if (sequence < 1000 || sequence < sequenceAtLastStatistics * STATISTICS_GROWTH_FACTOR) return;
    sequenceAtLastStatistics = sequence;
    db.pragma('analysis_limit = 1000');
    db.exec('ANALYZE');
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
    async ensureIndex(definition: IndexDefinition): Promise<void> {
      const layout = layoutFor(definition);
      ensureTables(db, layout);
      statements.clear();
      indexes.set(definition.name, { layout, writer: createIndexWriter(db, layout) });
    },

    async upsert(index: string, docs: readonly IndexDocument[]): Promise<void> {
      const { writer } = opened(index);
      db.transaction(() => writer.upsert(docs))();
      refreshStatisticsAfterGrowth(writer);
    },

    async remove(index: string, ids: readonly string[]): Promise<void> {
      const { writer } = opened(index);
      db.transaction(() => writer.remove(ids))();
    },

    async search(query: SearchQuery): Promise<SearchResult> {
      const { layout, writer } = opened(query.index);
      assertValidQuery(layout.definition, query);
      const snapshot = query.snapshot ?? writer.currentSequence();
      const sql = searchSql(layout, query, snapshot);
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
      const { layout } = opened(index);
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
      db.close();
    },
  };
}
