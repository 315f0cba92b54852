/**
 * The `opposition_window` member of a trademark record, computed from the rule corpus (the same
 * rules as GET /v1/opposition-rules and POST /v1/opposition-windows/compute). A Madrid
 * designation is opposed from its WIPO Gazette publication; every other mark from the
 * publication of its application. A mark without a publication date is `not_published`.
 */
import { computeOppositionWindow } from '../../domain/opposition';
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

function oppositionRouteOf(doc: TrademarkDoc): { filing_route: OppositionFilingRoute; trigger_event: OppositionTriggerEvent } {
  return doc.filing_route === 'madrid'
    ? { filing_route: 'madrid_designation', trigger_event: 'international_designation_publication' }
    : { filing_route: 'domestic', trigger_event: 'application_publication' };
}

/**
 * Windows depend only on (office, route, publication date, today in the office's zone), and many
 * marks share them; a page or batch computes each once. Keyed to the minute, so "today" is never
 * stale by more than a minute; bounded by starting over when full.
 */
const MEMO_LIMIT = 20_000;
const memo = new Map<string, OppositionWindowView>();

export function oppositionWindowFor(doc: TrademarkDoc, now: Date): OppositionWindowView {
  const key = `${doc.office_code}|${doc.filing_route === 'madrid'}|${doc.publication_date}|${Math.floor(now.getTime() / 60_000)}`;
  let view = memo.get(key);
  if (view === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    view = computeView(doc, now);
    memo.set(key, view);
  }
  return view;
}

function computeView(doc: TrademarkDoc, now: Date): OppositionWindowView {
  const route = oppositionRouteOf(doc);
  if (doc.publication_date === null) {
    return {
      status: 'not_published',
      office_code: doc.office_code,
      ...route,
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
  const window = computeOppositionWindow(ruleCorpus, { office_code: doc.office_code, ...route, publication_date: doc.publication_date }, now);
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
    approximate: window.approximate,
  };
}
