/**
 * Stage 1 of the lifecycle: who is calling. Credentials come only from `Authorization: Bearer`;
 * a key with the wrong shape is refused before any lookup; only a hash of the key is compared.
 */
import type { DocumentStore } from '../datasources/ports';
import { ApiError } from '../domain/errors';
import { COLLECTIONS, type ApiKeyDoc, type OrganizationDoc } from '../domain/records';
import { effectiveScopes } from '../domain/scopes';
import { API_KEY_PATTERN, findApiKeyByHash, hashApiKey, touchLastUsed, unusableReason } from '../resolvers/accounts/api-keys';
import { findOrganization } from '../resolvers/accounts/organizations';
import type { Caller } from '../resolvers/context';

export interface Authenticated {
  caller: Caller;
  organization: OrganizationDoc;
}

const unauthorized = (detail: string) => new ApiError('unauthorized', detail);

/**
 * Organizations change rarely (plan, limits); they are cached per store for a few seconds.
 */
export const ORGANIZATION_CACHE_MS = 5000;
const organizationCaches = new WeakMap<DocumentStore, Map<string, { at: number; organization: Promise<OrganizationDoc | null> }>>();

function cachedOrganization(store: DocumentStore, id: string): Promise<OrganizationDoc | null> {
  let cache = organizationCaches.get(store);
  if (!cache) organizationCaches.set(store, (cache = new Map()));
  const hit = cache.get(id);
  if (hit && Date.now() - hit.at < ORGANIZATION_CACHE_MS) return hit.organization;
  const organization = findOrganization(store, id);
  cache.set(id, { at: Date.now(), organization });
  organization.catch(() => cache.delete(id));
  return organization;
}

/** Keys kept per store; past this many the cache starts over (unknown keys are never kept). */
const KEY_CACHE_LIMIT = 10_000;
const keyCaches = new WeakMap<DocumentStore, Map<string, { token: string; key: ApiKeyDoc }>>();

/**
 * The key record of a secret hash, as of now. Revocation, rotation and every other change must
 * take effect on the next request in every process, so a kept record is used only while the
 * store's change token for API keys has not moved (token read before the record); a store that
 * cannot tell (MongoDB) is read on every request.
 */
async function currentKey(store: DocumentStore, secretHash: string): Promise<ApiKeyDoc | null> {
  const token = await store.changeToken(COLLECTIONS.apiKeys);
  if (token === null) return findApiKeyByHash(store, secretHash);
  let cache = keyCaches.get(store);
  if (!cache) keyCaches.set(store, (cache = new Map()));
  const kept = cache.get(secretHash);
  if (kept && kept.token === token) return kept.key;
  const key = await findApiKeyByHash(store, secretHash);
  if (cache.size >= KEY_CACHE_LIMIT) cache.clear();
  if (key) cache.set(secretHash, { token, key });
  else cache.delete(secretHash);
  return key;
}

export async function authenticate(store: DocumentStore, authorization: string | undefined, now: Date): Promise<Authenticated> {
  if (!authorization) throw unauthorized('Authorization header missing; send "Authorization: Bearer <API key>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('Authorization header must be "Bearer <API key>"');
  const secret = match[1] as string;
  if (!API_KEY_PATTERN.test(secret)) throw unauthorized('API key is malformed: keys are mq_ followed by 48 hexadecimal characters');
  const key = await currentKey(store, hashApiKey(secret));
  if (!key) throw unauthorized('API key is not recognized');
  const reason = unusableReason(key, now);
  if (reason) throw unauthorized(reason);
  const organization = await cachedOrganization(store, key.organization_id);
  if (!organization) throw unauthorized('API key belongs to no organization');
  // Coalesced: a store write at most once a minute per key, not one per request.
  await touchLastUsed(store, key, now);
  return {
    caller: { organizationId: organization._id, apiKeyId: key._id, scopes: effectiveScopes(key.scopes) },
    organization,
  };
}

/** A valid key lacking the route's scope → 403 naming the scope. */
export function requireScope(caller: Caller, scope: string | null): void {
  if (scope !== null && !caller.scopes.has(scope)) {
    throw new ApiError('forbidden', `this endpoint requires the ${scope} scope, which the API key does not hold`, { required_scope: scope });
  }
}
