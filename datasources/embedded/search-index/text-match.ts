/**
 * Free text as FTS5 MATCH expressions: terms of 3+ characters must each occur as a substring of
 * one of the searched fields (trigram table); 1–2 character terms must each be the prefix of a
 * word there (unicode61 table with prefix indexes), since trigrams cannot see them.
 */
import { splitSearchText } from '../../search-query-rules';
import type { IndexLayout } from './schema';

export interface FtsMatch {
  table: string;
  expression: string;
}

function quoted(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** `{a b} : (...)` restricts an FTS5 expression to the searched columns (omitted for all). */
function columnScoped(layout: IndexLayout, fields: readonly string[], expression: string): string {
  return fields.length === layout.textFields.length ? expression : `{${fields.join(' ')}} : (${expression})`;
}

/** The MATCH expressions every matching document satisfies; empty when the text has no term. */
export function ftsMatches(layout: IndexLayout, fields: readonly string[], text: string): FtsMatch[] {
  const { substringTerms, prefixTerms } = splitSearchText(text);
  const matches: FtsMatch[] = [];
  if (substringTerms.length > 0) {
    const expression = substringTerms.map(quoted).join(' AND ');
    matches.push({ table: layout.substringTable, expression: columnScoped(layout, fields, expression) });
  }
  if (prefixTerms.length > 0) {
    const expression = prefixTerms.map((term) => `${quoted(term)} *`).join(' AND ');
    matches.push({ table: layout.wordTable, expression: columnScoped(layout, fields, expression) });
  }
  return matches;
}
