/**
 * Response shapes of the reference-data endpoints (not shown in the spec; designed here).
 */
import { arrayOf, bool, constant, freeObject, int, nullableBool, nullableStr, object, str, type JsonSchema, named } from './json-schema';

export const officeSchema: JsonSchema = named(
  'Office',
  object(
    {
      object: constant('office'),
      code: str('Uppercase WIPO ST.3 code (canonical).'),
      name: str(),
      acronym: str(),
      jurisdiction_code: str('Jurisdiction the office registers for (EU for EM, WIPO for WO).'),
      jurisdiction_name: str(),
      kind: { type: 'string', enum: ['national', 'regional', 'international'] },
      seat: str(),
      time_zone: str('IANA time zone of the seat.'),
      holiday_calendar: nullableStr('Holiday calendar used for business-day rolls; null when none is shipped.'),
      holiday_subdivision: nullableStr(),
      madrid_member: bool('Designatable under the Madrid Protocol.'),
      legacy_code: str('Lowercase legacy alias, accepted wherever an office code is.'),
      languages: arrayOf(str(), 'ISO 639-1 filing languages.'),
      covers: arrayOf(str(), 'Member states a regional registration covers (EM, BX); empty otherwise.'),
      notes: nullableStr(),
    },
    'A trade mark office.',
  ),
);

export const jurisdictionSchema: JsonSchema = named(
  'Jurisdiction',
  object(
    {
      object: constant('jurisdiction'),
      code: str('ISO 3166-1 alpha-2 code, or EU, WIPO, OAPI, ARIPO.'),
      name: str(),
      offices: arrayOf(str(), 'Offices registering for this jurisdiction itself.'),
      covered_by: arrayOf(str(), 'Regional offices whose registrations also cover it (for example EM for DE).'),
      member_states: arrayOf(str(), "For a regional jurisdiction, the states its office's registrations cover."),
      madrid_member: bool('Reachable by a Madrid designation (directly or through a regional office).'),
    },
    'A jurisdiction where marks are protected.',
  ),
);

export const niceClassSchema: JsonSchema = named(
  'NiceClass',
  object(
    {
      object: constant('nice_class'),
      class: int('1 to 45.'),
      kind: { type: 'string', enum: ['goods', 'services'] },
      heading: str('Official class heading of the chosen edition (12-2025: WIPO wording; 13-2026: USPTO rendering).'),
      short: str('A short label (ours, not official).'),
      version: str('The Nice edition the heading belongs to.'),
      standard_term_count: int('Standard goods/services terms shipped for this class (used by the suggest endpoints).'),
    },
    'A Nice class.',
  ),
);

export const designCategorySchema: JsonSchema = named(
  'DesignCategory',
  object(
    {
      object: constant('design_category'),
      code: str('Two-digit Vienna category, for example 01.'),
      title: str(),
      divisions: arrayOf(object({ code: str('For example 01.01.'), title: str() })),
      divisions_verified: nullableBool('true: division numbering checked against a located source; false: from memory; null: no divisions listed.'),
    },
    'A Vienna classification category with its divisions.',
  ),
);

export const eventTypeSchema: JsonSchema = named(
  'EventType',
  object(
    {
      object: constant('event_type'),
      code: str('Snake_case event code used in trademark history; for category webhook, the event type (alert.created, …).'),
      category: str(
        'filing, examination, publication, opposition, registration, maintenance, cancellation, appeal, ownership, international, status, other; or webhook.',
      ),
      description: str(),
      uspto_tsdr: arrayOf(
        object({ code: nullableStr('Action code; null where only the TSDR wording is known.'), description: str() }),
        'USPTO prosecution-history entries mapping to this event.',
      ),
      euipo_status: arrayOf(str(), 'EUIPO status strings implying this event.'),
      provenance: {
        type: 'string',
        enum: ['located', 'partly_memory', 'memory', 'service'],
        description: 'How the mapping was sourced (see data/SOURCES.md); service for the types this service defines (the webhook event types, office_event).',
      },
      payload_schema: freeObject('category webhook: the JSON Schema of the event data; null for prosecution event types.', true),
    },
    'A prosecution event type, or a webhook event type.',
  ),
);
