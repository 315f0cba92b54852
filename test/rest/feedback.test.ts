import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { main } from '../../bin/cli';
import { closeAdapters, openAdapters } from '../../bin/adapters';
import { readConfig } from '../../bin/config';
import { ERROR_CATALOG, errorBody, ApiError, type ErrorType } from '../../domain/errors';
import {
  COLLECTIONS,
  type ApiKeyDoc,
  type AttorneyDoc,
  type FeedbackDoc,
  type FirmDoc,
  type OwnerDoc,
  type ProceedingDoc,
  type RequestLogDoc,
  type TrademarkDoc,
} from '../../domain/records';
import { createApiKey, hashApiKey } from '../../resolvers/accounts/api-keys';
import { createOrganization } from '../../resolvers/accounts/organizations';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send as sendRequest } from '../support/http';

/** The spec's "Feedback report" members, plus request_id. */
const FEEDBACK_MEMBERS = [
  'id',
  'object',
  'api_key_id',
  'type',
  'status',
  'message',
  'resource_id',
  'request_ref',
  'field',
  'expected_value',
  'context',
  'resolution_note',
  'metadata',
  'created_at',
  'updated_at',
  'resolved_at',
  'request_id',
];

interface FeedbackBody {
  id: string;
  object: string;
  api_key_id: string | null;
  type: string;
  status: string;
  message: string;
  resource_id: string | null;
  request_ref: string | null;
  field: string | null;
  expected_value: string | null;
  context: { request?: Record<string, unknown> | null; resource?: Record<string, unknown> };
  resolution_note: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  request_id: string;
}

interface ListBody {
  data: FeedbackBody[];
  has_more: boolean;
  pagination: { cursor: string | null };
}

const FEEDBACK = '/v1/feedback';
const RESOURCE_NOT_FOUND = { found: false };

