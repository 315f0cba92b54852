/**
 * Self-service key management (scope api-keys:manage): create, list, read, update, rotate and
 * revoke the organization's own API keys. Keys of other organizations read as missing (404);
 * revoked and expired keys cannot be changed (404); system keys cannot be changed (403); no key
 * can hand out a scope its caller lacks (403). Raw secrets leave only the create and rotate
 * results and are never stored.
 */
import type { Filter } from '../../datasources/ports';
import { ApiError, invalid, notFound } from '../../domain/errors';
import { COLLECTIONS, type ApiKeyDoc } from '../../domain/records';
import { parseId, parseTimestamp, truncate } from '../../domain/validation';
import type { RequestContext } from '../context';
import { apiKeyStatus, createApiKey, displayPrefix, generateSecret, hashApiKey, type ApiKeyStatus } from './api-keys';
import { grantableScopes, requireScopesHeld } from './caller-scope';
import { mergeMetadata, parseMetadata } from './metadata';
import { pageOf } from '../pages';
import { pageLimit } from '../page-limit';

export const MANAGE_SCOPE = 'api-keys:manage';
export const API_KEY_NAME_MAX_LENGTH = 255;
export const API_KEY_STATUSES: readonly ApiKeyStatus[] = ['active', 'revoked', 'expired'];
/** Tiers a customer may pick; other tiers are assigned by the service team. */
export const CUSTOMER_RATE_LIMIT_TIERS = ['default'] as const;

/** How many times a change is retried when another writer changed the key in between. */
const MAX_CHANGE_ATTEMPTS = 5;

/** The public api_key object; `secret` only on the create and rotate results. */
export function apiKeyObject(key: ApiKeyDoc, now: Date, secret?: string) {
  return {
    id: key._id,
    object: 'api_key',
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    rate_limit_tier: key.rate_limit_tier,
    status: apiKeyStatus(key, now),
    expires_at: key.expires_at,
    last_used_at: key.last_used_at,
    metadata: key.metadata,
    revoked_at: key.revoked_at,
    created_by: key.created_by,
    created_at: key.created_at,
    updated_at: key.updated_at,
    ...(secret === undefined ? {} : { secret }),
  };
}

function checkName(value: unknown): string {
  if (typeof value !== 'string') throw invalid('name', 'must be a string of 1 to 255 characters');
  if (value.trim().length === 0) throw invalid('name', 'must not be empty');
  if (value.length > API_KEY_NAME_MAX_LENGTH) throw invalid('name', `must be at most ${API_KEY_NAME_MAX_LENGTH} characters`);
  return value;
}

function checkScopeList(ctx: RequestContext, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((s): s is string => typeof s === 'string')) throw invalid('scopes', 'must be an array of scope names');
  return grantableScopes(ctx.caller, value);
}

function futureExpiry(value: unknown, now: Date): string | null {
  if (value === null) return null;
  const at = typeof value === 'string' ? parseTimestamp(value) : null;
  if (at === null) throw invalid('expires_at', `must be an ISO 8601 timestamp or null (got '${truncate(String(value))}')`);
  if (Date.parse(at) <= now.getTime()) throw invalid('expires_at', `must be in the future (got ${at})`);
  return at;
}

/** A timestamp after `previous` even within the same millisecond, so `updated_at` can guard writes. */
function laterThan(previous: string, now: Date): string {
  return new Date(Math.max(now.getTime(), Date.parse(previous) + 1)).toISOString();
}

const keysOf = (ctx: RequestContext) => ctx.services.store.collection<ApiKeyDoc>(COLLECTIONS.apiKeys);

async function ownKey(ctx: RequestContext, id: string): Promise<ApiKeyDoc> {
  parseId('id', id, 'key_');
  const key = await keysOf(ctx).findOne({ _id: id, organization_id: ctx.caller.organizationId });
  if (!key) throw notFound(`API key ${id}`);
  return key;
}

/** An active key of the caller's organization; revoked and expired keys read as missing. */
async function changeableKey(ctx: RequestContext, id: string, now: Date): Promise<ApiKeyDoc> {
  const key = await ownKey(ctx, id);
  const status = apiKeyStatus(key, now);
  if (status !== 'active') throw new ApiError('not_found', `API key ${id} does not exist (it is ${status}; ${status} keys cannot be changed)`);
  if (key.is_system) throw new ApiError('forbidden', `API key ${id} is a system key; system keys cannot be modified`);
  return key;
}

/**
 * Applies the fields `change` computes from the current key, guarded by `updated_at` so that a
 * concurrent change (say, a metadata merge) is never lost: on a lost race it reads and recomputes.
 */
async function changeKey(ctx: RequestContext, id: string, change: (key: ApiKeyDoc, now: Date) => Partial<ApiKeyDoc> | null): Promise<ApiKeyDoc> {
  for (let attempt = 0; attempt < MAX_CHANGE_ATTEMPTS; attempt++) {
    const now = ctx.services.now();
    const key = await changeableKey(ctx, id, now);
    const fields = change(key, now);
    if (fields === null) return key;
    const updated_at = laterThan(key.updated_at, now);
    const result = await keysOf(ctx).updateOne({ _id: key._id, updated_at: key.updated_at }, { $set: { ...fields, updated_at } });
    if (result.matchedCount === 1) return { ...key, ...fields, updated_at };
  }
  throw new Error(`API key ${id} kept changing during ${MAX_CHANGE_ATTEMPTS} attempts to update it`);
}

interface CreateArgs {
  name: string;
  scopes: string[];
  expires_at?: string | null;
  metadata?: unknown;
  rate_limit_tier?: string | null;
}

