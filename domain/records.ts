/**
 * Shapes of the records Marque stores (DocumentStore collections). Catalog records keep their
 * public prefixed ID as `_id`; field names are the public snake_case names, so a stored record
 * becomes an API record by renaming `_id` to `id` and adding `object`.
 */
import type { LimitsOverride, PlanName } from './plans';

export const COLLECTIONS = {
  trademarks: 'trademarks',
  owners: 'owners',
  attorneys: 'attorneys',
  firms: 'firms',
  entities: 'entities',
  proceedings: 'proceedings',
  /** Proceedings naming a mark not in the store yet, keyed by that mark's ID (workers/ingest/proceeding-writer.ts). */
  awaitedProceedingMarks: 'awaited_proceeding_marks',
  trademarkChanges: 'trademark_changes',
  trademarkSources: 'trademark_sources',
  trademarkEvents: 'trademark_events',
  trademarkRawRecords: 'trademark_raw_records',
  organizations: 'organizations',
  apiKeys: 'api_keys',
  requestLogs: 'request_logs',
  feedback: 'feedback',
  idempotencyReceipts: 'idempotency_receipts',
  watches: 'watches',
  watchStats: 'watch_stats',
  portfolios: 'portfolios',
  savedSearches: 'saved_searches',
  alerts: 'alerts',
  events: 'events',
  webhookEndpoints: 'webhook_endpoints',
  webhookDeliveries: 'webhook_deliveries',
  /** The records of stored images (datasources: MediaStore; the bytes are files or objects). */
  media: 'media',
  /**
   * The demo generator's logos not yet rendered (SVG, keyed by media ID; workers/ingest/generated-logos.ts
   * renders one into the MediaStore when it is first read) and the near-duplicates' ground truth.
   */
  generatedLogos: 'generated_logos',
  /** Image search's fingerprint of every mark image (datasources/image-index.ts), written by the image indexer. */
  imageFingerprints: 'image_fingerprints',
  meta: 'meta',
} as const;

/** The catalog: marks, their parties and proceedings, the same for every organization. */
export const CATALOG_COLLECTIONS: readonly string[] = [
  COLLECTIONS.trademarks,
  COLLECTIONS.owners,
  COLLECTIONS.attorneys,
  COLLECTIONS.firms,
  COLLECTIONS.entities,
  COLLECTIONS.proceedings,
];

export type StatusPrimary = 'active' | 'pending' | 'inactive' | 'unknown';

/** `status.stage` uses the status values of the deadline-compute input. */
export const STATUS_STAGES = [
  'filed',
  'examining',
  'pending_publication',
  'published',
  'opposition_period',
  'pending_opposition',
  'pending_cancellation',
  'pending_issuance',
  'registered',
  'allowed',
  'abandoned',
  'withdrawn',
  'surrendered',
  'refused',
  'cancelled',
  'invalidated',
  'expired',
  'unknown',
] as const;
export type StatusStage = (typeof STATUS_STAGES)[number];

export const STATUS_PRIMARIES: readonly StatusPrimary[] = ['active', 'pending', 'inactive', 'unknown'];

export const STATUS_REASONS = [
  'registration_in_force',
  'renewed',
  'under_examination',
  'awaiting_publication',
  'in_opposition_period',
  'opposed',
  'refused_absolute_grounds',
  'refused_relative_grounds',
  'abandoned_no_response',
  'withdrawn_by_applicant',
  'surrendered_by_owner',
  'cancelled_non_use',
  'cancelled_no_declaration_of_use',
  'invalidated_by_decision',
  'expired_not_renewed',
  'unknown',
] as const;
export type StatusReason = (typeof STATUS_REASONS)[number];

export const CHALLENGE_STATES = ['opposition_pending', 'cancellation_pending', 'appeal_pending', 'invalidity_pending'] as const;
export type ChallengeState = (typeof CHALLENGE_STATES)[number];

