/**
 * The search indexes Marque keeps, as adapter-neutral definitions (SQLite: tables + FTS5;
 * Elasticsearch: mappings). The indexer (workers/indexer) fills them from the DocumentStore;
 * resolvers query them by these field names.
 *
 * Revisions (`IndexDefinition.revision`; a bump refills the index from the DocumentStore):
 * 1 — text fields are stored folded as queries are (search-query-rules withFoldedText), where
 *     earlier data directories hold them as written.
 * 2 — trademarks: the `mark_keys` of a Cyrillic or Greek mark add the keys of its Latin reading
 *     (domain/transliteration), so similarity finds it for its Latin counterpart.
 * 3 — trademarks: the visual key of a mark with Cyrillic or Greek letters reads those drawn like
 *     Latin capitals as them (domain/similarity visualForm): АРРLE's is apple.
 * 4 for trademarks, 2 for the others — the fold folds the Latin letters without a decomposition
 *     too (ø→o, ł→l, ß→ss: domain/text.ts), which changes every index's folded text fields and the
 *     keys derived from the fold (`mark_keys`, `mark_text_key`, and `sort_name` from the refolded
 *     canonical names).
 * 5 — trademarks: the visual key reads small Cyrillic and Greek letters drawn like a Latin letter
 *     other than their capital's as that letter (νolvo's is volvo).
 * 6 — trademarks: the `mark_keys` of a Cyrillic or Greek mark add those of its other customary
 *     readings (domain/transliteration `latinReadings`: ШКОДА's include SKODA's).
 */
import type { IndexDefinition } from './ports';

export const TRADEMARK_INDEX: IndexDefinition = {
  name: 'trademarks',
  revision: 6,
  fields: {
    mark_text: { kind: 'text', boost: 4 },
    owner_names: { kind: 'text', array: true, boost: 1 },
    goods_services_text: { kind: 'text', boost: 0.5 },
    /** Phonetic and visual keys of the mark text (domain/similarity): similarity candidates. */
    mark_keys: { kind: 'keyword', array: true },
    /** The whole mark text as an exact query compares it (domain/mark-keys markTextKey): boosted in relevance. */
    mark_text_key: { kind: 'keyword' },

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
    /** The numbers as they are matched (domain/ids.ts numberMatchKey), not as the office writes them. */
    application_number_key: { kind: 'keyword' },
    registration_number_key: { kind: 'keyword' },
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
  /**
   * Lists by office and status, newest filings first (browsing, watch set-up), newest
   * publications first (watch services) and soonest renewals first (docketing). About 50 bytes
   * per mark each on SQLite.
   */
  compoundIndexes: [
    ['office_code', 'status_primary', 'filing_date'],
    ['office_code', 'status_primary', 'publication_date'],
    ['office_code', 'status_primary', 'renewal_due_date'],
    ['office_code', 'filing_date'],
  ],
};

/** Proceedings: filters of GET /v1/proceedings; `q` searches party names. */
export const PROCEEDING_INDEX: IndexDefinition = {
  name: 'proceedings',
  revision: 2,
  fields: {
    party_names: { kind: 'text', array: true },
    proceeding_number: { kind: 'keyword' },
    proceeding_type: { kind: 'keyword' },
    status: { kind: 'keyword' },
    office_code: { kind: 'keyword' },
    trademark_ids: { kind: 'keyword', array: true },
    party_owner_ids: { kind: 'keyword', array: true },
    party_roles: { kind: 'keyword', array: true },
    /** `owner_id:role` pairs, so party_owner_id and party_role combine on the same party. */
    party_owner_roles: { kind: 'keyword', array: true },
    contested_classes: { kind: 'number', array: true },
    filed_date: { kind: 'date', sortable: true },
    decision_date: { kind: 'date', sortable: true },
    updated_at: { kind: 'date', sortable: true },
  },
};

/**
 * Parties: lists of owners, attorneys, firms and resolved entities. The counts they sort and
 * filter on are derived from the trademark index by their projections (workers/projections/).
 * Merged records stay indexed with `is_merged: true` and lists leave them out.
 */
export const OWNER_INDEX: IndexDefinition = {
  name: 'owners',
  revision: 2,
  fields: {
    name: { kind: 'text', boost: 2 },
    aliases: { kind: 'text', array: true },
    /** Lowercased canonical name: the `name` sort key. */
    sort_name: { kind: 'keyword', sortable: true },
    country_code: { kind: 'keyword' },
    entity_id: { kind: 'keyword' },
    entity_type: { kind: 'keyword' },
    trademark_count: { kind: 'number', sortable: true },
    is_merged: { kind: 'boolean' },
    updated_at: { kind: 'date', sortable: true },
  },
};

export const ATTORNEY_INDEX: IndexDefinition = {
  name: 'attorneys',
  revision: 2,
  fields: {
    name: { kind: 'text' },
    sort_name: { kind: 'keyword', sortable: true },
    country_code: { kind: 'keyword' },
    firm_id: { kind: 'keyword' },
    trademark_count: { kind: 'number', sortable: true },
    is_merged: { kind: 'boolean' },
    updated_at: { kind: 'date', sortable: true },
  },
};

export const FIRM_INDEX: IndexDefinition = {
  name: 'firms',
  revision: 2,
  fields: {
    name: { kind: 'text' },
    sort_name: { kind: 'keyword', sortable: true },
    country_code: { kind: 'keyword' },
    attorney_count: { kind: 'number', sortable: true },
    trademark_count: { kind: 'number', sortable: true },
    grant_rate: { kind: 'number', sortable: true },
    latest_filing: { kind: 'date', sortable: true },
    is_merged: { kind: 'boolean' },
    updated_at: { kind: 'date', sortable: true },
  },
};

export const ENTITY_INDEX: IndexDefinition = {
  name: 'entities',
  revision: 2,
  fields: {
    name: { kind: 'text' },
    sort_name: { kind: 'keyword', sortable: true },
    country_code: { kind: 'keyword' },
    lei: { kind: 'keyword' },
    ticker: { kind: 'keyword' },
    member_count: { kind: 'number', sortable: true },
    trademark_count: { kind: 'number', sortable: true },
    is_merged: { kind: 'boolean' },
    updated_at: { kind: 'date', sortable: true },
  },
};

export const INDEX_DEFINITIONS: readonly IndexDefinition[] = [TRADEMARK_INDEX, PROCEEDING_INDEX, OWNER_INDEX, ATTORNEY_INDEX, FIRM_INDEX, ENTITY_INDEX];
