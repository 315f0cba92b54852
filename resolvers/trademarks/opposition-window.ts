/**
 * The `opposition_window` member of a trademark record. Computed properly from the opposition
 * rules corpus by the deadline issue; until then every mark reports `status: "unknown"`.
 */
import type { TrademarkDoc } from '../../domain/records';

export interface OppositionWindowView {
  status: string;
  office_code: string | null;
  filing_route: string | null;
  trigger_event: string | null;
  publication_date: string | null;
  window_opens: string | null;
  window_closes: string | null;
  window_closes_nominal: string | null;
  extended_window_closes: string | null;
  must_act_by: string | null;
  days_remaining: number | null;
  approximate: boolean;
}

export function oppositionWindowFor(doc: TrademarkDoc, _now: Date): OppositionWindowView {
  return {
    status: 'unknown',
    office_code: doc.office_code,
    filing_route: null,
    trigger_event: null,
    publication_date: doc.publication_date,
    window_opens: null,
    window_closes: null,
    window_closes_nominal: null,
    extended_window_closes: null,
    must_act_by: null,
    days_remaining: null,
    approximate: false,
  };
}
