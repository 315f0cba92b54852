/**
 * Response shapes of the proceeding endpoints: the spec's proceeding summary (plus office_code
 * and trademark_ids) for list rows, and the full record designed beyond it for the detail.
 */
import { PARTY_ROLES, PROCEEDING_STATUSES, PROCEEDING_TYPES } from '../../domain/records';
import { STATUS_PRIMARIES, STATUS_STAGES } from '../../domain/records';
import { arrayOf, constant, date, int, nullableDate, nullableInt, nullableStr, object, str, timestamp, type JsonSchema, named } from './json-schema';

const summaryProperties: Record<string, JsonSchema> = {
  id: str('prc_...'),
  object: constant('proceeding'),
  proceeding_type: { type: 'string', enum: PROCEEDING_TYPES },
  proceeding_number: str('The office docket number (TTAB 91/92 numbers, EUIPO B/C/R numbers, …).'),
  office_code: str('Uppercase ST.3 code of the office deciding the proceeding.'),
  status: { type: 'string', enum: PROCEEDING_STATUSES },
  filed_date: date(),
  decision_date: nullableDate('Null while pending.'),
  decision_outcome: nullableStr(),
  parties: arrayOf(
    object({
      owner_id: str('own_...'),
      name: str('Party name as recorded in the proceeding.'),
      role: { type: 'string', enum: PARTY_ROLES },
      country_code: nullableStr(),
    }),
  ),
  contested_classes: arrayOf(int(), 'Nice classes in dispute.'),
  description: nullableStr(),
  trademark_ids: arrayOf(str(), 'The contested marks (tm_...).'),
};

export const proceedingSummarySchema: JsonSchema = named('ProceedingSummary', object(summaryProperties, 'Proceeding summary (list rows).'));

export const proceedingDetailSchema: JsonSchema = named(
  'Proceeding',
  object(
    {
      ...summaryProperties,
      office: object({ code: str(), name: nullableStr(), jurisdiction_code: nullableStr() }, 'The deciding office.'),
      duration_days: nullableInt('Days from filed_date to decision_date; null while undecided.'),
      trademarks: arrayOf(
        object({
          id: str('tm_...'),
          object: constant('trademark'),
          mark_text: str(),
          application_number: str(),
          registration_number: nullableStr(),
          office_code: str(),
          jurisdiction_code: str(),
          status: object({ primary: { type: 'string', enum: STATUS_PRIMARIES }, stage: { type: 'string', enum: STATUS_STAGES } }),
          filing_date: date(),
          owner_name: nullableStr(),
        }),
        'The contested marks, summarized (full records at GET /v1/trademarks/{id}).',
      ),
      created_at: timestamp('When the proceeding was first recorded.'),
      updated_at: timestamp(),
    },
    'Full proceeding record.',
  ),
);
