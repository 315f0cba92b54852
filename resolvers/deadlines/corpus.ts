/**
 * The rule corpus (data/rules.json), validated once at module load: the single source of the
 * deadline rules, the opposition rules, both compute endpoints and the trademark detail's
 * opposition_window. A malformed corpus stops the server at start (RuleCorpusError).
 */
import rulesJson from '../../data/rules.json';
import { warmCalendars } from '../../domain/calendar';
import { calendarSpecFor, loadRuleCorpus, type RuleCorpus } from '../../domain/rules';

export const ruleCorpus: RuleCorpus = loadRuleCorpus(rulesJson);

/** Compute requests look up to this many years ahead (spec: horizon_years 1 to 15). */
export const MAX_HORIZON_YEARS = 15;

/**
 * Pre-builds every corpus calendar from last year to the furthest year a compute request can
 * reach (horizon plus grace), using the same spec objects the computations use.
 */
export function warmRuleCalendars(now: Date): void {
  const year = now.getUTCFullYear();
  const specs = Object.keys(ruleCorpus.calendars).map((id) => calendarSpecFor(ruleCorpus, id));
  warmCalendars(specs, { from: year - 1, to: year + MAX_HORIZON_YEARS + 1 });
}
