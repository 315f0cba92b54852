/**
 * Adapter-neutral rules of the SearchIndex port: which definitions, filters, sorts and cursors
 * are valid, and how free text splits into terms. Both SearchIndex adapters apply these, so a
 * query rejected (or matched) by one is rejected (or matched) by the other.
 */
import {
  DOCUMENT_ID_FIELD,
  UnsupportedQueryError,
  type IndexDefinition,
  type IndexDocument,
  type IndexFieldSpec,
  type SearchFilter,
  type SearchQuery,
} from './ports';
import { foldedWords, foldText } from '../domain/text';

/** Terms at least this long match as substrings (trigrams); shorter ones match word prefixes. */
export const MIN_SUBSTRING_TERM_LENGTH = 3;

const NAME_PATTERN = /^[a-z][a-z0-9_]*$/;
/** Names the adapters use for their own columns and sort keys. */
const RESERVED_FIELD_NAMES = new Set(['id', 'seq', '_score']);

export interface SearchTerms {
  /** Terms of 3+ characters, matched as substrings of a text field. */
  substringTerms: string[];
  /** Terms of 1–2 characters, matched as prefixes of a word of a text field. */
  prefixTerms: string[];
}

/**
 * Lowercased, diacritic-free terms of a free-text query, split on anything that is not a letter
 * or digit (so "Coca-Cola" needs both "coca" and "cola", wherever they are). Duplicates dropped.
 */
export function splitSearchText(text: string): SearchTerms {
  const terms = [...new Set(foldedWords(text))];
  return {
    substringTerms: terms.filter((term) => [...term].length >= MIN_SUBSTRING_TERM_LENGTH),
    prefixTerms: terms.filter((term) => [...term].length < MIN_SUBSTRING_TERM_LENGTH),
  };
}

/**
 * The document as the index stores it: its text fields folded as queries are (foldText), so a
 * record is found by its own text whatever the script, compatibility forms (full-width letters, ™,
 * ²) or diacritics: neither SQLite's tokenizers nor Elasticsearch's asciifolding fold what NFKD
 * does (й, ά), and a query folded one way never meets a record folded another.
 */
export function withFoldedText(definition: IndexDefinition, doc: IndexDocument): IndexDocument {
  const folded: IndexDocument = { ...doc };
  for (const field of textFieldNames(definition)) {
    const value = doc[field];
    if (typeof value === 'string') folded[field] = foldText(value);
    else if (Array.isArray(value)) folded[field] = value.map((each) => (typeof each === 'string' ? foldText(each) : each)) as IndexDocument[string];
  }
  return folded;
}

/** Whether a query ranks by relevance (only then is a score computed and reported). */
export function sortsByScore(query: Pick<SearchQuery, 'text' | 'sort'>): boolean {
  return query.text !== undefined && query.sort.some((sort) => sort.field === '_score');
}

export function textFieldNames(definition: IndexDefinition): string[] {
  return Object.keys(definition.fields).filter((name) => definition.fields[name]!.kind === 'text');
}

export function assertValidDefinition(definition: IndexDefinition): void {
  if (!NAME_PATTERN.test(definition.name)) {
    throw new UnsupportedQueryError(`index name "${definition.name}" must match ${NAME_PATTERN}`);
  }
  for (const [name, spec] of Object.entries(definition.fields)) {
    if (!NAME_PATTERN.test(name) || RESERVED_FIELD_NAMES.has(name)) {
      throw new UnsupportedQueryError(`field name "${name}" is reserved or does not match ${NAME_PATTERN}`);
    }
    if (spec.sortable && (spec.array || spec.kind === 'text')) {
      throw new UnsupportedQueryError(`field "${name}" cannot be sortable: only scalar non-text fields sort`);
    }
  }
  for (const fields of definition.compoundIndexes ?? []) {
    if (fields.length < 2) throw new UnsupportedQueryError(`compound index [${fields.join(', ')}] needs at least two fields`);
    for (const field of fields) {
      const spec = definition.fields[field];
      if (!spec || spec.array || spec.kind === 'text') {
        throw new UnsupportedQueryError(`compound index field "${field}" must be a scalar non-text field of the index`);
      }
    }
  }
}

export function fieldSpec(definition: IndexDefinition, field: string): IndexFieldSpec {
  const spec = definition.fields[field];
  if (!spec) throw new UnsupportedQueryError(`index "${definition.name}" has no field "${field}"`);
  return spec;
}

/** Throws UnsupportedQueryError unless `value` has the JavaScript type of the field's kind. */
function assertValueFits(field: string, spec: IndexFieldSpec, value: unknown): void {
  const expected = spec.kind === 'number' ? 'number' : spec.kind === 'boolean' ? 'boolean' : 'string';
  // NaN and infinities have no place in an index: SQLite and Elasticsearch disagree on them.
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new UnsupportedQueryError(`field "${field}" cannot hold ${value}`);
  }
  if (typeof value !== expected) {
    throw new UnsupportedQueryError(`field "${field}" (${spec.kind}) cannot be compared with ${JSON.stringify(value)}`);
  }
}

