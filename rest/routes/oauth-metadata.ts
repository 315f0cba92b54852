/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) of the MCP endpoint (spec: MCP server,
 * Discovery): where an MCP client finds the authorization server that issues tokens for /mcp.
 * Without a configured authorization server (MARQUE_AUTH_URL) the list is empty and the
 * document says that only API keys are accepted.
 */
import { PUBLIC_GET, type CustomRoute } from '../route';
import { arrayOf, constant, object, str } from '../schemas/json-schema';

export interface OAuthMetadataDeps {
  /** `{base_url}`: the address clients reach this service at (MARQUE_PUBLIC_URL, else the listen address). */
  publicUrl: () => string;
  /** `{auth_url}` of the authorization server, or null when only API keys are accepted. */
  authUrl: string | null;
  scopes: readonly string[];
}

export const OAUTH_METADATA_PATH = '/.well-known/oauth-protected-resource';

const metadataSchema = object({
  resource: str('The protected resource: {base_url}/mcp (the aud of its access tokens).'),
  authorization_servers: arrayOf(str(), 'Issuers of access tokens for it ({auth_url}/api/auth); empty when only API keys are accepted.'),
  bearer_methods_supported: arrayOf(constant('header'), 'Tokens go in the Authorization header only.'),
  scopes_supported: arrayOf(
    str(),
    'read, search and offline_access (read-only access and a refresh token). Tokens may also carry trademarks:read, billing:read (account tools) and portfolios:manage (watch and webhook writes), which a client requests by name.',
  ),
  resource_documentation: str('Where the API is described.'),
});

export function oauthMetadataRoute(deps: OAuthMetadataDeps): CustomRoute {
  const body = () => ({
    resource: `${deps.publicUrl()}/mcp`,
    authorization_servers: deps.authUrl === null ? [] : [`${deps.authUrl}/api/auth`],
    bearer_methods_supported: ['header'],
    scopes_supported: deps.scopes,
    resource_documentation: `${deps.publicUrl()}/v1/openapi.json`,
  });
  return {
    ...PUBLIC_GET,
    id: 'getOAuthProtectedResource',
    path: OAUTH_METADATA_PATH,
    summary: 'OAuth protected resource metadata of /mcp',
    description:
      'RFC 9728 metadata of the MCP endpoint: its resource URL, the authorization server that issues its access tokens and the scopes a client may ask for. ' +
      (deps.authUrl === null ? 'This server has no authorization server configured: /mcp accepts API keys only. ' : '') +
      'No key needed.',
    tag: 'Meta',
    // RFC 9728 lets metadata carry more members: request_id, as every answer of this API but the opposition-rules list.
    envelope: 'single',
    response: metadataSchema,
    handle: async () => ({ status: 200, body: body() }),
  };
}
