/**
 * API keys: generation, storage (hash only) and lookup. Shared by the command line, the REST
 * authentication step and the key-management routes.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DocumentStore } from '../../datasources/ports';
import { ApiError } from '../../domain/errors';
import { randomId } from '../../domain/ids';
import { COLLECTIONS, type ApiKeyDoc } from '../../domain/records';
import { effectiveScopes } from '../../domain/scopes';

/** `mq_` followed by 48 lowercase hexadecimal characters. */
export const API_KEY_PATTERN = /^mq_[0-9a-f]{48}$/;
export const API_KEY_PREFIX = 'mq_';

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function generateSecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(24).toString('hex')}`;
}

/** The non-secret prefix shown in listings: `mq_` plus the first 8 hex characters. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 8);
}

export interface NewApiKey {
  organizationId: string;
  name: string;
  scopes: string[];
  expiresAt?: string | null;
  metadata?: Record<string, string>;
  rateLimitTier?: string;
  createdBy?: string | null;
  isSystem?: boolean;
}

export async function createApiKey(store: DocumentStore, input: NewApiKey, now: Date = new Date()): Promise<{ key: ApiKeyDoc; secret: string }> {
  const secret = generateSecret();
  const at = now.toISOString();
  const key: ApiKeyDoc = {
    _id: randomId('key_'),
    organization_id: input.organizationId,
    name: input.name,
    prefix: displayPrefix(secret),
    secret_hash: hashApiKey(secret),
    scopes: [...input.scopes],
    rate_limit_tier: input.rateLimitTier ?? 'default',
    is_system: input.isSystem ?? false,
    expires_at: input.expiresAt ?? null,
    last_used_at: null,
    metadata: input.metadata ?? {},
    revoked_at: null,
    created_by: input.createdBy ?? null,
    created_at: at,
    updated_at: at,
  };
  await store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).insertOne(key);
  return { key, secret };
}

export async function findApiKeyByHash(store: DocumentStore, secretHash: string): Promise<ApiKeyDoc | null> {
  return store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys).findOne({ secret_hash: secretHash });
}

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

/** Derived, never stored: revocation wins over expiry. */
export function apiKeyStatus(key: ApiKeyDoc, now: Date): ApiKeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

/** How stale `last_used_at` may get: it is written at most once per this interval per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Keeps `last_used_at` current without a store write per request: the key record authentication
 * just read already says when it was last stamped, and only a stamp older than the resolution is
 * renewed. The write is conditional on the value read, so when several server processes see the
 * same stale stamp at once, one of them writes.
 */
export async function touchLastUsed(store: DocumentStore, key: ApiKeyDoc, now: Date): Promise<void> {
  if (key.last_used_at !== null && now.getTime() - Date.parse(key.last_used_at) < LAST_USED_RESOLUTION_MS) return;
  await store
    .collection<ApiKeyDoc>(COLLECTIONS.apiKeys)
    .updateOne({ _id: key._id, last_used_at: key.last_used_at }, { $set: { last_used_at: now.toISOString() } });
}

/** Why a stored key cannot be used now, or null when it can. */
export function unusableReason(key: ApiKeyDoc, now: Date): string | null {
  if (key.revoked_at !== null) return 'the API key was revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now.getTime()) return 'the API key has expired';
  return null;
}

/**
 * For an answer that outlives its request (the alertCreated subscription): a check to run before
 * each thing it sends, that the calling key still stands as it did when the answer began: not
 * revoked, expired or rotated (a rotation invalidates the old secret at once), its scopes not
 * narrowed. Callers without a key (OAuth tokens) have nothing to re-read.
 */
export async function keyStillStanding(
  store: DocumentStore,
  caller: { apiKeyId: string | null; scopes: ReadonlySet<string> },
  now: () => Date,
): Promise<() => Promise<void>> {
  const { apiKeyId } = caller;
  if (apiKeyId === null) return async () => {};
  const keys = store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys);
  const initialHash = (await keys.findOne({ _id: apiKeyId }))?.secret_hash;
  return async () => {
    const key = await keys.findOne({ _id: apiKeyId });
    const held = key === null ? new Set<string>() : effectiveScopes(key.scopes);
    const reason =
      key === null || initialHash === undefined
        ? 'the API key no longer exists'
        : (unusableReason(key, now()) ??
          (key.secret_hash !== initialHash ? 'the API key was rotated' : null) ??
          ([...caller.scopes].some((scope) => !held.has(scope)) ? "the API key's scopes were narrowed" : null));
    if (reason !== null) throw new ApiError('unauthorized', `${reason}; the subscription has ended (subscribe again with a valid key)`);
  };
}
