/**
 * The OpenAPI 3.1 document, generated from the route table and, for its `webhooks`, the webhook
 * event types (never written by hand).
 */
import { openApiWebhooks } from './openapi-webhooks';
import type { ParamKind, ParamSpec } from './params';
import type { RouteDef } from './route';
import { errorEnvelope } from './schemas/envelopes';
import type { JsonSchema } from './schemas/json-schema';
import { successSchema } from './serialize';

const CONVENTIONS = `
Marque: trademark data over a JSON REST API.

Conventions (every endpoint):
- Authentication: \`Authorization: Bearer mq_<48 hex>\`; health, this document and /docs need no key.
- Arrays in query strings are comma-separated (\`a=x,y\`); bracketed keys (\`a[]=x\`) are rejected; repeated keys are accepted as a fallback. Unknown parameters are rejected with 400 so a typo never widens a search.
- Booleans are the literals \`true\` and \`false\`; dates are \`YYYY-MM-DD\`; timestamps ISO 8601. Ranges use \`_gte/_gt/_lte/_lt\`; a lower bound must lie before the upper one.
- Every response carries \`request_id\` (also in the \`Request-Id\` header). Lists: \`object: list\`, \`data\`, \`has_more\`, \`pagination.cursor\` (null on the last page).
- Cursors are opaque, signed, bound to the query, sort and filters, valid 24 hours (then 400 cursor_expired), and pin the result set: rows inserted after the first page never appear in later pages; deleted rows are skipped, so a page may hold fewer than \`limit\` rows.
- Errors: \`{error: {type, title, status, detail, instance, suggestion, retryable, retry_after}, request_id}\`; \`detail\` names the parameter and the rule.
- CORS is open (\`Access-Control-Allow-Origin: *\`); credentials are read only from the Authorization header.
`.trim();

function kindSchema(kind: ParamKind): JsonSchema & { pattern?: string; maxLength?: number; minItems?: number; maxItems?: number } {
  switch (kind.type) {
    case 'string':
      return { type: 'string', maxLength: kind.maxLength, ...(kind.pattern ? { pattern: kind.pattern.source } : {}) };
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
      return { type: 'string', pattern: `^${kind.prefix}[0-9a-z]+$` };
    case 'sort':
      return { type: 'string', enum: kind.fields.flatMap((f) => [f, `-${f}`]) };
    case 'objects':
      return { type: 'array', minItems: 1, maxItems: kind.batchLimit, items: bodySchema(kind.fields) };
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
  const item = kindSchema(spec.kind);
  const schema: JsonSchema = spec.array ? { type: 'array', items: item } : item;
  const nullable = spec.nullable ? { ...schema, type: [...[schema.type ?? []].flat(), 'null'] } : schema;
  return spec.default === undefined ? nullable : { ...nullable, ...{ default: spec.default } };
}

function parameter(spec: ParamSpec, location: 'path' | 'query') {
  return {
    name: spec.name,
    in: location,
    required: location === 'path' || spec.required === true,
    description: spec.description,
    ...(spec.deprecated ? { deprecated: true } : {}),
    schema: paramSchema(spec),
    ...(spec.array ? { style: 'form', explode: false } : {}),
  };
}

const STANDARD_ERRORS: Record<number, string> = {
  400: 'Invalid parameter, body or header; detail names the parameter and the rule.',
  401: 'Missing, malformed, expired or revoked API key.',
  403: 'The key lacks the required scope, or the plan lacks the feature.',
  404: 'Not found (or belongs to another organization).',
  409: 'Idempotency conflict.',
  410: 'The entity was merged; follow merged_into.',
  422: 'A cap was exceeded.',
  429: 'Rate limit or quota exhausted; see Retry-After and the X-Quota-* headers.',
  503: 'A dependency is unavailable; retry after retry_after seconds.',
};

function responses(route: RouteDef) {
  const out: Record<string, unknown> = {
    [String(route.successStatus)]: { description: route.summary, content: { 'application/json': { schema: successSchema(route) } } },
  };
  const statuses = new Set<number>(route.errors);
  if (route.scope !== 'public') [401, 403, 429].forEach((s) => statuses.add(s));
  for (const status of [...statuses].sort()) {
    out[String(status)] = {
      description: STANDARD_ERRORS[status] ?? 'Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

export function buildOpenApi(routes: readonly RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}');
    const operation: Record<string, unknown> = {
      operationId: route.id,
      summary: route.summary,
      description: route.description,
      tags: [route.tag],
      'x-marque-pool': route.pool,
      'x-marque-tier': route.tier,
      'x-marque-idempotency': route.idempotency,
      ...(route.kind === 'operation' ? { 'x-marque-operation': route.operation } : {}),
      parameters: [...route.pathParams.map((p) => parameter(p, 'path')), ...route.query.map((p) => parameter(p, 'query'))],
      responses: responses(route),
      security: route.scope === 'public' ? [] : [{ apiKey: [] }],
      ...(route.scope !== 'public' && route.scope !== null ? { 'x-marque-scope': route.scope } : {}),
    };
    if (route.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: bodySchema(route.body) } } };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Marque API', version, description: CONVENTIONS },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'mq_ followed by 48 hexadecimal characters.' } },
      schemas: { Error: errorEnvelope },
    },
    paths,
    webhooks: openApiWebhooks(),
  };
}
