/**
 * Response shapes of portfolios, their deadlines, and saved searches (not shown in the spec
 * beyond their names; the members below are this service's design).
 */
import { arrayOf, constant, freeObject, int, nullableStr, object, str, timestamp, type JsonSchema, named } from './json-schema';
import { computedDeadlineSchema } from './deadlines';

export const portfolioSchema: JsonSchema = named(
  'Portfolio',
  object({
    id: str('Portfolio ID (pf_...; the spec lists no prefix for portfolios, this service uses pf_).'),
    object: constant('portfolio'),
    name: str(),
    description: nullableStr(),
    trademark_ids: arrayOf(str('tm_...'), 'The marks, in the order they were added.'),
    trademark_count: int(),
    metadata: freeObject('String-to-string map.'),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);

export const portfolioDeadlineSchema: JsonSchema = named(
  'PortfolioDeadline',
  object(
    {
      object: constant('portfolio_deadline'),
      trademark_id: str(),
      mark_text: str(),
      office_code: str(),
      ...(computedDeadlineSchema.properties ?? {}),
    },
    'One deadline of one mark: the members of a POST /v1/deadlines/compute deadline, with its mark.',
  ),
);

export const savedSearchSchema: JsonSchema = named(
  'SavedSearch',
  object({
    id: str('Saved search ID (ss_...).'),
    object: constant('saved_search'),
    name: str(),
    query: freeObject('The GET /v1/trademarks query parameters, as parsed (lists as arrays, offices uppercase).'),
    created_at: timestamp(),
    updated_at: timestamp(),
  }),
);
