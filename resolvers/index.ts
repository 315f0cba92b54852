/**
 * The resolver map of the whole internal schema, one entry per domain area.
 */
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
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
import { trademarkFieldResolvers } from './trademarks/fields';
import { trademarkQueryResolvers, trademarkSourceFieldResolvers } from './trademarks/queries';
import { trademarkSatelliteResolvers } from './trademarks/satellites';

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

export const resolvers = {
  JSONObject,
  Query: {
    ping: () => 'pong',
    ...trademarkQueryResolvers,
    ...deadlineQueryResolvers,
    ...proceedingQueryResolvers,
    ...referenceQueryResolvers,
    ...trademarkSatelliteResolvers,
    ...suggestQueryResolvers,
    ...analyticsQueryResolvers,
    ...apiKeyQueryResolvers,
    ...feedbackQueryResolvers,
    ...ownerQueryResolvers,
    ...attorneyQueryResolvers,
    ...firmQueryResolvers,
    ...entityQueryResolvers,
    ...organizationQueryResolvers,
  },
  Mutation: {
    ...apiKeyMutationResolvers,
    ...feedbackMutationResolvers,
  },
  Trademark: trademarkFieldResolvers,
  TrademarkSource: trademarkSourceFieldResolvers,
  Proceeding: proceedingFieldResolvers,
  Owner: ownerFieldResolvers,
  Attorney: attorneyFieldResolvers,
  AttorneyClient: attorneyClientFieldResolvers,
  Firm: firmFieldResolvers,
  Entity: entityFieldResolvers,
};
