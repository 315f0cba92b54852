/**
 * The rules about which scopes a caller may hand out or act on. Whether the caller may call an
 * operation at all is checked before execution, on every door, by the operation's scope (the
 * REST authorize stage; rest/graphql/gate.ts for /graphql).
 */
import { ApiError, invalid } from '../../domain/errors';
import { CUSTOMER_SCOPES, isKnownScope, LEGACY_SCOPES } from '../../domain/scopes';
import type { Caller } from '../context';

/**
 * Checks a requested scope list for a new or updated key and returns it without duplicates:
 * unknown names → 400; `admin` and `watches:admin` are never issued to customer keys → 403; a
 * scope the caller's own key lacks → 403 (no escalation through key management).
 */
export function grantableScopes(caller: Caller, requested: readonly string[], parameter = 'scopes'): string[] {
  if (requested.length === 0) throw invalid(parameter, 'must list at least one scope');
  const scopes = [...new Set(requested)];
  for (const scope of scopes) {
    if (LEGACY_SCOPES[scope] !== undefined) throw invalid(parameter, `${scope} is a legacy scope that is no longer issued; use ${LEGACY_SCOPES[scope]}`);
    if (!isKnownScope(scope)) throw invalid(parameter, `unknown scope '${scope}' (known: ${CUSTOMER_SCOPES.join(', ')})`);
    if (!(CUSTOMER_SCOPES as readonly string[]).includes(scope)) {
      throw new ApiError('forbidden', `${parameter}: ${scope} cannot be granted to a customer key`, { parameter });
    }
    if (!caller.scopes.has(scope)) {
      throw new ApiError('forbidden', `${parameter}: cannot grant ${scope}, which the calling key does not hold`, { parameter });
    }
  }
  return scopes;
}

/** Rotation hands out a working secret, so the caller must already hold every scope of the target. */
export function requireScopesHeld(caller: Caller, targetScopes: readonly string[], action: string): void {
  const missing = targetScopes.filter((scope) => !caller.scopes.has(LEGACY_SCOPES[scope] ?? scope));
  if (missing.length > 0) {
    throw new ApiError('forbidden', `cannot ${action} a key holding ${missing.join(', ')}, which the calling key does not hold`);
  }
}
