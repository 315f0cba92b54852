/**
 * Response shapes of the trademark endpoints.
 */
import {
  CHALLENGE_STATES,
  FILING_ROUTES,
  MARK_FEATURE_TYPES,
  MARK_LEGAL_CATEGORIES,
  OWNER_HISTORY_ROLES,
  OWNER_HISTORY_SOURCES,
  RIGHT_KINDS,
  SCOPE_KINDS,
  STATUS_PRIMARIES,
  STATUS_REASONS,
  STATUS_STAGES,
} from '../../domain/records';
import {
  arrayOf,
  bool,
  constant,
  date,
  freeObject,
  int,
  nullableBool,
  nullableDate,
  nullableInt,
  nullableStr,
  nullableTimestamp,
  object,
  str,
  timestamp,
  type JsonSchema,
  named,
} from './json-schema';

const ownerRef = {
  id: str('Owner ID (own_...).'),
  name: str(),
  country_code: nullableStr('ISO 3166-1 alpha-2.'),
  entity_id: str('Resolved entity ID (ent_...).'),
  entity_id_type: str('How the entity was resolved, for example derived, lei or company_profile.'),
};

/** A confirmed securities listing or LEI of an owner (shared with the owner record). */
export const companySchema: JsonSchema = named(
  'Company',
  object({
    source: str('Where the listing or LEI match comes from.'),
    ticker: nullableStr(),
    exchange: nullableStr(),
    lei: nullableStr('Legal Entity Identifier (20 characters).'),
    entity_status: str('For example ACTIVE.'),
  }),
);

/** A mark's status where a list row or hit shows it in brief. */
export const statusSummarySchema: JsonSchema = object({
  primary: { type: 'string', enum: STATUS_PRIMARIES },
  stage: { type: 'string', enum: STATUS_STAGES },
});

export const trademarkSummarySchema: JsonSchema = named(
  'TrademarkSummary',
  object(
    {
      id: str('tm_...'),
      object: constant('trademark'),
      mark_text: str(),
      owner_name: nullableStr("First owner's name."),
      status: statusSummarySchema,
      office_code: str('Uppercase WIPO ST.3 office code.'),
      jurisdiction_code: str(),
      filing_date: date(),
      registration_date: nullableDate(),
      classifications: arrayOf(
        object({
          nice_class: int('Nice class 1 to 45.'),
          goods_services_text: str('Truncated summary (about 200 characters) unless include=full_goods_services.'),
        }),
      ),
      owners: arrayOf(object(ownerRef)),
    },
    'Trademark summary (list rows).',
  ),
);

export const oppositionWindowSchema: JsonSchema = named(
  'OppositionWindow',
  object(
    {
      status: {
        type: 'string',
        enum: ['not_started', 'open', 'closed', 'no_rule', 'not_published'],
        description:
          "no_rule: no opposition rule for this office and route (or the trigger publication predates the rule's applicable_from_date); " +
          'not_published: the publication the window runs from has not happened yet (no publication date; no registration where the rule is triggered by registration_publication).',
      },
      office_code: nullableStr(),
      filing_route: nullableStr('Opposition-rule route: madrid_designation for Madrid designations, otherwise domestic.'),
      trigger_event: nullableStr(
        "The trigger_event of the rule used, the office's rule for the route whose event has happened: registration_publication where the office's rule runs from the publication of the registration " +
          '(JP, CH, DE, TW; JP Madrid designations) once the mark is registered; otherwise application_publication, or international_designation_publication where that is the Madrid rule (EM, BX). ' +
          "An office with both a registration_publication and an application_publication rule uses the registration's for a registered mark (when it applies to its date), the application's before. " +
          'Without any rule for the route: application_publication (Madrid: international_designation_publication), with status no_rule.',
      ),
      publication_date: nullableDate(
        'The date of the trigger publication the window is computed from: POST /v1/opposition-windows/compute with office = office_code, this filing_route, trigger_event and publication_date gives the same window. ' +
          "For registration_publication: the mark's publication_date when it is on or after its registration_date (the registration's publication); otherwise the registration_date stands in (approximate true).",
      ),
      window_opens: nullableDate(),
      window_closes: nullableDate('Last day to oppose, rolled forward to a business day of the office.'),
      window_closes_nominal: nullableDate('Last day before any business-day roll-forward.'),
      extended_window_closes: nullableDate('Last day with the common extension, where one exists.'),
      must_act_by: nullableDate('The date a watcher must act by (window_closes).'),
      days_remaining: nullableInt('Days from today (office time zone) to window_closes; negative once closed.'),
      approximate: bool(
        'True when a holiday calendar did not cover the close date (or the roll was skipped for a long-closed window), ' +
          "or when the registration_date stands in for the registration's unrecorded publication (the real window starts on or after the one given).",
      ),
    },
    'Opposition window computed from the opposition rules (GET /v1/opposition-rules) for this mark, from the same rules and arithmetic as POST /v1/opposition-windows/compute. ' +
      'Only the close rolls forward to a business day.',
  ),
);

