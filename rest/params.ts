/**
 * The spec's request conventions, implemented once: comma-separated arrays, bracketed keys
 * rejected, repeated keys accepted as a fallback, strict `true`/`false`, ISO dates, `_gte/_gt/
 * _lte/_lt` range suffixes, bounded integers, enumerations and prefixed IDs. Query strings and JSON
 * bodies go through the same parameter specs, so `GET` and `POST /v1/trademarks` accept the same
 * filters with the same rules. JSON bodies may also carry a batch: an `objects` parameter is an
 * array of objects whose fields are parameter specs themselves, so every item field gets the same
 * conventions and a detail naming it (`items[3].filing_date: …`).
 */
import { ApiError, invalid } from '../domain/errors';
import type { IdPrefix } from '../domain/ids';
import type { JsonSchema } from './schemas/json-schema';
import { isIsoDate, parseId, parseTimestamp, truncate } from '../domain/validation';

export type ParamKind =
  | { type: 'string'; maxLength: number; pattern?: RegExp; patternRule?: string; uppercase?: boolean }
  | { type: 'enum'; values: readonly string[]; caseInsensitive?: boolean }
  | { type: 'integer'; min: number; max: number }
  | { type: 'boolean' }
  | { type: 'date' }
  | { type: 'timestamp' }
  | { type: 'id'; prefix: IdPrefix }
  | { type: 'sort'; fields: readonly string[]; multi?: boolean }
  /**
   * JSON bodies only: an array of 1 (or `minItems`) to `batchLimit` objects, each parsed by `fields`. More than
   * `batchLimit` items is 422 batch_too_large (with item_count and item_count_limit), checked
   * before any item is read.
   */
  | {
      type: 'objects';
      fields: readonly ParamSpec[];
      batchLimit: number;
      minItems?: 0 | 1;
      /** A list inside an item (not the batch): more than batchLimit is 400 validation_error. */
      nested?: true;
    }
  /**
   * JSON bodies only: an object of string values (metadata maps). With `nullValues`, a value may be
   * null too (a merge patch: null removes that key). Counts and lengths are the resolver's rules.
   */
  | { type: 'stringMap'; nullValues?: boolean }
  /**
   * JSON bodies only: a JSON object whose members the resolver checks (a watch query); `schema`
   * documents them in the OpenAPI document.
   */
  | { type: 'object'; schema: JsonSchema };

export interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** Comma-separated list (repeated keys accepted as a fallback). */
  array?: boolean;
  /** Bounds on the number of list items. */
  maxItems?: number;
  required?: boolean;
  default?: string | number | boolean;
  /** GraphQL variable this parameter feeds: `filter` groups it into the `filter` input object. */
  group?: 'filter';
  description: string;
  /** Deprecated parameters stay accepted; the OpenAPI document marks them. */
  deprecated?: boolean;
  /**
   * JSON bodies only: an explicit null is kept as null (a PATCH clearing the field) instead of
   * reading as an absent field.
   */
  nullable?: boolean;
  /**
   * Rules a resolver enforces on the value (so GraphQL callers meet them too) and this parser
   * leaves to it, keeping the resolver's error wording on every door: the accepted `values` and the
   * `pattern` of the value (of each item, for a list) and, for a list, `maxItems`. Published in the
   * OpenAPI document and the MCP input schemas; never checked here.
   */
  resolverRules?: { values?: readonly string[]; pattern?: string; maxItems?: number };
}

/** A `stringMap` parameter's value (null values only with `nullValues`). */
export interface StringMap {
  [key: string]: string | null;
}

/**
 * Array items are strings or numbers, or parsed objects for an `objects` parameter; null only for
 * a `nullable` body field; a StringMap for a `stringMap` parameter.
 */
export type ParamValue = string | number | boolean | null | StringMap | JsonObject | Array<string | number | ParsedParams>;

/** An `object` parameter's value, as sent. */
export interface JsonObject {
  [key: string]: unknown;
}
export interface ParsedParams {
  [name: string]: ParamValue;
}

/** Expands a date field into its four range parameters (`filing_date_gte`, …). */
export function rangeParams(field: string, kind: 'date' | 'timestamp', what: string): ParamSpec[] {
  const ops: Array<[string, string]> = [
    ['gte', 'on or after'],
    ['gt', 'after'],
    ['lte', 'on or before'],
    ['lt', 'before'],
  ];
  const format = kind === 'date' ? 'YYYY-MM-DD' : 'ISO 8601 timestamp';
  return ops.map(([op, words]) => ({
    name: `${field}_${op}`,
    kind: { type: kind },
    group: 'filter',
    description: `${what} ${words} this ${format}.`,
  }));
}

