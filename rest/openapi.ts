/**
 * The OpenAPI 3.1 document, generated from the route table and, for its `webhooks`, the webhook
 * event types (never written by hand).
 *
 * What the document adds to the route table, and where from:
 * - named shapes (`named` in rest/schemas/json-schema.ts) are published once under
 *   `components.schemas` and referred to by `$ref`; the schema objects themselves stay inline for
 *   the serializers and the MCP tools, so the references exist in this document only;
 * - request and response headers follow the stages that send them: `Idempotency-Key` by the
 *   route's idempotency (rest/idempotency.ts), `RateLimit*` and `X-Quota-*` by its pool and
 *   `cachedReference` (rest/limits.ts), `Retry-After` on 429 (rest/errors.ts), `Request-Id` on
 *   every answer;
 * - routes whose scope no customer key can hold (domain/scopes.ts) are left out: they are the
 *   service team's.
 */
import { idPattern } from '../domain/ids';
import { isMeteredPool } from '../domain/plans';
import { CUSTOMER_SCOPES } from '../domain/scopes';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency';
import { QUOTA_HEADER_NAMES, RATE_LIMIT_HEADER_NAMES } from './limits';
import { openApiWebhooks } from './openapi-webhooks';
import type { ParamKind, ParamSpec } from './params';
import type { RouteDef } from './route';
import { errorEnvelope } from './schemas/envelopes';
import { componentName, derivationOf, type JsonSchema } from './schemas/json-schema';
import { successSchema } from './serialize';
import { TAG_DESCRIPTIONS, type Tag } from './tags';

const CONVENTIONS = `
Marque: trademark data over a JSON REST API.

Conventions (every endpoint):
- Authentication: \`Authorization: Bearer mq_<48 hex>\`; health, this document and /docs need no key.
- Arrays in query strings are comma-separated (\`a=x,y\`); bracketed keys (\`a[]=x\`) are rejected; repeated keys are accepted as a fallback. Unknown parameters are rejected with 400 so a typo never widens a search.
- Booleans are the literals \`true\` and \`false\`; dates are \`YYYY-MM-DD\`; timestamps ISO 8601. Ranges use \`_gte/_gt/_lte/_lt\`; a lower bound must lie before the upper one.
- Every response carries \`request_id\` (also in the \`Request-Id\` header), except the opposition-rules list (publicly cacheable), media bytes and this document. An idempotent replay (\`Idempotent-Replayed: true\`) is the first answer again, its body's \`request_id\` the first request's; its \`Request-Id\` header is the replay's own. Lists: \`object: list\`, \`data\`, \`has_more\`, \`pagination.cursor\` (null on the last page).
- Cursors are opaque, signed, bound to the query, sort and filters, valid 24 hours (then 400 cursor_expired), and pin the result set: rows inserted after the first page never appear in later pages; deleted rows are skipped, so a page may hold fewer than \`limit\` rows.
- Errors: \`{error: {type, title, status, detail, instance, suggestion, retryable, retry_after}, request_id}\`; \`detail\` names the parameter and the rule.
- Writes (PATCH, DELETE and POSTs that store something) need an \`Idempotency-Key\` header; replaying it from the same API key returns the first answer with \`Idempotent-Replayed: true\`; the same key with another body, on another resource or from another API key is 409 \`conflict\`.
- CORS is open (\`Access-Control-Allow-Origin: *\`); credentials are read only from the Authorization header.
- Support: report a problem with POST /v1/feedback (any valid key; never billed).
`.trim();

/** What the document says of routes the contract covers only in part (`RouteDef.contract`). */
const CONTRACT_NOTES: Record<NonNullable<RouteDef['contract']>, string> = {
  'named-without-detail': "This route is this service's design; the contract names it without detail.",
  unnamed: "This route is this service's design; the contract does not name it.",
};

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

