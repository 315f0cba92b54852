/**
 * The resolver map of the whole internal schema, one entry per domain area.
 */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type { Feature, Pool, Tier } from '../domain/plans';
import { apiKeyMutationResolvers, apiKeyQueryResolvers } from './accounts/api-key-management';
import { attorneyClientFieldResolvers, attorneyFieldResolvers } from './attorneys/fields';
import { attorneyQueryResolvers } from './attorneys/queries';
import { deadlineQueryResolvers } from './deadlines/queries';
import { feedbackMutationResolvers, feedbackQueryResolvers } from './feedback/reports';
import { entityFieldResolvers } from './entities/fields';
import { entityQueryResolvers } from './entities/queries';
import { firmFieldResolvers } from './firms/fields';
import { firmQueryResolvers } from './firms/queries';
import { organizationQueryResolvers } from './organization/queries';
import { ownerFieldResolvers } from './owners/fields';
import { ownerQueryResolvers } from './owners/queries';
import { proceedingFieldResolvers } from './proceedings/fields';
import { proceedingQueryResolvers } from './proceedings/queries';
import { referenceQueryResolvers } from './reference/queries';
import { suggestQueryResolvers } from './suggest/queries';
import { analyticsQueryResolvers } from './analytics/offices';
import { catalogStatsQueryResolvers } from './analytics/catalog';
import { trademarkFieldResolvers } from './trademarks/fields';
import { trademarkQueryResolvers, trademarkSourceFieldResolvers } from './trademarks/queries';
import { alertFieldResolvers, alertMutationResolvers, alertQueryResolvers } from './alerts/alerts';
import { alertSubscriptionResolvers } from './alerts/subscription';
import { watchDiagnosticsResolvers } from './watches/diagnostics';
import { watchPreviewResolvers } from './watches/preview';
import { watchMutationResolvers, watchQueryResolvers } from './watches/watches';
import { portfolioMutationResolvers, portfolioQueryResolvers } from './portfolios/portfolios';
import { savedSearchMutationResolvers, savedSearchQueryResolvers } from './saved-searches/saved-searches';
import { eventQueryResolvers } from './events/events';
import { webhookDeliveryMutationResolvers, webhookDeliveryQueryResolvers } from './webhooks/deliveries';
import { webhookEndpointMutationResolvers, webhookEndpointQueryResolvers } from './webhooks/endpoints';

/** Plain JSON objects (change records' old/new values), passed through unchanged. */
const JSONObject = new GraphQLScalarType({
  name: 'JSONObject',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(ast: ValueNode): unknown {
    if (ast.kind === Kind.OBJECT) return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value)]));
    if (ast.kind === Kind.LIST) return ast.values.map(literal);
    if (ast.kind === Kind.STRING || ast.kind === Kind.BOOLEAN) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    return null;
  },
});

/**
 * Guard policies of the root fields no REST route runs (a route's root field is guarded as its
 * route is: rest/graphql/field-policies.ts). Keyed `Query.field` / `Mutation.field`.
 */
export interface RootFieldPolicy {
  /** Scope the key must hold; null: any valid key. */
  scope: string | null;
  pool: Pool;
  /** Default: reads for queries, writes for mutations. */
  tier?: Tier;
  feature?: Feature;
}

export const rootFieldPolicies: Readonly<Record<string, RootFieldPolicy>> = {
  'Query.ping': { scope: null, pool: 'utility' },
  // The dashboard's overview: catalog counts like the office analytics route, so guarded as it is.
  'Query.trademarkStats': { scope: 'trademarks:read', pool: 'read' },
  // The dashboard's deadline timeline: the portfolio deadlines route's data, so guarded as that route is.
  'Query.portfolioDeadlineTimeline': { scope: 'portfolios:manage', pool: 'monitoring', feature: 'monitoring' },
  'Subscription.alertCreated': { scope: 'portfolios:manage', pool: 'monitoring', feature: 'monitoring' },
};

export const resolvers = {
  JSONObject,
  Query: {
    ping: () => 'pong',
    ...trademarkQueryResolvers,
    ...deadlineQueryResolvers,
    ...proceedingQueryResolvers,
    ...referenceQueryResolvers,
    ...suggestQueryResolvers,
    ...analyticsQueryResolvers,
    ...catalogStatsQueryResolvers,
    ...apiKeyQueryResolvers,
    ...feedbackQueryResolvers,
    ...ownerQueryResolvers,
    ...attorneyQueryResolvers,
    ...firmQueryResolvers,
    ...entityQueryResolvers,
    ...organizationQueryResolvers,
    ...watchQueryResolvers,
    ...watchPreviewResolvers,
    ...watchDiagnosticsResolvers,
    ...alertQueryResolvers,
    ...portfolioQueryResolvers,
    ...savedSearchQueryResolvers,
    ...webhookEndpointQueryResolvers,
    ...webhookDeliveryQueryResolvers,
    ...eventQueryResolvers,
  },
  Mutation: {
    ...apiKeyMutationResolvers,
    ...feedbackMutationResolvers,
    ...watchMutationResolvers,
    ...alertMutationResolvers,
    ...portfolioMutationResolvers,
    ...savedSearchMutationResolvers,
    ...webhookEndpointMutationResolvers,
    ...webhookDeliveryMutationResolvers,
  },
  Subscription: alertSubscriptionResolvers,
  Alert: alertFieldResolvers,
  Trademark: trademarkFieldResolvers,
  TrademarkSource: trademarkSourceFieldResolvers,
  Proceeding: proceedingFieldResolvers,
  Owner: ownerFieldResolvers,
  Attorney: attorneyFieldResolvers,
  AttorneyClient: attorneyClientFieldResolvers,
  Firm: firmFieldResolvers,
  Entity: entityFieldResolvers,
};
