/**
 * The MongoDB query subset every DocumentStore adapter accepts, parsed into a small tree.
 * Both adapters parse every filter, sort and update through here, so a query outside the subset
 * fails the same way (UnsupportedQueryError) on SQLite and on MongoDB, and repositories cannot
 * come to depend on an operator only one adapter has.
 */
import { UnsupportedQueryError } from '../../ports';
import type { Filter, FilterValue, SortSpec, Update } from '../../ports';

export type Scalar = string | number | boolean | null;

/** A comparison that holds when any value found at the path satisfies it (MongoDB's array rule). */
export type FieldTest =
  | { op: 'eq'; value: FilterValue }
  | { op: 'in'; values: readonly Scalar[] }
  | { op: 'range'; comparator: '>' | '>=' | '<' | '<='; value: string | number }
  | { op: 'exists' };

export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  /** `negated`: $ne, $nin and `$exists: false` are the negations of $eq, $in and `$exists: true`. */
  | { kind: 'field'; path: string[]; test: FieldTest; negated: boolean };

const FILTER_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Splits a dotted filter or sort path; segments are plain identifiers (array indexes are not supported). */
export function parseQueryPath(path: string): string[] {
  const segments = path.split('.');
  for (const segment of segments) {
    if (!FILTER_SEGMENT.test(segment)) {
      throw new UnsupportedQueryError(
        `Unsupported path "${path}": each dotted segment must be an identifier ([A-Za-z_][A-Za-z0-9_]*); array indexes are not supported.`,
      );
    }
  }
  if (segments[0] === '_id' && segments.length > 1) {
    throw new UnsupportedQueryError(`Unsupported path "${path}": _id is a string and has no fields.`);
  }
  return segments;
}

export function parseFilter(filter: Filter): FilterNode {
  if (!isPlainObject(filter)) throw new UnsupportedQueryError('A filter must be a plain object.');
  const children: FilterNode[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      children.push({ kind: key === '$and' ? 'and' : 'or', children: parseFilterList(key, value) });
    } else if (key.startsWith('$')) {
      throw new UnsupportedQueryError(`Unsupported filter operator "${key}"; supported at top level: $and, $or.`);
    } else {
      children.push(...parseFieldCondition(parseQueryPath(key), key, value));
    }
  }
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}

function parseFilterList(operator: string, value: unknown): FilterNode[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new UnsupportedQueryError(`${operator} takes a non-empty array of filters.`);
  }
  return value.map((entry) => parseFilter(entry as Filter));
}

const OPERATORS = ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists'] as const;
type Operator = (typeof OPERATORS)[number];
const COMPARATORS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

function parseFieldCondition(path: string[], key: string, condition: unknown): FilterNode[] {
  if (!isPlainObject(condition)) {
    return [{ kind: 'field', path, test: { op: 'eq', value: parseFilterValue(key, condition) }, negated: false }];
  }
  const entries = Object.entries(condition);
  if (entries.length === 0 || entries.some(([operator]) => !operator.startsWith('$'))) {
    throw new UnsupportedQueryError(
      `Unsupported condition on "${key}": embedded-document equality is not supported; use dotted paths or operators (${OPERATORS.join(' ')}).`,
    );
  }
  return entries.map(([operator, operand]) => {
    if (!(OPERATORS as readonly string[]).includes(operator)) {
      throw new UnsupportedQueryError(`Unsupported operator "${operator}" on "${key}"; supported: ${OPERATORS.join(' ')}.`);
    }
    return parseOperator(path, key, operator as Operator, operand);
  });
}

function parseOperator(path: string[], key: string, operator: Operator, operand: unknown): FilterNode {
  switch (operator) {
    case '$eq':
    case '$ne':
      return { kind: 'field', path, test: { op: 'eq', value: parseFilterValue(key, operand) }, negated: operator === '$ne' };
    case '$in':
    case '$nin': {
      if (!Array.isArray(operand)) throw new UnsupportedQueryError(`${operator} on "${key}" takes an array.`);
      const values = operand.map((value) => parseScalar(key, value));
      return { kind: 'field', path, test: { op: 'in', values }, negated: operator === '$nin' };
    }
    case '$exists':
      if (typeof operand !== 'boolean') throw new UnsupportedQueryError(`$exists on "${key}" takes true or false.`);
      return { kind: 'field', path, test: { op: 'exists' }, negated: !operand };
    default: {
      if (typeof operand !== 'string' && !(typeof operand === 'number' && Number.isFinite(operand))) {
        throw new UnsupportedQueryError(`${operator} on "${key}" takes a string or a finite number.`);
      }
      return { kind: 'field', path, test: { op: 'range', comparator: COMPARATORS[operator], value: operand }, negated: false };
    }
  }
}

function parseFilterValue(key: string, value: unknown): FilterValue {
  return Array.isArray(value) ? value.map((element) => parseScalar(key, element)) : parseScalar(key, value);
}

function parseScalar(key: string, value: unknown): Scalar {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new UnsupportedQueryError(`Unsupported value for "${key}": only strings, finite numbers, booleans, null and arrays of them can be compared.`);
}

export interface SortKey {
  path: string[];
  direction: 1 | -1;
}

