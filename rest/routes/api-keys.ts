/**
 * Route-table entries of self-service API-key management (scope api-keys:manage). Every write
 * needs an Idempotency-Key; replaying a create or rotate returns the same secret.
 */
import { API_KEY_NAME_MAX_LENGTH, API_KEY_STATUSES, CUSTOMER_RATE_LIMIT_TIERS, MANAGE_SCOPE } from '../../resolvers/accounts/api-key-management';
import { METADATA_RULE } from '../../resolvers/accounts/metadata';
import { CUSTOMER_SCOPES } from '../../domain/scopes';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { apiKeySchema, apiKeyWithSecretSchema } from '../schemas/api-keys';
import { countedPageParams } from './paging-params';

const keyIdParam: ParamSpec = { name: 'id', kind: { type: 'id', prefix: 'key_' }, required: true, description: 'API key ID (key_...).' };

const nameKind = { type: 'string', maxLength: API_KEY_NAME_MAX_LENGTH } as const;
const scopesDescription = `Scopes, at least one, from: ${CUSTOMER_SCOPES.join(', ')}. A key can only grant scopes it holds itself (403 otherwise); admin and watches:admin are never granted (403).`;

const common = {
  kind: 'operation',
  tag: 'API keys',
  scope: MANAGE_SCOPE,
  pool: 'utility',
} as const;

const write = { ...common, tier: 'writes', idempotency: 'required', query: [] } as const;

export const apiKeyRoutes: readonly RouteDef[] = [
  {
    ...write,
    id: 'createApiKey',
    contract: 'named-without-detail',
    method: 'POST',
    path: '/v1/organization/api-keys',
    operation: 'CreateApiKey',
    summary: 'Create an API key',
    description:
      "Creates a key in the caller's organization. The response carries the raw secret this once; it cannot be read again. " +
      'Replaying the Idempotency-Key returns the same secret instead of minting another.',
    pathParams: [],
    body: [
      { name: 'name', kind: nameKind, required: true, description: `Display name, 1 to ${API_KEY_NAME_MAX_LENGTH} characters.` },
      {
        name: 'scopes',
        kind: { type: 'string', maxLength: 64 },
        array: true,
        required: true,
        resolverRules: { values: CUSTOMER_SCOPES },
        description: scopesDescription,
      },
      { name: 'expires_at', kind: { type: 'timestamp' }, description: 'ISO 8601 time in the future when the key stops working; null or absent: no expiry.' },
      { name: 'metadata', kind: { type: 'stringMap' }, description: `String-to-string map: ${METADATA_RULE}.` },
      {
        name: 'rate_limit_tier',
        kind: { type: 'enum', values: CUSTOMER_RATE_LIMIT_TIERS },
        description: `Rate-limit tier: ${CUSTOMER_RATE_LIMIT_TIERS.join(', ')} (the default).`,
      },
    ],
    successStatus: 201,
    envelope: 'single',
    response: apiKeyWithSecretSchema,
    errors: [400, 409],
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...common,
    id: 'listApiKeys',
    contract: 'named-without-detail',
    method: 'GET',
    path: '/v1/organization/api-keys',
    operation: 'ListApiKeys',
    summary: 'List API keys',
    description: "The organization's keys, newest first. Secrets are never shown.",
    tier: 'reads',
    idempotency: 'none',
    pathParams: [],
    query: [
      { name: 'status', kind: { type: 'enum', values: API_KEY_STATUSES }, description: 'Keep keys in this status: active, revoked or expired.' },
      ...countedPageParams,
    ],
    successStatus: 200,
    envelope: 'list',
    response: apiKeySchema,
    errors: [400],
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...common,
    id: 'getApiKey',
    contract: 'named-without-detail',
    method: 'GET',
    path: '/v1/organization/api-keys/:id',
    operation: 'GetApiKey',
    summary: 'Retrieve an API key',
    description: 'One key of the organization, in any status. Keys of other organizations are 404.',
    tier: 'reads',
    idempotency: 'none',
    pathParams: [keyIdParam],
    query: [],
    successStatus: 200,
    envelope: 'single',
    response: apiKeySchema,
    errors: [400, 404],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...write,
    id: 'updateApiKey',
    method: 'PATCH',
    path: '/v1/organization/api-keys/:id',
    operation: 'UpdateApiKey',
    summary: 'Update an API key',
    description:
      'All fields optional. The secret never changes (rotate for new credentials). scopes replaces the list (escalation prevention applies); ' +
      'expires_at must lie in the future, null clears it; metadata is a merge patch where null removes a key. ' +
      "System keys: 403. Revoked, expired, missing or other organizations' keys: 404.",
    pathParams: [keyIdParam],
    body: [
      { name: 'name', kind: nameKind, description: `1 to ${API_KEY_NAME_MAX_LENGTH} characters.` },
      {
        name: 'scopes',
        kind: { type: 'string', maxLength: 64 },
        array: true,
        resolverRules: { values: CUSTOMER_SCOPES },
        description: `Replacement list. ${scopesDescription}`,
      },
      { name: 'expires_at', kind: { type: 'timestamp' }, nullable: true, description: 'ISO 8601 time in the future; null clears the expiry.' },
      {
        name: 'metadata',
        kind: { type: 'stringMap', nullValues: true },
        description: `Merge patch: a string sets a key, null removes it; the result holds ${METADATA_RULE}.`,
      },
    ],
    successStatus: 200,
    envelope: 'single',
    response: apiKeySchema,
    errors: [400, 404, 409],
    variables: ({ path, body }) => ({ ...body, id: path.id }),
  },
  {
    ...write,
    id: 'rotateApiKey',
    contract: 'named-without-detail',
    method: 'POST',
    path: '/v1/organization/api-keys/:id/rotate',
    operation: 'RotateApiKey',
    summary: 'Rotate an API key',
    description:
      'Issues a new secret for the key (in the response, this once); the old secret is refused from the next request. ' +
      'The caller must hold every scope of the key it rotates. Replaying the Idempotency-Key returns the same new secret.',
    pathParams: [keyIdParam],
    successStatus: 200,
    envelope: 'single',
    response: apiKeyWithSecretSchema,
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
  {
    ...write,
    id: 'revokeApiKey',
    contract: 'named-without-detail',
    method: 'DELETE',
    path: '/v1/organization/api-keys/:id',
    operation: 'RevokeApiKey',
    summary: 'Revoke an API key',
    description: 'Sets revoked_at; every server refuses the key from the next request. Returns the revoked key. Already revoked or expired keys: 404.',
    pathParams: [keyIdParam],
    successStatus: 200,
    envelope: 'single',
    response: apiKeySchema,
    errors: [400, 404, 409],
    variables: ({ path }) => ({ id: path.id }),
  },
];
