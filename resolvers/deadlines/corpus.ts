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
 * Years after the current one warmed at start: the default 5-year horizon plus a grace period.
 * date-holidays costs about 10 ms per calendar-year, so warming the full 15-year horizon would add
 * seconds to every start; later years are built on first use.
 */
const WARM_YEARS_AHEAD = 6;

/**
 * Pre-builds every corpus calendar for the years most requests touch. One calendar-year per
 * event-loop turn (a few milliseconds each; 30 calendars take about 2.5 s in all), so a server
 * answers requests while it warms instead of starting seconds later or stalling.
 */
export async function warmRuleCalendars(now: Date): Promise<void> {
  const year = now.getUTCFullYear();
  for (const id of Object.keys(ruleCorpus.calendars)) {
    for (let warmed = year - 1; warmed <= year + WARM_YEARS_AHEAD; warmed++) {
      warmCalendars([calendarSpecFor(ruleCorpus, id)], { from: warmed, to: warmed });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