export const MARK_FEATURE_TYPES = [
  'word',
  'figurative',
  'combined',
  'three_dimensional',
  'colour',
  'sound',
  'position',
  'pattern',
  'motion',
  'hologram',
  'other',
] as const;
export type MarkFeatureType = (typeof MARK_FEATURE_TYPES)[number];

export const MARK_LEGAL_CATEGORIES = ['individual', 'collective', 'certification'] as const;
export type MarkLegalCategory = (typeof MARK_LEGAL_CATEGORIES)[number];

/** What the right covers: goods (trademark), services (service mark) or both. */
export const RIGHT_KINDS = ['trademark', 'service_mark', 'trademark_and_service_mark'] as const;
export type RightKind = (typeof RIGHT_KINDS)[number];

export const FILING_ROUTES = ['national', 'regional', 'madrid'] as const;
export type FilingRoute = (typeof FILING_ROUTES)[number];

/** Territorial scope of the right: one country, a regional office's territory, or an IR as such. */
export const SCOPE_KINDS = ['national', 'regional', 'international'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];

export interface Classification {
  nice_class: number;
  goods_services_text: string;
  nice_edition: string | null;
}

export interface MediaReference {
  id: string; // med_...
  kind: 'image' | 'sound' | 'video';
  mime_type: string;
  url: string;
}

export interface PartyRef {
  owner_id: string;
}

/** The office's own status code and its wording (USPTO: `status-code` and Table 1's text). */
export interface OfficeStatus {
  code: string;
  description: string | null;
}

export interface TrademarkStatus {
  primary: StatusPrimary;
  stage: StatusStage;
  reason: StatusReason | null;
  challenge_states: ChallengeState[];
  /** null where the source has no status code of its own (generated and manually added marks). */
  office_status: OfficeStatus | null;
}

/**
 * Who owned a mark, by what record: `office_record` rows are the owner groups of the office's own
 * record (USPTO party types 10 applicant, 20 at publication, 30 registrant, …), `assignment` rows
 * the parties of a recorded assignment (recorded facts, not a conclusion about title).
 */
export const OWNER_HISTORY_ROLES = [
  'applicant',
  'owner_before_publication',
  'owner_at_publication',
  'owner_after_publication',
  'registrant',
  'owner_after_registration',
  'assignor',
  'assignee',
] as const;
export type OwnerHistoryRole = (typeof OWNER_HISTORY_ROLES)[number];
export const OWNER_HISTORY_SOURCES = ['office_record', 'assignment'] as const;
export type OwnerHistorySource = (typeof OWNER_HISTORY_SOURCES)[number];

export interface OwnerHistoryEntry {
  owner_id: string;
  /** The name as that record spells it. */
  name: string;
  role: OwnerHistoryRole;
  source: OwnerHistorySource;
  /** The office's party-type code (USPTO `party-type`); null where the source has none. */
  office_party_type: string | null;
  /** Assignments: the recording date; office-record rows: null (the office dates none). */
  recorded_date: string | null;
  /** Assignments: reel/frame (USPTO); null otherwise. */
  reference: string | null;
  /** Assignments: the conveyance as recorded ("ASSIGNS THE ENTIRE INTEREST", …). */
  conveyance: string | null;
}

export interface TrademarkDoc {
  _id: string; // tm_...
  mark_text: string;
  application_number: string;
  registration_number: string | null;
  ir_number: string | null;
  office_code: string;
  jurisdiction_code: string;
  filing_route: FilingRoute;
  scope_kind: ScopeKind;
  mark_feature_type: MarkFeatureType;
  mark_legal_category: MarkLegalCategory;
  right_kind: RightKind;
  is_series_mark: boolean;
  series_id: string | null;
  is_retracted: boolean;
  vienna_codes: string[];
  media: MediaReference[];
  status: TrademarkStatus;
  filing_date: string;
  priority_date: string | null;
  publication_date: string | null;
  registration_date: string | null;
  expiry_date: string | null;
  renewal_due_date: string | null;
  termination_date: string | null;
  international_registration_date: string | null;
  designation_date: string | null;
  classifications: Classification[];
  owner_ids: string[];
  attorney_ids: string[];
  /** Every owner the office record and recorded assignments name, current owners included. */
  owner_history: OwnerHistoryEntry[];
  proceeding_count: number;
  version: number;
  source_updated_at: string;
  created_at: string;
  updated_at: string;
}

