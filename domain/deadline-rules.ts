/**
 * The deadline rule corpus as published by GET /v1/deadline-rules: every rule, verified or not,
 * with `verified` exposed so clients can weigh unconfirmed rules.
 */
import { normalizeJurisdictionCode, type DeadlineRule, type RuleCorpus } from './rules';

export type PublicDeadlineRule = { object: 'deadline_rule' } & DeadlineRule;

export interface DeadlineRuleFilters {
  /** Jurisdiction codes, any case; aliases EM, WIPO and UK are accepted. */
  jurisdictions?: readonly string[];
}

/** Matching rules in corpus order. */
export function listDeadlineRules(corpus: RuleCorpus, filters: DeadlineRuleFilters = {}): PublicDeadlineRule[] {
  const jurisdictions = filters.jurisdictions && new Set(filters.jurisdictions.map(normalizeJurisdictionCode));
  return corpus.deadline_rules
    .filter((rule) => !jurisdictions || jurisdictions.has(normalizeJurisdictionCode(rule.jurisdiction_code)))
    .map((rule) => ({ object: 'deadline_rule', ...rule }));
}
