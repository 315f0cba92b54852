import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEmbeddedKeyValue } from '../../datasources/embedded/key-value';
import { createRedisKeyValue } from '../../datasources/redis/key-value';
import type { KeyValue } from '../../datasources/ports';
import { ApiError } from '../../domain/errors';
import { COLLECTIONS, type ApiKeyDoc, type IdempotencyReceiptDoc } from '../../domain/records';
import {
  canonicalJson,
  idempotencyKeyFor,
  idempotencyStorageKey,
  interpretBegin,
  readIdempotencyKey,
  requestFingerprint,
  ResponseSealer,
  storedResponse,
} from '../../rest/idempotency';
import type { ParamSpec } from '../../rest/params';
import { startRedisServer, type TestRedisServer } from '../support/redis-server';
import { apiErrorOf } from '../support/api-error';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send } from '../support/http';
import { startStageApp, testRoute, type StageApp } from '../support/stage-app';

describe('idempotency: pure rules', () => {
  it('accepts keys of 1 to 255 characters of A-Za-z0-9_- and nothing else', () => {
    expect(readIdempotencyKey(undefined)).to.equal(null);
    expect(readIdempotencyKey('a')).to.equal('a');
    expect(readIdempotencyKey('Ab9_-'.repeat(51))).to.have.length(255);
    for (const bad of ['', 'a'.repeat(256), 'has space', 'dot.ted', 'ünï', 'a/b', 'a=b']) {
      const error = apiErrorOf(() => readIdempotencyKey(bad));
      expect(error.type, bad).to.equal('validation_error');
      expect(error.extras.parameter).to.equal('Idempotency-Key');
    }
  });

  it('requires a key on required routes only, and checks its syntax on exempt routes too', () => {
    expect(apiErrorOf(() => idempotencyKeyFor({ idempotency: 'required', method: 'POST' }, undefined)).detail).to.contain('Idempotency-Key');
    expect(idempotencyKeyFor({ idempotency: 'exempt', method: 'POST' }, undefined)).to.equal(null);
    expect(idempotencyKeyFor({ idempotency: 'exempt', method: 'POST' }, 'k1')).to.equal(null);
    expect(apiErrorOf(() => idempotencyKeyFor({ idempotency: 'exempt', method: 'POST' }, 'bad key')).type).to.equal('validation_error');
    expect(idempotencyKeyFor({ idempotency: 'required', method: 'DELETE' }, 'k1')).to.equal('k1');
  });

  it('canonical JSON ignores key order but keeps nulls and array order', () => {
    expect(canonicalJson({ b: 1, a: { d: null, c: [2, 1] } })).to.equal('{"a":{"c":[2,1],"d":null},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).to.equal(canonicalJson({ b: 2, a: 1 }));
    expect(canonicalJson({ a: null })).not.to.equal(canonicalJson({}));
    expect(canonicalJson(undefined)).to.equal('null');
  });

  it('fingerprints the sending key (ID and scopes), method, request target (path with its IDs, and query) and body', () => {
    const key = { apiKeyId: 'key_a', scopes: new Set(['a', 'b']) };
    const base = requestFingerprint(key, 'POST', '/v1/x', { a: 1 }, 'http');
    expect(requestFingerprint({ apiKeyId: 'key_a', scopes: new Set(['b', 'a']) }, 'POST', '/v1/x', { a: 1 }, 'http')).to.equal(base);
    expect(requestFingerprint(key, 'PATCH', '/v1/x', { a: 1 }, 'http')).not.to.equal(base);
    expect(requestFingerprint(key, 'POST', '/v1/y', { a: 1 }, 'http')).not.to.equal(base);
    expect(requestFingerprint(key, 'POST', '/v1/x?dry_run=true', { a: 1 }, 'http')).not.to.equal(base);
    expect(requestFingerprint(key, 'POST', '/v1/x', { a: 2 }, 'http')).not.to.equal(base);
    expect(requestFingerprint(key, 'POST', '/v1/x', { a: 1 }, 'mcp')).not.to.equal(base);
    expect(requestFingerprint({ apiKeyId: 'key_b', scopes: key.scopes }, 'POST', '/v1/x', { a: 1 }, 'http')).not.to.equal(base);
    expect(requestFingerprint({ apiKeyId: 'key_a', scopes: new Set(['a']) }, 'POST', '/v1/x', { a: 1 }, 'http')).not.to.equal(base);
    // OAuth callers have no key: their token's subject tells two users of one organization apart.
    const alice = requestFingerprint({ apiKeyId: null, subject: 'user_alice', scopes: key.scopes }, 'POST', '/v1/x', { a: 1 }, 'http');
    expect(requestFingerprint({ apiKeyId: null, subject: 'user_alice', scopes: key.scopes }, 'POST', '/v1/x', { a: 1 }, 'http')).to.equal(alice);
    expect(requestFingerprint({ apiKeyId: null, subject: 'user_bob', scopes: key.scopes }, 'POST', '/v1/x', { a: 1 }, 'http')).not.to.equal(alice);
  });

  it('maps a claim attempt to run, replay, conflict or processing', () => {
    const sealed = new ResponseSealer(Buffer.from('secret')).seal(storedResponse(201, '{"id":"x"}', { 'content-type': 'application/json' }));
    expect(interpretBegin({ state: 'started' }, 'f')).to.deep.equal({ kind: 'run' });
    expect(interpretBegin({ state: 'completed', fingerprint: 'f', response: sealed }, 'f')).to.deep.equal({ kind: 'replay', sealed });
    expect(apiErrorOf(() => interpretBegin({ state: 'completed', fingerprint: 'g', response: sealed }, 'f')).type).to.equal('conflict');
    expect(apiErrorOf(() => interpretBegin({ state: 'in_flight', fingerprint: 'g' }, 'f')).type).to.equal('conflict');
    const processing = apiErrorOf(() => interpretBegin({ state: 'in_flight', fingerprint: 'f' }, 'f'));
    expect(processing.type).to.equal('idempotency_processing');
    expect(processing.retryable).to.equal(true);
  });

  it('keeps only the result headers of a response, and seals it so only the same server secret opens it', () => {
    const response = storedResponse(201, '{"secret":"mq_0123"}', { 'content-type': 'application/json', 'request-id': 'req_1', location: '/v1/x' });
    expect(response.headers).to.deep.equal({ 'content-type': 'application/json', location: '/v1/x' });
    const sealer = new ResponseSealer(Buffer.from('server secret'));
    const sealed = sealer.seal(response);
    expect(sealed).not.to.contain('mq_0123');
    expect(sealed).not.to.equal(sealer.seal(response));
    expect(sealer.open(sealed)).to.deep.equal(response);
    expect(() => new ResponseSealer(Buffer.from('another secret')).open(sealed)).to.throw();
    const [version, iv, tag, ciphertext] = sealed.split('.');
    const flipped = Buffer.from(ciphertext as string, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => sealer.open([version, iv, tag, flipped.toString('base64url')].join('.'))).to.throw();
  });
});

interface Envelope {
  id?: string;
  request_id: string;
  error?: { type: string; detail: string; retryable: boolean; parameter?: string; suggestion?: string };
}

/** Runs the HTTP suite over one KeyValue adapter. */
function describeOverHttp(label: string, openKv: () => Promise<KeyValue>): void {
  describe(`idempotency over HTTP (${label})`, function () {
    let stage: StageApp;
    let kv: KeyValue;
    let executions = 0;
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();

    before(async () => {
      kv = await openKv();
      const thingFields: ParamSpec[] = [
        { name: 'name', kind: { type: 'string', maxLength: 50 }, description: 'name' },
        { name: 'tags', kind: { type: 'string', maxLength: 50 }, array: true, description: 'tags' },
      ];
      const create = testRoute(
        { id: 'createThing', method: 'POST', path: '/v1/things', idempotency: 'required', successStatus: 201, body: thingFields },
        async () => {
          executions += 1;
          await gate;
          return { id: `thing_${executions}`, object: 'thing' };
        },
      );
      const failing = testRoute({ id: 'failThing', method: 'DELETE', path: '/v1/things/fail', idempotency: 'required' }, async () => {
        executions += 1;
        throw new ApiError('not_found', 'thing does not exist');
      });
      const search = testRoute({ id: 'searchThings', method: 'POST', path: '/v1/things/search', idempotency: 'exempt', body: [] });
      const list = testRoute({ id: 'listThings', method: 'GET', path: '/v1/things' });
      stage = await startStageApp({ kv, routes: [create, failing, search, list] });
    });

    after(async () => {
      await stage?.close();
      await kv?.close();
    });

    beforeEach(() => {
      executions = 0;
      gate = Promise.resolve();
    });

    const post = (key: string | null, body: unknown = {}, apiKey?: string) =>
      stage.send('POST', '/v1/things', { body, key: apiKey, headers: key === null ? {} : { 'idempotency-key': key } });

    it('400 validation_error naming Idempotency-Key when a required key is missing', async () => {
      const response = await post(null);
      const body = (await response.json()) as Envelope;
      expect(response.status).to.equal(400);
      expect(body.error?.type).to.equal('validation_error');
      expect(body.error?.detail).to.contain('Idempotency-Key');
      expect(executions).to.equal(0);
    });

    it('400 for a malformed key, even on an exempt POST and on a GET', async () => {
      expect((await stage.send('POST', '/v1/things/search', { body: {}, headers: { 'idempotency-key': 'not valid!' } })).status).to.equal(400);
      expect((await stage.send('POST', '/v1/things/search', { body: {} })).status).to.equal(200);
      expect((await stage.send('POST', '/v1/things/search', { body: {}, headers: { 'idempotency-key': 'fine' } })).status).to.equal(200);
      expect((await stage.send('GET', '/v1/things', { headers: { 'idempotency-key': 'x'.repeat(256) } })).status).to.equal(400);
    });

    it('replays the first response with Idempotent-Replayed: true and the original request_id', async () => {
      const first = await post('replay-1', { name: 'a', tags: ['x'] });
      const firstBody = (await first.json()) as Envelope;
      expect(first.status).to.equal(201);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const second = await post('replay-1', { tags: ['x'], name: 'a' });
      const secondBody = (await second.json()) as Envelope;
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.headers.get('content-type')).to.contain('application/json');
      expect(secondBody).to.deep.equal(firstBody);
      expect(secondBody.request_id).to.equal(firstBody.request_id);
      expect(executions).to.equal(1);
    });

    it('409 conflict for the same key with a different body', async () => {
      expect((await post('conflict-1', { name: 'a' })).status).to.equal(201);
      const response = await post('conflict-1', { name: 'b' });
      const body = (await response.json()) as Envelope;
      expect(response.status).to.equal(409);
      expect(body.error?.type).to.equal('conflict');
      expect(body.error?.retryable).to.equal(false);
      expect(executions).to.equal(1);
    });

    /** Rewrites a completed key's stored fingerprint as a release before this one stored it. */
    async function storedAsBefore(key: string, fingerprint: (current: string) => string): Promise<void> {
      const storageKey = idempotencyStorageKey(stage.organizationId, key);
      const stored = await kv.beginIdempotent(storageKey, 'unused', 60_000);
      if (stored.state !== 'completed') throw new Error(`key ${key} is not completed`);
      await kv.completeIdempotent(storageKey, fingerprint(stored.fingerprint), stored.response, 60_000);
    }

    it('across an upgrade: replays a key the release before stored without a formula name, and tells a key of an older formula from a different request', async () => {
      expect((await post('upgrade-same', { name: 'a' })).status).to.equal(201);
      // The release that introduced formula names wrote the same hash without one.
      await storedAsBefore('upgrade-same', (current) => current.slice(current.indexOf(':') + 1));
      const replay = await post('upgrade-same', { name: 'a' });
      expect(replay.status).to.equal(201);
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');

      expect((await post('upgrade-older', { name: 'a' })).status).to.equal(201);
      // An older formula (before the sending key was part of it) hashed other text: another value, no name.
      await storedAsBefore('upgrade-older', () => 'TMhfOmO2h1Yq0aYbS3pR8v7kqE4xZ9wJcLd2nF6uT0s');
      const response = await post('upgrade-older', { name: 'a' });
      const body = (await response.json()) as Envelope;
      expect(response.status).to.equal(409);
      expect(body.error?.type).to.equal('conflict');
      expect(body.error?.detail).to.contain('upgraded').and.to.contain('check whether the first request took effect');
      expect(body.error?.suggestion).to.contain('checking whether the request first sent with this key took effect');
      expect(executions).to.equal(2);
    });

    it('scopes keys to the organization', async () => {
      expect((await post('shared-key', { name: 'a' })).status).to.equal(201);
      const other = await post('shared-key', { name: 'b' }, stage.otherKey);
      expect(other.status).to.equal(201);
      expect(other.headers.get('idempotent-replayed')).to.equal(null);
      expect(executions).to.equal(2);
    });

    it('does not cache non-2xx outcomes: a retry runs again', async () => {
      const send = () => stage.send('DELETE', '/v1/things/fail', { headers: { 'idempotency-key': 'fail-1' } });
      expect((await send()).status).to.equal(404);
      const again = await send();
      expect(again.status).to.equal(404);
      expect(again.headers.get('idempotent-replayed')).to.equal(null);
      expect(executions).to.equal(2);
    });

    it('runs the operation exactly once when the same key arrives concurrently; the others see idempotency_processing', async () => {
      gate = new Promise((resolve) => (release = resolve));
      const first = post('concurrent-1', { name: 'c' });
      // Let the first request claim the key before the others arrive.
      while (executions === 0) await new Promise((resolve) => setTimeout(resolve, 2));
      const racers = await Promise.all(Array.from({ length: 8 }, () => post('concurrent-1', { name: 'c' })));
      for (const response of racers) {
        const body = (await response.json()) as Envelope;
        expect(response.status).to.equal(409);
        expect(body.error?.type).to.equal('idempotency_processing');
        expect(body.error?.retryable).to.equal(true);
      }
      release();
      expect((await first).status).to.equal(201);
      expect((await post('concurrent-1', { name: 'c' })).headers.get('idempotent-replayed')).to.equal('true');
      expect(executions).to.equal(1);
    });

    it('executes once among simultaneous first arrivals', async () => {
      const responses = await Promise.all(Array.from({ length: 12 }, () => post('simultaneous-1', { name: 'd' })));
      const statuses = responses.map((r) => r.status);
      expect(executions).to.equal(1);
      expect(statuses.filter((s) => s === 201).length).to.be.at.least(1);
      expect(statuses.every((s) => s === 201 || s === 409)).to.equal(true);
    });
  });
}

