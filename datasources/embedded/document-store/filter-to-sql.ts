/**
 * Compiles parsed filters and sorts to SQL over a `doc` JSON column, with MongoDB's semantics:
 * a comparison holds when any value reachable at the dotted path satisfies it, where the walk
 * descends into arrays of objects (`classifications.nice_class`) and also tests each element of
 * an array at the end of the path (`owner_ids: 'own_x'`).
 *
 * Paths that never held an array (see ArrayPathRegistry) compile to a bare
 * `json_extract(doc, '$.path') <op> ?`, the exact expression `ensureIndexes` indexes, so SQLite
 * can answer them from the index. Paths that did get `EXISTS (… json_each …)` branches too.
 */
import type { FieldTest, FilterNode, Scalar, SortKey } from './query-subset';

export type SqlParam = string | number | null;

export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

/** Whether a dotted path (indexes left out) has ever held an array in the collection. */
export type IsArrayPath = (path: string) => boolean;

export function compileFilter(filter: FilterNode, isArrayPath: IsArrayPath): SqlFragment {
  const params: SqlParam[] = [];
  const sql = compileNode(filter, isArrayPath, params, { next: 0 });
  return { sql, params };
}

/** An ORDER BY list; missing and null values sort first ascending and last descending, as in MongoDB. */
export function compileSort(keys: readonly SortKey[], isArrayPath: IsArrayPath): string {
  const aliases = { next: 0 };
  return keys.map(({ path, direction }) => `${sortExpression(path, direction, isArrayPath, aliases)} ${direction === 1 ? 'ASC' : 'DESC'}`).join(', ');
}

interface AliasCounter {
  next: number;
}

function compileNode(node: FilterNode, isArrayPath: IsArrayPath, params: SqlParam[], aliases: AliasCounter): string {
  if (node.kind === 'and' || node.kind === 'or') {
    if (node.children.length === 0) return '1';
    const joined = node.children.map((child) => compileNode(child, isArrayPath, params, aliases)).join(node.kind === 'and' ? ' AND ' : ' OR ');
    return `(${joined})`;
  }
  const predicate = predicateFor(node.test);
  const branches = candidateSources(node.path, isArrayPath, aliases).map((source) => {
    const conditions = [...source.conditions, ...(predicate.matchesNull ? source.nullGuards : [])];
    conditions.push(predicate.sql(source.value, source.type, params));
    const where = conditions.join(' AND ');
    return source.from.length === 0 ? `(${where})` : `EXISTS (SELECT 1 FROM ${source.from.join(', ')} WHERE ${where})`;
  });
  const anyMatch = branches.length === 1 ? branches[0]! : `(${branches.join(' OR ')})`;
  // IFNULL: a comparison with a missing value is NULL in SQL, and NOT NULL would drop the row.
  return node.negated ? `NOT IFNULL(${anyMatch}, 0)` : anyMatch;
}

interface Predicate {
  /** Pushes its parameters in the order its placeholders appear. */
  sql(value: string, type: string, params: SqlParam[]): string;
  /** True when the predicate accepts null, which SQL also yields for a missing path. */
  matchesNull: boolean;
}

const NUMBER_TYPES = `IN ('integer', 'real')`;

function predicateFor(test: FieldTest): Predicate {
  switch (test.op) {
    case 'exists':
      return { sql: (_value, type) => `${type} IS NOT NULL`, matchesNull: false };
    case 'range':
      return {
        sql: (value, type, params) => {
          params.push(test.value);
          return `${value} ${test.comparator} ? AND ${type} ${typeof test.value === 'number' ? NUMBER_TYPES : `= 'text'`}`;
        },
        matchesNull: false,
      };
    case 'eq':
      if (Array.isArray(test.value)) {
        const json = JSON.stringify(test.value);
        return {
          sql: (value, type, params) => {
            params.push(json);
            return `${type} = 'array' AND ${value} = ?`;
          },
          matchesNull: false,
        };
      }
      return inPredicate([test.value as Scalar]);
    case 'in':
      return inPredicate(test.values);
  }
}

/**
 * Whether `json_extract(...) = string` needs a `json_type = 'text'` test beside it. The SQL value of
 * a JSON number or boolean never equals a text parameter, and that of an object or array is its
 * minified JSON, which starts with `{` or `[`; so only such strings could be mistaken. Leaving the
 * test out matters: it parses the whole document, where the comparison alone is served by an
 * expression index (about 10 µs per lookup of a small document).
 */
function stringsNeedTypeTest(strings: readonly string[]): boolean {
  return strings.some((value) => value.startsWith('{') || value.startsWith('['));
}

