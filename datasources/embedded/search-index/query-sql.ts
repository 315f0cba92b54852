/**
 * Builds the SQL of a search (hits and capped count) and of a terms aggregation for one index.
 *
 * Text: see text-match.ts. Relevance is bm25 over the FTS tables used, each field weighted by its
 * `boost`.
 *
 * Order: the query's sort keys, then `id` ascending. NULLs sort last in both directions (so
 * `asc` is `NULLS LAST`, `desc` SQLite's default). `searchAfter` is the lexicographic "strictly
 * after" over the same keys, with the same NULL placement.
 */
import { UnsupportedQueryError, type SearchAfter, type SearchFilter, type SearchQuery, type SearchSort } from '../../ports';
import { sortsByScore } from '../../search-query-rules';
import { filtersCondition, type SqlFragment } from './filter-sql';
import type { IndexLayout } from './schema';
import type { KeptSet } from './kept-matches';
import { ftsMatches, type FtsMatch } from './text-match';

type SqlParam = string | number;

export interface SearchSql {
  /** Rows `{ id, score, k0, k1, ... }` (kN: value of sort key N). */
  hits: SqlFragment;
  /** One row `{ n }`: matches, counted up to the cap + 1. */
  count?: SqlFragment;
  /** True when the text has no searchable term: nothing can match. */
  matchesNothing: boolean;
}

function bm25(layout: IndexLayout, table: string): string {
  const weights = layout.textFields.map((field) => layout.definition.fields[field]!.boost ?? 1);
  return `bm25(${table}, ${weights.join(', ')})`;
}

/**
 * How a text query takes part in the SQL:
 * - `ranked`: the FTS tables are joined and bm25 scores every match (the sort uses `_score`);
 * - `driving`: joined without scores, so the matches drive the query (few of them);
 * - `filtering`: a membership test on the main table, so SQLite walks an index of the filters
 *   and sort in order and stops after one page (many matches: sorting them all would cost more).
 */
export type TextPlan = 'ranked' | 'driving' | 'filtering';

interface TextMatch {
  /** The FROM clause: the main table as `m`, with what the text reads. */
  from: string;
  /** Parameters of the FROM clause (they precede the conditions'). */
  fromParams?: SqlParam[];
  conditions: SqlFragment;
  score: string;
}

function searchedFields(layout: IndexLayout, query: SearchQuery): readonly string[] {
  if (layout.textFields.length === 0) throw new UnsupportedQueryError(`index "${layout.definition.name}" has no text fields`);
  return query.textFields && query.textFields.length > 0 ? query.textFields : layout.textFields;
}

/** The FTS expressions a query's text must match (none without text). */
export function textMatches(layout: IndexLayout, query: SearchQuery): FtsMatch[] {
  return query.text === undefined ? [] : ftsMatches(layout, searchedFields(layout, query), query.text);
}

/**
 * Unranked plans read kept matches (kept-matches.ts) when given them, the smallest first: it
 * drives the `driving` plan (CROSS JOIN keeps SQLite from walking an index of the filters
 * instead), the others are membership tests on their primary keys.
 */
function keptMatch(layout: IndexLayout, kept: readonly KeptSet[], plan: Exclude<TextPlan, 'ranked'>): TextMatch {
  const tested = plan === 'driving' ? kept.slice(1) : kept;
  return {
    from: plan === 'driving' ? `${kept[0]!.table} k CROSS JOIN ${layout.mainTable} m ON m.seq = k.seq` : `${layout.mainTable} m`,
    conditions: { sql: tested.map(({ table }) => `+m.seq IN (SELECT seq FROM ${table})`).join(' AND ') || '1', params: [] },
    score: 'NULL',
  };
}

function textMatch(layout: IndexLayout, query: SearchQuery, plan: TextPlan, kept: readonly KeptSet[] | undefined): TextMatch | 'nothing' | null {
  if (query.text === undefined) return null;
  const used = textMatches(layout, query);
  if (used.length === 0) return 'nothing';
  if (plan !== 'ranked' && kept !== undefined && kept.length > 0) return keptMatch(layout, kept, plan);
  const params = used.map(({ expression }) => expression);
  if (plan === 'filtering') {
    // The unary + keeps SQLite from reading the main table by these rowids (the `driving` plan).
    return {
      from: `${layout.mainTable} m`,
      conditions: { sql: used.map(({ table }) => `+m.seq IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?)`).join(' AND '), params },
      score: 'NULL',
    };
  }
  const boosts = plan === 'ranked' ? (query.boosts ?? []) : [];
  return {
    // Each boost's value is a one-row table joined in, so the statement keeps one text whatever
    // the value (the statement cache) and its parameter sits in FROM, before WHERE's.
    from:
      `${layout.mainTable} m${used.map(({ table }) => ` JOIN ${table} ON ${table}.rowid = m.seq`).join('')}` +
      boosts.map((_, index) => ` JOIN (SELECT ? AS value) b${index}`).join(''),
    fromParams: boosts.map(({ value }) => value),
    conditions: { sql: used.map(({ table }) => `${table} MATCH ?`).join(' AND '), params },
    score:
      plan === 'ranked'
        ? `-(${used.map(({ table }) => bm25(layout, table)).join(' + ')})` +
          boosts.map(({ field, boost }, index) => ` + (CASE WHEN m.${field} = b${index}.value THEN ${boost} ELSE 0 END)`).join('')
        : 'NULL',
  };
}

