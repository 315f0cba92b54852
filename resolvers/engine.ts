/**
 * The GraphQL engine: the executable schema (schema/*.graphql + resolvers) and the registry of
 * persisted operations (schema/operations/*.graphql), each parsed and validated once at start.
 * REST routes run operations from this registry by name; nothing else is executed on the public
 * surface.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  parse,
  validate,
  visit,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { RequestContext } from './context';
import { catalogError } from './errors';
import { resolvers } from './index';
import { projectRoot } from './project-root';

function readGraphqlFiles(dir: string): Array<{ file: string; source: string }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((file) => ({ file, source: readFileSync(join(dir, file), 'utf8') }));
}

/**
 * The executable schema. Resolvers are bound to fields by name, so both directions are checked
 * here, at start: a resolver for a field the SDL lacks is refused by graphql-tools, and a root
 * field (query or mutation) without a resolver is refused below, instead of answering null.
 */
export function buildSchema(): GraphQLSchema {
  const typeDefs = readGraphqlFiles(join(projectRoot(), 'schema')).map((f) => f.source);
  const schema = makeExecutableSchema({ typeDefs, resolvers, resolverValidationOptions: { requireResolversToMatchSchema: 'error' } });
  const unresolved = [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
    type
      ? Object.values(type.getFields())
          .filter((field) => field.resolve === undefined)
          .map((field) => `${type.name}.${field.name}`)
      : [],
  );
  if (unresolved.length > 0) throw new Error(`schema: root fields without a resolver: ${unresolved.join(', ')}`);
  yieldBeforeRootFields(schema);
  return schema;
}

/**
 * Each root field starts on a fresh turn of the event loop. The work behind a root field is
 * mostly synchronous (SQLite reads, rule evaluation), so without this the aliases of one request
 * would hold the loop for their sum; with it, health probes and other requests get a turn
 * between them (bench/graphql-guard.ts measures `/health/live` under the heaviest queries).
 */
function yieldBeforeRootFields(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const resolve = field.resolve;
      if (!resolve) continue;
      field.resolve = async (source, args, context, info) => {
        await nextTurn();
        return resolve(source, args, context, info);
      };
    }
  }
}

export interface PersistedOperation {
  name: string;
  document: DocumentNode;
  /** The response key of the root field the operation selects; REST envelopes wrap `data[rootField]`. */
  rootField: string;
  /** The schema field behind it (differs from rootField when aliased). */
  rootFieldName: string;
  operationType: 'query' | 'mutation';
  /**
   * The operation compiled to JavaScript once at start (graphql-jit): same results and errors as
   * graphql-js's `execute`, at about half its cost per request on the detail and batch routes.
   */
  compiled: CompiledQuery;
}

export class OperationRegistry {
  private readonly operations = new Map<string, PersistedOperation>();

  constructor(readonly schema: GraphQLSchema) {
    const files = readGraphqlFiles(join(projectRoot(), 'schema', 'operations'));
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const { source } of files.filter((f) => f.file.startsWith('_'))) {
      for (const def of parse(source).definitions) if (def.kind === 'FragmentDefinition') fragments.set(def.name.value, def);
    }
    for (const { file, source } of files.filter((f) => !f.file.startsWith('_'))) {
      const document = withFragments(parse(source), fragments);
      const errors = validate(schema, document);
      if (errors.length > 0) throw new Error(`schema/operations/${file}: ${errors.map((e) => e.message).join('; ')}`);
      const definitions = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
      const op = definitions[0];
      if (definitions.length !== 1 || !op?.name) throw new Error(`schema/operations/${file}: must hold exactly one named operation`);
      const name = op.name.value;
      if (`${name}.graphql` !== file) throw new Error(`schema/operations/${file}: operation ${name} must live in ${name}.graphql`);
      const field = op.selectionSet.selections[0];
      if (op.selectionSet.selections.length !== 1 || field?.kind !== 'Field') throw new Error(`schema/operations/${file}: must select exactly one root field`);
      const compiled = compileQuery(schema, document, name);
      if (!isCompiledQuery(compiled)) throw new Error(`schema/operations/${file}: ${compiled.errors?.map((e) => e.message).join('; ')}`);
      if (op.operation === 'subscription') throw new Error(`schema/operations/${file}: subscriptions are not persisted operations`);
      this.operations.set(name, {
        name,
        document,
        rootField: field.alias?.value ?? field.name.value,
        rootFieldName: field.name.value,
        operationType: op.operation,
        compiled,
      });
    }
  }

  get(name: string): PersistedOperation {
    const op = this.operations.get(name);
    if (!op) throw new Error(`no persisted operation named ${name}`);
    return op;
  }

  names(): string[] {
    return [...this.operations.keys()];
  }

  /**
   * The by-name seam between callers and operations, checked at start: every name a caller uses
   * must be a persisted operation, and every persisted operation must have a caller (an unused
   * one is dead code or a misspelt route). Throws naming both lists.
   */
  assertUsedExactly(usedNames: Iterable<string>): void {
    const used = new Set(usedNames);
    const missing = [...used].filter((name) => !this.operations.has(name));
    const unused = this.names().filter((name) => !used.has(name));
    if (missing.length > 0 || unused.length > 0) {
      throw new Error(
        `persisted operations out of step with their callers: ${[
          missing.length > 0 ? `named but missing from schema/operations/: ${missing.join(', ')}` : '',
          unused.length > 0 ? `in schema/operations/ but used by nothing: ${unused.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ')}`,
      );
    }
  }

  /** Runs a persisted operation and returns its root field's value, or throws its ApiError. */
  async run(name: string, variables: Record<string, unknown>, context: RequestContext): Promise<unknown> {
    const op = this.get(name);
    const result = (await op.compiled.query(undefined, context, variables)) as ExecutionResult;
    const [error] = result.errors ?? [];
    if (error) throw catalogError(error) ?? error.originalError ?? error;
    return (result.data as Record<string, unknown>)[op.rootField];
  }
}

/**
 * Appends the shared fragments (files named `_*.graphql`) an operation uses, transitively, so
 * operations share field sets instead of repeating them.
 */
function withFragments(document: DocumentNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): DocumentNode {
  const needed = new Map<string, FragmentDefinitionNode>();
  const collect = (node: DocumentNode | FragmentDefinitionNode): void => {
    visit(node, {
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (fragment && !needed.has(name)) {
          needed.set(name, fragment);
          collect(fragment);
        }
      },
    });
  };
  collect(document);
  return { ...document, definitions: [...document.definitions, ...needed.values()] };
}