function kindSchema(kind: ParamKind): JsonSchema {
  switch (kind.type) {
    case 'string':
      // The parser refuses an empty string for every string parameter.
      return { type: 'string', minLength: 1, maxLength: kind.maxLength, ...(kind.pattern ? { pattern: kind.pattern.source } : {}) };
    case 'enum':
      return { type: 'string', enum: kind.values };
    case 'integer':
      return { type: 'integer', minimum: kind.min, maximum: kind.max };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'id':
      return { type: 'string', pattern: idPattern(kind.prefix) };
    case 'sort':
      return { type: 'string', enum: kind.fields.flatMap((f) => [f, `-${f}`]) };
    case 'objects':
      return { type: 'array', minItems: kind.minItems ?? 1, maxItems: kind.batchLimit, items: bodySchema(kind.fields) };
    case 'stringMap':
      return { type: 'object', additionalProperties: { type: kind.nullValues ? ['string', 'null'] : 'string' } };
    case 'object':
      return kind.schema;
  }
}

/** The JSON Schema of a body (or of one item of an `objects` parameter) from its parameter specs. */
export function bodySchema(specs: readonly ParamSpec[]): JsonSchema {
  const properties = Object.fromEntries(specs.map((spec) => [spec.name, { ...paramSchema(spec), description: spec.description }]));
  const required = specs.filter((s) => s.required).map((s) => s.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

function paramSchema(spec: ParamSpec): JsonSchema {
  const rules = spec.resolverRules;
  const kind = kindSchema(spec.kind);
  const item: JsonSchema = {
    ...kind,
    ...(rules?.values ? { enum: rules.values } : {}),
    ...(rules?.pattern ? { pattern: rules.pattern } : {}),
  };
  const maxItems = spec.maxItems ?? rules?.maxItems;
  // Lists hold at least one value: an empty JSON array and an empty comma list are both refused.
  const schema: JsonSchema = spec.array ? { type: 'array', items: item, minItems: 1, ...(maxItems !== undefined ? { maxItems } : {}) } : item;
  const nullable = spec.nullable ? { ...schema, type: [...[schema.type ?? []].flat(), 'null'] } : schema;
  return spec.default === undefined ? nullable : { ...nullable, default: spec.default };
}

/**
 * Named schemas, published once under `components.schemas`; every occurrence of a named schema
 * object becomes a `$ref` to it. A schema derived from a named one (`withMembers`, `nullableOf`) is
 * said with that `$ref` too: an envelope's added members are required beside it (and listed as
 * optional members of the component, whose `additionalProperties: false` would refuse them
 * otherwise), a nullable one is the component or null.
 */
class SchemaComponents {
  private readonly sources = new Map<string, JsonSchema>();
  private readonly published = new Map<string, Record<string, unknown>>();
  private readonly envelopeMembers = new Map<string, Record<string, Record<string, unknown>>>();

  publish(schema: JsonSchema): Record<string, unknown> {
    const name = componentName(schema);
    if (name !== undefined) return this.reference(name, schema);
    const derivation = derivationOf(schema);
    const baseName = derivation === undefined ? undefined : componentName(derivation.base);
    if (derivation === undefined || baseName === undefined) return this.inline(schema);
    const base = this.reference(baseName, derivation.base);
    if (derivation.kind === 'nullable') {
      return { anyOf: [base, { type: 'null' }], ...(schema.description !== undefined ? { description: schema.description } : {}) };
    }
    const members = Object.fromEntries(Object.entries(derivation.members).map(([key, member]) => [key, this.publish(member)]));
    this.envelopeMembers.set(baseName, { ...this.envelopeMembers.get(baseName), ...members });
    return { allOf: [base, { type: 'object', properties: members, required: Object.keys(members) }] };
  }

  /** `components.schemas`, by name. */
  schemas(): Record<string, unknown> {
    return Object.fromEntries(
      [...this.published.keys()].sort().map((name) => {
        const body = this.published.get(name) as Record<string, unknown>;
        const added = this.envelopeMembers.get(name);
        if (added === undefined) return [name, body];
        const described = Object.fromEntries(
          Object.entries(added).map(([key, member]) => [
            key,
            { ...member, description: `${String(member.description ?? '')} Present when this object is the whole response body, absent in lists.`.trim() },
          ]),
        );
        return [name, { ...body, properties: { ...(body.properties as Record<string, unknown>), ...described } }];
      }),
    );
  }

  private reference(name: string, schema: JsonSchema): Record<string, unknown> {
    const known = this.sources.get(name);
    if (known === undefined) {
      this.sources.set(name, schema);
      this.published.set(name, this.inline(schema));
    } else if (known !== schema) {
      throw new Error(`OpenAPI: two different schemas are named ${name}`);
    }
    return ref('schemas', name);
  }

  /** The schema with its subschemas published. */
  private inline(schema: JsonSchema): Record<string, unknown> {
    const out: Record<string, unknown> = { ...schema };
    if (schema.properties) {
      out.properties = Object.fromEntries(Object.entries(schema.properties).map(([key, member]) => [key, this.publish(member)]));
    }
    if (schema.items) out.items = this.publish(schema.items);
    if (typeof schema.additionalProperties === 'object') out.additionalProperties = this.publish(schema.additionalProperties);
    return out;
  }
}

interface HeaderDoc {
  description: string;
  schema: JsonSchema;
  example?: string;
}

/** Every response header the service sends (rest/app.ts exposes the same list to browsers). */
const HEADERS = {
  'Request-Id': {
    description: "ID of this request (req_...), also in the body as request_id (an idempotent replay's body keeps the first request's). On every response.",
    schema: { type: 'string' },
  },
  RateLimit: {
    description:
      'remaining={n}, reset={seconds} of the binding per-minute window (the one with fewest requests left); reset is 0 when it has room now. Authenticated routes except the cached reference routes.',
    schema: { type: 'string' },
    example: 'remaining=999, reset=0',
  },
  'RateLimit-Policy': {
    description: '{limit};w=60 of the plan window for the route pool, then of the transport-tier ceiling; one entry when the two limits are equal.',
    schema: { type: 'string' },
    example: '1000;w=60, 10000;w=60',
  },
  'X-Quota-Limit': { description: 'Monthly quota of the route pool (metered pools: search, read, check).', schema: { type: 'integer', minimum: 0 } },
  'X-Quota-Remaining': { description: 'Calls left in the monthly quota.', schema: { type: 'integer', minimum: 0 } },
  'X-Quota-Reset': {
    description: 'When the monthly quota resets (the next billing anchor day, UTC midnight).',
    schema: { type: 'string', format: 'date-time' },
  },
  'X-Quota-Daily-Limit': { description: 'Daily sub-cap of the route pool: 10 % of the monthly quota.', schema: { type: 'integer', minimum: 0 } },
  'X-Quota-Daily-Remaining': { description: 'Calls left today (UTC).', schema: { type: 'integer', minimum: 0 } },
  'X-Quota-Daily-Reset': { description: 'The next UTC midnight.', schema: { type: 'string', format: 'date-time' } },
  'Retry-After': {
    description: 'Seconds to wait before retrying (429 only; other retryable errors carry retry_after in the body).',
    schema: { type: 'integer', minimum: 1 },
  },
  'Idempotent-Replayed': {
    description:
      'true on a replayed answer: the Idempotency-Key was used before with the same body, and this is the first answer again (its body keeps the original request_id).',
    schema: { type: 'string', enum: ['true'] },
  },
  'Cache-Control': {
    description:
      'public, max-age={seconds} (media adds immutable): an answer the same for every caller, which any cache may keep; its body carries no request_id.',
    schema: { type: 'string' },
  },
  ETag: { description: 'Strong validator of the body; send it back in If-None-Match to get 304 while unchanged.', schema: { type: 'string' } },
} as const satisfies Record<string, HeaderDoc>;

type HeaderName = keyof typeof HEADERS;

const IDEMPOTENCY_SCHEMA: JsonSchema = { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source };

const PARAMETERS = {
  IdempotencyKey: {
    name: IDEMPOTENCY_HEADER,
    in: 'header',
    required: true,
    description:
      'A unique key per operation (1 to 255 characters of A-Za-z0-9_-), scoped to the organization. The same key on the same method, path (with its IDs), query and body within 24 hours returns the first 2xx answer again ' +
      '(Idempotent-Replayed: true); with another body or on another path (another resource), 409 conflict; while the first request still runs, 409 idempotency_processing (retryable). Missing or malformed: 400.',
    schema: IDEMPOTENCY_SCHEMA,
  },
  IdempotencyKeyAccepted: {
    name: IDEMPOTENCY_HEADER,
    in: 'header',
    required: false,
    description: 'Accepted but not needed: this POST is read-shaped (idempotency exempt) and is never replayed. A malformed key is still 400.',
    schema: IDEMPOTENCY_SCHEMA,
  },
} as const;

type ParameterName = keyof typeof PARAMETERS;

/** The error responses, published once each under `components.responses` by these names. */
const ERRORS: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Invalid parameter, body or header (unknown parameters included); detail names the parameter and the rule.' },
  401: { name: 'Unauthorized', description: 'Missing, malformed, expired or revoked API key.' },
  403: {
    name: 'Forbidden',
    description: 'The key lacks the required scope, the plan lacks the feature, or a plan limit on monitoring objects is reached (resource_limit_exceeded).',
  },
  404: { name: 'NotFound', description: 'Not found (or belongs to another organization).' },
  409: { name: 'Conflict', description: 'Idempotency conflict: the key was used with another body or on another path, or its first request is still running.' },
  410: { name: 'Gone', description: 'The entity was merged; follow merged_into.' },
  422: { name: 'UnprocessableContent', description: 'A cap was exceeded.' },
  429: { name: 'TooManyRequests', description: 'Rate limit or quota exhausted; wait Retry-After seconds.' },
  503: { name: 'ServiceUnavailable', description: 'A dependency is unavailable; retry after retry_after seconds.' },
  504: { name: 'GatewayTimeout', description: 'The time budget of the request ran out; narrow the query.' },
};

/** Errors answered before the limits stage sets its headers: authentication, authorization, the plan check, the stage's own outage. */
const BEFORE_LIMITS = new Set([401, 403, 503]);

/** Collects the header and parameter components the operations use (the document lists only those). */
class Components {
  readonly schemas = new SchemaComponents();
  private readonly headers = new Set<HeaderName>();
  private readonly parameters = new Set<ParameterName>();
  private readonly responses = new Map<string, Record<string, unknown>>();

  header(names: readonly HeaderName[]): Record<string, unknown> {
    names.forEach((name) => this.headers.add(name));
    return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
  }

  parameter(name: ParameterName): Record<string, unknown> {
    this.parameters.add(name);
    return ref('parameters', name);
  }

  /** An error response with these headers, published once per status and header set. */
  errorResponse(status: number, headerNames: readonly HeaderName[]): Record<string, unknown> {
    const error = ERRORS[status];
    if (error === undefined) throw new Error(`OpenAPI: no error response is described for status ${status}`);
    // Variants of one status differ by the limits headers they carry, and their names say which.
    const limited = !BEFORE_LIMITS.has(status);
    const variant = `${headerNames.includes('RateLimit') || !limited ? '' : 'WithoutRateLimit'}${headerNames.includes('X-Quota-Limit') ? 'WithQuota' : ''}`;
    const name = `${error.name}${variant}`;
    const note =
      status !== 429 && headerNames.some((header) => header === 'RateLimit' || header === 'X-Quota-Limit')
        ? ' The limits headers are present when the request got past the limits stage (after authentication).'
        : '';
    const response = {
      description: `${error.description}${note}`,
      headers: this.header(headerNames),
      content: { 'application/json': { schema: this.schemas.publish(errorEnvelope) } },
    };
    const known = this.responses.get(name);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(response)) throw new Error(`OpenAPI: response ${name} is described two ways`);
    this.responses.set(name, response);
    return ref('responses', name);
  }

  build(): Record<string, unknown> {
    const headerNames = (Object.keys(HEADERS) as HeaderName[]).filter((name) => this.headers.has(name));
    const parameterNames = (Object.keys(PARAMETERS) as ParameterName[]).filter((name) => this.parameters.has(name));
    return {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'mq_ followed by 48 hexadecimal characters.' } },
      schemas: this.schemas.schemas(),
      headers: Object.fromEntries(headerNames.map((name) => [name, { ...HEADERS[name], ...(name === 'Request-Id' ? { required: true } : {}) }])),
      parameters: Object.fromEntries(parameterNames.map((name) => [name, PARAMETERS[name]])),
      responses: Object.fromEntries([...this.responses.keys()].sort().map((name) => [name, this.responses.get(name)])),
    };
  }
}

