/**
 * A stored mark as the input of the deadline computation: the same fields a client sends to
 * POST /v1/deadlines/compute, read from the record (jurisdiction, register, stage, dates).
 */
import type { DeadlineInput } from './deadlines';
import type { TrademarkDoc } from './records';

export function deadlineInputOf(mark: TrademarkDoc): DeadlineInput {
  return {
    jurisdiction: mark.jurisdiction_code,
    filing_route: mark.filing_route,
    status: mark.status.stage,
    filing_date: mark.filing_date,
    registration_date: mark.registration_date,
    expiry_date: mark.expiry_date,
    renewal_due_date: mark.renewal_due_date,
    designation_date: mark.designation_date,
    international_registration_date: mark.international_registration_date,
  };
}
