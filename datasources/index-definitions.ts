/**
 * The search indexes Marque keeps, as adapter-neutral definitions (SQLite: tables + FTS5;
 * Elasticsearch: mappings). The indexer (workers/indexer) fills them from the DocumentStore;
 * resolvers query them by these field names.
 */
import type { IndexDefinition } from './ports';

export const TRADEMARK_INDEX: IndexDefinition = {
  name: 'trademarks',
  fields: {
    mark_text: { kind: 'text', boost: 4 },
    /** Lowercased, punctuation-folded mark text for exact and prefix matching. */
    mark_text_normalized: { kind: 'keyword' },
    owner_names: { kind: 'text', array: true, boost: 1 },
    goods_services_text: { kind: 'text', boost: 0.5 },

    office_code: { kind: 'keyword', sortable: true },
    jurisdiction_code: { kind: 'keyword', sortable: true },
    status_primary: { kind: 'keyword' },
    status_stage: { kind: 'keyword' },
    status_reason: { kind: 'keyword' },
    challenge_states: { kind: 'keyword', array: true },
    mark_feature_type: { kind: 'keyword' },
    mark_legal_category: { kind: 'keyword' },
    right_kind: { kind: 'keyword' },
    filing_route: { kind: 'keyword' },
    scope_kind: { kind: 'keyword' },
    application_number: { kind: 'keyword' },
    registration_number: { kind: 'keyword' },
    ir_number: { kind: 'keyword' },
    nice_classes: { kind: 'number', array: true },
    vienna_codes: { kind: 'keyword', array: true },

    owner_ids: { kind: 'keyword', array: true },
    owner_countries: { kind: 'keyword', array: true },
    entity_ids: { kind: 'keyword', array: true },
    attorney_ids: { kind: 'keyword', array: true },
    firm_ids: { kind: 'keyword', array: true },
    owner_tickers: { kind: 'keyword', array: true },
    owner_leis: { kind: 'keyword', array: true },
    owner_publicly_traded: { kind: 'boolean' },
    owner_has_lei: { kind: 'boolean' },

    has_media: { kind: 'boolean' },
    has_proceedings: { kind: 'boolean' },
    is_madrid: { kind: 'boolean' },
    is_retracted: { kind: 'boolean' },
    is_series_mark: { kind: 'boolean' },

    filing_date: { kind: 'date', sortable: true },
    registration_date: { kind: 'date', sortable: true },
    expiry_date: { kind: 'date', sortable: true },
    renewal_due_date: { kind: 'date', sortable: true },
    publication_date: { kind: 'date', sortable: true },
    termination_date: { kind: 'date', sortable: true },
    updated_at: { kind: 'date', sortable: true },
  },
};

export const INDEX_DEFINITIONS: readonly IndexDefinition[] = [TRADEMARK_INDEX];
