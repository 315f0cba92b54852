/**
 * Response shapes of the API-key endpoints (spec: API key).
 */
import { arrayOf, nullableStr, nullableTimestamp, object, str, timestamp, type JsonSchema, named } from './json-schema';

const apiKeyProperties: Record<string, JsonSchema> = {
  id: str('API key ID (key_...).'),
  object: { type: 'string', enum: ['api_key'] },
  name: str('1 to 255 characters.'),
  prefix: str('Non-secret display prefix: mq_ and the first 8 hexadecimal characters of the secret.'),
  scopes: arrayOf(str(), 'Scopes the key holds.'),
  rate_limit_tier: str('Rate-limit tier of the key.'),
  status: {
    type: 'string',
    enum: ['active', 'revoked', 'expired'],
    description: 'Derived: revoked when revoked_at is set, expired when expires_at has passed.',
  },
  expires_at: nullableTimestamp('When the key stops working, or null.'),
  last_used_at: nullableTimestamp('Last authenticated use, accurate to about a minute, or null.'),
  metadata: { type: 'object', additionalProperties: { type: 'string' }, description: 'String-to-string map.' },
  revoked_at: nullableTimestamp('When the key was revoked, or null.'),
  created_by: nullableStr('The key that created this one (key_...); null for keys made by the service.'),
  created_at: timestamp(),
  updated_at: timestamp(),
};

export const apiKeySchema: JsonSchema = named('ApiKey', object(apiKeyProperties, 'An API key. The secret is never shown after creation or rotation.'));

export const apiKeyWithSecretSchema: JsonSchema = named(
  'ApiKeyWithSecret',
  object(
    { ...apiKeyProperties, secret: str('The raw key, mq_ followed by 48 hexadecimal characters. Shown this once; store it now.') },
    'An API key with its raw secret (creation and rotation only).',
  ),
);