/** Parses a sort spec; adapters append `_id` ascending as the final tiebreaker so ties are stable. */
export function parseSort(sort: SortSpec | undefined): SortKey[] {
  const keys = Object.entries(sort ?? {}).map(([path, direction]) => {
    if (direction !== 1 && direction !== -1) throw new UnsupportedQueryError(`Sort direction for "${path}" must be 1 or -1.`);
    return { path: parseQueryPath(path), direction };
  });
  if (!keys.some((key) => key.path.length === 1 && key.path[0] === '_id')) keys.push({ path: ['_id'], direction: 1 });
  return keys;
}

export function validatePaging(limit: number | undefined, skip: number | undefined): void {
  for (const [name, value] of [
    ['limit', limit],
    ['skip', skip],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new UnsupportedQueryError(`${name} must be a non-negative integer.`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Updates
// ---------------------------------------------------------------------------------------------

export interface ParsedUpdate {
  set: Array<[string[], unknown]>;
  unset: string[][];
  inc: Array<[string[], number]>;
  /** Values to append, already unwrapped from `{ $each: [...] }`. */
  push: Array<[string[], unknown[]]>;
  setOnInsert: Array<[string[], unknown]>;
}

const UPDATE_OPERATORS = ['$set', '$unset', '$inc', '$push', '$setOnInsert'] as const;

export function parseUpdate(update: Update): ParsedUpdate {
  if (!isPlainObject(update)) throw new UnsupportedQueryError('An update must be a plain object of update operators.');
  const parsed: ParsedUpdate = { set: [], unset: [], inc: [], push: [], setOnInsert: [] };
  const seenPaths: string[][] = [];
  for (const [operator, fields] of Object.entries(update)) {
    if (!(UPDATE_OPERATORS as readonly string[]).includes(operator)) {
      throw new UnsupportedQueryError(`Unsupported update operator "${operator}"; supported: ${UPDATE_OPERATORS.join(' ')}.`);
    }
    if (!isPlainObject(fields)) throw new UnsupportedQueryError(`${operator} takes an object of paths.`);
    for (const [key, value] of Object.entries(fields)) {
      const path = parseUpdatePath(key);
      if (path[0] === '_id' && operator !== '$setOnInsert') {
        throw new UnsupportedQueryError(`${operator} cannot change the immutable field _id.`);
      }
      if (seenPaths.some((seen) => isPrefix(seen, path) || isPrefix(path, seen))) {
        throw new UnsupportedQueryError(`Update paths conflict at "${key}".`);
      }
      seenPaths.push(path);
      addUpdateEntry(parsed, operator as (typeof UPDATE_OPERATORS)[number], path, key, value);
    }
  }
  if (seenPaths.length === 0) throw new UnsupportedQueryError('An update needs at least one field under an update operator.');
  return parsed;
}

function addUpdateEntry(parsed: ParsedUpdate, operator: (typeof UPDATE_OPERATORS)[number], path: string[], key: string, value: unknown): void {
  if (value === undefined) throw new UnsupportedQueryError(`${operator} value for "${key}" is undefined.`);
  switch (operator) {
    case '$set':
      parsed.set.push([path, value]);
      break;
    case '$setOnInsert':
      parsed.setOnInsert.push([path, value]);
      break;
    case '$unset':
      parsed.unset.push(path);
      break;
    case '$inc':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new UnsupportedQueryError(`$inc on "${key}" takes a finite number.`);
      parsed.inc.push([path, value]);
      break;
    case '$push':
      parsed.push.push([path, pushedValues(key, value)]);
      break;
  }
}

function pushedValues(key: string, value: unknown): unknown[] {
  if (!isPlainObject(value) || !Object.keys(value).some((name) => name.startsWith('$'))) return [value];
  const { $each, ...modifiers } = value;
  if (Object.keys(modifiers).length > 0 || !Array.isArray($each)) {
    throw new UnsupportedQueryError(`$push on "${key}" supports only the $each modifier (with an array).`);
  }
  return $each;
}

function parseUpdatePath(key: string): string[] {
  const segments = key.split('.');
  if (segments.some((segment) => segment === '' || segment.startsWith('$'))) {
    throw new UnsupportedQueryError(`Unsupported update path "${key}": segments must be non-empty and not start with "$".`);
  }
  return segments;
}

function isPrefix(prefix: string[], path: string[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => segment === path[index]);
}

/**
 * The `_id` an upsert inserts under: the filter's `_id` equality or `$setOnInsert._id`. Upserts
 * without one are rejected, because MongoDB would invent an ObjectId and every stored `_id` is a
 * string.
 */
export function upsertId(filter: FilterNode, update: ParsedUpdate): string {
  const fromFilter = equalityFields(filter).find(([path]) => path.length === 1 && path[0] === '_id')?.[1];
  const fromUpdate = update.setOnInsert.find(([path]) => path.length === 1 && path[0] === '_id')?.[1];
  const id = fromUpdate ?? fromFilter;
  if (typeof id !== 'string') {
    throw new UnsupportedQueryError('An upsert needs a string _id, as an _id equality in the filter or in $setOnInsert.');
  }
  return id;
}

/** Plain equalities at the top of a filter (MongoDB copies them into an upserted document). */
export function equalityFields(filter: FilterNode): Array<[string[], FilterValue]> {
  if (filter.kind === 'and') return filter.children.flatMap(equalityFields);
  if (filter.kind === 'field' && filter.test.op === 'eq' && !filter.negated) return [[filter.path, filter.test.value]];
  return [];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
