/**
 * SearchIndex on Elasticsearch 9. Same semantics as the embedded adapter (the contract suite in
 * test/datasources/search-index.contract.ts runs against both):
 * - text fields: a word field (lowercase + asciifolding, with 1–2 character `index_prefixes` for
 *   short terms), a `.trigram` subfield (3-grams of the whole value: a 3+ character term matches
 *   as a phrase of its trigrams, i.e. as a substring) and a `.keyword` subfield;
 * - keyword and date fields are `keyword`: dates are `YYYY-MM-DD` or ISO timestamps, which compare
 *   correctly as strings, exactly as in SQLite; numbers are `double`; booleans `boolean`;
 * - `seq`: a per-index counter document in `<prefix>search_sequences`, advanced by a scripted
 *   update (atomic per document) for the new IDs of each upsert batch; existing IDs keep theirs
 *   (read with mget first). `_seq_no` cannot serve: it changes on every write and is per shard.
 *   Concurrent writers upserting the same new ID may both allocate a sequence (last write wins);
 *   the single indexer worker never does.
 * - sort keys with `missing: '_last'` then `id` ascending; totals via `track_total_hits: cap`.
 */
import { Client, errors, type estypes } from '@elastic/elasticsearch';
import {
  DOCUMENT_ID_FIELD,
  DependencyUnavailableError,
  UnsupportedQueryError,
  type EnsuredIndex,
  type IndexDefinition,
  type IndexDocument,
  type IndexFieldSpec,
  type SearchFilter,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
  type TermCount,
} from '../ports';
import {
  assertValidDefinition,
  assertValidDocument,
  assertValidFilter,
  assertValidQuery,
  assertValidTermsField,
  fieldSpec,
  sortsByScore,
  splitSearchText,
  withFoldedText,
  textFieldNames,
} from '../search-query-rules';

export interface ElasticSearchIndexOptions {
  node: string;
  /** Prepended to every index name (default `marque_`). */
  indexPrefix?: string;
  /** Make writes visible to search before they return (tests); production relies on refresh. */
  refreshOnWrite?: boolean;
}

type Query = estypes.QueryDslQueryContainer;

const SEQUENCES_INDEX = 'search_sequences';
/** Substitutes Elasticsearch uses for missing values with `missing: '_last'` (see searchAfterValue). */
const LONG_MAX = '9223372036854775807';
const LONG_MIN = '-9223372036854775808';

const ANALYSIS: estypes.IndicesIndexSettingsAnalysis = {
  normalizer: { folded: { type: 'custom', filter: ['lowercase', 'asciifolding'] } },
  tokenizer: { trigrams: { type: 'ngram', min_gram: 3, max_gram: 3, token_chars: [] } },
  analyzer: {
    folded_words: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] },
    folded_trigrams: { type: 'custom', tokenizer: 'trigrams', filter: ['lowercase', 'asciifolding'] },
  },
};

/**
 * A bool query. `should` is passed apart: chai's global `Object.prototype.should` typing (the test
 * files are in the same program) otherwise makes every literal without it fail to type-check.
 */
function bool(clauses: Omit<estypes.QueryDslBoolQuery, 'should'>, should: Query[] = []): Query {
  return { bool: { ...clauses, should } };
}

function fieldMapping(spec: IndexFieldSpec): estypes.MappingProperty {
  switch (spec.kind) {
    case 'text':
      return {
        type: 'text',
        analyzer: 'folded_words',
        index_prefixes: { min_chars: 1, max_chars: 2 },
        fields: {
          trigram: { type: 'text', analyzer: 'folded_trigrams' },
          keyword: { type: 'keyword', normalizer: 'folded', ignore_above: 256 },
        },
      };
    case 'keyword':
    case 'date':
      return { type: 'keyword' };
    case 'number':
      return { type: 'double' };
    case 'boolean':
      return { type: 'boolean' };
  }
}

function mappings(definition: IndexDefinition): estypes.MappingTypeMapping {
  const properties: Record<string, estypes.MappingProperty> = { id: { type: 'keyword' }, seq: { type: 'long' } };
  for (const [name, spec] of Object.entries(definition.fields)) properties[name] = fieldMapping(spec);
  return { dynamic: 'strict', _meta: { revision: definition.revision ?? 0 }, properties };
}

