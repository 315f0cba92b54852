/**
 * The `opposition_window` member of a trademark record, computed from the rule corpus (the same
 * rules as GET /v1/opposition-rules and POST /v1/opposition-windows/compute). Which rule, and
 * from which date, is `oppositionTriggerFor` (domain/opposition.ts), the one choice trademark
 * detail, watch diagnostics and alerts share: the office's rule for the mark's route whose trigger
 * event has happened — the registration's publication where the office opposes after
 * registration (JP, CH, DE, TW), otherwise the publication of the application (or of a Madrid
 * designation). The window itself is `computeOppositionWindow`, as the compute endpoint's. A mark
 * whose trigger publication has not happened is `not_published`.
 */
import { computeOppositionWindow, oppositionTriggerFor, type MarkOppositionTrigger } from '../../domain/opposition';
import type { OppositionFilingRoute, OppositionTriggerEvent } from '../../domain/rules';
import type { TrademarkDoc } from '../../domain/records';
import { ruleCorpus } from '../deadlines/corpus';

export interface OppositionWindowView {
  status: string;
  office_code: string | null;
  filing_route: OppositionFilingRoute | null;
  trigger_event: OppositionTriggerEvent | null;
  publication_date: string | null;
  window_opens: string | null;
  window_closes: string | null;
  window_closes_nominal: string | null;
  extended_window_closes: string | null;
  must_act_by: string | null;
  days_remaining: number | null;
  approximate: boolean;
}

/**
 * Windows depend only on (office, rule key, trigger date, today in the office's zone), and many
 * marks share them; a page or batch computes each once. Keyed to the minute, so "today" is never
 * stale by more than a minute; bounded by starting over when full.
 */
const MEMO_LIMIT = 20_000;
const memo = new Map<string, OppositionWindowView>();

export function oppositionWindowFor(doc: TrademarkDoc, now: Date): OppositionWindowView {
  const trigger = oppositionTriggerFor(ruleCorpus, {
    office_code: doc.office_code,
    filing_route: doc.filing_route === 'madrid' ? 'madrid_designation' : 'domestic',
    publication_date: doc.publication_date,
    registration_date: doc.registration_date,
  });
  const key = `${doc.office_code}|${trigger.filing_route}|${trigger.trigger_event}|${trigger.publication_date}|${trigger.estimated}|${Math.floor(now.getTime() / 60_000)}`;
  let view = memo.get(key);
  if (view === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    view = computeView(doc.office_code, trigger, now);
    memo.set(key, view);
  }
  return view;
}

function computeView(officeCode: string, trigger: MarkOppositionTrigger, now: Date): OppositionWindowView {
  if (trigger.publication_date === null) {
    return {
      status: 'not_published',
      office_code: officeCode,
      filing_route: trigger.filing_route,
      trigger_event: trigger.trigger_event,
      publication_date: null,
      window_opens: null,
      window_closes: null,
      window_closes_nominal: null,
      extended_window_closes: null,
      must_act_by: null,
      days_remaining: null,
      approximate: false,
    };
  }
  const window = computeOppositionWindow(
    ruleCorpus,
    { office_code: officeCode, filing_route: trigger.filing_route, trigger_event: trigger.trigger_event, publication_date: trigger.publication_date },
    now,
  );
  return {
    status: window.status,
    office_code: window.office_code,
    filing_route: window.filing_route,
    trigger_event: window.trigger_event,
    publication_date: window.publication_date,
    window_opens: window.window_opens,
    window_closes: window.window_closes,
    window_closes_nominal: window.window_closes_nominal,
    extended_window_closes: window.extended_window_closes,
    must_act_by: window.must_act_by,
    days_remaining: window.days_remaining,
    // A registration date standing in for the registration's publication: dates a few weeks early.
    approximate: window.approximate || (trigger.estimated && window.status !== 'no_rule'),
  };
}
