/**
 * What one route-table entry says. The route table is the single source of truth: routing,
 * parameter validation, scopes, limits, idempotency, envelopes, serialization, the OpenAPI
 * document are all derived from these entries.
 */
import type { Feature, Pool, Tier } from '../domain/plans';
import type { ParamSpec, ParsedParams } from './params';
import type { JsonSchema } from './schemas/json-schema';
import type { Tag } from './tags';

/** Monthly quota pools and transport-tier ceilings (spec: Limits); defined with the plans. */
export type { Pool, Tier } from '../domain/plans';

export type Envelope =
  /** The resource at top level plus request_id. */
  | 'single'
  /** object: list, data, has_more, pagination, request_id. */
  | 'list'
  /** The list envelope without request_id: a publicly cacheable body must not vary per request. */
  | 'list_public'
  /** object: list and data only. */
  | 'data_only'
  /** The body as the operation returns it (health, OpenAPI). */
  | 'raw'
  /**
   * Bytes, not JSON (media): custom routes only, whose handler answers a `BinaryBody`. Sent as is
   * with its Content-Type and strong ETag, and `Cache-Control: public, max-age=<publicCache>,
   * immutable` (the route must set publicCache); a matching If-None-Match gets 304; HEAD gets the
   * headers. `response` describes the bytes (a binary string) for the OpenAPI document. Errors keep
   * the JSON error envelope.
   */
  | 'binary';

/** What a custom route with the 'binary' envelope answers as its result's `body`. */
export interface BinaryBody {
  bytes: Buffer;
  contentType: string;
  /** A strong validator, quoted: the same bytes always get the same tag (for instance their SHA-256). */
  etag: string;
}

export function isBinaryBody(body: unknown): body is BinaryBody {
  const candidate = body as Partial<BinaryBody> | null;
  return typeof candidate === 'object' && candidate !== null && Buffer.isBuffer(candidate.bytes) && typeof candidate.etag === 'string';
}

export interface RouteInput {
  path: ParsedParams;
  query: ParsedParams;
  body: ParsedParams;
  /** The file part of a multipart/form-data request, on routes with `upload` only (held in memory, never stored). */
  upload?: UploadedFile;
}

/** One file part of a multipart/form-data body. */
export interface UploadedFile {
  field: string;
  bytes: Buffer;
  filename: string;
  mimeType: string;
}

/**
 * A route that also takes `multipart/form-data`: one file part named `field` of at most `maxBytes`
 * (a larger one is 400 naming the field), and the other parts as the fields of `body` (values that
 * are JSON, such as numbers and objects, decoded first). `schema` documents the form in OpenAPI.
 */
export interface UploadSpec {
  field: string;
  maxBytes: number;
  /** The file part's accepted media types, as the OpenAPI encoding lists them (the handler checks the bytes). */
  contentTypes: readonly string[];
  schema: JsonSchema;
}

interface RouteBase {
  /** Stable operation ID (the OpenAPI operationId). */
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Fastify path syntax: /v1/trademarks/:id. */
  path: string;
  summary: string;
  description: string;
  tag: Tag;
  /**
   * How the contract (the API specification) covers this route, said in the OpenAPI description:
   * `named-without-detail`, it names the route but not its shapes; `unnamed`, it does not name the
   * route at all. Either way the shapes are this service's design. Absent: the contract details it.
   */
  contract?: 'named-without-detail' | 'unnamed';
  /**
   * A request (parameter values by name, a body) and the success response body it gets, shown in
   * the OpenAPI document; test/rest/openapi-document.test.ts checks them against the route's schemas.
   */
  examples?: { parameters?: Record<string, unknown>; body?: Record<string, unknown>; response: Record<string, unknown> };
  /** Scope the key must hold; null: any valid key; 'public': no key at all. */
  scope: string | null | 'public';
  pool: Pool;
  tier: Tier;
  /**
   * Publicly cacheable response: `Cache-Control: public, max-age=…` and a strong `ETag` (hash of
   * the body); a matching `If-None-Match` gets 304 without a body. Pair with envelope
   * 'list_public', since a body carrying request_id would never match.
   */
  publicCache?: { maxAgeSeconds: number };
  /** Cached reference routes omit RateLimit-* headers (spec: Headers). */
  cachedReference?: boolean;
  /**
   * `required`: PATCH, DELETE and non-exempt POST: `Idempotency-Key` must be sent, and a replay
   * returns the first 2xx response (rest/idempotency.ts). `exempt`: read-shaped POSTs; the header is
   * accepted (its syntax checked) but not needed. `none`: GET.
   */
  idempotency: 'required' | 'exempt' | 'none';
  /**
   * A POST that sets a state rather than creating something: repeated with the same input, it
   * changes nothing more (pausing a paused watch, adding marks a portfolio holds). Published as the
   * MCP tool's idempotentHint.
   */
  setsState?: true;
  /** A plan feature the route belongs to; plans without it answer 403 plan_upgrade_required. */
  feature?: Feature;
  pathParams: readonly ParamSpec[];
  query: readonly ParamSpec[];
  /** Fields of a JSON body, checked with the same conventions as query parameters. */
  body?: readonly ParamSpec[];
  /** Also accepts multipart/form-data with one file part (RouteInput.upload). */
  upload?: UploadSpec;
  successStatus: number;
  envelope: Envelope;
  /** Schema of the response body inside the envelope (the resource, or a list item). */
  response: JsonSchema;
  /**
   * Single-resource routes: top-level members left out of the body when null, where the contract
   * says "absent means …" (watch preview's estimate_basis). The response schema does not require them.
   */
  absentWhenNull?: readonly string[];
  /**
   * List routes only: rows honour the `fields` query parameter (rest/fields-projection.ts), keeping
   * these fields always. The route lists `fieldsParam(...)` among its query parameters.
   */
  fieldsProjection?: { alwaysKept: readonly string[] };
  /** Extra top-level members of a list envelope (for example not_found, search_meta). */
  listExtras?: Record<string, JsonSchema>;
  /** Error statuses this route documents besides 401/403/429/5xx. */
  errors: readonly number[];
  /**
   * Statuses besides `successStatus` whose body is still this route's response, not the error
   * envelope (readiness answers 503 with its probes), each with what it means.
   */
  alsoAnswers?: Readonly<Record<number, string>>;
  /**
   * The name of the MCP tool that calls this route (rest/mcp/tools.ts derives its input and output
   * schemas, annotations and description from the rest of the entry); absent: not a tool.
   */
  mcpTool?: string;
  /** The tool's description where it must differ from `description` (what a tool sees differently, e.g. redacted secrets). */
  mcpDescription?: string;
}

/** A route that runs one persisted GraphQL operation. */
export interface OperationRoute extends RouteBase {
  kind: 'operation';
  operation: string;
  variables(input: RouteInput): Record<string, unknown>;
}

export interface CustomResult {
  status: number;
  body: unknown;
}

/** A route served without the GraphQL engine (health probes, the OpenAPI document). */
export interface CustomRoute extends RouteBase {
  kind: 'custom';
  handle(input: RouteInput): Promise<CustomResult>;
}

export type RouteDef = OperationRoute | CustomRoute;

/** What every public GET route shares (health, the OpenAPI document, the OAuth metadata): no key, no limit, never metered. */
export const PUBLIC_GET = {
  kind: 'custom',
  method: 'GET',
  scope: 'public',
  pool: 'utility',
  tier: 'reads',
  idempotency: 'none',
  pathParams: [],
  query: [],
  successStatus: 200,
  errors: [],
} as const;