describe('REST: feedback', function () {
  let app: TestApp;
  let admin: string;

  const send = (method: string, path: string, body?: unknown, key?: string | null, headers: Record<string, string> = {}) =>
    sendRequest(app, method, path, body, key, headers);

  const file = async (body: Record<string, unknown>, key?: string) => ok<FeedbackBody>(await send('POST', FEEDBACK, body, key), 201);
  const keyIdOf = async (secret: string) =>
    ((await app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({ secret_hash: hashApiKey(secret) })) as ApiKeyDoc)._id;
  const organizationOf = async (secret: string) =>
    ((await app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({ secret_hash: hashApiKey(secret) })) as ApiKeyDoc).organization_id;
  const first = async <T extends { _id: string }>(collection: string): Promise<T> => {
    const [doc] = await app.adapters.store.collection<T>(collection).find({}, { limit: 1 });
    expect(doc, `the fixture holds a record in ${collection}`).to.not.equal(undefined);
    return doc as T;
  };

  /** The request log is written after the response; wait until the row is stored. */
  async function loggedRequest(requestId: string): Promise<RequestLogDoc> {
    const logs = app.adapters.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs);
    for (let attempt = 0; attempt < 100; attempt++) {
      await app.flushRequestLogs();
      const row = await logs.findOne({ _id: requestId });
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`request ${requestId} never reached the request log`);
  }

  before(async function () {
    this.timeout(60_000);
    app = await startTestApp({ marks: 200 });
    admin = (
      await createApiKey(app.adapters.store, { organizationId: await organizationOf(app.keys.full), name: 'service team', scopes: ['admin'], isSystem: true })
    ).secret;
  });

  after(async () => app.close());

  describe('filing', () => {
    it("returns 201 with the spec's report: open, echoed fields, empty context when nothing is referenced", async () => {
      const body = await file({ type: 'bug', message: 'Search returns duplicates' });
      expect(Object.keys(body).sort()).to.deep.equal([...FEEDBACK_MEMBERS].sort());
      expect(body.id).to.match(/^fbk_/);
      expect(body).to.include({
        object: 'feedback',
        type: 'bug',
        status: 'open',
        message: 'Search returns duplicates',
        resource_id: null,
        request_ref: null,
        field: null,
        expected_value: null,
        resolution_note: null,
        resolved_at: null,
      });
      expect(body.api_key_id).to.equal(await keyIdOf(app.keys.full));
      expect(body.context).to.deep.equal({});
      expect(body.metadata).to.deep.equal({});
      expect(body.created_at).to.equal(body.updated_at);
      expect(body.request_id).to.match(/^req_/);
    });

    it('accepts any valid key of the organization (no scope needed), but no key is 401', async () => {
      await file({ type: 'other', message: 'from billing' }, app.keys.billingOnly);
      await file({ type: 'other', message: 'from legacy' }, app.keys.legacy);
      await fails(await send('POST', FEEDBACK, { type: 'other', message: 'anonymous' }, null), 401, 'unauthorized');
    });

    it('echoes a data issue with field, expected value and metadata', async () => {
      const mark = await first<TrademarkDoc>(COLLECTIONS.trademarks);
      const body = await file({
        type: 'data_issue',
        message: 'Wrong expiry',
        resource_id: mark._id,
        field: 'expiry_date',
        expected_value: '2031-05-01',
        metadata: { ticket: 'T-1' },
      });
      expect(body).to.include({ resource_id: mark._id, field: 'expiry_date', expected_value: '2031-05-01' });
      expect(body.metadata).to.deep.equal({ ticket: 'T-1' });
      expect(Object.keys(body.context)).to.deep.equal(['resource']);
    });

    it('enforces every field rule with 400', async () => {
      const cases: Array<[Record<string, unknown>, string, string?]> = [
        [{ message: 'no type' }, 'type'],
        [{ type: 'complaint', message: 'bad type' }, 'type'],
        [{ type: 'bug' }, 'message'],
        [{ type: 'bug', message: '' }, 'message'],
        [{ type: 'bug', message: 'x'.repeat(5001) }, 'message'],
        [{ type: 'bug', message: 'm', field: 'f'.repeat(256) }, 'field'],
        [{ type: 'bug', message: 'm', expected_value: 'e'.repeat(5001) }, 'expected_value'],
        [{ type: 'bug', message: 'm', request_id: 'r'.repeat(65) }, 'request_id'],
        [{ type: 'bug', message: 'm', request_id: 'req/../x' }, 'request_id'],
        [{ type: 'bug', message: 'm', resource_id: 'hello' }, 'resource_id'],
        [{ type: 'bug', message: 'm', resource_id: 'key_0000000000000000000000' }, 'resource_id', 'id_type_mismatch'],
        [{ type: 'bug', message: 'm', resource_id: 'ent_0000000000' }, 'resource_id', 'id_type_mismatch'],
        [{ type: 'bug', message: 'm', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
        [{ type: 'bug', message: 'm', metadata: { n: 1 } }, 'metadata.n'],
        [{ type: 'bug', message: 'm', severity: 'high' }, 'severity'],
      ];
      for (const [body, field, type] of cases) await fails(await send('POST', FEEDBACK, body), 400, type ?? 'validation_error', field);
    });

    it('accepts the limits exactly: 5000-character message and expected value, 255-character field, 64-character request id, 50 metadata keys', async () => {
      const body = await file({
        type: 'data_issue',
        message: 'm'.repeat(5000),
        field: 'f'.repeat(255),
        expected_value: 'e'.repeat(5000),
        request_id: 'r'.repeat(64),
        metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])),
      });
      expect(body.message).to.have.length(5000);
      expect(body.request_ref).to.equal('r'.repeat(64));
      expect(body.context).to.deep.equal({ request: null });
    });

    it('needs an Idempotency-Key, and a replay returns the first report', async () => {
      const noKey = await fetch(app.baseUrl + FEEDBACK, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'bug', message: 'm' }),
      });
      await fails(noKey, 400, 'validation_error', 'Idempotency-Key');
      const headers = { 'idempotency-key': `fb-${randomUUID()}` };
      const created = await ok<FeedbackBody>(await send('POST', FEEDBACK, { type: 'bug', message: 'once' }, undefined, headers), 201);
      const count = await app.adapters.store.collection(COLLECTIONS.feedback).countDocuments({});
      const again = await send('POST', FEEDBACK, { type: 'bug', message: 'once' }, undefined, headers);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(await ok<FeedbackBody>(again, 201)).to.deep.equal(created);
      expect(await app.adapters.store.collection(COLLECTIONS.feedback).countDocuments({})).to.equal(count);
      await fails(await send('POST', FEEDBACK, { type: 'bug', message: 'twice' }, undefined, headers), 409, 'conflict');
    });

    it('is never billed: no quota headers on the response', async () => {
      const response = await send('POST', FEEDBACK, { type: 'other', message: 'free' });
      expect(response.status).to.equal(201);
      expect(response.headers.get('x-quota-limit')).to.equal(null);
      expect(response.headers.get('x-quota-daily-limit')).to.equal(null);
    });
  });

  describe('context.resource', () => {
    it('snapshots a trademark as it stands', async () => {
      const mark = await first<TrademarkDoc>(COLLECTIONS.trademarks);
      const body = await file({ type: 'data_issue', message: 'm', resource_id: mark._id });
      expect(body.context.resource).to.deep.equal({
        found: true,
        resource_type: 'trademark',
        office: mark.office_code,
        jurisdiction: mark.jurisdiction_code,
        version: mark.version,
        status_primary: mark.status.primary,
        source_updated_at: mark.source_updated_at,
        updated_at: mark.updated_at,
      });
    });

    it('snapshots owners, attorneys, firms and proceedings with null where the type lacks a field', async () => {
      const owner = await first<OwnerDoc>(COLLECTIONS.owners);
      const attorney = await first<AttorneyDoc>(COLLECTIONS.attorneys);
      const firm = await first<FirmDoc>(COLLECTIONS.firms);
      const proceeding = await first<ProceedingDoc>(COLLECTIONS.proceedings);
      const none = { office: null, jurisdiction: null, version: null, status_primary: null, source_updated_at: null };
      const expected: Array<[string, Record<string, unknown>]> = [
        [owner._id, { found: true, resource_type: 'owner', ...none, updated_at: owner.updated_at }],
        [attorney._id, { found: true, resource_type: 'attorney', ...none, updated_at: attorney.updated_at }],
        [firm._id, { found: true, resource_type: 'firm', ...none, updated_at: firm.updated_at }],
        [proceeding._id, { found: true, resource_type: 'proceeding', ...none, office: proceeding.office_code, updated_at: proceeding.updated_at }],
      ];
      for (const [id, snapshot] of expected) {
        const body = await file({ type: 'data_issue', message: 'm', resource_id: id });
        expect(body.context.resource, id).to.deep.equal(snapshot);
      }
    });

    it('records found: false for an unknown record instead of rejecting the report', async () => {
      const cases: Array<[string, string]> = [
        ['tm_zzzzzzzzzzzzzzzzzzzz', 'trademark'],
        ['own_zzzzzzzzzzzzzzzzzzzz', 'owner'],
        ['prc_zzzzzzzzzzzzzzzzzzzz', 'proceeding'],
      ];
      for (const [id, type] of cases) {
        const body = await file({ type: 'data_issue', message: 'm', resource_id: id });
        expect(body.resource_id).to.equal(id);
        expect(body.context).to.deep.equal({ resource: { ...RESOURCE_NOT_FOUND, resource_type: type } });
      }
    });
  });

  describe('context.request', () => {
    it("captures the organization's own earlier request from its request log", async () => {
      const failed = await send('GET', '/v1/trademarks/tm_zzzzzzzzzzzzzzzzzzzz');
      const error = await fails(failed, 404, 'not_found');
      await loggedRequest(error.request_id);
      const body = await file({ type: 'bug', message: 'Why 404?', request_id: error.request_id });
      expect(body.request_ref).to.equal(error.request_id);
      const request = body.context.request as Record<string, unknown>;
      expect(Object.keys(request).sort()).to.deep.equal(['duration_ms', 'error_detail', 'error_type', 'method', 'occurred_at', 'route', 'status_code']);
      expect(request).to.include({ route: '/v1/trademarks/:id', method: 'GET', status_code: 404, error_type: 'not_found', error_detail: error.error.detail });
      expect(request.duration_ms).to.be.a('number').and.at.least(0);
      expect(Date.parse(request.occurred_at as string)).to.be.closeTo(Date.now(), 60_000);
    });

    it('copies every field of a stored log row', async () => {
      const row: RequestLogDoc = {
        _id: 'req_0123456789abcdef01234567',
        organization_id: await organizationOf(app.keys.full),
        api_key_id: await keyIdOf(app.keys.full),
        route: '/v1/trademarks',
        method: 'POST',
        status_code: 503,
        error_type: 'service_unavailable',
        error_detail: 'the search_index is unavailable',
        duration_ms: 12.5,
        occurred_at: '2026-01-02T03:04:05.000Z',
      };
      await app.adapters.store.collection<RequestLogDoc>(COLLECTIONS.requestLogs).insertOne(row);
      const body = await file({ type: 'bug', message: 'outage', request_id: row._id });
      expect(body.context.request).to.deep.equal({
        route: '/v1/trademarks',
        method: 'POST',
        status_code: 503,
        error_type: 'service_unavailable',
        error_detail: 'the search_index is unavailable',
        duration_ms: 12.5,
        occurred_at: '2026-01-02T03:04:05.000Z',
      });
    });

    it("records null for another organization's request and for an unknown one", async () => {
      const theirs = await fails(await send('GET', '/v1/trademarks/tm_zzzzzzzzzzzzzzzzzzzy', undefined, app.keys.otherOrg), 404, 'not_found');
      await loggedRequest(theirs.request_id);
      const foreign = await file({ type: 'bug', message: 'm', request_id: theirs.request_id });
      expect(foreign.context).to.deep.equal({ request: null });
      const unknown = await file({ type: 'bug', message: 'm', request_id: 'my-client-request-42' });
      expect(unknown.context).to.deep.equal({ request: null });
      // The owner of that request does get it.
      const own = await file({ type: 'bug', message: 'm', request_id: theirs.request_id }, app.keys.otherOrg);
      expect(own.context.request).to.include({ status_code: 404, route: '/v1/trademarks/:id' });
    });
  });

  describe('listing and retrieval', () => {
    it("lists only the organization's reports, newest first, with cursors and filters", async () => {
      const organizationId = await organizationOf(app.keys.full);
      const stored = await app.adapters.store.collection<FeedbackDoc>(COLLECTIONS.feedback).find({ organization_id: organizationId });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ListBody = await ok<ListBody>(await send('GET', `${FEEDBACK}?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
        expect(page.data.length).to.be.at.most(3);
        seen.push(...page.data.map((report) => report.id));
        cursor = page.pagination.cursor;
      } while (cursor);
      expect(seen).to.deep.equal(
        stored
          .map((report) => report._id)
          .sort()
          .reverse(),
      );

      const dataIssues = await ok<ListBody>(await send('GET', `${FEEDBACK}?type=data_issue&limit=100`));
      expect(dataIssues.data.map((r) => r.id).sort()).to.deep.equal(
        stored
          .filter((r) => r.type === 'data_issue')
          .map((r) => r._id)
          .sort(),
      );
      const open = await ok<ListBody>(await send('GET', `${FEEDBACK}?status=open&type=bug&limit=100`));
      expect(open.data.every((r) => r.status === 'open' && r.type === 'bug')).to.equal(true);
      await fails(await send('GET', `${FEEDBACK}?status=closed`), 400, 'validation_error', 'status');
      await fails(await send('GET', `${FEEDBACK}?type=praise`), 400, 'validation_error', 'type');
    });

    it('keeps organizations apart: another organization can neither list, read nor move the reports (404)', async () => {
      const mine = await file({ type: 'bug', message: 'private' });
      const theirs = await ok<ListBody>(await send('GET', `${FEEDBACK}?limit=100`, undefined, app.keys.otherOrg));
      expect(theirs.data.map((r) => r.id)).not.to.include(mine.id);
      expect(theirs.data.every((r) => r.api_key_id === null || r.api_key_id !== mine.api_key_id)).to.equal(true);
      await fails(await send('GET', `${FEEDBACK}/${mine.id}`, undefined, app.keys.otherOrg), 404, 'not_found');
      await fails(await send('PATCH', `${FEEDBACK}/${mine.id}`, { status: 'acknowledged' }, app.keys.otherOrg), 403, 'forbidden');
      const read = await ok<FeedbackBody>(await send('GET', `${FEEDBACK}/${mine.id}`));
      expect(Object.keys(read).sort()).to.deep.equal([...FEEDBACK_MEMBERS].sort());
      expect(read).to.include({ id: mine.id, message: 'private' });
    });

    it('answers 400 for a malformed or wrong-kind ID and 404 for an unknown one', async () => {
      await fails(await send('GET', `${FEEDBACK}/nope`), 400, 'validation_error');
      await fails(await send('GET', `${FEEDBACK}/tm_0000000000`), 400, 'id_type_mismatch');
      await fails(await send('GET', `${FEEDBACK}/fbk_0000000000000000000000`), 404, 'not_found');
    });
  });

  describe('status moves (service team)', () => {
    it('open → acknowledged → resolved through the admin route, setting resolved_at and the note', async () => {
      const report = await file({ type: 'bug', message: 'broken' });
      await fails(await send('PATCH', `${FEEDBACK}/${report.id}`, { status: 'acknowledged' }), 403, 'forbidden', 'admin');

      const acknowledged = await ok<FeedbackBody>(await send('PATCH', `${FEEDBACK}/${report.id}`, { status: 'acknowledged' }, admin));
      expect(acknowledged).to.include({ status: 'acknowledged', resolved_at: null, resolution_note: null });
      await fails(await send('PATCH', `${FEEDBACK}/${report.id}`, { status: 'resolved' }, admin), 400, 'validation_error', 'resolution_note');
      await fails(await send('PATCH', `${FEEDBACK}/${report.id}`, { status: 'open' }, admin), 400, 'validation_error', 'status');

      const resolved = await ok<FeedbackBody>(
        await send('PATCH', `${FEEDBACK}/${report.id}`, { status: 'resolved', resolution_note: 'Fixed in the indexer' }, admin),
      );
      expect(resolved).to.include({ status: 'resolved', resolution_note: 'Fixed in the indexer' });
      expect(resolved.resolved_at).to.be.a('string');
      expect(resolved.updated_at).to.equal(resolved.resolved_at);
      await fails(await send('PATCH', `${FEEDBACK}/${report.id}`, { status: 'acknowledged' }, admin), 400, 'validation_error', 'resolved');

      const seen = await ok<FeedbackBody>(await send('GET', `${FEEDBACK}/${report.id}`));
      expect(seen).to.include({ status: 'resolved', resolution_note: 'Fixed in the indexer', resolved_at: resolved.resolved_at });
      const resolvedList = await ok<ListBody>(await send('GET', `${FEEDBACK}?status=resolved&limit=100`));
      expect(resolvedList.data.map((r) => r.id)).to.include(report.id);
    });

    it("the admin route reaches every organization's reports; a note only goes with resolving", async () => {
      const theirs = await file({ type: 'feature_request', message: 'more offices' }, app.keys.otherOrg);
      await fails(
        await send('PATCH', `${FEEDBACK}/${theirs.id}`, { status: 'acknowledged', resolution_note: 'early' }, admin),
        400,
        'validation_error',
        'resolution_note',
      );
      const resolved = await ok<FeedbackBody>(await send('PATCH', `${FEEDBACK}/${theirs.id}`, { status: 'resolved', resolution_note: 'Planned' }, admin));
      expect(resolved.status).to.equal('resolved');
      await fails(await send('PATCH', `${FEEDBACK}/fbk_0000000000000000000000`, { status: 'acknowledged' }, admin), 404, 'not_found');
    });
  });

  describe('error suggestions', () => {
    const pointsToFeedback = (type: ErrorType) => errorBody(new ApiError(type, 'd'), '/v1/x', 'req_x').error.suggestion.includes('POST /v1/feedback');

    it('500, 502, 503 and 504 suggestions point to the feedback endpoint; no 4xx does', () => {
      const types = Object.keys(ERROR_CATALOG) as ErrorType[];
      const serverErrors = types.filter((type) => ERROR_CATALOG[type].status >= 500);
      expect(serverErrors.map((type) => ERROR_CATALOG[type].status).sort()).to.deep.equal([500, 502, 503, 504]);
      for (const type of serverErrors) expect(pointsToFeedback(type), type).to.equal(true);
      for (const type of types.filter((t) => ERROR_CATALOG[t].status < 500)) {
        expect(ERROR_CATALOG[type].suggestion.toLowerCase(), type).not.to.contain('feedback');
      }
    });

    it('a 4xx response over HTTP carries no feedback hint', async () => {
      const body = await fails(await send('GET', `${FEEDBACK}/fbk_0000000000000000000000`), 404, 'not_found');
      expect(body.error.suggestion.toLowerCase()).not.to.contain('feedback');
    });
  });
});

describe('bin: marque feedback', function () {
  let dataDir: string;
  let previousDataDir: string | undefined;

  /** Runs the command in this process and returns what it printed. */
  async function marque(...args: string[]): Promise<string> {
    const printed: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string) => printed.push(chunk) > 0) as typeof process.stdout.write;
    try {
      await main(args);
    } finally {
      process.stdout.write = write;
    }
    return printed.join('');
  }

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-feedback-cli-'));
    previousDataDir = process.env.MARQUE_DATA_DIR;
    process.env.MARQUE_DATA_DIR = dataDir;
  });
  after(() => {
    if (previousDataDir === undefined) delete process.env.MARQUE_DATA_DIR;
    else process.env.MARQUE_DATA_DIR = previousDataDir;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('acknowledges and resolves a report with a note', async () => {
    const config = readConfig({ MARQUE_DATA_DIR: dataDir });
    const adapters = await openAdapters(config);
    const organization = await createOrganization(adapters.store, { name: 'CLI org' });
    const report: FeedbackDoc = {
      _id: 'fbk_01c0000000000000000000',
      organization_id: organization._id,
      api_key_id: null,
      type: 'bug',
      status: 'open',
      message: 'm',
      resource_id: null,
      request_ref: null,
      field: null,
      expected_value: null,
      context: {},
      resolution_note: null,
      metadata: {},
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      resolved_at: null,
    };
    await adapters.store.collection<FeedbackDoc>(COLLECTIONS.feedback).insertOne(report);
    await closeAdapters(adapters);

    const acknowledged = JSON.parse(await marque('feedback', 'acknowledge', report._id)) as FeedbackBody;
    expect(acknowledged).to.include({ id: report._id, object: 'feedback', status: 'acknowledged', resolved_at: null });
    const resolved = JSON.parse(await marque('feedback', 'resolve', report._id, '--note', 'Fixed upstream')) as FeedbackBody;
    expect(resolved).to.include({ status: 'resolved', resolution_note: 'Fixed upstream' });
    expect(Date.parse(resolved.resolved_at as string)).to.be.closeTo(Date.now(), 60_000);

    const check = await openAdapters(config);
    const stored = await check.store.collection<FeedbackDoc>(COLLECTIONS.feedback).findOne({ _id: report._id });
    await closeAdapters(check);
    expect(stored).to.include({ status: 'resolved', resolution_note: 'Fixed upstream', resolved_at: resolved.resolved_at });
  });
});