async function createKey(args: CreateArgs, ctx: RequestContext) {
  const now = ctx.services.now();
  const name = checkName(args.name);
  const scopes = checkScopeList(ctx, args.scopes);
  const expiresAt = futureExpiry(args.expires_at ?? null, now);
  const metadata = args.metadata === undefined || args.metadata === null ? {} : parseMetadata('metadata', args.metadata);
  const tier = args.rate_limit_tier ?? 'default';
  if (!(CUSTOMER_RATE_LIMIT_TIERS as readonly string[]).includes(tier))
    throw invalid('rate_limit_tier', `must be one of ${CUSTOMER_RATE_LIMIT_TIERS.join(', ')}`);
  const { key, secret } = await createApiKey(
    ctx.services.store,
    { organizationId: ctx.caller.organizationId, name, scopes, expiresAt, metadata, rateLimitTier: tier, createdBy: ctx.caller.apiKeyId },
    now,
  );
  return apiKeyObject(key, now, secret);
}

interface ListArgs {
  status?: string | null;
  limit?: number | null;
  cursor?: string | null;
  include_total?: boolean | null;
}

function statusFilter(status: string, now: Date): Filter {
  const at = now.toISOString();
  switch (status) {
    case 'active':
      return { revoked_at: null, $or: [{ expires_at: null }, { expires_at: { $gt: at } }] };
    case 'revoked':
      return { revoked_at: { $ne: null } };
    case 'expired':
      return { revoked_at: null, expires_at: { $ne: null, $lte: at } };
    default:
      throw invalid('status', `must be one of ${API_KEY_STATUSES.join(', ')} (got '${truncate(status)}')`);
  }
}

/** Newest first; keyset on the time-ordered ID, so keys created after the first page never appear. */
async function listKeys(args: ListArgs, ctx: RequestContext) {
  const now = ctx.services.now();
  const limit = pageLimit(args.limit);
  const binding = { list: 'api_keys', organization: ctx.caller.organizationId, status: args.status ?? null };
  const filter: Filter = { organization_id: ctx.caller.organizationId, ...(args.status ? statusFilter(args.status, now) : {}) };
  const page = await pageOf<ApiKeyDoc>(keysOf(ctx), filter, limit, args.cursor ?? null, binding, ctx.services.cursors, { includeTotal: args.include_total });
  return { ...page, data: page.data.map((key) => apiKeyObject(key, now)) };
}

async function getKey(id: string, ctx: RequestContext) {
  return apiKeyObject(await ownKey(ctx, id), ctx.services.now());
}

interface UpdateArgs {
  id: string;
  name?: string | null;
  scopes?: string[] | null;
  expires_at?: string | null;
  metadata?: unknown;
}

const given = (args: object, field: string): boolean =>
  Object.prototype.hasOwnProperty.call(args, field) && (args as Record<string, unknown>)[field] !== undefined;

/**
 * Partial update; `expires_at: null` clears the expiry; metadata is a merge patch (null removes a
 * key). Like rotation, it needs every scope of the target: re-dating (or renaming) a key stronger
 * than the caller's own would extend a power the caller does not have. Revocation needs no more
 * than api-keys:manage, so any manager can stop a leaked key.
 */
async function updateKey(args: UpdateArgs, ctx: RequestContext) {
  const key = await changeKey(ctx, args.id, (current, now) => {
    requireScopesHeld(ctx.caller, current.scopes, 'change');
    const fields: Partial<ApiKeyDoc> = {};
    if (given(args, 'name')) fields.name = checkName(args.name);
    if (given(args, 'scopes')) fields.scopes = checkScopeList(ctx, args.scopes);
    if (given(args, 'expires_at')) fields.expires_at = futureExpiry(args.expires_at, now);
    if (given(args, 'metadata')) fields.metadata = mergeMetadata('metadata', current.metadata, args.metadata);
    return Object.keys(fields).length === 0 ? null : fields;
  });
  return apiKeyObject(key, ctx.services.now());
}

/** A new secret replaces the old one in the same write, so the old secret fails from then on. */
async function rotateKey(id: string, ctx: RequestContext) {
  let secret = '';
  const key = await changeKey(ctx, id, (current) => {
    requireScopesHeld(ctx.caller, current.scopes, 'rotate');
    secret = generateSecret();
    return { secret_hash: hashApiKey(secret), prefix: displayPrefix(secret) };
  });
  return apiKeyObject(key, ctx.services.now(), secret);
}

/** Authentication reads the key on every request, so a revoked key fails from the next request on. */
async function revokeKey(id: string, ctx: RequestContext) {
  const key = await changeKey(ctx, id, (_current, now) => ({ revoked_at: now.toISOString() }));
  return apiKeyObject(key, ctx.services.now());
}

export const apiKeyQueryResolvers = {
  apiKeys: (_: unknown, args: ListArgs, ctx: RequestContext) => listKeys(args, ctx),
  apiKey: (_: unknown, args: { id: string }, ctx: RequestContext) => getKey(args.id, ctx),
};

export const apiKeyMutationResolvers = {
  createApiKey: (_: unknown, args: CreateArgs, ctx: RequestContext) => createKey(args, ctx),
  updateApiKey: (_: unknown, args: UpdateArgs, ctx: RequestContext) => updateKey(args, ctx),
  rotateApiKey: (_: unknown, args: { id: string }, ctx: RequestContext) => rotateKey(args.id, ctx),
  revokeApiKey: (_: unknown, args: { id: string }, ctx: RequestContext) => revokeKey(args.id, ctx),
};
