/**
 * Turns SearchFilters into a SQL condition over the main table (alias `m`). Every condition is
 * written to yield 0 or 1, never NULL, so that `not` of a comparison also matches documents where
 * the field is missing (as in Elasticsearch and MongoDB). Array fields match through their side
 * table when any value matches.
 */
import { DOCUMENT_ID_FIELD, type SearchFilter } from '../../ports';
import type { IndexLayout } from './schema';
import { ftsMatches } from './text-match';

export interface SqlFragment {
  sql: string;
  params: Array<string | number>;
}

type Comparable = string | number | boolean;
type FieldFilter = Extract<SearchFilter, { field: string }>;
type ComparisonFilter = Extract<FieldFilter, { op: 'eq' | 'in' | 'range' }>;

function bind(value: Comparable): string | number {
  return typeof value === 'boolean' ? Number(value) : value;
}

/** Comparison against a column expression `target`; `target` is known to be non-NULL here. */
function comparison(target: string, filter: ComparisonFilter): SqlFragment {
  switch (filter.op) {
    case 'eq':
      return { sql: `${target} = ?`, params: [bind(filter.value)] };
    case 'in':
      return { sql: `${target} IN (${filter.values.map(() => '?').join(', ')})`, params: filter.values.map(bind) };
    case 'range': {
      const bounds: Array<[string, string | number | undefined]> = [
        ['>', filter.gt],
        ['>=', filter.gte],
        ['<', filter.lt],
        ['<=', filter.lte],
      ];
      const present = bounds.filter((bound): bound is [string, string | number] => bound[1] !== undefined);
      if (present.length === 0) return { sql: `${target} IS NOT NULL`, params: [] };
      return {
        sql: present.map(([operator]) => `${target} ${operator} ?`).join(' AND '),
        params: present.map(([, value]) => value),
      };
    }
  }
}

/** Documents whose one text field matches `text`, as a rowid set (scores are not affected). */
function textCondition(layout: IndexLayout, field: string, text: string): SqlFragment {
  const matches = ftsMatches(layout, [field], text);
  if (matches.length === 0) return { sql: '0', params: [] };
  return {
    sql: matches.map(({ table }) => `m.seq IN (SELECT rowid FROM ${table} WHERE ${table} MATCH ?)`).join(' AND '),
    params: matches.map(({ expression }) => expression),
  };
}

function fieldCondition(layout: IndexLayout, filter: FieldFilter): SqlFragment {
  if (filter.op === 'match') return textCondition(layout, filter.field, filter.text);
  if (filter.field === DOCUMENT_ID_FIELD && (filter.op === 'eq' || filter.op === 'in')) {
    if (filter.op === 'in' && filter.values.length === 0) return { sql: '0', params: [] };
    return comparison('m.id', filter);
  }
  const isArray = Boolean(layout.definition.fields[filter.field]!.array);
  if (filter.op === 'in' && filter.values.length === 0) return { sql: '0', params: [] };
  if (!isArray) {
    const column = `m.${filter.field}`;
    if (filter.op === 'exists') return { sql: `${column} IS ${filter.value ? 'NOT ' : ''}NULL`, params: [] };
    const compared = comparison(column, filter);
    return { sql: `(${column} IS NOT NULL AND ${compared.sql})`, params: compared.params };
  }
  const side = layout.sideTable(filter.field);
  if (filter.op === 'exists') {
    return { sql: `${filter.value ? '' : 'NOT '}EXISTS (SELECT 1 FROM ${side} s WHERE s.doc_seq = m.seq)`, params: [] };
  }
  const compared = comparison('value', filter);
  return { sql: `m.seq IN (SELECT doc_seq FROM ${side} WHERE ${compared.sql})`, params: compared.params };
}

export function filterCondition(layout: IndexLayout, filter: SearchFilter): SqlFragment {
  if (filter.op === 'or') {
    if (filter.filters.length === 0) return { sql: '0', params: [] };
    const parts = filter.filters.map((nested) => filterCondition(layout, nested));
    return { sql: `(${parts.map((part) => part.sql).join(' OR ')})`, params: parts.flatMap((part) => part.params) };
  }
  if (filter.op === 'not') {
    const inner = filterCondition(layout, filter.filter);
    return { sql: `NOT (${inner.sql})`, params: inner.params };
  }
  return fieldCondition(layout, filter);
}

/** All filters ANDed together ('1' when there are none). */
export function filtersCondition(layout: IndexLayout, filters: readonly SearchFilter[]): SqlFragment {
  const parts = filters.map((filter) => filterCondition(layout, filter));
  if (parts.length === 0) return { sql: '1', params: [] };
  return { sql: parts.map((part) => part.sql).join(' AND '), params: parts.flatMap((part) => part.params) };
}