export function assertValidFilter(definition: IndexDefinition, filter: SearchFilter): void {
  if (filter.op === 'or') {
    filter.filters.forEach((nested) => assertValidFilter(definition, nested));
    return;
  }
  if (filter.op === 'not') {
    assertValidFilter(definition, filter.filter);
    return;
  }
  if (filter.field === DOCUMENT_ID_FIELD) {
    const values = filter.op === 'eq' ? [filter.value] : filter.op === 'in' ? filter.values : null;
    if (values === null || values.some((value) => typeof value !== 'string')) throw new UnsupportedQueryError('"id" takes only eq or in, with string IDs');
    return;
  }
  const spec = fieldSpec(definition, filter.field);
  if ((spec.kind === 'text') !== (filter.op === 'match')) {
    throw new UnsupportedQueryError(
      spec.kind === 'text'
        ? `text field "${filter.field}" only takes "match" filters; filter its keyword twin otherwise`
        : `"match" needs a text field, not "${filter.field}" (${spec.kind})`,
    );
  }
  switch (filter.op) {
    case 'match':
      return;
    case 'eq':
      assertValueFits(filter.field, spec, filter.value);
      return;
    case 'in':
      filter.values.forEach((value) => assertValueFits(filter.field, spec, value));
      return;
    case 'range': {
      if (spec.kind === 'boolean') throw new UnsupportedQueryError(`boolean field "${filter.field}" has no range`);
      const bounds = [filter.gt, filter.gte, filter.lt, filter.lte].filter((bound) => bound !== undefined);
      bounds.forEach((bound) => assertValueFits(filter.field, spec, bound));
      return;
    }
    case 'exists':
      return;
  }
}

export function assertValidTermsField(definition: IndexDefinition, field: string): IndexFieldSpec {
  const spec = fieldSpec(definition, field);
  if (spec.kind === 'text' || spec.kind === 'boolean') {
    throw new UnsupportedQueryError(`terms need a keyword, date or number field, not "${field}" (${spec.kind})`);
  }
  return spec;
}

export function assertValidQuery(definition: IndexDefinition, query: SearchQuery): void {
  query.filters.forEach((filter) => assertValidFilter(definition, filter));
  for (const field of query.textFields ?? []) {
    if (fieldSpec(definition, field).kind !== 'text') {
      throw new UnsupportedQueryError(`textFields: "${field}" is not a text field`);
    }
  }
  for (const { field } of query.sort) {
    if (field === '_score') {
      if (query.text === undefined) throw new UnsupportedQueryError('sort by _score needs a text query');
    } else if (!fieldSpec(definition, field).sortable) {
      throw new UnsupportedQueryError(`field "${field}" is not sortable`);
    }
  }
  for (const { field, value, boost } of query.boosts ?? []) {
    const spec = fieldSpec(definition, field);
    if (spec.kind !== 'keyword' || spec.array) throw new UnsupportedQueryError(`boosts: "${field}" is not a scalar keyword field`);
    if (typeof value !== 'string') throw new UnsupportedQueryError(`boosts: the value for "${field}" must be a string`);
    if (!Number.isFinite(boost) || boost <= 0) throw new UnsupportedQueryError(`boosts: the boost for "${field}" must be a positive number, got ${boost}`);
  }
  if (query.searchAfter && query.searchAfter.length !== query.sort.length + 1) {
    throw new UnsupportedQueryError(`searchAfter needs ${query.sort.length + 1} values (the sort keys, then the id)`);
  }
  if (!Number.isInteger(query.limit) || query.limit < 0) {
    throw new UnsupportedQueryError(`limit must be a non-negative integer, got ${query.limit}`);
  }
  if (query.countUpTo !== undefined && (!Number.isInteger(query.countUpTo) || query.countUpTo < 0)) {
    throw new UnsupportedQueryError(`countUpTo must be a non-negative integer, got ${query.countUpTo}`);
  }
}

/**
 * Throws UnsupportedQueryError unless every field of `doc` is declared and holds the declared
 * kind: a value (or null) for scalar fields, an array (or null) for array fields.
 */
export function assertValidDocument(definition: IndexDefinition, doc: IndexDocument): void {
  if (typeof doc.id !== 'string' || doc.id.length === 0) {
    throw new UnsupportedQueryError(`index "${definition.name}": every document needs a non-empty string id`);
  }
  for (const [field, value] of Object.entries(doc)) {
    if (field === 'id' || value === undefined || value === null) continue;
    const spec = fieldSpec(definition, field);
    if (Array.isArray(value) !== Boolean(spec.array)) {
      throw new UnsupportedQueryError(`field "${field}" is ${spec.array ? 'an array' : 'a scalar'} field`);
    }
    const values: readonly unknown[] = Array.isArray(value) ? value : [value];
    values.forEach((element) => assertValueFits(field, spec, element));
  }
}
