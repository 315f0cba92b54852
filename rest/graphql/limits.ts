/**
 * The limits an ad hoc GraphQL request must keep (persisted REST operations are far below all of
 * them). Published in ARCHITECTURE.md and the README; a request over a limit is refused with 400
 * validation_error naming the limit, before any resolver runs.
 *
 * Sizing: the heaviest persisted operation (a trademark list page of 100 full summaries) costs
 * about 4,000 and nests 6 levels; the limits leave room for a dashboard page of a few such
 * lists, and refuse what only abuse needs (thousands of aliases, deep fragment nesting).
 */

/** Lexical tokens in one document; bounds parser work and recursion (5,000 nested fragments need 20,000). */
export const MAX_TOKENS = 3_000;
/** Field nesting depth, fragments flattened. */
export const MAX_DEPTH = 10;
/** Aliases in one operation (`__typename` free). */
export const MAX_ALIASES = 15;
/** Directives in one operation. */
export const MAX_DIRECTIVES = 20;
/** Cost units per request (rest/graphql/operation-shape.ts: a `limit` multiplies what it selects). */
export const MAX_COST = 10_000;
/** Bytes of one response body; a larger result is refused instead of sent. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
