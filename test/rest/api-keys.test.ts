import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createEmbeddedDocumentStore } from '../../datasources/embedded/document-store';
import { COLLECTIONS, type ApiKeyDoc } from '../../domain/records';
import { createApiKey, hashApiKey } from '../../resolvers/accounts/api-keys';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send as sendRequest } from '../support/http';

/** Every member of the spec's "API key" object, plus request_id. */
const API_KEY_MEMBERS = [
  'id',
  'object',
  'name',
  'prefix',
  'scopes',
  'rate_limit_tier',
  'status',
  'expires_at',
  'last_used_at',
  'metadata',
  'revoked_at',
  'created_by',
  'created_at',
  'updated_at',
  'request_id',
];

interface ApiKeyBody {
  id: string;
  object: string;
  name: string;
  prefix: string;
  scopes: string[];
  rate_limit_tier: string;
  status: string;
  expires_at: string | null;
  last_used_at: string | null;
  metadata: Record<string, string>;
  revoked_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  request_id: string;
  secret?: string;
}

interface ListBody {
  object: string;
  data: ApiKeyBody[];
  has_more: boolean;
  pagination: { cursor: string | null };
}

const HOUR = 60 * 60 * 1000;
const KEYS = '/v1/organization/api-keys';

describe('REST: API keys', function () {
  let app: TestApp;
  /** The server's clock; tests move it to expire keys and age last_used_at. */
  let clockMs = Date.now();
  /** Key that holds api-keys:manage and nothing else (made through the API in before()). */
  let manageOnly: string;

  const send = (method: string, path: string, body?: unknown, key?: string | null, headers: Record<string, string> = {}) =>
    sendRequest(app, method, path, body, key, headers);

  const create = async (body: Record<string, unknown>, key?: string) => ok<ApiKeyBody>(await send('POST', KEYS, body, key), 201);
  const keyDoc = async (id: string) => (await app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({ _id: id })) as ApiKeyDoc;
  const keyIdOf = async (secret: string) =>
    ((await app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({ secret_hash: hashApiKey(secret) })) as ApiKeyDoc)._id;
  /** Any authenticated call: 403 (not 401) proves the key itself was accepted. */
  const probe = (key: string) => send('GET', '/v1/organization/api-keys?limit=1', undefined, key);

  before(async function () {
    this.timeout(60_000);
    app = await startTestApp({ marks: 20, now: () => new Date(clockMs) });
    manageOnly = (await create({ name: 'manager', scopes: ['api-keys:manage'] })).secret as string;
  });

  after(async () => app.close());

  describe('create', () => {
    it('returns 201 with the spec object and the secret, shown this once', async () => {
      const expiresAt = new Date(clockMs + 48 * HOUR).toISOString();
      const body = await create({
        name: 'CI pipeline',
        scopes: ['trademarks:read', 'billing:read'],
        expires_at: expiresAt,
        metadata: { team: 'search', env: 'ci' },
      });
      expect(Object.keys(body).sort()).to.deep.equal([...API_KEY_MEMBERS, 'secret'].sort());
      expect(body.object).to.equal('api_key');
      expect(body.id).to.match(/^key_/);
      expect(body.secret).to.match(/^mq_[0-9a-f]{48}$/);
      expect(body.prefix).to.equal((body.secret as string).slice(0, 11));
      expect(body).to.include({
        name: 'CI pipeline',
        status: 'active',
        expires_at: expiresAt,
        last_used_at: null,
        revoked_at: null,
        rate_limit_tier: 'default',
      });
      expect(body.scopes).to.deep.equal(['trademarks:read', 'billing:read']);
      expect(body.metadata).to.deep.equal({ team: 'search', env: 'ci' });
      expect(body.created_by).to.equal(await keyIdOf(app.keys.full));

      const stored = await keyDoc(body.id);
      expect(stored.secret_hash).to.equal(hashApiKey(body.secret as string));
      expect(JSON.stringify(stored)).not.to.contain(body.secret);

      const read = await ok<ApiKeyBody>(await send('GET', `${KEYS}/${body.id}`));
      expect(Object.keys(read).sort()).to.deep.equal([...API_KEY_MEMBERS].sort());
      const list = await ok<ListBody>(await send('GET', `${KEYS}?limit=100`));
      expect(JSON.stringify(list)).not.to.contain(body.secret);
      expect(list.data.every((key) => !('secret' in key))).to.equal(true);

      // The new secret authenticates: it lacks api-keys:manage, so 403 rather than 401.
      await fails(await probe(body.secret as string), 403, 'forbidden', 'api-keys:manage');
    });

    it('defaults: no expiry, empty metadata, tier default', async () => {
      const body = await create({ name: 'plain', scopes: ['trademarks:read'] });
      expect(body).to.include({ expires_at: null, rate_limit_tier: 'default' });
      expect(body.metadata).to.deep.equal({});
    });

    it('rejects invalid bodies with 400 naming the field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ scopes: ['trademarks:read'] }, 'name'],
        [{ name: '', scopes: ['trademarks:read'] }, 'name'],
        [{ name: '   ', scopes: ['trademarks:read'] }, 'name'],
        [{ name: 'x'.repeat(256), scopes: ['trademarks:read'] }, 'name'],
        [{ name: 'k' }, 'scopes'],
        [{ name: 'k', scopes: [] }, 'scopes'],
        [{ name: 'k', scopes: ['trademarks:write'] }, 'scopes'],
        [{ name: 'k', scopes: ['search:read'] }, 'scopes'],
        [{ name: 'k', scopes: ['trademarks:read'], expires_at: new Date(clockMs - 1000).toISOString() }, 'expires_at'],
        [{ name: 'k', scopes: ['trademarks:read'], expires_at: 'next tuesday' }, 'expires_at'],
        [{ name: 'k', scopes: ['trademarks:read'], metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
        [{ name: 'k', scopes: ['trademarks:read'], metadata: { n: 1 } }, 'metadata.n'],
        [{ name: 'k', scopes: ['trademarks:read'], metadata: ['a'] }, 'metadata'],
        [{ name: 'k', scopes: ['trademarks:read'], rate_limit_tier: 'enterprise' }, 'rate_limit_tier'],
        [{ name: 'k', scopes: ['trademarks:read'], owner: 'me' }, 'owner'],
      ];
      for (const [body, field] of cases) await fails(await send('POST', KEYS, body), 400, 'validation_error', field);
    });

    it('accepts exactly 255 characters of name and 50 metadata keys', async () => {
      const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
      const body = await create({ name: 'n'.repeat(255), scopes: ['trademarks:read'], metadata });
      expect(Object.keys(body.metadata)).to.have.length(50);
    });

    it('never grants admin or watches:admin, and never a scope the caller lacks (403)', async () => {
      await fails(await send('POST', KEYS, { name: 'k', scopes: ['admin'] }), 403, 'forbidden', 'admin');
      await fails(await send('POST', KEYS, { name: 'k', scopes: ['trademarks:read', 'watches:admin'] }), 403, 'forbidden', 'watches:admin');
      await fails(await send('POST', KEYS, { name: 'k', scopes: ['trademarks:read'] }, manageOnly), 403, 'forbidden', 'trademarks:read');
      const same = await create({ name: 'peer', scopes: ['api-keys:manage'] }, manageOnly);
      expect(same.scopes).to.deep.equal(['api-keys:manage']);
    });

    it('needs the api-keys:manage scope on every route (403)', async () => {
      const id = await keyIdOf(app.keys.billingOnly);
      const calls: Array<[string, string, unknown]> = [
        ['POST', KEYS, { name: 'k', scopes: ['billing:read'] }],
        ['GET', KEYS, undefined],
        ['GET', `${KEYS}/${id}`, undefined],
        ['PATCH', `${KEYS}/${id}`, { name: 'k' }],
        ['POST', `${KEYS}/${id}/rotate`, undefined],
        ['DELETE', `${KEYS}/${id}`, undefined],
      ];
      for (const [method, path, body] of calls) await fails(await send(method, path, body, app.keys.billingOnly), 403, 'forbidden', 'api-keys:manage');
    });

    it('refuses key management through /graphql without the scope', async () => {
      const response = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.legacy}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation { createApiKey(name: "x", scopes: ["trademarks:read"]) { id secret } }' }),
      });
      const body = (await response.json()) as { data?: unknown; errors?: Array<{ extensions?: { code?: string; required_scope?: string } }> };
      expect(response.status).to.equal(403);
      // Refused before execution (GraphQL: no data entry at all).
      expect(body).not.to.have.property('data');
      expect(body.errors?.[0]?.extensions).to.include({ code: 'forbidden', required_scope: 'api-keys:manage' });
    });
  });

  describe('list and retrieve', () => {
    it("pages newest first through exactly the organization's keys", async () => {
      const own = (
        await app.adapters.store
          .collection<ApiKeyDoc>(COLLECTIONS.apiKeys)
          .find({ organization_id: (await keyDoc(await keyIdOf(app.keys.full))).organization_id })
      ).map((k) => k._id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: ListBody = await ok<ListBody>(await send('GET', `${KEYS}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`));
        expect(page.object).to.equal('list');
        expect(page.data.length).to.be.at.most(2);
        expect(page.pagination.cursor === null).to.equal(!page.has_more);
        seen.push(...page.data.map((k) => k.id));
        cursor = page.pagination.cursor;
      } while (cursor);
      expect(seen).to.deep.equal([...own].sort().reverse());
    });

    it('filters by status and rejects unknown statuses', async () => {
      const revoked = await create({ name: 'to revoke', scopes: ['trademarks:read'] });
      await ok(await send('DELETE', `${KEYS}/${revoked.id}`));
      const expiring = await create({ name: 'expiring', scopes: ['trademarks:read'], expires_at: new Date(clockMs + HOUR).toISOString() });
      clockMs += 2 * HOUR;
      const byStatus = async (status: string) => (await ok<ListBody>(await send('GET', `${KEYS}?status=${status}&limit=100`))).data;
      const active = await byStatus('active');
      const revokedList = await byStatus('revoked');
      const expiredList = await byStatus('expired');
      expect(active.every((k) => k.status === 'active')).to.equal(true);
      expect(revokedList.map((k) => k.id)).to.include(revoked.id);
      expect(revokedList.every((k) => k.status === 'revoked' && k.revoked_at !== null)).to.equal(true);
      expect(expiredList.map((k) => k.id)).to.deep.equal([expiring.id]);
      expect(expiredList[0]?.status).to.equal('expired');
      expect(active.map((k) => k.id)).not.to.include.members([revoked.id, expiring.id]);
      await fails(await send('GET', `${KEYS}?status=paused`), 400, 'validation_error', 'status');
    });

    it("treats another organization's keys as missing (404) and never lists them", async () => {
      const mine = await create({ name: 'mine', scopes: ['trademarks:read'] });
      const other = app.keys.otherOrg;
      await fails(await send('GET', `${KEYS}/${mine.id}`, undefined, other), 404, 'not_found');
      await fails(await send('PATCH', `${KEYS}/${mine.id}`, { name: 'stolen' }, other), 404, 'not_found');
      await fails(await send('POST', `${KEYS}/${mine.id}/rotate`, undefined, other), 404, 'not_found');
      await fails(await send('DELETE', `${KEYS}/${mine.id}`, undefined, other), 404, 'not_found');
      const theirs = await ok<ListBody>(await send('GET', `${KEYS}?limit=100`, undefined, other));
      expect(theirs.data.map((k) => k.id)).to.deep.equal([await keyIdOf(other)]);
      expect((await keyDoc(mine.id)).name).to.equal('mine');
    });

    it('answers 400 for a malformed or wrong-kind ID and 404 for an unknown one', async () => {
      await fails(await send('GET', `${KEYS}/nope`), 400, 'validation_error');
      await fails(await send('GET', `${KEYS}/tm_0000000000`), 400, 'id_type_mismatch');
      await fails(await send('GET', `${KEYS}/key_0000000000000000000000`), 404, 'not_found');
    });
  });

  describe('update (PATCH)', () => {
    it('renames, replaces scopes and merge-patches metadata without touching the secret', async () => {
      const key = await create({ name: 'before', scopes: ['trademarks:read'], metadata: { keep: '1', drop: '2', change: '3' } });
      clockMs += 1000;
      const body = await ok<ApiKeyBody>(
        await send('PATCH', `${KEYS}/${key.id}`, { name: 'after', scopes: ['billing:read'], metadata: { drop: null, change: 'three', add: '4' } }),
      );
      expect(Object.keys(body).sort()).to.deep.equal([...API_KEY_MEMBERS].sort());
      expect(body.name).to.equal('after');
      expect(body.scopes).to.deep.equal(['billing:read']);
      expect(body.metadata).to.deep.equal({ keep: '1', change: 'three', add: '4' });
      expect(body.prefix).to.equal(key.prefix);
      expect(Date.parse(body.updated_at)).to.be.greaterThan(Date.parse(key.updated_at));
      expect((await keyDoc(key.id)).secret_hash).to.equal(hashApiKey(key.secret as string));
      await fails(await probe(key.secret as string), 403, 'forbidden');
    });

    it('sets expires_at in the future, clears it with null, refuses the past', async () => {
      const key = await create({ name: 'expiry', scopes: ['trademarks:read'] });
      const later = new Date(clockMs + 24 * HOUR).toISOString();
      expect((await ok<ApiKeyBody>(await send('PATCH', `${KEYS}/${key.id}`, { expires_at: later }))).expires_at).to.equal(later);
      expect((await ok<ApiKeyBody>(await send('PATCH', `${KEYS}/${key.id}`, { expires_at: null }))).expires_at).to.equal(null);
      await fails(await send('PATCH', `${KEYS}/${key.id}`, { expires_at: new Date(clockMs).toISOString() }), 400, 'validation_error', 'expires_at');
    });

    it('returns the key unchanged for an empty body', async () => {
      const key = await create({ name: 'same', scopes: ['trademarks:read'] });
      const body = await ok<ApiKeyBody>(await send('PATCH', `${KEYS}/${key.id}`, {}));
      expect(body.updated_at).to.equal(key.updated_at);
      expect(body.name).to.equal('same');
    });

    it('rejects an empty name, an empty or unknown scope list, and metadata beyond 50 keys', async () => {
      const key = await create({
        name: 'strict',
        scopes: ['trademarks:read'],
        metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])),
      });
      await fails(await send('PATCH', `${KEYS}/${key.id}`, { name: '' }), 400, 'validation_error', 'name');
      await fails(await send('PATCH', `${KEYS}/${key.id}`, { scopes: [] }), 400, 'validation_error', 'scopes');
      await fails(await send('PATCH', `${KEYS}/${key.id}`, { scopes: ['everything'] }), 400, 'validation_error', 'scopes');
      await fails(await send('PATCH', `${KEYS}/${key.id}`, { metadata: { extra: 'v' } }), 400, 'validation_error', 'metadata');
      const swapped = await ok<ApiKeyBody>(await send('PATCH', `${KEYS}/${key.id}`, { metadata: { k0: null, extra: 'v' } }));
      expect(Object.keys(swapped.metadata)).to.have.length(50);
      expect(swapped.metadata.extra).to.equal('v');
    });

    it('prevents escalation (403)', async () => {
      const peer = await create({ name: 'peer', scopes: ['api-keys:manage'] }, manageOnly);
      await fails(
        await send('PATCH', `${KEYS}/${peer.id}`, { scopes: ['api-keys:manage', 'trademarks:read'] }, manageOnly),
        403,
        'forbidden',
        'trademarks:read',
      );
      await fails(await send('PATCH', `${KEYS}/${peer.id}`, { scopes: ['admin'] }), 403, 'forbidden', 'admin');
      await fails(await send('PATCH', `${KEYS}/${peer.id}`, { scopes: ['watches:admin'] }), 403, 'forbidden', 'watches:admin');
      expect((await keyDoc(peer.id)).scopes).to.deep.equal(['api-keys:manage']);
    });

    it('refuses system keys (403) and revoked or expired keys (404)', async () => {
      const organizationId = (await keyDoc(await keyIdOf(app.keys.full))).organization_id;
      const system = (
        await createApiKey(app.adapters.store, { organizationId, name: 'system', scopes: ['trademarks:read'], isSystem: true }, new Date(clockMs))
      ).key;
      await fails(await send('PATCH', `${KEYS}/${system._id}`, { name: 'mine now' }), 403, 'forbidden', 'system key');
      await fails(await send('POST', `${KEYS}/${system._id}/rotate`), 403, 'forbidden', 'system key');
      await fails(await send('DELETE', `${KEYS}/${system._id}`), 403, 'forbidden', 'system key');
      expect((await keyDoc(system._id)).name).to.equal('system');

      const revoked = await create({ name: 'gone', scopes: ['trademarks:read'] });
      await ok(await send('DELETE', `${KEYS}/${revoked.id}`));
      await fails(await send('PATCH', `${KEYS}/${revoked.id}`, { name: 'back' }), 404, 'not_found');

      const expiring = await create({ name: 'short', scopes: ['trademarks:read'], expires_at: new Date(clockMs + 60_000).toISOString() });
      clockMs += 120_000;
      await fails(await send('PATCH', `${KEYS}/${expiring.id}`, { expires_at: null }), 404, 'not_found');
      await fails(await send('POST', `${KEYS}/${expiring.id}/rotate`), 404, 'not_found');
      await fails(await probe(expiring.secret as string), 401, 'unauthorized', 'expired');
      expect((await ok<ApiKeyBody>(await send('GET', `${KEYS}/${expiring.id}`))).status).to.equal('expired');
    });
  });

  describe('rotate and revoke', () => {
    it('rotation issues a new secret and the old one fails on the very next request', async () => {
      const key = await create({ name: 'rotating', scopes: ['api-keys:manage'] });
      await ok(await probe(key.secret as string));
      const rotated = await ok<ApiKeyBody>(await send('POST', `${KEYS}/${key.id}/rotate`));
      expect(Object.keys(rotated).sort()).to.deep.equal([...API_KEY_MEMBERS, 'secret'].sort());
      expect(rotated.id).to.equal(key.id);
      expect(rotated.secret).to.match(/^mq_[0-9a-f]{48}$/);
      expect(rotated.secret).not.to.equal(key.secret);
      expect(rotated.prefix).to.equal((rotated.secret as string).slice(0, 11));
      await fails(await probe(key.secret as string), 401, 'unauthorized');
      await ok(await probe(rotated.secret as string));
      const read = await ok<ApiKeyBody>(await send('GET', `${KEYS}/${key.id}`));
      expect(read).not.to.have.property('secret');
      expect(read.prefix).to.equal(rotated.prefix);
    });

    it('a key cannot rotate a key holding scopes it lacks (403)', async () => {
      const billing = await keyIdOf(app.keys.billingOnly);
      await fails(await send('POST', `${KEYS}/${billing}/rotate`, undefined, manageOnly), 403, 'forbidden', 'billing:read');
      await fails(await probe(app.keys.billingOnly), 403, 'forbidden');
    });

    it('a key cannot rename, re-date or re-label a key holding scopes it lacks (403), but may revoke it', async () => {
      const stronger = await create({ name: 'stronger', scopes: ['trademarks:read', 'api-keys:manage'] });
      const future = new Date(clockMs + 30 * 24 * HOUR).toISOString();
      for (const patch of [{ name: 'renamed' }, { expires_at: future }, { expires_at: null }, { metadata: { team: 'x' } }]) {
        await fails(await send('PATCH', `${KEYS}/${stronger.id}`, patch, manageOnly), 403, 'forbidden', 'trademarks:read');
      }
      const unchanged = await ok<ApiKeyBody>(await send('GET', `${KEYS}/${stronger.id}`));
      expect(unchanged).to.include({ name: 'stronger', expires_at: null });
      expect(unchanged.metadata).to.deep.equal({});
      const revoked = await ok<ApiKeyBody>(await send('DELETE', `${KEYS}/${stronger.id}`, undefined, manageOnly));
      expect(revoked.status).to.equal('revoked');
    });

    it('revocation sets revoked_at and the key is refused from the next request', async () => {
      const key = await create({ name: 'doomed', scopes: ['api-keys:manage'] });
      await ok(await probe(key.secret as string));
      const revoked = await ok<ApiKeyBody>(await send('DELETE', `${KEYS}/${key.id}`));
      expect(revoked.status).to.equal('revoked');
      expect(revoked.revoked_at).to.equal(new Date(clockMs).toISOString());
      await fails(await probe(key.secret as string), 401, 'unauthorized', 'revoked');
      await fails(await send('DELETE', `${KEYS}/${key.id}`), 404, 'not_found');
      await fails(await send('POST', `${KEYS}/${key.id}/rotate`), 404, 'not_found');
    });

    it('a key revoked or re-scoped by another process is refused or re-scoped from its next request', async () => {
      const key = await create({ name: 'elsewhere', scopes: ['api-keys:manage', 'trademarks:read'] });
      await ok(await probe(key.secret as string));
      // `marque keys …` or a second server writes the same file through its own connection.
      const otherProcess = createEmbeddedDocumentStore({ path: app.storePath });
      try {
        const keys = otherProcess.collection<ApiKeyDoc>(COLLECTIONS.apiKeys);
        await keys.updateOne({ _id: key.id }, { $set: { scopes: ['trademarks:read'] } });
        await fails(await probe(key.secret as string), 403, 'forbidden', 'api-keys:manage');
        await keys.updateOne({ _id: key.id }, { $set: { revoked_at: new Date(clockMs).toISOString() } });
        await fails(await probe(key.secret as string), 401, 'unauthorized', 'revoked');
      } finally {
        await otherProcess.close();
      }
    });

    it('a key may revoke itself', async () => {
      const key = await create({ name: 'self', scopes: ['api-keys:manage'] });
      await ok(await send('DELETE', `${KEYS}/${key.id}`, undefined, key.secret));
      await fails(await probe(key.secret as string), 401, 'unauthorized');
    });
  });

  describe('idempotency', () => {
    const countKeys = async () => app.adapters.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).countDocuments({});

    it('every write needs an Idempotency-Key (400)', async () => {
      const key = await create({ name: 'target', scopes: ['trademarks:read'] });
      const noKey = (method: string, path: string, body?: unknown) =>
        fetch(app.baseUrl + path, {
          method,
          headers: { authorization: `Bearer ${app.keys.full}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      await fails(await noKey('POST', KEYS, { name: 'k', scopes: ['trademarks:read'] }), 400, 'validation_error', 'Idempotency-Key');
      await fails(await noKey('PATCH', `${KEYS}/${key.id}`, { name: 'k' }), 400, 'validation_error', 'Idempotency-Key');
      await fails(await noKey('POST', `${KEYS}/${key.id}/rotate`), 400, 'validation_error', 'Idempotency-Key');
      await fails(await noKey('DELETE', `${KEYS}/${key.id}`), 400, 'validation_error', 'Idempotency-Key');
    });

    it('replaying a create returns the same key and secret instead of minting another', async () => {
      const headers = { 'idempotency-key': `create-${randomUUID()}` };
      const body = { name: 'replayed', scopes: ['trademarks:read'] };
      const first = await send('POST', KEYS, body, undefined, headers);
      const created = await ok<ApiKeyBody>(first, 201);
      const count = await countKeys();
      const again = await send('POST', KEYS, body, undefined, headers);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const replayed = await ok<ApiKeyBody>(again, 201);
      expect(replayed).to.deep.equal(created);
      expect(await countKeys()).to.equal(count);
      await fails(await send('POST', KEYS, { ...body, name: 'other' }, undefined, headers), 409, 'conflict');
    });

    it('replaying a rotate returns the same new secret, which works', async () => {
      const key = await create({ name: 'rotate twice', scopes: ['api-keys:manage'] });
      const headers = { 'idempotency-key': `rotate-${randomUUID()}` };
      const first = await ok<ApiKeyBody>(await send('POST', `${KEYS}/${key.id}/rotate`, undefined, undefined, headers));
      const again = await send('POST', `${KEYS}/${key.id}/rotate`, undefined, undefined, headers);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      const replayed = await ok<ApiKeyBody>(again);
      expect(replayed.secret).to.equal(first.secret);
      expect((await keyDoc(key.id)).secret_hash).to.equal(hashApiKey(first.secret as string));
      await ok(await probe(first.secret as string));
    });
  });

  describe('last_used_at', () => {
    it('is stamped on use, at most once a minute per key', async () => {
      const key = await create({ name: 'used', scopes: ['api-keys:manage'] });
      expect(key.last_used_at).to.equal(null);
      const writes = () => app.storeCalls.get(`${COLLECTIONS.apiKeys}.updateOne`) ?? 0;

      const firstUse = new Date(clockMs).toISOString();
      await ok(await probe(key.secret as string));
      expect((await keyDoc(key.id)).last_used_at).to.equal(firstUse);

      const before = writes();
      clockMs += 30_000;
      for (let i = 0; i < 5; i++) await ok(await probe(key.secret as string));
      expect(writes()).to.equal(before);
      expect((await keyDoc(key.id)).last_used_at).to.equal(firstUse);

      clockMs += 31_000;
      await ok(await probe(key.secret as string));
      expect(writes()).to.equal(before + 1);
      const shown = await ok<ApiKeyBody>(await send('GET', `${KEYS}/${key.id}`));
      expect(shown.last_used_at).to.equal(new Date(clockMs).toISOString());
    });
  });
});
