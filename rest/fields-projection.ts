/**
 * The `fields` query parameter of list routes that declare `fieldsProjection`: a comma list of
 * top-level fields each row keeps (the route's always-kept fields, such as `id` and `object`, stay
 * too). Unknown names are 400 by the parameter's enumeration, which is the row schema's property
 * list. Rows are projected after execution, in the envelope stage, so the operation and its
 * resolvers stay unaware; the row schema marks only the always-kept fields required.
 */
import type { ParamSpec, ParsedParams } from './params';
import type { JsonSchema } from './schemas/json-schema';

export const FIELDS_PARAMETER = 'fields';

/** The `fields` parameter for rows shaped by `row`. */
export function fieldsParam(row: JsonSchema, alwaysKept: readonly string[]): ParamSpec {
  const names = Object.keys(row.properties ?? {});
  return {
    name: FIELDS_PARAMETER,
    kind: { type: 'enum', values: names },
    array: true,
    maxItems: names.length,
    description: `Top-level fields to return (${alwaysKept.join(' and ')} always kept); one or more of ${names.join(', ')}.`,
  };
}

/** The row schema with only the always-kept fields required (the others may be projected away). */
export function projectableRow(row: JsonSchema, alwaysKept: readonly string[]): JsonSchema {
  return { ...row, required: [...alwaysKept] };
}

/** Rows reduced to the requested fields; unchanged when the request names none. */
export function projectRows(rows: readonly unknown[], query: ParsedParams, alwaysKept: readonly string[]): unknown[] {
  const requested = query[FIELDS_PARAMETER];
  if (!Array.isArray(requested)) return [...rows];
  const keep = new Set<string>([...alwaysKept, ...requested.map(String)]);
  return rows.map((row) => Object.fromEntries(Object.entries(row as Record<string, unknown>).filter(([name]) => keep.has(name))));
}
