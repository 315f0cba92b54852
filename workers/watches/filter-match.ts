/**
 * Tests one index document against SearchIndex filters in memory, with the semantics the search
 * adapters give them (`in` on an array field: any element; ranges on ISO dates compare as text;
 * `match`: every folded query word starts a word of the field). The watch evaluator matches each
 * changed mark against the active watches this way, once per change, instead of asking the
 * SearchIndex once per watch (the watches are the small side: percolation).
 */
import type { IndexDocument, SearchFilter } from '../../datasources/ports';
import { foldedWords } from '../../domain/text';

type Scalar = string | number | boolean;

function valuesOf(doc: IndexDocument, field: string): Scalar[] {
  const value = doc[field];
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function inRange(value: Scalar, filter: Extract<SearchFilter, { op: 'range' }>): boolean {
  if (typeof value === 'boolean') return false;
  if (filter.gt !== undefined && !(value > filter.gt)) return false;
  if (filter.gte !== undefined && !(value >= filter.gte)) return false;
  if (filter.lt !== undefined && !(value < filter.lt)) return false;
  if (filter.lte !== undefined && !(value <= filter.lte)) return false;
  return true;
}

function textMatches(doc: IndexDocument, field: string, text: string): boolean {
  const words = new Set(valuesOf(doc, field).flatMap((value) => foldedWords(String(value))));
  return foldedWords(text).every((wanted) => [...words].some((word) => word.startsWith(wanted)));
}

export function matchesFilter(doc: IndexDocument, filter: SearchFilter): boolean {
  switch (filter.op) {
    case 'eq':
      return valuesOf(doc, filter.field).includes(filter.value);
    case 'in':
      return valuesOf(doc, filter.field).some((value) => (filter.values as ReadonlyArray<Scalar>).includes(value));
    case 'range':
      return valuesOf(doc, filter.field).some((value) => inRange(value, filter));
    case 'exists':
      return valuesOf(doc, filter.field).length > 0 === filter.value;
    case 'match':
      return textMatches(doc, filter.field, filter.text);
    case 'or':
      return filter.filters.some((nested) => matchesFilter(doc, nested));
    case 'not':
      return !matchesFilter(doc, filter.filter);
  }
}

export const matchesAll = (doc: IndexDocument, filters: readonly SearchFilter[]): boolean => filters.every((filter) => matchesFilter(doc, filter));
