/**
 * A small app for testing lifecycle stages (limits, idempotency, metering) over HTTP with routes
 * made for the test: buildApp with custom routes, an empty embedded store, one organization with
 * a key, and the KeyValue the test chooses (embedded or Redis).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { createEmbeddedSearchIndex } from '../../datasources/embedded/search-index';
import type { DocumentStore, KeyValue } from '../../datasources/ports';
import type { LimitsOverride, PlanName } from '../../domain/plans';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import { createApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { CursorCodec } from '../../resolvers/cursors';
import { buildSchema, OperationRegistry } from '../../resolvers/engine';
import { STORE_INDEXES } from '../../resolvers/store-indexes';
import { buildApp } from '../../rest/app';
import { RequestLogWriter } from '../../rest/metering';
import type { CustomRoute, RouteInput } from '../../rest/route';
import { freeObject } from '../../rest/schemas/json-schema';

let registry: OperationRegistry | null = null;

export interface StageApp {
  baseUrl: string;
  app: FastifyInstance;
  store: DocumentStore;
  kv: KeyValue;
  requestLog: RequestLogWriter;
  organizationId: string;
  /** The second organization: same plan and anchor day, no limits override. */
  otherOrganizationId: string;
  /** Every customer scope. */
  key: string;
  /** A second organization's key. */
  otherKey: string;
  send(method: string, path: string, options?: { body?: unknown; key?: string; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

/** A custom route answering `handle`'s result; the defaults describe a plain authenticated GET. */
export function testRoute(overrides: Partial<CustomRoute> & Pick<CustomRoute, 'id' | 'path'>, handle?: (input: RouteInput) => Promise<unknown>): CustomRoute {
  return {
    kind: 'custom',
    method: 'GET',
    summary: overrides.id,
    description: 'test route',
    tag: 'Meta',
    scope: null,
    pool: 'read',
    tier: 'reads',
    idempotency: 'none',
    pathParams: [],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: freeObject(),
    errors: [],
    handle: async (input) => ({ status: overrides.successStatus ?? 200, body: handle ? await handle(input) : { object: 'test' } }),
    ...overrides,
  };
}

export async function startStageApp(options: {
  kv: KeyValue;
  routes: CustomRoute[];
  plan?: PlanName;
  limitsOverride?: LimitsOverride;
  billingAnchorDay?: number;
}): Promise<StageApp> {
  const store = createEmbeddedDocumentStore({ path: ':memory:' });
  await store.ensureIndexes(STORE_INDEXES);
  const search = createEmbeddedSearchIndex({ path: ':memory:' });
  const org = await createOrganization(store, { name: 'Stage org', plan: options.plan, billingAnchorDay: options.billingAnchorDay });
  if (options.limitsOverride) await store.collection('organizations').updateOne({ _id: org._id }, { $set: { limits_override: options.limitsOverride } });
  const other = await createOrganization(store, { name: 'Other stage org', plan: options.plan, billingAnchorDay: options.billingAnchorDay });
  const key = (await createApiKey(store, { organizationId: org._id, name: 'stage', scopes: [...CUSTOMER_SCOPES] })).secret;
  const otherKey = (await createApiKey(store, { organizationId: other._id, name: 'other', scopes: [...CUSTOMER_SCOPES] })).secret;
  registry ??= new OperationRegistry(buildSchema());
  const services = {
    store,
    search,
    kv: options.kv,
    cursors: new CursorCodec(Buffer.from('stage-secret')),
    now: () => new Date(),
    previewBudgetMs: 20_000,
    checkWebhookUrl: async () => undefined,
  };
  const requestLog = new RequestLogWriter(store, { flushDelayMs: 5, log: () => undefined });
  const app = await buildApp({ services, registry, routes: options.routes, requestLog, serverSecret: Buffer.from('stage-secret'), log: () => undefined });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    app,
    store,
    kv: options.kv,
    requestLog,
    organizationId: org._id,
    otherOrganizationId: other._id,
    key,
    otherKey,
    send: (method, path, { body, key: sentKey, headers } = {}) =>
      fetch(baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${sentKey ?? key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    close: async () => {
      await app.close();
      await requestLog.close();
      await Promise.all([store.close(), search.close()]);
    },
  };
}
