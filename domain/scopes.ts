/**
 * API key scopes (spec: Authentication → Scopes) and how they imply each other.
 */

export const SCOPES = [
  'trademarks:read',
  'events:read',
  'portfolios:manage',
  'watches:admin',
  'api-keys:manage',
  'billing:read',
  'admin',
  'image-search:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes a customer key may hold; `admin` and `watches:admin` are never issued to customers. */
export const CUSTOMER_SCOPES: readonly Scope[] = [
  'trademarks:read',
  'events:read',
  'portfolios:manage',
  'api-keys:manage',
  'billing:read',
  'image-search:read',
];

/** Legacy scopes still honoured on old keys, and what they grant today. */
export const LEGACY_SCOPES: Readonly<Record<string, Scope>> = { 'search:read': 'trademarks:read' };

/** The effective scopes of a key: legacy names mapped; `admin` implies every scope. */
export function effectiveScopes(granted: readonly string[]): ReadonlySet<string> {
  if (granted.includes('admin')) return new Set<string>(SCOPES);
  return new Set(granted.map((scope) => LEGACY_SCOPES[scope] ?? scope));
}

export function isKnownScope(scope: string): scope is Scope {
  return (SCOPES as readonly string[]).includes(scope);
}