/** Membership in a list of scalars, grouped by JSON type so `1` never matches `true` or `"1"`. */
function inPredicate(values: readonly Scalar[]): Predicate {
  const strings = values.filter((value): value is string => typeof value === 'string');
  const numbers = values.filter((value): value is number => typeof value === 'number');
  const booleans = [...new Set(values.filter((value): value is boolean => typeof value === 'boolean'))];
  const matchesNull = values.includes(null);
  return {
    matchesNull,
    sql: (value, type, params) => {
      const alternatives: string[] = [];
      const groups: Array<[readonly Scalar[], string | null]> = [
        [strings, stringsNeedTypeTest(strings) ? `= 'text'` : null],
        [numbers, NUMBER_TYPES],
      ];
      for (const [group, typeTest] of groups) {
        const typed = typeTest === null ? '' : ` AND ${type} ${typeTest}`;
        if (group.length === 1) {
          params.push(group[0] as string | number);
          alternatives.push(`${value} = ?${typed}`);
        } else if (group.length > 1) {
          params.push(JSON.stringify(group));
          alternatives.push(`${value} IN (SELECT value FROM json_each(?))${typed}`);
        }
      }
      for (const flag of booleans) alternatives.push(`${value} = ${flag ? 1 : 0} AND ${type} = '${flag}'`);
      if (matchesNull) alternatives.push(`${value} IS NULL`);
      if (alternatives.length === 0) return '0';
      return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.map((part) => `(${part})`).join(' OR ')})`;
    },
  };
}

function sortExpression(path: string[], direction: 1 | -1, isArrayPath: IsArrayPath, aliases: AliasCounter): string {
  const sources = candidateSources(path, isArrayPath, aliases);
  if (sources.length === 1 && sources[0]!.from.length === 0) return sources[0]!.value;
  // MongoDB sorts a document by the smallest (ascending) or largest (descending) value at the path.
  const selects = sources.map((source) => {
    const where = [...source.conditions, `${source.type} IS NOT 'array'`].join(' AND ');
    return `SELECT ${source.value} AS sort_value${source.from.length ? ` FROM ${source.from.join(', ')}` : ''} WHERE ${where}`;
  });
  return `(SELECT ${direction === 1 ? 'MIN' : 'MAX'}(sort_value) FROM (${selects.join(' UNION ALL ')}))`;
}

/** One way of reaching values at a path: table-valued joins, their conditions, the value and its JSON type. */
interface CandidateSource {
  from: string[];
  conditions: string[];
  /** Conditions that keep a path that crosses an array from reading as "missing" (= null). */
  nullGuards: string[];
  value: string;
  type: string;
}

function candidateSources(path: string[], isArrayPath: IsArrayPath, aliases: AliasCounter): CandidateSource[] {
  if (path.length === 1 && path[0] === '_id') {
    return [{ from: [], conditions: [], nullGuards: [], value: '_id', type: `'text'` }];
  }
  return sourcesWithin('doc', path, [], isArrayPath, aliases);
}

/**
 * Every way to reach `segments` inside the JSON held by `container`: straight through objects,
 * or into the elements of any array met on the way (each recorded array prefix doubles the ways).
 */
function sourcesWithin(container: string, segments: string[], walked: string[], isArrayPath: IsArrayPath, aliases: AliasCounter): CandidateSource[] {
  const fullPath = jsonPath(segments);
  const arrayPrefixes: number[] = [];
  for (let length = 1; length < segments.length; length++) {
    if (isArrayPath([...walked, ...segments.slice(0, length)].join('.'))) arrayPrefixes.push(length);
  }
  const sources: CandidateSource[] = [
    {
      from: [],
      conditions: [],
      nullGuards: arrayPrefixes.map((length) => `json_type(${container}, '${jsonPath(segments.slice(0, length))}') IS NOT 'array'`),
      value: `json_extract(${container}, '${fullPath}')`,
      type: `json_type(${container}, '${fullPath}')`,
    },
  ];
  if (isArrayPath([...walked, ...segments].join('.'))) {
    const alias = `e${aliases.next++}`;
    sources.push({
      from: [`json_each(${container}, '${fullPath}') AS ${alias}`],
      conditions: [`json_type(${container}, '${fullPath}') = 'array'`],
      nullGuards: [],
      value: `${alias}.value`,
      type: `${alias}.type`,
    });
  }
  for (const length of arrayPrefixes) {
    const prefixPath = jsonPath(segments.slice(0, length));
    const alias = `e${aliases.next++}`;
    const inner = sourcesWithin(`${alias}.value`, segments.slice(length), [...walked, ...segments.slice(0, length)], isArrayPath, aliases);
    for (const source of inner) {
      sources.push({
        ...source,
        from: [`json_each(${container}, '${prefixPath}') AS ${alias}`, ...source.from],
        conditions: [`json_type(${container}, '${prefixPath}') = 'array'`, `${alias}.type = 'object'`, ...source.conditions],
      });
    }
  }
  return sources;
}

/** Segments are validated identifiers (parseQueryPath), so they can be inlined in the literal. */
function jsonPath(segments: readonly string[]): string {
  return `$.${segments.join('.')}`;
}
