/**
 * JSON Schema helpers for response shapes. One schema per shape serves both fast-json-stringify
 * (serialization) and the OpenAPI document (documentation).
 *
 * Schema objects stay self-contained (no `$ref`): the serializers and the MCP tools read them as
 * they are. What the OpenAPI document needs beyond that, a component name for a shape and how a
 * shape was derived from a named one, is recorded beside the objects (`named`, `withMembers`,
 * `nullableOf`) and read only by the OpenAPI builder (rest/openapi.ts), which publishes named
 * shapes once under `components.schemas` and refers to them with `$ref`.
 */

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: readonly (string | number | boolean | null)[];
  format?: string;
  additionalProperties?: boolean | JsonSchema;
  deprecated?: boolean;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  /** Bytes routes (the 'binary' envelope): the media type of the body, for the OpenAPI document. */
  contentMediaType?: string;
}

/** How a schema object was made from a named one, so the document can say it with a `$ref`. */
export type SchemaDerivation =
  /** `base` plus `members`, all required: documented as the base's component (members optional there) and the members required. */
  | { kind: 'members'; base: JsonSchema; members: Record<string, JsonSchema> }
  /** `base` or null. */
  | { kind: 'nullable'; base: JsonSchema };

const componentNames = new WeakMap<JsonSchema, string>();
const derivations = new WeakMap<JsonSchema, SchemaDerivation>();

/**
 * Names a shape for the OpenAPI document (`components.schemas[name]`); the object is returned
 * unchanged. Names are what generated clients call their types, so they avoid the names languages
 * keep for themselves (Error, Event, Object).
 */
export function named<T extends JsonSchema>(name: string, schema: T): T {
  componentNames.set(schema, name);
  return schema;
}

/** The component name of a schema object, if it has one. */
export function componentName(schema: JsonSchema): string | undefined {
  return componentNames.get(schema);
}

/** How a schema object was derived from another, if it was made by `withMembers` or `nullableOf`. */
export function derivationOf(schema: JsonSchema): SchemaDerivation | undefined {
  return derivations.get(schema);
}

/** An object schema: `base` with further members, all required (for example an envelope's request_id). */
export function withMembers(base: JsonSchema, members: Record<string, JsonSchema>): JsonSchema {
  const schema: JsonSchema = {
    ...base,
    properties: { ...base.properties, ...members },
    required: [...(base.required ?? []), ...Object.keys(members)],
  };
  derivations.set(schema, { kind: 'members', base, members });
  return schema;
}

/** `base` or null, described in place (an object member that is null when the thing is gone). */
export function nullableOf(base: JsonSchema, description: string): JsonSchema {
  const types = [base.type ?? []].flat();
  const schema: JsonSchema = { ...base, type: [...types.filter((type) => type !== 'null'), 'null'], description };
  derivations.set(schema, { kind: 'nullable', base });
  return schema;
}

export const str = (description?: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {}),
  ...extra,
});
export const nullableStr = (description?: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: ['string', 'null'],
  ...(description ? { description } : {}),
  ...extra,
});
export const int = (description?: string): JsonSchema => ({ type: 'integer', ...(description ? { description } : {}) });
export const nullableInt = (description?: string): JsonSchema => ({ type: ['integer', 'null'], ...(description ? { description } : {}) });
export const num = (description?: string): JsonSchema => ({ type: 'number', ...(description ? { description } : {}) });
export const nullableNum = (description?: string): JsonSchema => ({ type: ['number', 'null'], ...(description ? { description } : {}) });
export const bool = (description?: string): JsonSchema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const nullableBool = (description?: string): JsonSchema => ({ type: ['boolean', 'null'], ...(description ? { description } : {}) });
export const date = (description?: string): JsonSchema => ({ type: 'string', format: 'date', ...(description ? { description } : {}) });
export const nullableDate = (description?: string): JsonSchema => ({ type: ['string', 'null'], format: 'date', ...(description ? { description } : {}) });
export const timestamp = (description?: string): JsonSchema => ({ type: 'string', format: 'date-time', ...(description ? { description } : {}) });
export const nullableTimestamp = (description?: string): JsonSchema => ({
  type: ['string', 'null'],
  format: 'date-time',
  ...(description ? { description } : {}),
});
export const arrayOf = (items: JsonSchema, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) });
export const constant = (value: string): JsonSchema => ({ type: 'string', enum: [value] });
export const freeObject = (description?: string, nullable = false): JsonSchema => ({
  type: nullable ? ['object', 'null'] : 'object',
  additionalProperties: true,
  ...(description ? { description } : {}),
});

/** An object whose listed properties are all required (responses always carry every member). */
export function object(properties: Record<string, JsonSchema>, description?: string, nullable = false): JsonSchema {
  return {
    type: nullable ? ['object', 'null'] : 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...(description ? { description } : {}),
  };
}

/** What a DELETE answers: the deleted object's ID and kind, and `deleted: true`. */
export const deletedObjectSchema = (kind: string): JsonSchema => object({ id: str(), object: constant(kind), deleted: { type: 'boolean', enum: [true] } });
