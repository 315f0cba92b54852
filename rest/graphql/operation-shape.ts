/**
 * What an executable GraphQL operation asks for, read from its document before it runs: the root
 * fields it selects (through fragments and aliases, each alias counted) and its cost, where a
 * field taking a `limit` (or a list of `ids`) multiplies the cost of what it selects. Pure
 * functions over a document that has passed validation (so fragments exist and do not cycle).
 */
import {
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  valueFromAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type FieldNode,
} from 'graphql';

/** A field that takes `limit` and states no default returns at most this many rows (resolvers' default page). */
const DEFAULT_PAGE = 20;

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
}

/** The fields of a selection set, fragments flattened (directives are ignored: a skipped field still counts). */
function fieldsOf(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
): Array<{ node: FieldNode; typeCondition: string | null }> {
  const out: Array<{ node: FieldNode; typeCondition: string | null }> = [];
  const walk = (set: SelectionSetNode, typeCondition: string | null): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) out.push({ node: selection, typeCondition });
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet, selection.typeCondition?.name.value ?? typeCondition);
      else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) walk(fragment.selectionSet, fragment.typeCondition.name.value);
      }
    }
  };
  walk(selectionSet, null);
  return out;
}

/** The root field names an operation selects, once per occurrence (aliases included), `__typename` left out. */
export function rootFieldNames(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  return fieldsOf(operation.selectionSet, fragmentsOf(document))
    .map(({ node }) => node.name.value)
    .filter((name) => name !== '__typename');
}

/**
 * How many rows a field can return: its `limit` (argument, variable or default), the length of its
 * `ids` or `items` (a batch answers one row per item), or 1.
 */
function multiplier(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Readonly<Record<string, unknown>>): number {
  const argument = (name: string): unknown => {
    const definition = field.args.find((arg) => arg.name === name);
    if (!definition) return undefined;
    const given = node.arguments?.find((arg) => arg.name.value === name);
    if (!given) return definition.defaultValue;
    return valueFromAST(given.value, definition.type, variables as Record<string, unknown>);
  };
  const limit = argument('limit');
  if (field.args.some((arg) => arg.name === 'limit')) return typeof limit === 'number' && limit > 0 ? limit : DEFAULT_PAGE;
  const list = argument('ids') ?? argument('items');
  return Array.isArray(list) ? Math.max(1, list.length) : 1;
}

/**
 * The cost of an operation: every field costs 1 plus, for fields with a selection, its
 * multiplier times the cost of that selection. `searchTrademarks(limit: 100) { data { id } }`
 * costs 1 + 100 × (1 + 1) = 201.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): number {
  const fragments = fragmentsOf(document);
  const costOf = (set: SelectionSetNode, parent: GraphQLCompositeType): number => {
    let total = 0;
    for (const { node, typeCondition } of fieldsOf(set, fragments)) {
      const owner = (typeCondition ? schema.getType(typeCondition) : parent) ?? parent;
      const field = isObjectType(owner) || isInterfaceType(owner) ? owner.getFields()[node.name.value] : undefined;
      if (!field || !node.selectionSet) {
        total += 1;
        continue;
      }
      const type = getNamedType(field.type);
      total += 1 + (isCompositeType(type) ? multiplier(field, node, variables) * costOf(node.selectionSet, type) : 0);
    }
    return total;
  };
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  return root ? costOf(operation.selectionSet, root) : 0;
}
