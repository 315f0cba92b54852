/**
 * `useGate`: the REST lifecycle's authorize and limits stages for GraphQL, as a graphql-yoga
 * (envelop) plugin that runs after parse and validation and before any resolver. For every root
 * field the operation selects (each alias counted) it checks the field's scope, then the cost of
 * the whole operation, then charges each pool the number of its fields through the same Limiter
 * REST uses (windows, quotas, RateLimit-* and X-Quota-* headers). Authentication and the request
 * log run around it, in rest/graphql/endpoint.ts, as they do around a REST route.
 */
import type { Plugin } from 'graphql-yoga';
import { getOperationAST, type DocumentNode, type GraphQLSchema } from 'graphql';
import { ApiError, invalid } from '../../domain/errors';
import type { OrganizationDoc } from '../../domain/records';
import type { RequestContext } from '../../resolvers/context';
import { requireScope } from '../auth';
import type { Limiter, LimitCharge } from '../limits';
import { policyKey, type FieldPolicies, type FieldPolicy } from './field-policies';
import { MAX_COST } from './limits';
import { operationCost, rootFieldNames } from './operation-shape';

/** Introspection shows the internal schema: only keys that can read the catalog (every dashboard page needs it). */
export const INTROSPECTION_SCOPE = 'trademarks:read';
const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

/** What /graphql adds to the resolvers' context: the caller's organization and a place for the limit headers. */
export interface GraphqlContext extends RequestContext {
  organization: OrganizationDoc;
  setHeaders(headers: Record<string, string>): void;
}

export interface GateDeps {
  schema: GraphQLSchema;
  policies: FieldPolicies;
  limiter: Limiter;
}

type RootType = 'Query' | 'Mutation' | 'Subscription';
const ROOT_TYPES: Readonly<Record<string, RootType>> = { query: 'Query', mutation: 'Mutation', subscription: 'Subscription' };

/** The charges of an operation: one per (pool, tier, feature), in units of root fields. */
export function chargesFor(policies: readonly FieldPolicy[]): LimitCharge[] {
  const charges = new Map<string, LimitCharge>();
  for (const policy of policies) {
    const key = `${policy.pool}:${policy.tier}:${policy.feature ?? ''}`;
    const charge = charges.get(key);
    if (charge) charge.units = (charge.units ?? 1) + 1;
    else charges.set(key, { pool: policy.pool, tier: policy.tier, feature: policy.feature, units: 1 });
  }
  return [...charges.values()];
}

async function admit(
  deps: GateDeps,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
  context: GraphqlContext,
): Promise<void> {
  const operation = getOperationAST(document, operationName);
  if (!operation) throw invalid('operationName', 'names no operation of the document (send operationName when the document holds several)');
  const rootType = ROOT_TYPES[operation.operation] as RootType;
  const fields = rootFieldNames(document, operation);
  const policies: FieldPolicy[] = [];
  for (const field of fields) {
    if (INTROSPECTION_FIELDS.has(field)) {
      requireScope(context.caller, INTROSPECTION_SCOPE);
      continue;
    }
    const policy = deps.policies.get(policyKey(rootType, field));
    // Validation already refused unknown fields; a field without a policy fails closed.
    if (!policy) throw new ApiError('forbidden', `${rootType}.${field} is not available over /graphql`);
    requireScope(context.caller, policy.scope);
    policies.push(policy);
  }
  const cost = operationCost(deps.schema, document, operation, variables);
  if (cost > MAX_COST) {
    throw invalid(
      'query',
      `costs ${cost} units, more than the ${MAX_COST} a request may cost (a field's limit multiplies what it selects); lower the limits or split the query`,
    );
  }
  for (const charge of chargesFor(policies)) {
    const decision = await deps.limiter.admit(charge, context.organization);
    context.setHeaders(decision.headers);
    if (decision.refusal) throw decision.refusal;
  }
}

export function useGate(deps: GateDeps): Plugin<GraphqlContext> {
  return {
    async onExecute({ args }) {
      await admit(deps, args.document, args.operationName, args.variableValues ?? {}, args.contextValue);
    },
    async onSubscribe({ args }) {
      await admit(deps, args.document, args.operationName, args.variableValues ?? {}, args.contextValue);
    },
  };
}
