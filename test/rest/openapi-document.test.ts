/**
 * The served OpenAPI document as generated clients read it (issue 19): Redocly's recommended
 * ruleset finds nothing; openapi-typescript turns it into types under which a small openapi-fetch
 * program compiles with `tsc --strict` and runs against the server; named components are
 * referenced, the headers the server sends are the ones declared, the examples are real answers.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { GraphQLObjectType } from 'graphql';
import { SIMILARITY_SIGNAL_TYPES } from '../../domain/similarity';
import { buildSchema } from '../../resolvers/engine';
import { bodySchema } from '../../rest/openapi';
import { buildRouteTable } from '../../rest/route-table';
import type { RouteDef } from '../../rest/route';
import { computeDeadlinesExample, createWatchExample, getTrademarkExample, searchTrademarksExample } from '../../rest/schemas/examples';
import { successSchema } from '../../rest/serialize';
import { startTestApp, type TestApp } from '../support/harness';
import { send } from '../support/http';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');

interface Reference {
  $ref: string;
}
interface MediaType {
  schema: Record<string, unknown>;
  example?: unknown;
}
interface Response {
  description: string;
  headers?: Record<string, Reference>;
  content?: Record<string, MediaType>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: unknown;
}
interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: Array<Parameter | Reference>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, Response | Reference>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; license?: { name: string; identifier?: string }; contact?: { name?: string } };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Record<string, unknown>>;
    headers: Record<string, { required?: boolean }>;
    parameters: Record<string, Parameter>;
    responses: Record<string, Response>;
  };
}

/** The response headers a browser may read (rest/app.ts exposes them): the ones the document must declare. */
const SERVICE_HEADERS = [
  'Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
  'X-Quota-Limit',
  'X-Quota-Remaining',
  'X-Quota-Reset',
  'X-Quota-Daily-Limit',
  'X-Quota-Daily-Remaining',
  'X-Quota-Daily-Reset',
];

const isReference = (value: unknown): value is Reference => typeof value === 'object' && value !== null && '$ref' in value;