/** The headers of a success answer of `route`, by the stages it passes. */
function successHeaders(route: RouteDef): HeaderName[] {
  const names: HeaderName[] = ['Request-Id'];
  if (route.scope !== 'public') {
    if (!route.cachedReference) names.push(...RATE_LIMIT_HEADER_NAMES);
    if (isMeteredPool(route.pool)) names.push(...QUOTA_HEADER_NAMES);
    if (route.idempotency === 'required') names.push('Idempotent-Replayed');
  }
  if (route.publicCache) names.push('Cache-Control', 'ETag');
  return names;
}

/**
 * The headers of an error answer: Request-Id; on 429 Retry-After; and, on an authenticated route,
 * the limits stage's headers for answers given after it (a window refusal keeps the RateLimit
 * headers, which cached reference routes never send; a quota refusal and later errors also the
 * X-Quota ones on metered pools).
 */
function errorHeaders(route: RouteDef, status: number): HeaderName[] {
  const names: HeaderName[] = ['Request-Id'];
  if (status === 429) names.push('Retry-After');
  if (route.scope === 'public' || BEFORE_LIMITS.has(status)) return names;
  if (!route.cachedReference) names.push(...RATE_LIMIT_HEADER_NAMES);
  if (isMeteredPool(route.pool)) names.push(...QUOTA_HEADER_NAMES);
  return names;
}

