/**
 * Stage 6b: response serialization with fast-json-stringify, compiled once per route from the
 * same JSON Schemas the OpenAPI document publishes.
 */
import fastJson from 'fast-json-stringify';
import type { ErrorBody } from '../domain/errors';
import type { RouteDef } from './route';
import { dataOnlyEnvelope, errorEnvelope, listEnvelope, singleEnvelope } from './schemas/envelopes';
import type { JsonSchema } from './schemas/json-schema';

/** A serialized success body: its JSON text, or for a long list the UTF-8 bytes of that text. */
export type SerializedBody = string | Buffer;

/**
 * From this many UTF-16 code units on, a list body is encoded to bytes item by item rather than
 * sent as one string. V8 puts a string over 128 KiB (64 Ki two-byte units) in its large-object
 * space on freshly mapped pages, and the first look at a body built by concatenation (its
 * Content-Length) copies it into such a string: for a 224 KB batch of 100 marks that cost about
 * 1.8 ms, ten times what the same bytes in 2 KB pieces cost (bench/analysis.md).
 */
export const PIECEWISE_FROM_UNITS = 32 * 1024;

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
type Serializer = (body: unknown) => string;

const compile = (schema: JsonSchema): Serializer => fastJson(schema as FastJsonSchema) as Serializer;

export function compileRouteSerializer(route: RouteDef): (body: unknown) => SerializedBody {
  const whole = compile(successSchema(route));
  const isList = route.envelope === 'list' || route.envelope === 'list_public' || route.envelope === 'data_only';
  return isList ? listSerializer(whole, compile(route.response)) : whole;
}

const DATA_MEMBER = '"data":[]';

/**
 * A list envelope serialized as its items one by one, spliced into the envelope serialized with
 * no items: the same text the whole-envelope serializer writes, as a string while short and as
 * bytes from PIECEWISE_FROM_UNITS on.
 */
function listSerializer(whole: Serializer, item: Serializer): (body: unknown) => SerializedBody {
  return (body) => {
    const envelope = body as { data: readonly unknown[] };
    const empty = whole({ ...envelope, data: [] });
    // `object` comes first in every list envelope, so the first "data":[] is the envelope's own.
    const at = empty.indexOf(DATA_MEMBER);
    if (at === -1) throw new Error('a list envelope serialized without its data member');
    const open = at + DATA_MEMBER.length - 1;
    const pieces = [empty.slice(0, open)];
    let units = empty.length;
    envelope.data.forEach((value, index) => {
      const text = item(value);
      pieces.push(index === 0 ? text : `,${text}`);
      units += text.length + 1;
    });
    pieces.push(empty.slice(open));
    return units < PIECEWISE_FROM_UNITS ? pieces.join('') : utf8Concat(pieces);
  };
}

/** The UTF-8 bytes of the pieces one after another, without first joining them into one string. */
function utf8Concat(pieces: readonly string[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece);
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const piece of pieces) offset += bytes.write(piece, offset);
  return bytes;
}

const errorSerializer = compile(errorEnvelope) as (body: ErrorBody) => string;

export function serializeError(body: ErrorBody): string {
  return errorSerializer(body);
}