/** `name` is the parameter as the error detail names it (`items[3].filing_date`). */
function parseScalar(kind: ParamKind, name: string, raw: string): string | number | boolean {
  switch (kind.type) {
    case 'string': {
      if (raw.length === 0) throw invalid(name, 'must not be empty');
      if (raw.length > kind.maxLength) throw invalid(name, `must be at most ${kind.maxLength} characters`);
      if (kind.pattern && !kind.pattern.test(raw)) throw invalid(name, kind.patternRule ?? 'has an invalid format');
      return kind.uppercase ? raw.toUpperCase() : raw;
    }
    case 'enum': {
      const match = kind.caseInsensitive ? kind.values.find((v) => v.toLowerCase() === raw.toLowerCase()) : kind.values.find((v) => v === raw);
      if (match === undefined) throw invalid(name, `must be one of ${kind.values.join(', ')} (got '${truncate(raw)}')`);
      return match;
    }
    case 'integer': {
      if (!/^-?\d+$/.test(raw)) throw invalid(name, `must be an integer from ${kind.min} to ${kind.max} (got '${truncate(raw)}')`);
      const n = Number(raw);
      if (n < kind.min || n > kind.max) throw invalid(name, `must be an integer from ${kind.min} to ${kind.max} (got ${raw})`);
      return n;
    }
    case 'boolean': {
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw invalid(name, `must be the literal true or false (got '${truncate(raw)}')`);
    }
    case 'date': {
      if (!isIsoDate(raw)) throw invalid(name, `must be a date written YYYY-MM-DD (got '${truncate(raw)}')`);
      return raw;
    }
    case 'timestamp': {
      const ts = parseTimestamp(raw);
      if (ts === null) throw invalid(name, `must be an ISO 8601 date or timestamp (got '${truncate(raw)}')`);
      return ts;
    }
    case 'id':
      return parseId(name, raw, kind.prefix);
    case 'sort': {
      const field = raw.startsWith('-') ? raw.slice(1) : raw;
      if (!kind.fields.includes(field))
        throw invalid(name, `must be one of ${kind.fields.join(', ')}, optionally prefixed with - for descending (got '${truncate(raw)}')`);
      return raw;
    }
    case 'objects':
      throw invalid(name, 'must be a JSON array of objects in a JSON body');
    case 'stringMap':
    case 'object':
      throw invalid(name, 'must be a JSON object in a JSON body');
  }
}

function parseStringMap(name: string, value: unknown, kind: Extract<ParamKind, { type: 'stringMap' }>): StringMap {
  const valueRule = kind.nullValues ? 'a string or null' : 'a string';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(name, `must be a JSON object whose values are each ${valueRule}`);
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    if (typeof item !== 'string' && !(item === null && kind.nullValues)) throw invalid(`${name}.${key}`, `must be ${valueRule}`);
  }
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries(entries) as StringMap;
}

function parseObjects(name: string, value: unknown, kind: Extract<ParamKind, { type: 'objects' }>): ParsedParams[] {
  if (!Array.isArray(value)) throw invalid(name, `must be an array of objects (got ${typeof value})`);
  if (value.length < (kind.minItems ?? 1)) throw invalid(name, 'must list at least one item');
  if (value.length > kind.batchLimit) {
    if (kind.nested) throw invalid(name, `must list at most ${kind.batchLimit} items`);
    throw new ApiError('batch_too_large', `${name}: at most ${kind.batchLimit} items per request (got ${value.length})`, {
      item_count: value.length,
      item_count_limit: kind.batchLimit,
    });
  }
  const parsed: ParsedParams[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid(`${name}[${i}]`, 'must be a JSON object');
    parsed[i] = parseJsonParams(item as Record<string, unknown>, kind.fields, `${name}[${i}].`);
  }
  return parsed;
}

function parseValue(spec: ParamSpec, name: string, raw: string): ParamValue {
  if (!spec.array) return parseScalar(spec.kind, name, raw);
  const items = raw.split(',');
  if (items.some((item) => item.length === 0)) throw invalid(name, 'must be a comma-separated list without empty items');
  if (spec.maxItems !== undefined && items.length > spec.maxItems) throw invalid(name, `must list at most ${spec.maxItems} values`);
  return items.map((item) => parseScalar(spec.kind, name, item) as string | number);
}

