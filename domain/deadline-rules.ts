/**
 * The deadline rule corpus as published by GET /v1/deadline-rules: every rule, verified or not,
 * with `verified` exposed so clients can weigh unconfirmed rules.
 */
import type { IsoDate } from './dates';
import { normalizeJurisdictionCode, type DeadlineRule, type DeadlineRuleExample, type RuleCorpus, type TriggerField } from './rules';

/** An example as published: its extra input dates as a list (GraphQL has no map type). */
export type PublicDeadlineRuleExample = Omit<DeadlineRuleExample, 'input_dates'> & { input_dates: Array<{ field: TriggerField; date: IsoDate }> };

export type PublicDeadlineRule = { object: 'deadline_rule' } & Omit<DeadlineRule, 'examples'> & { examples: PublicDeadlineRuleExample[] };

function publicExample(example: DeadlineRuleExample): PublicDeadlineRuleExample {
  const inputDates = Object.entries(example.input_dates).map(([field, date]) => ({ field: field as TriggerField, date: date as IsoDate }));
  return { ...example, input_dates: inputDates };
}

export interface DeadlineRuleFilters {
  /** Jurisdiction codes, any case; aliases EM, WIPO and UK are accepted. */
  jurisdictions?: readonly string[];
}

/** Matching rules in corpus order. */
export function listDeadlineRules(corpus: RuleCorpus, filters: DeadlineRuleFilters = {}): PublicDeadlineRule[] {
  const jurisdictions = filters.jurisdictions && new Set(filters.jurisdictions.map(normalizeJurisdictionCode));
  return corpus.deadline_rules
    .filter((rule) => !jurisdictions || jurisdictions.has(normalizeJurisdictionCode(rule.jurisdiction_code)))
    .map((rule) => ({ object: 'deadline_rule', ...rule, examples: rule.examples.map(publicExample) }));
}