/** Clauses every matching document satisfies, one per term, each true in any of `fields`. */
function textClauses(definition: IndexDefinition, fields: readonly string[], text: string): Query[] {
  const { substringTerms, prefixTerms } = splitSearchText(text);
  const boost = (field: string): number => definition.fields[field]!.boost ?? 1;
  const anyField = (clause: (field: string) => Query): Query => bool({ minimum_should_match: 1 }, fields.map(clause));
  return [
    ...substringTerms.map((term) => anyField((field) => ({ match_phrase: { [`${field}.trigram`]: { query: term, boost: boost(field) } } }))),
    ...prefixTerms.map((term) => anyField((field) => ({ prefix: { [field]: { value: term, boost: boost(field) } } }))),
  ];
}

function filterQuery(definition: IndexDefinition, filter: SearchFilter): Query {
  switch (filter.op) {
    case 'or':
      return bool(
        { minimum_should_match: 1 },
        filter.filters.map((nested) => filterQuery(definition, nested)),
      );
    case 'not':
      return bool({ must_not: [filterQuery(definition, filter.filter)] });
    case 'eq':
      return filter.field === DOCUMENT_ID_FIELD ? { ids: { values: [String(filter.value)] } } : { term: { [filter.field]: filter.value } };
    case 'in':
      return filter.field === DOCUMENT_ID_FIELD ? { ids: { values: filter.values.map(String) } } : { terms: { [filter.field]: [...filter.values] } };
    case 'range': {
      const bounds = { gt: filter.gt, gte: filter.gte, lt: filter.lt, lte: filter.lte };
      const present = Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined));
      return { range: { [filter.field]: present } };
    }
    case 'exists':
      return filter.value ? { exists: { field: filter.field } } : bool({ must_not: [{ exists: { field: filter.field } }] });
    case 'match': {
      const clauses = textClauses(definition, [filter.field], filter.text);
      return clauses.length === 0 ? { match_none: {} } : bool({ filter: clauses });
    }
  }
}

/**
 * A sort value as Elasticsearch expects it back in `search_after`. Missing values sort as
 * substitutes: null for keywords, ±Infinity for doubles, the long extremes for booleans.
 */
function searchAfterValue(spec: IndexFieldSpec | null, direction: 'asc' | 'desc', value: string | number | boolean | null): estypes.FieldValue {
  if (spec === null) return value;
  if (value === null) {
    if (spec.kind === 'number') return direction === 'asc' ? 'Infinity' : '-Infinity';
    if (spec.kind === 'boolean') return direction === 'asc' ? LONG_MAX : LONG_MIN;
    return null;
  }
  return typeof value === 'boolean' ? Number(value) : value;
}

function isUnreachable(error: unknown): boolean {
  return error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError || error instanceof errors.TimeoutError;
}

