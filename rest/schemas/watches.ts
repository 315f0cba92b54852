/**
 * Response shapes of watches, watch previews and diagnostics, and alerts (spec: Watch preview,
 * Events; the spec shows these records only in part, so the members below are this service's
 * design, documented here).
 */
import { ALERT_STATUSES, ALERT_TRIGGER_TYPES, WATCH_STATUSES, WATCH_TYPES } from '../../domain/records';
import { SIMILARITY_SIGNAL_TYPES } from '../../domain/similarity';
import { WATCH_FILTER_KEYS } from '../../resolvers/watches/query';
import {
  arrayOf,
  bool,
  constant,
  freeObject,
  int,
  nullableDate,
  nullableInt,
  nullableNum,
  nullableStr,
  num,
  object,
  str,
  timestamp,
  type JsonSchema,
  named,
  nullableOf,
} from './json-schema';
import { trademarkSummarySchema } from './trademarks';

export const watchQuerySchema: JsonSchema = named('WatchQuery', {
  type: 'object',
  description:
    'similarity: q (the mark to protect, required) and score_threshold (0 to 1); filter: filters or saved_search_id (one is required); trademark: trademark_ids or portfolio_id. ' +
    `filters keys are camelCase: ${WATCH_FILTER_KEYS.join(', ')}. An unknown key, or match in any form, is 400.`,
  properties: {
    q: str('similarity: the mark to protect, 1 to 200 characters.'),
    score_threshold: { type: 'number', minimum: 0, maximum: 1, description: 'similarity: the lowest score that alerts.' },
    filters: freeObject('Trademark list filters, camelCase keys; offices any casing (stored lowercase); ownerId/attorneyId/firmId take prefixed IDs.'),
    trademark_ids: arrayOf(str('tm_...'), 'trademark: up to 1,000 marks.'),
    portfolio_id: str('trademark: a portfolio (pf_...); marks added to it later are watched too.'),
    saved_search_id: str(
      'filter: a saved search (ss_...) whose filters the watch takes instead of filters (which then echo them); one with q or an entity scope is 400. A later change of the saved search does not change the watch.',
    ),
  },
  additionalProperties: false,
});

export const watchSchema: JsonSchema = named(
  'Watch',
  object({
    id: str('Watch ID (wch_...; the spec lists no prefix for watches, this service uses wch_).'),
    object: constant('watch'),
    name: nullableStr(),
    watch_type: { type: 'string', enum: WATCH_TYPES },
    status: { type: 'string', enum: WATCH_STATUSES },
    query: watchQuerySchema,
    metadata: freeObject('String-to-string map.'),
    evaluating_since: timestamp(
      'Changes that occurred from this instant on are evaluated: the creation, or the last resume (changes while paused are not replayed).',
    ),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);

const watchPreviewMembers: Record<string, JsonSchema> = {
  object: constant('watch_preview'),
  watch_type: { type: 'string', enum: WATCH_TYPES },
  query: watchQuerySchema,
  data: {
    type: ['array', 'null'],
    items: trademarkSummarySchema,
    description: 'Matching marks in summary shape (similarity: best first); null with count_only.',
  },
  scores: {
    type: ['array', 'null'],
    items: object({ trademark_id: str(), score: num() }),
    description: 'similarity: the score of each mark of data, same order; null otherwise.',
  },
  estimated_match_count: int('How many marks match now.'),
  estimate_basis: {
    type: 'string',
    enum: ['candidacy_upper_bound', 'lower_bound'],
    description:
      'Absent: the count is exact. candidacy_upper_bound: candidates were capped or the time budget ran out while scoring; unscored candidates are counted. ' +
      'lower_bound: the count stopped at 10,000 (filter watches).',
  },
};

/** The contract: estimate_basis "absent means exact" (the route leaves it out when null). */
export const watchPreviewSchema: JsonSchema = named('WatchPreview', {
  ...object(watchPreviewMembers),
  required: Object.keys(watchPreviewMembers).filter((name) => name !== 'estimate_basis'),
});

const windowSchema = object({
  window_status: str(
    'Opposition window status as in trademark detail (the same rule choice, GET /v1/trademarks/{id} opposition_window): closed for windows closed long ago (marks published before 2024 included), open, not_started, not_published, no_rule.',
  ),
  trigger_event: nullableStr(
    "The trigger_event of the opposition rule the window runs from (as in trademark detail): application_publication, international_designation_publication, or registration_publication where the office's window runs from the registration's publication.",
  ),
  publication_date: nullableDate(
    "The trigger publication's date the window runs from; for registration_publication it may differ from the mark's publication_date (the registration date standing in: approximate true).",
  ),
  window_opens: nullableDate(),
  window_closes: nullableDate(),
  must_act_by: nullableDate(),
  days_remaining: nullableInt(),
  approximate: bool(),
});

export const watchDiagnosticsSchema: JsonSchema = named(
  'WatchDiagnostics',
  object({
    object: constant('watch_diagnostics'),
    watch_id: str(),
    status: { type: 'string', enum: WATCH_STATUSES },
    evaluation: object({
      evaluating_since: timestamp(),
      last_change_processed_at: { ...nullableStr('When the last change this watch was evaluated against occurred.'), format: 'date-time' },
      alerts_created: int(),
      last_error: nullableStr(),
    }),
    estimated_match_count: int('Marks the watch matches now (as the preview counts them).'),
    marks: arrayOf(
      object({ trademark_id: str(), mark_text: str(), office_code: str(), publication_date: nullableDate(), opposition_window: windowSchema }),
      'Up to 20 marks the watch matches now, with their opposition windows.',
    ),
  }),
);

export const alertSchema: JsonSchema = named(
  'Alert',
  object({
    id: str('Alert ID (alt_...), derived from watch + mark + record version: one alert per triggering version.'),
    object: constant('alert'),
    watch_id: str(),
    watch_type: { type: 'string', enum: WATCH_TYPES },
    trademark_id: str(),
    trademark: nullableOf(trademarkSummarySchema, 'The mark in summary shape as it is now (null if it was withdrawn from the catalog).'),
    status: { type: 'string', enum: ALERT_STATUSES },
    trigger: object({
      type: { type: 'string', enum: ALERT_TRIGGER_TYPES },
      record_version: int('The trademark record version whose change produced the alert.'),
      changed_fields: arrayOf(str()),
      event_type: nullableStr('Event type code (GET /v1/event-types) behind opposition_filed, cancellation or event.'),
      occurred_at: timestamp(),
    }),
    score: nullableNum('similarity: 0 to 1.'),
    signals: {
      type: ['array', 'null'],
      items: object({
        type: {
          type: 'string',
          enum: SIMILARITY_SIGNAL_TYPES,
          description: 'transliteration: a mark in Cyrillic or Greek compared through its Latin reading (detail names the reading).',
        },
        strength: num(),
        detail: str(),
      }),
      description: 'similarity: the signals behind the score.',
    },
    must_act_by: nullableDate('From the same computation as the opposition window of GET /v1/trademarks/{id}.'),
    opposition_window_status: str(),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);
