/**
 * Stage 6b: response serialization with fast-json-stringify, compiled once per route from the
 * same JSON Schemas the OpenAPI document publishes.
 */
import fastJson from 'fast-json-stringify';
import type { ErrorBody } from '../domain/errors';
import type { RouteDef } from './route';
import { dataOnlyEnvelope, errorEnvelope, listEnvelope, singleEnvelope } from './schemas/envelopes';
import type { JsonSchema } from './schemas/json-schema';

/** The full response-body schema of a route's success response. */
export function successSchema(route: RouteDef): JsonSchema {
  switch (route.envelope) {
    case 'single':
      return singleEnvelope(route.response);
    case 'list':
      return listEnvelope(route.response, route.listExtras);
    case 'list_public':
      return listEnvelope(route.response, route.listExtras, false);
    case 'data_only':
      return dataOnlyEnvelope(route.response);
    case 'raw':
    case 'binary':
      return route.response;
  }
}

// fast-json-stringify's schema type is its own; our JsonSchema is a structural subset of it.
type FastJsonSchema = Parameters<typeof fastJson>[0];

export function compileRouteSerializer(route: RouteDef): (body: unknown) => string {
  return fastJson(successSchema(route) as FastJsonSchema) as (body: unknown) => string;
}

const errorSerializer = fastJson(errorEnvelope as FastJsonSchema) as (body: ErrorBody) => string;

export function serializeError(body: ErrorBody): string {
  return errorSerializer(body);
}