export interface Company {
  source: string;
  ticker: string | null;
  exchange: string | null;
  lei: string | null;
  entity_status: string;
}

export type EntityType = 'corporation' | 'individual' | 'partnership' | 'trust' | 'government' | 'other';

export interface OwnerRelationship {
  related_owner_id: string;
  relationship_type: string;
  relationship_status: string;
  ownership_pct: number | null;
  period_start: string;
  period_end: string | null;
  direction: 'parent' | 'child';
  source: string;
}

export interface OwnerDoc {
  _id: string; // own_...
  name: string;
  canonical_name: string;
  aliases: string[];
  country_code: string | null;
  entity_type: EntityType;
  entity_id: string; // ent_...
  entity_id_type: 'derived' | 'lei' | 'company_profile';
  companies: Company[];
  relationships: OwnerRelationship[];
  /** Internal: the party-matching key (domain/party-keys.ts); not part of any response. */
  dedupe_key: string;
  merged_into: string | null;
  created_at: string;
  updated_at: string;
}

export interface AttorneyDoc {
  _id: string; // att_...
  name: string;
  canonical_name: string;
  email: string | null;
  country_code: string | null;
  firm_id: string | null;
  bar_admissions: string[];
  /** Internal: the party-matching key (domain/party-keys.ts); not part of any response. */
  dedupe_key: string;
  merged_into: string | null;
  created_at: string;
  updated_at: string;
}

export interface FirmAlias {
  name: string;
  type: string;
  source_office: string | null;
}

export interface FirmDoc {
  _id: string; // firm_...
  name: string;
  canonical_name: string;
  country_code: string | null;
  aliases: FirmAlias[];
  /** Internal: the party-matching key (domain/party-keys.ts); not part of any response. */
  dedupe_key: string;
  merged_into: string | null;
  created_at: string;
  updated_at: string;
}

export interface EntityDoc {
  _id: string; // ent_...
  name: string;
  canonical_name: string;
  country_code: string | null;
  lei: string | null;
  ticker: string | null;
  member_owner_ids: string[];
  merged_into: string | null;
  created_at: string;
  updated_at: string;
}

export const PROCEEDING_TYPES = [
  'opposition',
  'cancellation',
  'appeal',
  'interference',
  'concurrent_use',
  'expungement',
  'section_8',
  'section_71',
  'other',
] as const;
export type ProceedingType = (typeof PROCEEDING_TYPES)[number];

export const PROCEEDING_STATUSES = ['pending', 'decided_granted', 'decided_rejected', 'withdrawn', 'settled', 'suspended', 'partial', 'other'] as const;
export type ProceedingStatus = (typeof PROCEEDING_STATUSES)[number];

export const PARTY_ROLES = ['opponent', 'petitioner', 'respondent', 'intervener', 'other'] as const;
export type PartyRole = (typeof PARTY_ROLES)[number];

export interface ProceedingParty {
  owner_id: string;
  name: string;
  role: PartyRole;
  country_code: string | null;
}