describe('REST: the OpenAPI document, as generated clients read it', function () {
  this.timeout(120_000);
  let app: TestApp;
  let doc: OpenApiDocument;
  let served: string;
  const routes: RouteDef[] = buildRouteTable({ version: 'test', health: { startedAt: 0, now: () => 0, isShuttingDown: () => false, probes: [] } });
  const routeById = (id: string): RouteDef => routes.find((route) => route.id === id) as RouteDef;

  const operationOf = (route: RouteDef): Operation | undefined => doc.paths[route.path.replace(/:([a-z_]+)/g, '{$1}')]?.[route.method.toLowerCase()];
  const resolveResponse = (response: Response | Reference): Response =>
    isReference(response) ? (doc.components.responses[response.$ref.replace('#/components/responses/', '')] as Response) : response;
  const declaredHeaders = (route: RouteDef, status: number): string[] => {
    const response = operationOf(route)?.responses[String(status)];
    expect(response, `${route.id} documents ${status}`).to.not.equal(undefined);
    return Object.keys(resolveResponse(response as Response).headers ?? {});
  };
  /** The service's own headers on a real answer, by their documented spelling. */
  const sentHeaders = (response: globalThis.Response): string[] => SERVICE_HEADERS.filter((name) => response.headers.has(name));

  before(async () => {
    app = await startTestApp({ marks: 300 });
    const response = await app.get('/v1/openapi.json', null);
    served = await response.text();
    doc = JSON.parse(served) as OpenApiDocument;
  });
  after(async () => app?.close());

  it('passes the Redocly recommended ruleset with no error and no warning', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: served, absoluteRef: join(ROOT, 'openapi.json'), config });
    const found = problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? '?'}`);
    expect(found).to.deep.equal([]);
  });

  it('generates a typed client with openapi-typescript that compiles under tsc --strict and reads the main operations', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'marque-client-'));
    try {
      // The program resolves openapi-fetch and the Node types from this project's installation.
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
      writeFileSync(join(dir, 'openapi.json'), served);
      await run(process.execPath, [
        join(dirname(require.resolve('openapi-typescript/package.json')), 'bin/cli.js'),
        join(dir, 'openapi.json'),
        '--output',
        join(dir, 'api.ts'),
      ]);
      writeFileSync(join(dir, 'client.ts'), CLIENT_PROGRAM);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            noUncheckedIndexedAccess: true,
            target: 'ES2022',
            module: 'node16',
            moduleResolution: 'node16',
            types: ['node'],
          },
          files: ['client.ts'],
        }),
      );
      const tsc = require.resolve('typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', dir, '--strict', '--noEmit']).catch((error: { stdout?: string }) => {
        throw new Error(`the generated client does not compile:\n${error.stdout ?? String(error)}`);
      });
      const { stdout } = await run(
        process.execPath,
        ['-r', require.resolve('ts-node/register/transpile-only'), join(dir, 'client.ts'), app.baseUrl, app.keys.full],
        {
          cwd: dir,
          env: { ...process.env, TS_NODE_PROJECT: join(dir, 'tsconfig.json') },
        },
      );
      const result = JSON.parse(stdout) as ClientResult;
      expect(result.searched).to.be.within(1, 2);
      expect(result.firstId).to.match(/^tm_/);
      expect(result.markId).to.equal(result.firstId);
      expect(result.markRequestId).to.match(/^req_/);
      expect(result.windowStatus).to.be.a('string');
      expect(result.missing).to.deep.equal({ status: 404, type: 'not_found' });
      expect(result.deadlines).to.deep.equal(['declaration_of_use', 'incontestability', 'renewal']);
      expect(result.offices).to.include('US');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('components', () => {
    it('publishes the resources as named schemas and refers to them instead of inlining them', () => {
      expect(Object.keys(doc.components.schemas)).to.include.members([
        'Trademark',
        'TrademarkSummary',
        'Owner',
        'Proceeding',
        'ApiKey',
        'WebhookEndpoint',
        'Watch',
        'Alert',
        'ErrorEnvelope',
        'Pagination',
      ]);
      const detail = operationOf(routeById('getTrademark'))?.responses['200'] as Response;
      const schema = detail.content?.['application/json']?.schema as { allOf: [Reference, { required: string[] }] };
      expect(schema.allOf[0]).to.deep.equal({ $ref: '#/components/schemas/Trademark' });
      expect(schema.allOf[1].required).to.deep.equal(['request_id']);
      const list = operationOf(routeById('searchTrademarks'))?.responses['200'] as Response;
      const listSchema = list.content?.['application/json']?.schema as { properties: { data: { items: Reference }; pagination: Reference } };
      expect(listSchema.properties.data.items).to.deep.equal({ $ref: '#/components/schemas/TrademarkSummary' });
      expect(listSchema.properties.pagination).to.deep.equal({ $ref: '#/components/schemas/Pagination' });
      // A shape is written once: no component body repeats the Trademark record inline.
      expect(served.split('"Full trademark record."').length - 1).to.equal(1);
    });

    it('names the error schema ErrorEnvelope (never Error, which would shadow a language type) and refers every error to it', () => {
      expect(doc.components.schemas).to.not.have.property('Error');
      for (const [name, response] of Object.entries(doc.components.responses)) {
        expect(response.content?.['application/json']?.schema, name).to.deep.equal({ $ref: '#/components/schemas/ErrorEnvelope' });
      }
      const missing = operationOf(routeById('getTrademark'))?.responses['404'] as Reference;
      expect(missing.$ref).to.equal('#/components/responses/NotFoundWithQuota');
    });

    it('keeps the schemas the serializers and MCP tools use inline', () => {
      for (const route of routes) {
        expect(JSON.stringify(successSchema(route)), route.id).to.not.contain('$ref');
        expect(JSON.stringify(bodySchema(route.body ?? [])), route.id).to.not.contain('$ref');
      }
    });

    it('describes real answers: live responses validate against the published schemas, references resolved', async () => {
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      // The document is no JSON Schema itself; only the schemas under it are compiled.
      ajv.addSchema(doc, 'openapi.json', undefined, false);
      const check = async (route: RouteDef, response: globalThis.Response) => {
        const body: unknown = await response.json();
        const pointer = `openapi.json#/paths/${route.path
          .replace(/:([a-z_]+)/g, '{$1}')
          .replace(/~/g, '~0')
          .replace(/\//g, '~1')}/${route.method.toLowerCase()}/responses/${route.successStatus}/content/application~1json/schema`;
        const validate = ajv.compile({ $ref: pointer });
        expect(validate(body), `${route.id}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      };
      const { id } = searchTrademarksExample.response.data[0] as { id: string };
      const search = await app.get('/v1/trademarks?offices=US&limit=3');
      const [first] = ((await search.clone().json()) as { data: Array<{ id: string }> }).data;
      await check(routeById('searchTrademarks'), search);
      await check(routeById('getTrademark'), await app.get(`/v1/trademarks/${first?.id ?? id}`));
      await check(routeById('computeDeadlines'), await app.post('/v1/deadlines/compute', computeDeadlinesExample.body));
      await check(routeById('listOffices'), await app.get('/v1/offices'));
      await check(routeById('createWatch'), await send(app, 'POST', '/v1/watches', createWatchExample.body));
      // Every read that needs no argument, each page of it: reference lists hold rows no example shows.
      const plainReads = routes.filter(
        (route) => route.method === 'GET' && route.pathParams.length === 0 && route.scope !== 'public' && !route.query.some((spec) => spec.required),
      );
      expect(plainReads.length).to.be.greaterThan(20);
      for (const route of plainReads) {
        const limitKind = route.query.find((spec) => spec.name === 'limit')?.kind;
        const limit = limitKind?.type === 'integer' ? `limit=${limitKind.max}` : '';
        let url: string | null = limit === '' ? route.path : `${route.path}?${limit}`;
        for (let page = 0; url !== null && page < 20; page++) {
          const response = await app.get(url);
          // Lists that need a filter (spec: "no filter on endpoints that need one") say so.
          if (page === 0 && response.status === 400 && ((await response.clone().json()) as { error: { detail: string } }).error.detail.includes('filter'))
            break;
          expect(response.status, `${route.id}: ${url}`).to.equal(route.successStatus);
          const cursor = ((await response.clone().json()) as { pagination?: { cursor?: string | null } }).pagination?.cursor ?? null;
          await check(route, response);
          url = cursor === null ? null : `${route.path}?${limit}&cursor=${encodeURIComponent(cursor)}`;
        }
      }
    });
  });

  describe('headers', () => {
    it('declares Idempotency-Key as required where the server requires it, optional where it only accepts it, and not on reads', () => {
      const key = (operation: Operation) => {
        const found = operation.parameters.map((p) => (isReference(p) ? doc.components.parameters[p.$ref.replace('#/components/parameters/', '')] : p));
        return found.find((p) => p?.in === 'header' && p.name === 'Idempotency-Key');
      };
      for (const route of routes) {
        const operation = operationOf(route);
        if (operation === undefined) continue;
        const parameter = key(operation);
        if (route.idempotency === 'none') expect(parameter, route.id).to.equal(undefined);
        else expect(parameter?.required, route.id).to.equal(route.idempotency === 'required');
      }
    });

    it('declares exactly the service headers a real answer carries', async () => {
      const cases: Array<[RouteDef, globalThis.Response]> = [
        [routeById('searchTrademarks'), await app.get('/v1/trademarks?offices=US&limit=1')],
        [routeById('getTrademark'), await app.get(`/v1/trademarks/${getTrademarkExample.parameters.id}`)],
        [routeById('getTrademark'), await app.get('/v1/trademarks/tm_0000000000')],
        [routeById('listOffices'), await app.get('/v1/offices')],
        [routeById('computeDeadlines'), await app.post('/v1/deadlines/compute', computeDeadlinesExample.body)],
        [routeById('listWatches'), await app.get('/v1/watches')],
        [routeById('health'), await app.get('/v1/health', null)],
      ];
      for (const [route, response] of cases) {
        expect(declaredHeaders(route, response.status).sort(), `${route.id} ${response.status}`).to.deep.equal(sentHeaders(response).sort());
      }
      // A replayed write adds Idempotent-Replayed, which its success response declares.
      const replay = () =>
        fetch(`${app.baseUrl}/v1/watches`, {
          method: 'POST',
          headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json', 'idempotency-key': 'openapi-document-replay' },
          body: JSON.stringify({ ...createWatchExample.body, name: 'Replayed' }),
        });
      expect((await replay()).status).to.equal(201);
      const replayed = await replay();
      expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
      expect(declaredHeaders(routeById('createWatch'), 201).sort()).to.deep.equal(sentHeaders(replayed).sort());
    });

    it('declares Retry-After and the limit headers on 429', () => {
      expect(declaredHeaders(routeById('searchTrademarks'), 429)).to.include.members(['Retry-After', 'RateLimit', 'X-Quota-Remaining']);
      expect(declaredHeaders(routeById('listOffices'), 429)).to.deep.equal(['Request-Id', 'Retry-After']);
      expect(doc.components.headers['Request-Id']?.required).to.equal(true);
    });
  });

  describe('operations', () => {
    it('leaves out the operations only the service team can call', () => {
      const internal = routes.filter((route) => route.scope === 'admin');
      expect(internal.map((route) => route.id)).to.deep.equal(['updateFeedbackStatus']);
      for (const route of internal) expect(operationOf(route), route.id).to.equal(undefined);
      expect(served).to.not.contain('"x-marque-scope":"admin"');
    });

    it('gives every operation an operationId, a summary and a described tag; info carries a license and a contact', () => {
      const tags = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
      for (const operations of Object.values(doc.paths)) {
        for (const operation of Object.values(operations)) {
          expect(operation.operationId).to.be.a('string');
          expect(operation.summary, operation.operationId).to.be.a('string').and.not.equal('');
          for (const tag of operation.tags) expect(tags.get(tag), `${operation.operationId} ${tag}`).to.be.a('string');
        }
      }
      expect(doc.info.license).to.deep.equal({ name: 'Proprietary', identifier: 'LicenseRef-Marque-Proprietary' });
      expect(doc.info.contact?.name).to.be.a('string');
    });

    it("says which routes are this service's design: nine the contract does not name, more it names without detail", () => {
      const unnamed = routes.filter((route) => route.contract === 'unnamed');
      expect(unnamed.map((route) => route.id).sort()).to.deep.equal(
        [
          'addPortfolioTrademarks',
          'deleteWebhookEndpoint',
          'getEntity',
          'listPortfolioDeadlines',
          'listPortfolioTrademarks',
          'removePortfolioTrademarks',
          'rotateWebhookSecret',
          'runSavedSearch',
          'updateAlert',
        ].sort(),
      );
      for (const route of unnamed)
        expect(operationOf(route)?.description, route.id).to.contain("This route is this service's design; the contract does not name it.");
      expect(operationOf(routeById('getOwner'))?.description).to.contain("This route is this service's design; the contract names it without detail.");
      expect(operationOf(routeById('getTrademarkSource'))?.description).to.not.contain("service's design");
    });

    it('states the request rules the server enforces', () => {
      const body = (id: string) =>
        (operationOf(routeById(id))?.requestBody?.content['application/json']?.schema as { properties: Record<string, Record<string, unknown>> }).properties;
      expect(body('batchGetTrademarks').ids).to.deep.include({ minItems: 1, maxItems: 100 });
      expect((body('batchGetTrademarks').ids?.items as { pattern: string }).pattern).to.equal('^tm_[0-9a-hjkmnp-tv-z]{1,64}$');
      expect(body('createApiKey').scopes).to.deep.include({ minItems: 1 });
      expect((body('createApiKey').scopes?.items as { enum: string[] }).enum).to.not.include('admin');
      expect(body('createFeedback').message).to.deep.include({ minLength: 1, maxLength: 5000 });
      const include = operationOf(routeById('getFirm'))?.parameters.find((p) => !isReference(p) && p.name === 'include') as {
        schema: { items: { enum: string[] } };
      };
      expect(include.schema.items.enum).to.deep.equal(['stats', 'attorneys']);
    });
  });

  it('lists every similarity signal type an alert can carry, transliteration among them, as the GraphQL schema describes them', () => {
    const alert = doc.components.schemas.Alert as { properties: { signals: { items: { properties: { type: { enum: string[] } } } } } };
    expect(alert.properties.signals.items.properties.type.enum).to.deep.equal([...SIMILARITY_SIGNAL_TYPES]);
    expect(SIMILARITY_SIGNAL_TYPES).to.include('transliteration');
    const described = (buildSchema().getType('AlertSignal') as GraphQLObjectType).getFields().type?.description ?? '';
    for (const type of SIMILARITY_SIGNAL_TYPES) expect(described, type).to.contain(type);
    expect(operationOf(routeById('createWatch'))?.description).to.contain('transliteration');
  });

  describe('examples', () => {
    it('validates every example against its route schemas as the serializers see them', () => {
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const examples = routes.filter((route) => route.examples !== undefined);
      expect(examples.map((route) => route.id).sort()).to.deep.equal(['computeDeadlines', 'createWatch', 'getTrademark', 'searchTrademarks']);
      for (const route of examples) {
        const validate = ajv.compile(successSchema(route));
        expect(validate(route.examples?.response), `${route.id}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      }
    });

    it('shows the deadline computation the service makes for the example request today', async () => {
      const response = await app.post('/v1/deadlines/compute', computeDeadlinesExample.body);
      const { request_id: live, ...body } = (await response.json()) as { request_id: string };
      const { request_id: shown, ...example } = computeDeadlinesExample.response;
      expect(live).to.match(/^req_/);
      expect(shown).to.match(/^req_/);
      expect(body).to.deep.equal(example);
    });
  });
});

