/**
 * Response shapes of /v1/trademarks/{id}/history, /related and /coverage (not shown in the spec).
 */
import { CHALLENGE_STATES, STATUS_PRIMARIES, STATUS_REASONS, STATUS_STAGES } from '../../domain/records';
import { arrayOf, bool, constant, date, int, nullableDate, nullableNum, nullableStr, object, str, type JsonSchema, named } from './json-schema';

const fullStatus = object({
  primary: { type: 'string', enum: STATUS_PRIMARIES },
  stage: { type: 'string', enum: STATUS_STAGES },
  reason: { type: ['string', 'null'], enum: [...STATUS_REASONS, null] },
  challenge_states: arrayOf({ type: 'string', enum: CHALLENGE_STATES }),
});

export const trademarkEventSchema: JsonSchema = named(
  'TrademarkEvent',
  object(
    {
      object: constant('trademark_event'),
      id: str('Stable event ID.'),
      trademark_id: str(),
      event_type: str('Event code; GET /v1/event-types lists them.'),
      category: nullableStr('Category of the event type (filing, examination, publication, …).'),
      event_type_description: nullableStr('What the event type means.'),
      description: nullableStr("The office's wording of this event, where recorded."),
      office_event_code: nullableStr("The office's own event code (USPTO prosecution-history code such as CNSA), where recorded."),
      event_date: date(),
      office_code: str(),
    },
    'One prosecution event.',
  ),
);

export const relatedTrademarkSchema: JsonSchema = named(
  'RelatedTrademark',
  object(
    {
      object: constant('related_trademark'),
      relations: arrayOf(
        { type: 'string', enum: ['madrid_family', 'series', 'same_owner_similar_text'] },
        'Why the mark is related: madrid_family (same international registration number), series (same series_id), same_owner_similar_text (an owner in common and a similar text: edit similarity ≥ 0.7, or all words of the shorter text occur in the longer).',
      ),
      similarity: nullableNum('Edit similarity of the folded mark texts, 0 to 1, for same_owner_similar_text; null otherwise.'),
      trademark: object({
        id: str('tm_...'),
        object: constant('trademark'),
        mark_text: str(),
        office_code: str(),
        jurisdiction_code: str(),
        status: object({ primary: { type: 'string', enum: STATUS_PRIMARIES }, stage: { type: 'string', enum: STATUS_STAGES } }),
        filing_date: date(),
        registration_date: nullableDate(),
        ir_number: nullableStr(),
        series_id: nullableStr(),
        owner_name: nullableStr(),
      }),
    },
    'A related mark and why it is related.',
  ),
);

export const trademarkCoverageSchema: JsonSchema = named(
  'TrademarkCoverage',
  object(
    {
      object: constant('trademark_coverage'),
      trademark_id: str(),
      ir_number: nullableStr(),
      international_registration: object(
        { trademark_id: str(), status: fullStatus, international_registration_date: nullableDate(), expiry_date: nullableDate() },
        'The Madrid international registration the family rests on; null for marks outside the Madrid system.',
        true,
      ),
      jurisdiction_count: int('Distinct jurisdictions listed.'),
      protected_jurisdiction_count: int('Distinct jurisdictions where a covering record is active (status.primary active).'),
      jurisdictions: arrayOf(
        object({
          jurisdiction_code: str('Country (or jurisdiction) code.'),
          jurisdiction_name: str(),
          office_code: str('The office whose record covers it (EM for an EU member state through an EU mark).'),
          route: { type: 'string', enum: ['national', 'regional', 'madrid_designation'] },
          trademark_id: str('The record giving the coverage.'),
          status: fullStatus,
          protected: bool('status.primary is active.'),
          filing_date: date(),
          designation_date: nullableDate('Madrid designations only.'),
          registration_date: nullableDate(),
          expiry_date: nullableDate(),
        }),
        'One row per jurisdiction and covering record, by jurisdiction code.',
      ),
    },
    'Where a mark (or its Madrid family) is protected.',
  ),
);