/** The error statuses a route can answer: its own, 400 for unknown parameters, and the authenticated stages'. */
function errorStatuses(route: RouteDef): number[] {
  const statuses = new Set<number>([400, ...route.errors]);
  for (const status of Object.keys(route.alsoAnswers ?? {})) statuses.delete(Number(status));
  if (route.scope !== 'public') {
    statuses.add(401);
    // 403: a scope to lack, a plan feature, or a metered pool a plan may exclude; a route open to any key has none of them.
    if (route.scope !== null || route.feature !== undefined || isMeteredPool(route.pool)) statuses.add(403);
    statuses.add(429);
    // The limits stage answers 503 while the KeyValue is unreachable.
    statuses.add(503);
  }
  return [...statuses].sort((a, b) => a - b);
}

function responses(route: RouteDef, components: Components): Record<string, unknown> {
  const success: Record<string, unknown> = {
    description: route.summary,
    headers: components.header(successHeaders(route)),
    content: {
      // Bytes routes name their media type on their schema; every other answer is JSON.
      [route.envelope === 'binary' ? (route.response.contentMediaType ?? 'application/octet-stream') : 'application/json']: {
        schema: components.schemas.publish(successSchema(route)),
        ...(route.examples ? { example: route.examples.response } : {}),
      },
    },
  };
  const out: Record<string, unknown> = { [String(route.successStatus)]: success };
  for (const [status, description] of Object.entries(route.alsoAnswers ?? {})) out[status] = { ...success, description };
  if (route.publicCache) {
    out['304'] = {
      description: 'Not modified: If-None-Match names the current ETag. No body.',
      headers: components.header(['Request-Id', 'Cache-Control', 'ETag']),
    };
  }
  for (const status of errorStatuses(route)) out[String(status)] = components.errorResponse(status, errorHeaders(route, status));
  return out;
}