function sortExpression(sort: SearchSort, score: string): string {
  return sort.field === '_score' ? score : `m.${sort.field}`;
}

function toSqlParam(value: string | number | boolean): SqlParam {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** Rows strictly after `after` in the order of `keys` (expressions with directions) then id. */
function afterCondition(keys: ReadonlyArray<{ expression: string; direction: 'asc' | 'desc' }>, after: SearchAfter): SqlFragment {
  const alternatives: SqlFragment[] = [];
  const equalSoFar: SqlFragment[] = [];
  const joined = (parts: SqlFragment[]): SqlFragment => ({
    sql: parts.length === 0 ? '1' : parts.map((part) => part.sql).join(' AND '),
    params: parts.flatMap((part) => part.params),
  });
  keys.forEach(({ expression, direction }, index) => {
    const value = after[index];
    if (value !== null && value !== undefined) {
      const operator = direction === 'asc' ? '>' : '<';
      // Nulls sort last, so they come after any non-null value in both directions.
      const beyond = { sql: `(${expression} ${operator} ? OR ${expression} IS NULL)`, params: [toSqlParam(value)] };
      alternatives.push(joined([...equalSoFar, beyond]));
      equalSoFar.push({ sql: `${expression} = ?`, params: [toSqlParam(value)] });
    } else {
      // Nothing sorts after NULL on this key; only ties (also NULL) continue to later keys.
      equalSoFar.push({ sql: `${expression} IS NULL`, params: [] });
    }
  });
  const lastId = after[keys.length];
  if (typeof lastId !== 'string') throw new UnsupportedQueryError('the last searchAfter value must be the id');
  alternatives.push(joined([...equalSoFar, { sql: 'm.id > ?', params: [lastId] }]));
  return {
    sql: `(${alternatives.map((alternative) => `(${alternative.sql})`).join(' OR ')})`,
    params: alternatives.flatMap((alternative) => alternative.params),
  };
}

/**
 * `unranked`: the plan of a text query that does not sort by `_score` (those are `ranked`);
 * `kept`: the kept matches of every one of its FTS expressions, smallest first, if kept.
 */
export function searchSql(
  layout: IndexLayout,
  query: SearchQuery,
  snapshot: number,
  unranked: Exclude<TextPlan, 'ranked'> = 'driving',
  kept?: readonly KeptSet[],
): SearchSql {
  const text = textMatch(layout, query, sortsByScore(query) ? 'ranked' : unranked, kept);
  if (text === 'nothing') return { hits: { sql: '', params: [] }, matchesNothing: true };
  const score = text ? text.score : 'NULL';
  const filters = filtersCondition(layout, query.filters);
  const from = text ? text.from : `${layout.mainTable} m`;
  const base: SqlFragment = {
    sql: [...(text ? [text.conditions.sql] : []), 'm.seq <= ?', filters.sql].join(' AND '),
    params: [...(text?.fromParams ?? []), ...(text ? text.conditions.params : []), snapshot, ...filters.params],
  };
  const keys = query.sort.map((sort) => ({ expression: sortExpression(sort, score), direction: sort.direction }));
  const after = query.searchAfter ? afterCondition(keys, query.searchAfter) : null;
  const orderBy = [...keys.map(({ expression, direction }) => `${expression} ${direction === 'asc' ? 'ASC NULLS LAST' : 'DESC'}`), 'm.id ASC'].join(', ');
  const selected = ['m.id AS id', `${score} AS score`, ...keys.map(({ expression }, index) => `${expression} AS k${index}`)];
  const hits: SqlFragment = {
    sql: `SELECT ${selected.join(', ')} FROM ${from} WHERE ${base.sql}${after ? ` AND ${after.sql}` : ''} ` + `ORDER BY ${orderBy} LIMIT ?`,
    params: [...base.params, ...(after ? after.params : []), query.limit],
  };
  const count =
    query.countUpTo === undefined
      ? undefined
      : {
          sql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${base.sql} LIMIT ?)`,
          params: [...base.params, query.countUpTo + 1],
        };
  return { hits, count, matchesNothing: false };
}

/** Rows `{ value, n }`: the most frequent values of `field` among documents matching `filters`. */
export function termsSql(layout: IndexLayout, field: string, filters: readonly SearchFilter[], size: number): SqlFragment {
  const condition = filtersCondition(layout, filters);
  const grouped = layout.definition.fields[field]!.array
    ? `SELECT s.value AS value, count(*) AS n FROM ${layout.sideTable(field)} s JOIN ${layout.mainTable} m ON m.seq = s.doc_seq ` +
      `WHERE ${condition.sql} GROUP BY s.value`
    : `SELECT m.${field} AS value, count(*) AS n FROM ${layout.mainTable} m WHERE m.${field} IS NOT NULL AND ${condition.sql} GROUP BY m.${field}`;
  return { sql: `${grouped} ORDER BY n DESC, value ASC LIMIT ?`, params: [...condition.params, size] };
}