export function createElasticSearchIndex(options: ElasticSearchIndexOptions): SearchIndex {
  const client = new Client({ node: options.node });
  const prefix = options.indexPrefix ?? 'marque_';
  const sequencesIndex = `${prefix}${SEQUENCES_INDEX}`;
  const refresh = options.refreshOnWrite ? 'wait_for' : false;
  const definitions = new Map<string, IndexDefinition>();
  const physical = (name: string): string => `${prefix}${name}`;

  /** Runs an Elasticsearch call, turning "cannot reach it" into DependencyUnavailableError. */
  async function reaching<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (isUnreachable(error)) throw new DependencyUnavailableError('search_index', (error as Error).message);
      throw error;
    }
  }

  function definitionOf(name: string): IndexDefinition {
    const definition = definitions.get(name);
    if (!definition) throw new UnsupportedQueryError(`search index "${name}" was not ensured in this process`);
    return definition;
  }

  async function createIfMissing(index: string, body: Omit<estypes.IndicesCreateRequest, 'index'>): Promise<boolean> {
    if (await client.indices.exists({ index })) return false;
    try {
      await client.indices.create({ index, ...body });
      return true;
    } catch (error) {
      if (error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception') return false;
      throw error;
    }
  }

  /** Reserves `count` new sequence numbers; returns the first. */
  async function allocateSequences(index: string, count: number): Promise<number> {
    const response = await client.update<{ seq: number }, { seq: number }, { seq: number }>({
      index: sequencesIndex,
      id: index,
      script: { source: 'ctx._source.seq += params.count', params: { count } },
      upsert: { seq: count },
      retry_on_conflict: 20,
      _source: true,
      refresh,
    });
    const highest = response.get?._source?.seq;
    if (highest === undefined) throw new Error(`sequence counter of "${index}" returned no value`);
    return highest - count + 1;
  }

  async function currentSequence(index: string): Promise<number> {
    const response = await client.get<{ seq: number }>({ index: sequencesIndex, id: index }, { ignore: [404] });
    return response.found ? (response._source?.seq ?? 0) : 0;
  }

  function toHit(query: SearchQuery, hit: estypes.SearchHit<Record<string, unknown>>): SearchHit {
    const source = hit._source ?? {};
    const id = source.id as string;
    const score = sortsByScore(query) ? (hit._score ?? null) : null;
    const sortValues = query.sort.map(({ field }) => {
      if (field === '_score') return score;
      const value = source[field];
      return value === undefined || value === null ? null : (value as string | number | boolean);
    });
    return { id, score, sortValues: [...sortValues, id] };
  }

  return {
    async ensureIndex(definition: IndexDefinition): Promise<EnsuredIndex> {
      assertValidDefinition(definition);
      const needsRefill = await reaching(async () => {
        await createIfMissing(sequencesIndex, { mappings: { dynamic: 'strict', properties: { seq: { type: 'long' } } } });
        const index = physical(definition.name);
        if (await createIfMissing(index, { settings: { analysis: ANALYSIS }, mappings: mappings(definition) })) return true;
        // An existing index gains new fields in place (a changed field kind makes this throw); the
        // documents it holds lack them, or hold values of another revision, until written again.
        const mapped = (await client.indices.getMapping({ index }))[index]?.mappings;
        await client.indices.putMapping({ index, ...mappings(definition) });
        const storedRevision = (mapped?._meta?.revision as number | undefined) ?? 0;
        return storedRevision !== (definition.revision ?? 0) || Object.keys(definition.fields).some((field) => !(field in (mapped?.properties ?? {})));
      });
      definitions.set(definition.name, definition);
      return { needsRefill };
    },

    async upsert(index: string, docs: readonly IndexDocument[]): Promise<void> {
      const definition = definitionOf(index);
      docs.forEach((doc) => assertValidDocument(definition, doc));
      const latest = new Map(docs.map((doc) => [doc.id, doc]));
      if (latest.size === 0) return;
      await reaching(async () => {
        const existing = await client.mget<{ seq: number }>({ index: physical(index), ids: [...latest.keys()], _source: ['seq'] });
        const sequences = new Map<string, number>();
        for (const found of existing.docs) {
          if ('found' in found && found.found && found._source) sequences.set(found._id, found._source.seq);
        }
        const fresh = [...latest.keys()].filter((id) => !sequences.has(id));
        if (fresh.length > 0) {
          const first = await allocateSequences(index, fresh.length);
          fresh.forEach((id, offset) => sequences.set(id, first + offset));
        }
        const operations = [...latest.values()].flatMap((doc) => [
          { index: { _index: physical(index), _id: doc.id } },
          { ...withFoldedText(definition, doc), seq: sequences.get(doc.id)! },
        ]);
        const response = await client.bulk({ operations, refresh });
        if (response.errors) {
          const failed = response.items.find((item) => item.index?.error)?.index?.error;
          throw new Error(`bulk upsert into "${index}" failed: ${failed?.type ?? 'unknown'}: ${failed?.reason ?? ''}`);
        }
      });
    },

    async remove(index: string, ids: readonly string[]): Promise<void> {
      definitionOf(index);
      if (ids.length === 0) return;
      await reaching(async () => {
        const response = await client.bulk({ operations: ids.map((id) => ({ delete: { _index: physical(index), _id: id } })), refresh });
        const failed = response.items.find((item) => item.delete?.error && item.delete.status !== 404)?.delete?.error;
        if (failed) throw new Error(`bulk remove from "${index}" failed: ${failed.type}: ${failed.reason ?? ''}`);
      });
    },

    async search(query: SearchQuery): Promise<SearchResult> {
      const definition = definitionOf(query.index);
      assertValidQuery(definition, query);
      const snapshot = query.snapshot ?? (await reaching(() => currentSequence(query.index)));
      const fields = query.textFields && query.textFields.length > 0 ? query.textFields : textFieldNames(definition);
      const text = query.text === undefined ? [] : textClauses(definition, fields, query.text);
      if (query.text !== undefined && text.length === 0) {
        return { hits: [], snapshot, ...(query.countUpTo === undefined ? {} : { total: { value: 0, approximate: false } }) };
      }
      const keys = query.sort.map((sort) => ({ ...sort, spec: sort.field === '_score' ? null : fieldSpec(definition, sort.field) }));
      const sort: estypes.SortCombinations[] = [
        ...keys.map(({ field, direction }): estypes.SortCombinations =>
          field === '_score' ? { _score: { order: direction } } : { [field]: { order: direction, missing: '_last' } },
        ),
        { id: { order: 'asc' } },
      ];
      const searchAfter = query.searchAfter
        ? [...keys.map(({ spec, direction }, position) => searchAfterValue(spec, direction, query.searchAfter![position]!)), query.searchAfter[keys.length]!]
        : undefined;
      const response = await reaching(() =>
        client.search<Record<string, unknown>>({
          index: physical(query.index),
          query: bool(
            {
              must: text,
              filter: [{ range: { seq: { lte: snapshot } } }, ...query.filters.map((filter) => filterQuery(definition, filter))],
            },
            // With `must` present, `should` clauses match optionally and add to the score.
            sortsByScore(query) ? (query.boosts ?? []).map(({ field, value, boost }) => ({ term: { [field]: { value, boost } } })) : [],
          ),
          sort,
          search_after: searchAfter,
          size: query.limit,
          track_scores: sortsByScore(query),
          track_total_hits: query.countUpTo ?? false,
          _source: ['id', ...keys.filter(({ spec }) => spec !== null).map(({ field }) => field)],
        }),
      );
      const hits = response.hits.hits.map((hit) => toHit(query, hit));
      if (query.countUpTo === undefined) return { hits, snapshot };
      const total = response.hits.total;
      const counted = typeof total === 'number' ? total : (total?.value ?? 0);
      const capped = typeof total === 'object' && total.relation === 'gte';
      return { hits, snapshot, total: { value: Math.min(counted, query.countUpTo), approximate: capped || counted > query.countUpTo } };
    },

    async terms(index: string, field: string, filters: readonly SearchFilter[], size: number): Promise<TermCount[]> {
      const definition = definitionOf(index);
      assertValidTermsField(definition, field);
      filters.forEach((filter) => assertValidFilter(definition, filter));
      const response = await reaching(() =>
        client.search({
          index: physical(index),
          size: 0,
          query: bool({ filter: filters.map((filter) => filterQuery(definition, filter)) }),
          aggs: { values: { terms: { field, size, order: [{ _count: 'desc' }, { _key: 'asc' }] } } },
        }),
      );
      const aggregate = response.aggregations?.values as estypes.AggregationsStringTermsAggregate | estypes.AggregationsDoubleTermsAggregate | undefined;
      const buckets = (aggregate?.buckets ?? []) as Array<{ key: estypes.FieldValue; doc_count: number }>;
      return buckets.map((bucket) => ({ value: bucket.key as string | number, count: bucket.doc_count }));
    },

    async currentSnapshot(index: string): Promise<number> {
      definitionOf(index);
      return reaching(() => currentSequence(index));
    },

    async ping(): Promise<void> {
      await reaching(() => client.ping());
    },

    async close(): Promise<void> {
      await client.close();
    },
  };
}
