/**
 * Response shapes of the suggest endpoints (not shown in the spec; designed here).
 */
import { STATUS_PRIMARIES, STATUS_STAGES } from '../../domain/records';
import { arrayOf, constant, int, nullableStr, num, object, str, type JsonSchema, named } from './json-schema';

const match = {
  type: 'string',
  enum: ['exact', 'prefix', 'word_prefix', 'fuzzy'],
  description: 'exact text; text starts with the query; a later word starts with it; within one typo (4–7 letters) or two (8+) of a prefix.',
} as const;
const score = num('0 to 1: exact 1, prefix 0.8–0.9, word prefix 0.6–0.7, fuzzy at most 0.5; longer coverage of the text scores higher.');

export const trademarkSuggestionSchema: JsonSchema = named(
  'TrademarkSuggestion',
  object(
    {
      object: constant('trademark_suggestion'),
      id: str('tm_...'),
      mark_text: str(),
      office_code: str(),
      status: object({ primary: { type: 'string', enum: STATUS_PRIMARIES }, stage: { type: 'string', enum: STATUS_STAGES } }),
      match,
      score,
    },
    'A mark whose text completes the query.',
  ),
);

export const suggestionSchema: JsonSchema = named(
  'Suggestion',
  object(
    {
      object: constant('suggestion'),
      type: { type: 'string', enum: ['trademark', 'owner', 'attorney', 'firm'] },
      id: str('tm_, own_, att_ or firm_ ID.'),
      text: str('Mark text or party name.'),
      detail: nullableStr('Office code for marks, country code for parties.'),
      match,
      score,
    },
    'A typed completion.',
  ),
);

const termMatch = {
  term: str('Standard term (WIPO Nice alphabetical list wording).'),
  class: int('Nice class.'),
  basic_number: str('WIPO NCL basic number (6 digits).'),
  score: num(
    '0 to 1: 0.7 × share of the term’s words found in the text + 0.3 × share of the text’s words the term explains (a one-letter typo in a 5+ letter word counts 0.8).',
  ),
  matched_words: arrayOf(str(), 'Words of the term found in the text (plural endings folded).'),
};

export const classSuggestionSchema: JsonSchema = named(
  'ClassSuggestion',
  object(
    {
      object: constant('class_suggestion'),
      class: int('Nice class 1 to 45.'),
      kind: nullableStr('goods or services.'),
      heading: nullableStr('Class heading of the chosen edition.'),
      version: str('Nice edition of the heading.'),
      score: num("Larger of the best term's score and 0.8 × share of the text's words in the heading, plus 0.05 per further matching term (at most four)."),
      matched_terms: arrayOf(object(termMatch), 'Best matching standard terms of the class (at most five).'),
      matched_heading_words: arrayOf(str(), 'Words of the text found in the heading.'),
    },
    'A Nice class ranked for a goods/services text.',
  ),
);

export const goodsServicesSuggestionSchema: JsonSchema = named(
  'GoodsServicesSuggestion',
  object({ object: constant('goods_services_suggestion'), ...termMatch }, 'A standard goods/services term ranked for a text.'),
);
