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
import { KeptRecords } from './kept-records';

export interface Authenticated {
  caller: Caller;
  organization: OrganizationDoc;
}

const unauthorized = (detail: string) => new ApiError('unauthorized', detail);

/** Keys must act on the next request everywhere: without change tokens they are read every time. */
const keptKeys = new KeptRecords<ApiKeyDoc>(COLLECTIONS.apiKeys, 0);
/** Organizations change rarely (plan, limits): without change tokens a few seconds' staleness is allowed. */
const keptOrganizations = new KeptRecords<OrganizationDoc>(COLLECTIONS.organizations, 5000);

export async function authenticate(store: DocumentStore, authorization: string | undefined, now: Date): Promise<Authenticated> {
  if (!authorization) throw unauthorized('Authorization header missing; send "Authorization: Bearer <API key>"');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) throw unauthorized('Authorization header must be "Bearer <API key>"');
  const secret = match[1] as string;
  if (!API_KEY_PATTERN.test(secret)) throw unauthorized('API key is malformed: keys are mq_ followed by 48 hexadecimal characters');
  const secretHash = hashApiKey(secret);
  const key = await keptKeys.get(store, secretHash, () => findApiKeyByHash(store, secretHash));
  if (!key) throw unauthorized('API key is not recognized');
  const reason = unusableReason(key, now);
  if (reason) throw unauthorized(reason);
  const organization = await keptOrganizations.get(store, key.organization_id, () => findOrganization(store, key.organization_id));
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

/**
 * The caller of an OAuth access token already verified (MCP sessions): its organization, which
 * must exist, and the scopes the token grants. No API key: the request log records none.
 */
export async function authenticateOAuth(
  store: DocumentStore,
  principal: { subject: string; organizationId: string; scopes: ReadonlySet<string> },
): Promise<Authenticated> {
  const organization = await keptOrganizations.get(store, principal.organizationId, () => findOrganization(store, principal.organizationId));
  if (!organization) throw unauthorized('the account has no organization yet; create or join one before connecting');
  return { caller: { organizationId: organization._id, apiKeyId: null, subject: principal.subject, scopes: principal.scopes }, organization };
}
