/**
 * OAuth access tokens against a real JWKS endpoint on 127.0.0.1: jose fetches, caches and
 * refreshes the key set over HTTP exactly as it would against the authorization server.
 */
import { expect } from 'chai';
import { SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { JwksServer, signingKey, type SigningKey } from '../support/jwks-server';
import { ApiError } from '../../domain/errors';
import { createAccessTokenVerifier, looksLikeJwt, type AccessTokenVerifier } from '../../mcp/access-tokens';

const AUDIENCE = 'https://marque.example/mcp';
const NOW = new Date('2026-03-01T12:00:00Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the token to be refused');
}

describe('rest/mcp/access-tokens: OAuth access tokens for /mcp', () => {
  const jwks = new JwksServer();
  let authUrl: string;
  let issuer: string;
  let current: SigningKey;
  let verifier: AccessTokenVerifier;

  const claims = (overrides: JWTPayload = {}): JWTPayload => ({
    sub: 'usr_1',
    org_id: 'org_1',
    scope: 'read search',
    aud: AUDIENCE,
    iss: issuer,
    iat: nowSeconds,
    exp: nowSeconds + 3600,
    ...overrides,
  });

  const sign = (payload: JWTPayload, key: SigningKey = current) =>
    new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'at+jwt' }).sign(key.privateKey);

  before(async () => {
    authUrl = await jwks.start();
    issuer = `${authUrl}/api/auth`;
    current = await signingKey('key-1');
  });

  after(() => jwks.stop());

  beforeEach(() => {
    jwks.published = [current.jwk];
    jwks.fetches = 0;
    jwks.status = 200;
    // A trailing slash on the configured URL must not change the issuer or the JWKS path.
    verifier = createAccessTokenVerifier({ authUrl: `${authUrl}/`, audience: AUDIENCE, now: () => NOW });
  });

  it('accepts a valid token: subject, organization, and read/search mapped to trademarks:read only', async () => {
    const principal = await verifier(await sign(claims()));
    expect(principal.subject).to.equal('usr_1');
    expect(principal.organizationId).to.equal('org_1');
    expect([...principal.scopes]).to.deep.equal(['trademarks:read']);
  });

  it('maps portfolios:manage and billing:read to the service scopes of the same names', async () => {
    const principal = await verifier(await sign(claims({ scope: 'portfolios:manage billing:read offline_access' })));
    expect([...principal.scopes].sort()).to.deep.equal(['billing:read', 'portfolios:manage']);
  });

  it('grants nothing for offline_access alone, unknown scopes, or names that exist on Object.prototype', async () => {
    const principal = await verifier(await sign(claims({ scope: 'offline_access openid profile constructor __proto__ admin' })));
    expect(principal.scopes.size).to.equal(0);
  });

  it('refuses an expired token, telling the user to sign in again', async () => {
    const error = await rejection(verifier(await sign(claims({ iat: nowSeconds - 7200, exp: nowSeconds - 60 }))));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.equal('access token expired; sign in again (re-authenticate the MCP connection)');
  });

  it('refuses a token for another audience, naming the expected one', async () => {
    const error = await rejection(verifier(await sign(claims({ aud: 'https://elsewhere.example/mcp' }))));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.equal(`access token audience must be ${AUDIENCE}`);
  });

  it('refuses a token from another issuer, naming the expected one', async () => {
    const error = await rejection(verifier(await sign(claims({ iss: 'https://evil.example/api/auth' }))));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.equal(`access token issuer must be ${issuer}`);
  });

  it('refuses a token signed by a key the authorization server does not publish (unknown kid)', async () => {
    const stranger = await signingKey('key-unknown');
    const error = await rejection(verifier(await sign(claims(), stranger)));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.contain('does not publish');
  });

  it('refuses a token whose signature does not match the published key of its kid', async () => {
    const impostor = await signingKey(current.kid);
    const error = await rejection(verifier(await sign(claims(), impostor)));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.equal('access token signature is invalid');
  });

  it('caches the key set between calls and refetches when a rotated-in key signs a token', async () => {
    await verifier(await sign(claims()));
    await verifier(await sign(claims({ sub: 'usr_2' })));
    expect(jwks.fetches).to.equal(1);

    const rotated = await signingKey('key-2');
    jwks.published = [current.jwk, rotated.jwk];
    // jose refetches for an unknown kid only once its 30 s cooldown since the last fetch is over
    // (it reads Date.now(), not our `now`); step the wall clock past it rather than wait.
    const realNow = Date.now;
    Date.now = () => realNow() + 31_000;
    try {
      const principal = await verifier(await sign(claims({ sub: 'usr_3' }), rotated));
      expect(principal.subject).to.equal('usr_3');
      expect(jwks.fetches).to.equal(2);
      // Both keys now come from the cache.
      await verifier(await sign(claims(), current));
      await verifier(await sign(claims(), rotated));
      expect(jwks.fetches).to.equal(2);
    } finally {
      Date.now = realNow;
    }
  });

  it('does not refetch for an unknown kid within the cooldown (made-up kids cannot flood the authorization server)', async () => {
    await verifier(await sign(claims()));
    const stranger = await signingKey('key-made-up');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await rejection(verifier(await sign(claims(), stranger)))).type).to.equal('unauthorized');
    }
    expect(jwks.fetches).to.equal(1);
  });

  it('refuses a token without org_id: the account has no organization yet', async () => {
    const error = await rejection(verifier(await sign(claims({ org_id: undefined }))));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.equal('the account has no organization yet; create or join one before connecting');
  });

  it('refuses a token without sub or exp', async () => {
    expect((await rejection(verifier(await sign(claims({ sub: undefined }))))).detail).to.equal('access token has no sub claim');
    expect((await rejection(verifier(await sign(claims({ exp: undefined }))))).detail).to.equal('access token has no exp claim');
  });

  it('refuses an HS256 token made with a guessed secret, before fetching any key', async () => {
    const forged = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256', kid: current.kid }).sign(new TextEncoder().encode('secret'));
    const error = await rejection(verifier(forged));
    expect(error.type).to.equal('unauthorized');
    expect(error.detail).to.contain('asymmetric algorithm');
    expect(jwks.fetches).to.equal(0);
  });

  it('refuses an unsigned (alg none) token', async () => {
    const error = await rejection(verifier(new UnsecuredJWT(claims()).encode()));
    expect(error.type).to.equal('unauthorized');
  });

  it('refuses garbage as malformed without any network call', async () => {
    for (const garbage of ['not-a-token', 'a.b.c', `mq_${'ab'.repeat(24)}`]) {
      const error = await rejection(verifier(garbage));
      expect(error.type).to.equal('unauthorized');
      expect(error.detail).to.contain('malformed');
    }
    expect(jwks.fetches).to.equal(0);
  });

  it('reports an unreachable key set as upstream_error, not as a bad token', async () => {
    const gone = new JwksServer();
    const goneUrl = await gone.start();
    await gone.stop();
    const offline = createAccessTokenVerifier({ authUrl: goneUrl, audience: AUDIENCE, now: () => NOW });
    const error = await rejection(offline(await sign(claims({ iss: `${goneUrl}/api/auth` }))));
    expect(error.type).to.equal('upstream_error');
    expect(error.detail).to.contain(`${goneUrl}/api/auth/jwks`).and.to.contain('ECONNREFUSED');
  });

  it('reports a key set answered with an error status as upstream_error', async () => {
    jwks.status = 503;
    const error = await rejection(verifier(await sign(claims())));
    expect(error.type).to.equal('upstream_error');
  });

  it('tells JWTs from API keys', async () => {
    expect(looksLikeJwt(`mq_${'0123456789abcdef'.repeat(3)}`)).to.equal(false);
    expect(looksLikeJwt(await sign(claims()))).to.equal(true);
    expect(looksLikeJwt('a.b')).to.equal(false);
    expect(looksLikeJwt('')).to.equal(false);
  });
});