function applyDefaults(specs: readonly ParamSpec[], out: ParsedParams, context = ''): ParsedParams {
  for (const spec of specs) {
    if (out[spec.name] === undefined) {
      if (spec.required) throw invalid(`${context}${spec.name}`, 'is required');
      if (spec.default !== undefined) out[spec.name] = spec.default;
    }
  }
  return out;
}

/**
 * The specs of a route (or of a batch item) by name, built once per spec list: a batch parses up to
 * 1,000 items against the same list, and the index is the same for all of them.
 */
const specIndexes = new WeakMap<readonly ParamSpec[], ReadonlyMap<string, ParamSpec>>();

function specIndex(specs: readonly ParamSpec[]): ReadonlyMap<string, ParamSpec> {
  let index = specIndexes.get(specs);
  if (index === undefined) {
    index = new Map(specs.map((s) => [s.name, s]));
    specIndexes.set(specs, index);
  }
  return index;
}

/**
 * Parses a raw query string (without `?`) by the specs. Unknown parameters are rejected so that a
 * misspelt filter never silently widens a search.
 */
export function parseQueryString(rawQuery: string, specs: readonly ParamSpec[]): ParsedParams {
  const byName = specIndex(specs);
  const seen = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    if (/[[\]]/.test(key)) throw invalid(key, 'bracketed keys are not accepted; send arrays comma-separated (a=x,y)');
    if (!byName.has(key)) throw invalid(key, `is not a parameter of this endpoint${specs.length ? ` (accepted: ${specs.map((s) => s.name).join(', ')})` : ''}`);
    const list = seen.get(key) ?? [];
    list.push(value);
    seen.set(key, list);
  }
  const out: ParsedParams = {};
  for (const [key, values] of seen) {
    const spec = byName.get(key) as ParamSpec;
    if (values.length > 1 && !spec.array) throw invalid(key, 'was given more than once but takes a single value');
    out[key] = parseValue(spec, key, values.join(','));
  }
  return applyDefaults(specs, out);
}

/**
 * What a JSON `null` in a field that cannot hold null means: on a create or a search, the field
 * left out (`absent`); on a PATCH an error (`refused`), since the client would otherwise believe it
 * had cleared the field while nothing changed.
 */
export type NullForNonNullable = 'absent' | 'refused';

/** The JSON-body twin of `parseQueryString`: JSON types are accepted, and so are the string forms. */
export function parseJsonParams(body: Record<string, unknown>, specs: readonly ParamSpec[], context = '', nulls: NullForNonNullable = 'absent'): ParsedParams {
  const byName = specIndex(specs);
  const out: ParsedParams = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    const spec = byName.get(key);
    const name = `${context}${key}`;
    if (!spec) throw invalid(name, `is not a field of this request body (accepted: ${specs.map((s) => s.name).join(', ')})`);
    if (value === null && !spec.nullable && nulls === 'refused') throw invalid(name, 'cannot be cleared (null); leave the field out to keep its value');
    if (value === null || value === undefined) {
      if (value === null && spec.nullable) out[key] = null;
      continue;
    }
    if (spec.kind.type === 'objects') {
      out[key] = parseObjects(name, value, spec.kind);
    } else if (spec.kind.type === 'stringMap') {
      out[key] = parseStringMap(name, value, spec.kind);
    } else if (spec.kind.type === 'object') {
      if (typeof value !== 'object' || Array.isArray(value))
        throw invalid(name, `must be a JSON object (got ${Array.isArray(value) ? 'an array' : typeof value})`);
      out[key] = value as JsonObject;
    } else if (spec.array && Array.isArray(value)) {
      if (value.length === 0) throw invalid(name, 'must not be an empty array');
      if (spec.maxItems !== undefined && value.length > spec.maxItems) throw invalid(name, `must list at most ${spec.maxItems} values`);
      out[key] = value.map((item, i) => {
        const itemName = `${name}[${i}]`;
        return parseScalar(spec.kind, itemName, jsonScalarToString(itemName, item, spec)) as string | number;
      });
    } else {
      out[key] = parseValue(spec, name, jsonScalarToString(name, value, spec));
    }
  }
  return applyDefaults(specs, out, context);
}

function jsonScalarToString(name: string, value: unknown, spec: ParamSpec): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && spec.kind.type === 'integer') return Number.isInteger(value) ? String(value) : 'not-an-integer';
  if (typeof value === 'boolean' && spec.kind.type === 'boolean') return String(value);
  throw invalid(name, `has the wrong JSON type (${Array.isArray(value) ? 'array' : typeof value})`);
}
