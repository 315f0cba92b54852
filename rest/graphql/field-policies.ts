/**
 * What guards each GraphQL root field: the scope a key must hold, the pool and tier its calls are
 * charged to, and the plan feature it belongs to. A root field that a REST route runs is guarded
 * exactly as that route is (derived here from the route table, so the two doors cannot drift);
 * a root field no route runs declares its policy beside its resolver (`rootFieldPolicies` in
 * resolvers/index.ts). Start-up fails when a root field has no policy or two routes disagree.
 */
import type { GraphQLSchema } from 'graphql';
import type { Feature, Pool, Tier } from '../../domain/plans';
import type { OperationRegistry } from '../../resolvers/engine';
import type { RootFieldPolicy } from '../../resolvers/index';
import type { RouteDef } from '../route';

export interface FieldPolicy {
  /** Scope the key must hold; null: any valid key. */
  scope: string | null;
  pool: Pool;
  tier: Tier;
  feature?: Feature;
}

export type FieldPolicies = ReadonlyMap<string, FieldPolicy>;

/** `Query.trademark`, `Mutation.createApiKey`: root fields are keyed by their type and name. */
export const policyKey = (rootType: 'Query' | 'Mutation' | 'Subscription', field: string): string => `${rootType}.${field}`;

/**
 * Over GraphQL everything arrives as POST, so the transport tier follows the field: the search
 * tier where the route is a search, writes for mutations, reads for every other query.
 */
function graphqlTier(route: RouteDef, rootType: 'Query' | 'Mutation'): Tier {
  if (route.tier === 'search') return 'search';
  return rootType === 'Mutation' ? 'writes' : 'reads';
}

export function buildFieldPolicies(
  schema: GraphQLSchema,
  registry: OperationRegistry,
  routes: readonly RouteDef[],
  declared: Readonly<Record<string, RootFieldPolicy>>,
): FieldPolicies {
  const policies = new Map<string, FieldPolicy>();
  const sources = new Map<string, string>();
  for (const route of routes) {
    if (route.kind !== 'operation') continue;
    const operation = registry.get(route.operation);
    const rootType = operation.operationType === 'mutation' ? 'Mutation' : 'Query';
    const key = policyKey(rootType, operation.rootFieldName);
    if (route.scope === 'public') throw new Error(`route ${route.id} runs ${key} but is public`);
    const policy: FieldPolicy = { scope: route.scope, pool: route.pool, tier: graphqlTier(route, rootType), feature: route.feature };
    const earlier = policies.get(key);
    if (earlier && JSON.stringify(earlier) !== JSON.stringify(policy)) {
      throw new Error(`${key} is guarded differently by routes ${sources.get(key)} and ${route.id}; one root field needs one policy`);
    }
    policies.set(key, policy);
    sources.set(key, route.id);
  }
  for (const [key, policy] of Object.entries(declared)) {
    if (policies.has(key)) throw new Error(`${key} declares a policy but route ${sources.get(key)} already guards it`);
    const rootType = key.startsWith('Mutation.') ? 'Mutation' : 'Query';
    policies.set(key, { scope: policy.scope, pool: policy.pool, tier: policy.tier ?? (rootType === 'Mutation' ? 'writes' : 'reads'), feature: policy.feature });
  }
  const unguarded = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) =>
    type
      ? Object.keys(type.getFields())
          .map((field) => `${type.name}.${field}`)
          .filter((key) => !policies.has(key))
      : [],
  );
  if (unguarded.length > 0)
    throw new Error(`root fields without a guard policy (run them from a route or declare one in rootFieldPolicies): ${unguarded.join(', ')}`);
  return policies;
}