/** What the client program prints. */
interface ClientResult {
  searched: number;
  firstId: string;
  markId: string;
  markRequestId: string;
  windowStatus: string;
  missing: { status: number; type: string };
  deadlines: string[];
  offices: string[];
}

/**
 * A client as a customer would write it: openapi-fetch over the generated `paths`. Annotations
 * with the generated component types, and the @ts-expect-error lines, fail the compilation when the
 * document loses its types (an `unknown` or `any` response would compile the error lines).
 */
const CLIENT_PROGRAM = `
import createClient from 'openapi-fetch';
import type { components, paths } from './api';

type Schemas = components['schemas'];

async function main(): Promise<void> {
  const [baseUrl, key] = process.argv.slice(2);
  const client = createClient<paths>({
    baseUrl,
    headers: { Authorization: \`Bearer \${key}\` },
    // The service's arrays are comma-separated (style form, explode false).
    querySerializer: { array: { style: 'form', explode: false } },
  });

  const search = await client.GET('/v1/trademarks', { params: { query: { offices: ['US'], status_primary: ['active'], sort: '-filing_date', limit: 2 } } });
  if (search.data === undefined) throw new Error(JSON.stringify(search.error));
  const first: Schemas['TrademarkSummary'] | undefined = search.data.data[0];
  if (first === undefined) throw new Error('no mark found');
  const cursor: string | null = search.data.pagination.cursor;
  // @ts-expect-error status.primary is a closed list
  const impossible: Schemas['TrademarkSummary']['status']['primary'] = 'alive';

  const mark = await client.GET('/v1/trademarks/{id}', { params: { path: { id: first.id } } });
  if (mark.data === undefined) throw new Error(JSON.stringify(mark.error));
  const record: Schemas['Trademark'] = mark.data;
  const requestId: string = mark.data.request_id;
  // @ts-expect-error the record has no such member
  void record.no_such_member;

  const missing = await client.GET('/v1/trademarks/{id}', { params: { path: { id: 'tm_0000000000' } } });
  const error: Schemas['ErrorEnvelope'] | undefined = missing.error;

  const computed = await client.POST('/v1/deadlines/compute', {
    body: { items: [{ jurisdiction: 'US', registration_date: '2021-03-16' }], as_of_date: '2026-11-25' },
  });
  if (computed.data === undefined) throw new Error(JSON.stringify(computed.error));
  const computation: Schemas['DeadlineComputation'] | undefined = computed.data.data[0];
  // Never called: it only has to fail the type-check.
  // @ts-expect-error items is required
  const withoutItems = () => client.POST('/v1/deadlines/compute', { body: { as_of_date: '2026-11-25' } });

  const offices = await client.GET('/v1/offices');
  if (offices.data === undefined) throw new Error(JSON.stringify(offices.error));
  const codes: string[] = offices.data.data.map((office: Schemas['Office']) => office.code);

  console.log(
    JSON.stringify({
      searched: search.data.data.length,
      firstId: first.id,
      markId: record.id,
      markRequestId: requestId,
      windowStatus: record.opposition_window.status,
      missing: { status: missing.response.status, type: error?.error.type },
      deadlines: computation?.deadlines.map((deadline) => deadline.type) ?? [],
      offices: codes,
      unused: [cursor, impossible, withoutItems].length,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;