export const trademarkDetailSchema: JsonSchema = named(
  'Trademark',
  object(
    {
      id: str('tm_...'),
      object: constant('trademark'),
      mark_text: str(),
      application_number: str('Office application (serial) number.'),
      registration_number: nullableStr(),
      ir_number: nullableStr('Madrid international registration number.'),
      office_code: str('Uppercase WIPO ST.3 office code.'),
      jurisdiction_code: str(),
      filing_route: { type: 'string', enum: FILING_ROUTES, description: 'national, regional or madrid.' },
      scope_kind: { type: 'string', enum: SCOPE_KINDS },
      mark_feature_type: { type: 'string', enum: MARK_FEATURE_TYPES },
      mark_legal_category: { type: 'string', enum: MARK_LEGAL_CATEGORIES },
      right_kind: { type: 'string', enum: RIGHT_KINDS },
      is_series_mark: bool(),
      series_id: nullableStr('Groups the marks of one series.'),
      is_retracted: bool('The office retracted (withdrew) this record.'),
      is_madrid: bool('Part of a Madrid international registration family.'),
      has_media: bool(),
      has_proceedings: bool(),
      vienna_codes: arrayOf(str(), 'Vienna classification codes of figurative elements.'),
      media: arrayOf(object({ id: str('med_...'), kind: str(), mime_type: str(), url: str() })),
      status: object({
        primary: { type: 'string', enum: STATUS_PRIMARIES },
        stage: { type: 'string', enum: STATUS_STAGES },
        reason: { type: ['string', 'null'], enum: [...STATUS_REASONS, null] },
        challenge_states: arrayOf({ type: 'string', enum: CHALLENGE_STATES }),
        office_status: object(
          { code: str('For example 700 (USPTO status-code).'), description: nullableStr("The office's wording, for example REGISTERED.") },
          "The office's own status code; null where the source has none.",
          true,
        ),
      }),
      filing_date: date(),
      priority_date: nullableDate(),
      publication_date: nullableDate(),
      registration_date: nullableDate(),
      expiry_date: nullableDate(),
      renewal_due_date: nullableDate(
        'The next renewal as the office records it; other maintenance deadlines (declarations of use, grace periods) are computed by POST /v1/deadlines/compute.',
      ),
      termination_date: nullableDate(),
      international_registration_date: nullableDate(),
      designation_date: nullableDate(),
      classifications: arrayOf(object({ nice_class: int(), goods_services_text: str('Full text.'), nice_edition: nullableStr('For example 12-2025.') })),
      owners: arrayOf(object({ ...ownerRef, companies: arrayOf(companySchema) })),
      attorneys: arrayOf(object({ id: str('att_...'), name: str(), country_code: nullableStr(), firm_id: nullableStr('firm_...'), firm_name: nullableStr() })),
      owner_history: arrayOf(
        object({
          owner_id: str('own_...'),
          name: str('The name as that record spells it.'),
          role: { type: 'string', enum: OWNER_HISTORY_ROLES },
          source: {
            type: 'string',
            enum: OWNER_HISTORY_SOURCES,
            description: "office_record: an owner group of the office's record; assignment: a recorded assignment.",
          },
          office_party_type: nullableStr("The office's party-type code (USPTO: 10 applicant, 20 owner at publication, 30 registrant, …)."),
          recorded_date: nullableDate('Assignments: the recording date.'),
          reference: nullableStr('Assignments: the reel/frame.'),
          conveyance: nullableStr('Assignments: the conveyance as recorded (recorded facts, not a conclusion about title).'),
        }),
        'Every owner the office record and recorded assignments name, current owners included.',
      ),
      opposition_window: oppositionWindowSchema,
      version: int('Increases with every recorded change.'),
      source_updated_at: timestamp('When the office last changed the record.'),
      created_at: timestamp(),
      updated_at: timestamp(),
    },
    'Full trademark record.',
  ),
);

export const trademarkSearchMetaSchema: JsonSchema = named('TrademarkSearchMeta', {
  ...object({
    total_results: nullableInt(),
    total_count_exact: nullableBool(),
    total_count_approximate: nullableBool(),
  }),
  deprecated: true,
  description: 'Deprecated echo of the totals (removal planned for v1.1); use pagination.total_count. Null unless include_total=true.',
});

export const trademarkChangeSchema: JsonSchema = named(
  'TrademarkChange',
  object({
    object: constant('trademark_change'),
    trademark_id: str(),
    version: int(),
    change_type: str('created, updated or corrected.'),
    changed_fields: arrayOf(str()),
    old_values: freeObject('Values before the change; null for the first version.', true),
    new_values: freeObject('Values after the change.'),
    source_data_date: nullableDate(),
    office_code: nullableStr(),
    created_at: timestamp('When the change was observed.'),
  }),
);

const trademarkSourceObject = object({
  object: constant('trademark_source'),
  trademark_id: str(),
  office_code: nullableStr(),
  observed_at: nullableTimestamp(),
  source_format: str('For example xml_st96, xml_dtd, json; bulk_xml when no raw version is stored.'),
  source_response_type: nullableStr(),
  source_locator: nullableStr('Where the raw record was read: file and record (for example uspto/apc240914.zip!apc240914.xml#3).'),
  payload_hash: nullableStr('sha256:<hex> of the raw payload; null when no raw version is stored.'),
  source_data_date: nullableDate("The office's date of the observed record (USPTO transaction-date); null when unknown."),
  raw_record: nullableStr('Present only with include=raw: the raw record as received (XML or JSON text); null when none is stored.'),
});

export const trademarkSourceSchema: JsonSchema = named('TrademarkSource', {
  ...trademarkSourceObject,
  required: (trademarkSourceObject.required ?? []).filter((key) => key !== 'raw_record'),
});
