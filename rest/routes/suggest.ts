/**
 * Route-table entries of the suggest endpoints. All are read-shaped: the POSTs need no
 * Idempotency-Key (spec: Idempotency, rule 2).
 */
import { NICE_VERSIONS } from '../../resolvers/reference/queries';
import { MAX_GOODS_TEXT, MAX_SUGGESTIONS, SUGGEST_TYPES } from '../../resolvers/suggest/queries';
import type { ParamSpec } from '../params';
import type { RouteDef } from '../route';
import { classSuggestionSchema, goodsServicesSuggestionSchema, suggestionSchema, trademarkSuggestionSchema } from '../schemas/suggest';

const qParam: ParamSpec = {
  name: 'q',
  kind: { type: 'string', maxLength: 100 },
  required: true,
  description: 'What the user typed so far (1 to 100 characters).',
};
const limitParam = (fallback: number, max: number, what: string): ParamSpec => ({
  name: 'limit',
  kind: { type: 'integer', min: 1, max },
  description: `${what}, 1 to ${max} (default ${fallback}).`,
});

const suggestParams: ParamSpec[] = [
  qParam,
  { name: 'types', kind: { type: 'enum', values: SUGGEST_TYPES }, array: true, description: `Comma list of ${SUGGEST_TYPES.join(', ')} (default all).` },
  limitParam(10, MAX_SUGGESTIONS, 'Suggestions in all'),
];

const goodsText: ParamSpec = {
  name: 'text',
  kind: { type: 'string', maxLength: MAX_GOODS_TEXT },
  required: true,
  description: `Goods/services description in English, 1 to ${MAX_GOODS_TEXT} characters.`,
};

const completionNote =
  'Ranking: exact text, then texts starting with the query, then a later word starting with it, then texts within one typo (queries of 4–7 letters) or two (8+) of a prefix; ties go to the shorter text. One page, has_more false.';

const suggestDescription = `Typed completions across marks, owners, attorneys and firms, merged by score (ties in that type order); merged parties are left out. ${completionNote}`;

const base = { kind: 'operation', tag: 'Suggest', scope: 'trademarks:read', pathParams: [], successStatus: 200, envelope: 'list', errors: [400] } as const;

export const suggestRoutes: readonly RouteDef[] = [
  {
    ...base,
    id: 'suggestTrademarks',
    contract: 'named-without-detail',
    mcpTool: 'suggest_trademarks',
    method: 'GET',
    path: '/v1/trademarks/suggest',
    operation: 'SuggestTrademarks',
    summary: 'Complete mark text',
    description: `Marks whose text completes q, prefix first and typo-tolerant. ${completionNote}`,
    pool: 'search',
    tier: 'search',
    idempotency: 'none',
    query: [
      qParam,
      {
        name: 'office',
        kind: { type: 'string', maxLength: 4, pattern: /^[A-Za-z]{2,4}$/, patternRule: 'must be an office code of 2 to 4 letters' },
        description: 'Only marks of this office (ST.3 code, legacy lowercase accepted).',
      },
      limitParam(10, MAX_SUGGESTIONS, 'Suggestions'),
    ],
    response: trademarkSuggestionSchema,
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...base,
    id: 'suggest',
    contract: 'named-without-detail',
    mcpTool: 'suggest',
    method: 'GET',
    path: '/v1/suggest',
    operation: 'Suggest',
    summary: 'Complete marks and party names',
    description: suggestDescription,
    pool: 'search',
    tier: 'search',
    idempotency: 'none',
    query: suggestParams,
    response: suggestionSchema,
    variables: ({ query }) => ({ ...query }),
  },
  {
    ...base,
    id: 'suggestPost',
    contract: 'named-without-detail',
    method: 'POST',
    path: '/v1/suggest',
    operation: 'Suggest',
    summary: 'Complete marks and party names (JSON body)',
    description: `${suggestDescription} The body takes the query parameters of GET /v1/suggest; no Idempotency-Key needed.`,
    pool: 'search',
    tier: 'search',
    idempotency: 'exempt',
    query: [],
    body: suggestParams,
    response: suggestionSchema,
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...base,
    id: 'suggestClassifications',
    contract: 'named-without-detail',
    mcpTool: 'suggest_classifications',
    method: 'POST',
    path: '/v1/classifications/suggest',
    operation: 'SuggestClassifications',
    summary: 'Suggest Nice classes for goods/services',
    description:
      'Nice classes ranked for a goods/services text, with the standard terms (WIPO Nice alphabetical list, basic numbers) and heading words that matched. ' +
      'A class scores the larger of its best term score and 0.8 × the share of the text’s words found in its heading, plus 0.05 per further matching term (at most four). Classes matching nothing are left out. No Idempotency-Key needed.',
    pool: 'search',
    tier: 'search',
    idempotency: 'exempt',
    query: [],
    body: [
      goodsText,
      limitParam(5, 45, 'Classes'),
      { name: 'version', kind: { type: 'enum', values: NICE_VERSIONS }, description: 'Nice edition of the headings (default 13-2026).' },
    ],
    response: classSuggestionSchema,
    variables: ({ body }) => ({ ...body }),
  },
  {
    ...base,
    id: 'suggestGoodsServices',
    contract: 'named-without-detail',
    mcpTool: 'suggest_goods_services',
    method: 'POST',
    path: '/v1/goods-services/suggest',
    operation: 'SuggestGoodsServices',
    summary: 'Suggest standard goods/services terms',
    description:
      'Standard terms ranked for a goods/services text, each with its Nice class and basic number. Score: 0.7 × the share of the term’s words found in the text + 0.3 × the share of the text’s words the term explains; ' +
      'plural endings fold, a one-letter typo in a word of 5+ letters counts 0.8. Check pool; as a suggest endpoint it counts against the search tier, like the other suggest endpoints. No Idempotency-Key needed.',
    pool: 'check',
    tier: 'search',
    idempotency: 'exempt',
    query: [],
    body: [
      goodsText,
      { name: 'nice_classes', kind: { type: 'integer', min: 1, max: 45 }, array: true, maxItems: 45, description: 'Only terms of these classes.' },
      limitParam(10, 50, 'Terms'),
    ],
    response: goodsServicesSuggestionSchema,
    variables: ({ body }) => ({ ...body }),
  },
];
