/**
 * OAuth 2.1 access tokens for the MCP endpoint (spec: "OAuth 2.1 for the MCP server"). The
 * authorization server signs JWTs; we verify them locally against its published key set, so a
 * request costs no call to the authorization server except when the key set is first loaded,
 * goes stale, or a token names a key we have not seen (a rotation).
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { ApiError } from '../domain/errors';
import { effectiveScopes, type Scope } from '../domain/scopes';

export interface OAuthPrincipal {
  subject: string;
  organizationId: string;
  /** the service scopes the token grants */
  scopes: ReadonlySet<string>;
}

export interface AccessTokenVerifierOptions {
  authUrl: string;
  /** `{base_url}/mcp` */
  audience: string;
  /** for tests */
  now?: () => Date;
}

export type AccessTokenVerifier = (token: string) => Promise<OAuthPrincipal>;

/**
 * What each OAuth scope grants in service scopes. Typed as `Scope` so only real service scopes can
 * appear; `admin` and `watches:admin` are deliberately absent: no OAuth consent can grant them.
 * `offline_access` only lets the client hold a refresh token, so it grants nothing here. A Map, not an
 * object literal, so a token's scope `constructor` or `__proto__` cannot reach Object.prototype.
 */
const SERVICE_SCOPES_BY_OAUTH_SCOPE: ReadonlyMap<string, readonly Scope[]> = new Map<string, readonly Scope[]>([
  ['read', ['trademarks:read']],
  ['search', ['trademarks:read']],
  ['trademarks:read', ['trademarks:read']],
  ['billing:read', ['billing:read']],
  ['portfolios:manage', ['portfolios:manage']],
  ['offline_access', []],
]);

/**
 * The discovery document's `scopes_supported`: the contract's three, read-only. Clients that
 * request every advertised scope then ask for no more than reading; `trademarks:read`,
 * `billing:read` and `portfolios:manage` are still understood when a client asks for them.
 */
export const ADVERTISED_OAUTH_SCOPES: readonly string[] = ['read', 'search', 'offline_access'];

/**
 * Asymmetric algorithms only. Without this list a token could name `HS256` and have its HMAC
 * checked against public key material (the classic algorithm-confusion attack); jose refuses a
 * token whose `alg` is not listed before it even looks for a key.
 */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

/** Three non-empty base64url parts: API keys (`mq_` + hex) never contain a dot, so this tells the two apart. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether a bearer credential looks like a JWT (three base64url parts) rather than an API key. */
export function looksLikeJwt(credential: string): boolean {
  return JWT_SHAPE.test(credential);
}

const EXPIRED = 'access token expired; sign in again (re-authenticate the MCP connection)';
const NO_ORGANIZATION = 'the account has no organization yet; create or join one before connecting';
const MALFORMED = 'access token is malformed: expected a signed JWT (three base64url parts)';

const unauthorized = (detail: string) => new ApiError('unauthorized', detail);

/** A failure to obtain the key set (network, HTTP status, not a JWKS), told apart from a token that names an unknown key. */
class KeySetUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('key set unavailable');
  }
}

/** fetch() reports every network failure as "fetch failed"; the useful part (ECONNREFUSED, ENOTFOUND, …) is in its cause. */
function describe(reason: unknown): string {
  if (!(reason instanceof Error)) return String(reason);
  const cause: unknown = reason.cause;
  const code = cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? cause.code : null;
  return code ? `${reason.message}: ${code}` : reason.message;
}

export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const authUrl = options.authUrl.replace(/\/+$/, '');
  const issuer = `${authUrl}/api/auth`;
  const jwksUrl = `${issuer}/jwks`;
  const { audience } = options;
  const now = options.now ?? (() => new Date());

  // jose's defaults suit us: keys cached 10 minutes; an unknown `kid` triggers a refetch, at most
  // one per 30 s cooldown so tokens with made-up kids cannot turn into a flood of fetches; concurrent
  // requests share one in-flight fetch.
  const remoteKeys = createRemoteJWKSet(new URL(jwksUrl));

  // Wrapped so a key set we cannot load (an upstream problem) is not reported as a bad token.
  // "No key matches" is the token's problem and passes through unchanged.
  const keys: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remoteKeys(header, token);
    } catch (error) {
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys || error instanceof errors.JOSENotSupported) {
        throw error;
      }
      throw new KeySetUnavailable(error);
    }
  };

  const explain = (error: unknown): unknown => {
    if (error instanceof KeySetUnavailable) {
      return new ApiError('upstream_error', `the authorization server's key set at ${jwksUrl} could not be loaded (${describe(error.reason)})`);
    }
    // JWTExpired extends JOSEError, not JWTClaimValidationFailed: test it first.
    if (error instanceof errors.JWTExpired) return unauthorized(EXPIRED);
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.reason === 'missing') return unauthorized(`access token has no ${error.claim} claim`);
      if (error.claim === 'aud') return unauthorized(`access token audience must be ${audience}`);
      if (error.claim === 'iss') return unauthorized(`access token issuer must be ${issuer}`);
      if (error.claim === 'nbf') return unauthorized('access token is not valid yet (nbf is in the future)');
      return unauthorized(`access token claim ${error.claim} is invalid`);
    }
    if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
      return unauthorized(`access token must be signed with an asymmetric algorithm (${ALGORITHMS.join(', ')})`);
    }
    if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
      return unauthorized(`access token is signed with a key (kid) the authorization server does not publish at ${jwksUrl}`);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) return unauthorized('access token signature is invalid');
    if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return unauthorized(MALFORMED);
    // Anything else is our bug, not the caller's: let it surface as an internal error.
    return error;
  };

  return async (token) => {
    if (token === '') throw unauthorized('access token missing; remove and re-add the MCP connection to sign in');
    if (!looksLikeJwt(token)) throw unauthorized(MALFORMED);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ALGORITHMS,
        currentDate: now(),
        // jose checks only presence and, for exp, that it is a number; types are checked below.
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      throw explain(error);
    }
    return principalOf(payload);
  };
}

/** The signature and standard claims are verified; now the claims we rely on, which jose does not type-check. */
function principalOf(payload: JWTPayload): OAuthPrincipal {
  const { sub, org_id: organizationId, scope } = payload;
  if (typeof sub !== 'string' || sub === '') throw unauthorized('access token sub claim must be a non-empty string');
  // The authorization server omits org_id (or sends null) for an account that has not joined an organization.
  if (organizationId === undefined || organizationId === null || organizationId === '') throw unauthorized(NO_ORGANIZATION);
  if (typeof organizationId !== 'string') throw unauthorized('access token org_id claim must be a string');
  if (scope !== undefined && typeof scope !== 'string') throw unauthorized('access token scope claim must be a space-separated string');
  // Unknown OAuth scopes (openid, profile, email, …) grant nothing.
  const granted = (scope ?? '').split(' ').flatMap((name) => SERVICE_SCOPES_BY_OAUTH_SCOPE.get(name) ?? []);
  // The same path API keys take from granted to effective scopes.
  return { subject: sub, organizationId, scopes: effectiveScopes(granted) };
}
