/**
 * JSON Schema helpers for response shapes. One schema per shape serves both fast-json-stringify
 * (serialization) and the OpenAPI document (documentation).
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