function parameter(spec: ParamSpec, location: 'path' | 'query', components: Components, example: unknown) {
  return {
    name: spec.name,
    in: location,
    required: location === 'path' || spec.required === true,
    description: spec.description,
    ...(spec.deprecated ? { deprecated: true } : {}),
    schema: components.schemas.publish(paramSchema(spec)),
    ...(spec.array ? { style: 'form', explode: false } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

function parameters(route: RouteDef, components: Components): unknown[] {
  return [
    ...route.pathParams.map((p) => parameter(p, 'path', components, route.examples?.parameters?.[p.name])),
    ...route.query.map((p) => parameter(p, 'query', components, route.examples?.parameters?.[p.name])),
    ...(route.idempotency === 'required' ? [components.parameter('IdempotencyKey')] : []),
    ...(route.idempotency === 'exempt' ? [components.parameter('IdempotencyKeyAccepted')] : []),
    ...(route.publicCache
      ? [
          {
            name: 'If-None-Match',
            in: 'header',
            required: false,
            description: 'An ETag of an earlier answer: 304 without a body while it is current.',
            schema: { type: 'string' },
          },
        ]
      : []),
  ];
}

/** Routes for the service team only: their scope is one no customer key can hold (admin). */
function isInternal(route: RouteDef): boolean {
  return typeof route.scope === 'string' && route.scope !== 'public' && !(CUSTOMER_SCOPES as readonly string[]).includes(route.scope);
}

function operation(route: RouteDef, components: Components): Record<string, unknown> {
  const names = new Set([...route.pathParams, ...route.query].map((spec) => spec.name));
  const strays = Object.keys(route.examples?.parameters ?? {}).filter((name) => !names.has(name));
  if (strays.length > 0) throw new Error(`OpenAPI: the example of ${route.id} names parameters the route does not take: ${strays.join(', ')}`);
  const note = route.contract === undefined ? '' : `\n\n${CONTRACT_NOTES[route.contract]}`;
  return {
    operationId: route.id,
    summary: route.summary,
    description: `${route.description}${note}`,
    tags: [route.tag],
    'x-marque-pool': route.pool,
    'x-marque-tier': route.tier,
    'x-marque-idempotency': route.idempotency,
    ...(route.kind === 'operation' ? { 'x-marque-operation': route.operation } : {}),
    parameters: parameters(route, components),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: components.schemas.publish(bodySchema(route.body)),
                ...(route.examples?.body ? { example: route.examples.body } : {}),
              },
              ...(route.upload
                ? {
                    'multipart/form-data': {
                      schema: components.schemas.publish(route.upload.schema),
                      encoding: { [route.upload.field]: { contentType: route.upload.contentTypes.join(', ') } },
                    },
                  }
                : {}),
            },
          },
        }
      : {}),
    responses: responses(route, components),
    security: route.scope === 'public' ? [] : [{ apiKey: [] }],
    ...(route.scope !== 'public' && route.scope !== null ? { 'x-marque-scope': route.scope } : {}),
  };
}

export function buildOpenApi(routes: readonly RouteDef[], version: string): Record<string, unknown> {
  const components = new Components();
  const published = routes.filter((route) => !isInternal(route));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of published) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, components);
  }
  const webhooks = openApiWebhooks();
  const used = new Set<Tag>([...published.map((route) => route.tag), 'Webhooks']);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Marque API',
      version,
      description: CONVENTIONS,
      // No public address or mailbox exists yet; the support channel is the feedback endpoint.
      contact: { name: 'Marque API support (POST /v1/feedback)' },
      // The service is proprietary (package.json: UNLICENSED); SPDX has no identifier for that, so a LicenseRef- one.
      license: { name: 'Proprietary', identifier: 'LicenseRef-Marque-Proprietary' },
    },
    servers: [{ url: '/' }],
    tags: (Object.keys(TAG_DESCRIPTIONS) as Tag[]).filter((tag) => used.has(tag)).map((tag) => ({ name: tag, description: TAG_DESCRIPTIONS[tag] })),
    paths,
    webhooks,
    components: components.build(),
  };
}