describeOverHttp('embedded', async () => createEmbeddedKeyValue({ path: ':memory:' }));

let redisServer: TestRedisServer | null = null;
describeOverHttp('redis', async () => {
  redisServer = await startRedisServer();
  if (redisServer === null) throw new Error('these tests need redis-server on PATH or REDIS_URL (.ci/run installs it)');
  return createRedisKeyValue({ url: redisServer.url, keyPrefix: `idem-test:${process.pid}:` });
});
after(async () => {
  await redisServer?.stop();
});

describe('idempotent writes of the real API: atomic with the write, sealed at rest', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dataDir: string;
  /** While set, the KeyValue fails to record completions, as a process killed right after the write would. */
  let completionsLost = false;

  before(async () => {
    const kv = createEmbeddedKeyValue({ path: ':memory:' });
    const crashingKv: KeyValue = new Proxy(kv, {
      get(target, prop, receiver) {
        if (prop === 'completeIdempotent' && completionsLost) return async () => Promise.reject(new Error('process killed before the completion was recorded'));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    app = await startTestApp({ marks: 20, kv: crashingKv });
    dataDir = dirname(app.storePath);
  });

  after(async () => app.close());

  const createKey = (idempotencyKey: string, name: string) =>
    send(app, 'POST', '/v1/organization/api-keys', { name, scopes: ['trademarks:read'] }, undefined, { 'idempotency-key': idempotencyKey });

  it('replays the first key, not a second one, after a crash between the write and its completion (finding 8)', async () => {
    completionsLost = true;
    const first = await ok<{ id: string; secret: string }>(await createKey('crash-1', 'after-crash'), 201);
    completionsLost = false;
    // The dead process's in-flight claim expires (60 s); the client retries with the same key.
    await app.adapters.kv.abandonIdempotent(`idem:${app.organizationId}:crash-1`);
    const retry = await createKey('crash-1', 'after-crash');
    expect(retry.headers.get('idempotent-replayed')).to.equal('true');
    expect(await ok<{ id: string; secret: string }>(retry, 201)).to.include({ id: first.id, secret: first.secret });
    expect(await app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).countDocuments({ name: 'after-crash' })).to.equal(1);
    // And the healed KeyValue replays from now on.
    expect((await createKey('crash-1', 'after-crash')).headers.get('idempotent-replayed')).to.equal('true');
    await fails(await createKey('crash-1', 'another body'), 409, 'conflict');
  });

  it("409 conflict for the same key on another resource: the first resource's result is not replayed and the other is left alone", async () => {
    const marks = await ok<{ data: Array<{ id: string }> }>(await send(app, 'GET', '/v1/trademarks?status_primary=active,inactive&limit=1'));
    const trademarkIds = marks.data.map((mark) => mark.id);
    expect(trademarkIds).to.have.length(1);
    const created = await Promise.all(
      ['first', 'second'].map(async (name) => ok<{ id: string }>(await send(app, 'POST', '/v1/portfolios', { name, trademark_ids: trademarkIds }), 201)),
    );
    const [first, second] = created as [{ id: string }, { id: string }];
    const remove = (id: string) => send(app, 'DELETE', `/v1/portfolios/${id}`, undefined, undefined, { 'idempotency-key': 'delete-portfolio-1' });
    await ok(await remove(first.id));
    await fails(await remove(second.id), 409, 'conflict');
    await ok(await send(app, 'GET', `/v1/portfolios/${second.id}`));
    await fails(await send(app, 'GET', `/v1/portfolios/${first.id}`), 404, 'not_found');
    // The same request again is still a replay.
    expect((await remove(first.id)).headers.get('idempotent-replayed')).to.equal('true');
  });

  it("another API key of the organization gets 409, not a replay of the first key's answer: no secret of a key it could not create or rotate", async () => {
    const manager = await ok<{ id: string; secret: string }>(
      await send(app, 'POST', '/v1/organization/api-keys', { name: 'manager', scopes: ['api-keys:manage'] }, undefined, { 'idempotency-key': 'mk-manager' }),
      201,
    );
    const broad = { name: 'ops', scopes: ['portfolios:manage', 'billing:read'] };
    const created = await ok<{ id: string; secret: string }>(
      await send(app, 'POST', '/v1/organization/api-keys', broad, undefined, { 'idempotency-key': 'mk-ops' }),
      201,
    );
    // The contract: "A caller cannot grant scopes its own key does not hold"; the secret is returned only at creation.
    const sameKeyOtherSender = await send(app, 'POST', '/v1/organization/api-keys', broad, manager.secret, { 'idempotency-key': 'mk-ops' });
    const refused = await fails(sameKeyOtherSender, 409, 'conflict', 'API key');
    expect(JSON.stringify(refused)).not.to.contain(created.secret);
    await send(app, 'POST', `/v1/organization/api-keys/${created.id}/rotate`, undefined, undefined, { 'idempotency-key': 'rotate-ops' });
    const rotateReplay = await send(app, 'POST', `/v1/organization/api-keys/${created.id}/rotate`, undefined, manager.secret, {
      'idempotency-key': 'rotate-ops',
    });
    await fails(rotateReplay, 409, 'conflict');
    // The sending key itself still gets its replay.
    const again = await send(app, 'POST', '/v1/organization/api-keys', broad, undefined, { 'idempotency-key': 'mk-ops' });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await ok<{ secret: string }>(again, 201)).to.include({ secret: created.secret });
  });

  it('keeps no replayable secret readable in the KeyValue or the store (finding 9)', async () => {
    const created = await ok<{ secret: string }>(await createKey('sealed-1', 'sealed'), 201);
    const replayed = await ok<{ secret: string }>(await createKey('sealed-1', 'sealed'), 201);
    expect(replayed.secret).to.equal(created.secret);
    const receipts = await app.adapters.store.collection<IdempotencyReceiptDoc>(COLLECTIONS.idempotencyReceipts).find({});
    expect(receipts.length).to.be.greaterThan(0);
    // No key secret (mq_ and 48 hex digits) in any receipt: a bare "mq_" can occur in the sealed base64url.
    for (const receipt of receipts) expect(receipt.response).not.to.match(/mq_[0-9a-f]{48}/);
    const completed = await app.adapters.kv.beginIdempotent(`idem:${app.organizationId}:sealed-1`, 'any', 60_000);
    expect(completed.state).to.equal('completed');
    expect(completed.state === 'completed' && completed.response).not.to.contain(created.secret);
    const files = readdirSync(dataDir).filter((file) => file.includes('.sqlite'));
    for (const file of files) expect(readFileSync(join(dataDir, file)).includes(created.secret), file).to.equal(false);
  });

  it('refuses a body nested deeper than 32 levels with 400 before fingerprinting it (finding 5)', async () => {
    const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    const response = await fetch(`${app.baseUrl}/v1/feedback`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json', 'idempotency-key': 'deep-1' },
      body: deep,
    });
    const body = await fails(response, 400, 'validation_error', 'body: nests arrays and objects more than 32 levels deep');
    expect(body.request_id).to.match(/^req_/);
  });
});
