/**
 * Stage 1 of the lifecycle: who is calling. Credentials come only from `Authorization: Bearer`;
 * a key with the wrong shape is refused before any lookup; only a hash of the key is compared.
 */
import type { DocumentStore } from '../datasources/ports';
import { ApiError } from '../domain/errors';
import type { OrganizationDoc } from '../domain/records';
import { effectiveScopes } from '../domain/scopes';
import { API_KEY_PATTERN, findApiKeyBySecret, touchLastUsed, unusableReason } from '../resolvers/accounts/api-keys';
import { findOrganization } from '../resolvers/accounts/organizations';
import type { Caller } from '../resolvers/context';

export interface Authenticated {
  caller: Caller;
  organization: OrganizationDoc;
}

const unauthorized = (detail: string) => new ApiError('unauthorized', detail);

/**
 * Organizations change rarely (plan, limits); they are cached per store for a few seconds so a
 * request pays one store read (its key) instead of two. Keys themselves are read on every request,
 * so revocation and rotation still take effect at once in every process.
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

export async function authenticate(store: DocumentStore, authorization: string | undefined, now: Date): Promise<Authenticated> {
  if (!authorization) throw unauthorized('Authorization header missing; send "Authorization: Bearer <API key>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('Authorization header must be "Bearer <API key>"');
  const secret = match[1] as string;
  if (!API_KEY_PATTERN.test(secret)) throw unauthorized('API key is malformed: keys are mq_ followed by 48 hexadecimal characters');
  const key = await findApiKeyBySecret(store, secret);
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