export interface ProceedingDoc {
  _id: string; // prc_...
  proceeding_type: ProceedingType;
  proceeding_number: string;
  office_code: string;
  status: ProceedingStatus;
  filed_date: string;
  decision_date: string | null;
  decision_outcome: string | null;
  trademark_ids: string[];
  parties: ProceedingParty[];
  contested_classes: number[];
  description: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Proceedings that named a mark before the mark was in the store (a TTAB file loaded before the
 * case-file): joined to it when it arrives. `_id` is the awaited mark's ID.
 */
export interface AwaitedProceedingMarkDoc {
  _id: string;
  proceedings: Array<{
    proceeding_id: string;
    /** The event the mark gets when joined, as a mark present at the time would have. */
    event: { key: string; event_type: string; event_date: string; description: string | null };
  }>;
}

export interface TrademarkChangeDoc {
  _id: string; // `${trademark_id}:v${version}`
  trademark_id: string;
  version: number;
  change_type: 'created' | 'updated' | 'corrected';
  changed_fields: string[];
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown>;
  source_data_date: string | null;
  office_code: string | null;
  created_at: string;
}

export interface TrademarkSourceDoc {
  _id: string; // `${trademark_id}:${observed_at}`
  trademark_id: string;
  office_code: string | null;
  observed_at: string;
  source_format: string;
  source_response_type: string | null;
  source_locator: string | null;
  payload_hash: string;
  /** The office's date of the record observed (USPTO: `transaction-date`); null when unknown. */
  source_data_date: string | null;
}

/** The raw record behind a source observation, gzip-compressed, base64 (one per TrademarkSourceDoc). */
export interface TrademarkRawRecordDoc {
  _id: string; // the TrademarkSourceDoc's _id
  trademark_id: string;
  /** MIME type of the raw record (application/xml, application/json). */
  media_type: string;
  gzip_base64: string;
}

export interface TrademarkEventDoc {
  _id: string;
  trademark_id: string;
  event_type: string; // code from data/event_types.json
  event_date: string;
  office_code: string;
  /** The office's own event code (USPTO prosecution-history code such as CNSA); null when none. */
  office_event_code: string | null;
  description: string | null;
}

export interface OrganizationDoc {
  _id: string; // org_...
  name: string;
  plan: PlanName;
  /** Day of month (1..28) on which the monthly quota resets. */
  billing_anchor_day: number;
  /** Per-organization exceptions to the plan's limits (contracts, tests); absent: the plan as is. */
  limits_override?: LimitsOverride;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyDoc {
  _id: string; // key_...
  organization_id: string;
  name: string;
  /** Non-secret display prefix: `mq_` and the first 8 hex characters of the secret part. */
  prefix: string;
  /** SHA-256 of the whole raw key, hex. The raw key itself is never stored. */
  secret_hash: string;
  scopes: string[];
  rate_limit_tier: string;
  is_system: boolean;
  expires_at: string | null;
  last_used_at: string | null;
  metadata: Record<string, string>;
  revoked_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One business request, kept about four months (spec: request-log retention). */
export interface RequestLogDoc {
  _id: string; // the request_id, req_...
  organization_id: string;
  /** null for OAuth (MCP) sessions, which carry no API key. */
  api_key_id: string | null;
  /** The route-table path template, e.g. /v1/trademarks/:id. */
  route: string;
  method: string;
  status_code: number;
  error_type: string | null;
  error_detail: string | null;
  duration_ms: number;
  occurred_at: string;
}

/**
 * The record that an idempotent write happened, committed with the write itself: its response,
 * sealed, replayed when the same key comes back (rest/idempotency.ts). Kept 24 hours.
 */
export interface IdempotencyReceiptDoc {
  _id: string; // idem:{organization}:{key}
  fingerprint: string;
  response: string;
  expires_at: string;
}

export const FEEDBACK_TYPES = ['data_issue', 'bug', 'feature_request', 'other'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
/** open → acknowledged → resolved (acknowledging is optional; resolved is final). */
export const FEEDBACK_STATUSES = ['open', 'acknowledged', 'resolved'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** The caller's own earlier request, copied from its request log when the report was filed. */
export type FeedbackRequestSnapshot = Omit<RequestLogDoc, '_id' | 'organization_id' | 'api_key_id'>;

/** The named catalog record as it stood when the report was filed. */
export type FeedbackResourceSnapshot =
  | { found: false; resource_type: string }
  | {
      found: true;
      resource_type: string;
      office: string | null;
      jurisdiction: string | null;
      version: number | null;
      status_primary: StatusPrimary | null;
      source_updated_at: string | null;
      updated_at: string | null;
    };

export interface FeedbackDoc {
  _id: string; // fbk_...
  organization_id: string;
  api_key_id: string | null;
  type: FeedbackType;
  status: FeedbackStatus;
  message: string;
  resource_id: string | null;
  /** The submitted request_id (named apart from the request_id of the call that reads it). */
  request_ref: string | null;
  field: string | null;
  expected_value: string | null;
  /** `request` present only when a request_id was submitted, `resource` only with a resource_id. */
  context: { request?: FeedbackRequestSnapshot | null; resource?: FeedbackResourceSnapshot };
  resolution_note: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

export const WATCH_TYPES = ['similarity', 'filter', 'trademark'] as const;
export type WatchType = (typeof WATCH_TYPES)[number];
export const WATCH_STATUSES = ['active', 'paused'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** A watch query as stored: filters already translated to the trademark list filter names. */
export interface WatchQuery {
  /** similarity: the mark to protect. */
  q?: string;
  /** similarity: the lowest score that alerts, 0..1. */
  score_threshold?: number;
  /** The filters as the client wrote them (camelCase keys, offices lowercased), echoed in reads. */
  filters?: Record<string, unknown>;
  /** trademark: the marks watched (or those of a portfolio). */
  trademark_ids?: string[];
  portfolio_id?: string;
  /** filter: the saved search whose filters the watch took (its `filters` hold them). */
  saved_search_id?: string;
}

export interface WatchDoc {
  _id: string; // wch_...
  organization_id: string;
  name: string | null;
  watch_type: WatchType;
  status: WatchStatus;
  query: WatchQuery;
  metadata: Record<string, string>;
  /**
   * Changes that occurred before this instant are not evaluated for the watch: its creation, or
   * its last resume (changes while paused are not replayed).
   */
  evaluate_from: string;
  /**
   * When the watch was paused (`to` null while it still is; the last ones kept): a change is the
   * watch's when it occurred after creation and outside these, however late the evaluator reads
   * it. Absent on watches stored before pauses were kept: `evaluate_from` and the current status
   * decide for them.
   */
  paused_periods?: Array<{ from: string; to: string | null }>;
  /**
   * The queries the watch had before `query`, oldest first, each with the instant it was replaced
   * (the last ones kept; domain/watch-queries.ts): a change is matched with the query in force
   * when it occurred, however late the evaluator reads it. Never shown in the watch object.
   * Absent on watches whose query was never replaced since they were kept: `query` decides.
   */
  earlier_queries?: Array<{ query: WatchQuery; until: string }>;
  created_at: string;
  updated_at: string;
}

/**
 * A watch's evaluation state (diagnostics), kept apart from the watch so the evaluator's counting
 * never changes the watch definitions it caches.
 */
export interface WatchStatsDoc {
  _id: string; // the watch's ID
  last_change_at: string | null;
  alerts_created: number;
  last_error: string | null;
}

export const ALERT_STATUSES = ['open', 'acknowledged', 'dismissed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
export const ALERT_TRIGGER_TYPES = [
  'new_filing',
  'publication',
  'registration',
  'status_change',
  'opposition_filed',
  'cancellation',
  'event',
  'mark_change',
  'renewal_window_opened',
] as const;
export type AlertTriggerType = (typeof ALERT_TRIGGER_TYPES)[number];

export interface AlertTrigger {
  type: AlertTriggerType;
  /** The trademark record version whose change produced the alert (renewal_window_opened: the version current then). */
  record_version: number;
  changed_fields: string[];
  /** For `event` and `opposition_filed`: the event type code (data/event_types.json). */
  event_type: string | null;
  occurred_at: string;
}

export interface AlertSignal {
  type: string;
  strength: number;
  detail: string;
}

export interface AlertDoc {
  _id: string; // alt_..., derived from watch + mark + version (one alert per triggering version)
  organization_id: string;
  watch_id: string;
  watch_type: WatchType;
  trademark_id: string;
  status: AlertStatus;
  trigger: AlertTrigger;
  /** similarity watches: the score and the signals that produced it; null otherwise. */
  score: number | null;
  signals: AlertSignal[] | null;
  must_act_by: string | null;
  opposition_window_status: string;
  created_at: string;
  updated_at: string;
}

/** A change-feed consumer's place in the feed: a document of the `meta` collection, named by the consumer. */
export interface FeedCheckpointDoc {
  _id: string;
  /** The last feed position the consumer has applied; null before the feed had anything. */
  position: string | null;
}

/** One entry of an organization's event log (read by webhooks and GET /v1/events). */
export interface EventDoc {
  _id: string; // evt_..., derived from what produced it
  organization_id: string;
  type: string; // alert.created, watch.created, watch.paused, …
  data: Record<string, unknown>;
  created_at: string;
}

/** One signing secret of a webhook endpoint; an older one keeps signing until `expires_at` (rotation overlap). */
export interface WebhookSecret {
  version: number;
  /** `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
  secret: string;
  /** null for the current secret. */
  expires_at: string | null;
}

export const WEBHOOK_ENDPOINT_STATUSES = ['active', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];

export interface WebhookEndpointDoc {
  _id: string; // whk_...
  organization_id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: WebhookEndpointStatus;
  /** Why it is disabled: by a PATCH, or automatically after failing (null while active). */
  disabled_reason: 'requested' | 'failing' | null;
  /** The current secret first; never returned after creation or rotation. */
  secrets: WebhookSecret[];
  secret_version: number;
  consecutive_failures: number;
  /** The first failed attempt of the current run of failures (null after a success). */
  failing_since: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  metadata: Record<string, string>;
  /**
   * What the endpoint was sent, since when (oldest first, the last ones kept): fan-out, which may
   * run late, delivers an event by the endpoint's state when the event was created. Absent on
   * endpoints made before it was kept: their current state stands for every time.
   */
  delivery_states?: EndpointDeliveryState[];
  created_at: string;
  updated_at: string;
}

export interface EndpointDeliveryState {
  at: string;
  status: WebhookEndpointStatus;
  enabled_events: string[];
}

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'exhausted'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One attempt to deliver one event to one endpoint (spec: Webhook delivery). */
export interface WebhookDeliveryDoc {
  _id: string; // a UUID, derived from endpoint + event + attempt for scheduled attempts
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  alert_id: string | null;
  attempt: number;
  /** The last attempt this delivery may make (1 for webhook.test and redeliveries). */
  max_attempts: number;
  /** Sent on request (a test or a redelivery): sent also while the endpoint is disabled. */
  requested: boolean;
  delivery_attempt_id: string;
  status: WebhookDeliveryStatus;
  /** pending rows: when to send (the dispatcher sends rows due at or before now). */
  due_at: string | null;
  http_status: number | null;
  response_body: string | null;
  /** What went wrong without an HTTP answer (timeout, connection_failed, forbidden_address); null otherwise. */
  error: string | null;
  signature_timestamp: string | null;
  next_retry_at: string | null;
  delivered_at: string | null;
  /** The exact body sent (the event object as JSON), the same for every attempt. */
  body: string;
  created_at: string;
}

/** A named set of an organization's marks (a client's portfolio). */
export interface PortfolioDoc {
  _id: string; // pf_...
  organization_id: string;
  name: string;
  description: string | null;
  trademark_ids: string[];
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** The query parameters of GET /v1/trademarks kept under a name. */
export interface SavedSearchDoc {
  _id: string; // ss_...
  organization_id: string;
  name: string;
  query: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}
