/**
 * A stored mark as the input of the deadline computation: the same fields a client sends to
 * POST /v1/deadlines/compute, read from the record (jurisdiction, register, stage, dates) and from
 * its prosecution history: for an allowed US intent-to-use application its notice of allowance
 * (allowanceOf), for every mark the renewals and declarations on record (maintenanceFilingsOf).
 */
import type { IsoDate } from './dates';
import type { DeadlineInput, MaintenanceFiling } from './deadlines';
import type { TrademarkDoc, TrademarkEventDoc } from './records';

/** The statement-of-use facts of an allowed application: when its notice of allowance issued, and the extensions granted since. */
export interface AllowanceFacts {
  notice_of_allowance_date: IsoDate;
  use_extensions_granted: number;
}

/** The events allowanceOf reads. */
export const ALLOWANCE_EVENT_TYPES = ['notice_of_allowance_issued', 'use_extension_granted', 'statement_of_use_filed'] as const;

/**
 * From a mark's events: its latest notice of allowance (one cancelled and issued again counts from
 * the new one) and the extensions of time granted after it; null when no notice issued or a
 * statement of use was filed on or after it (the deadline is met; an amendment to allege use
 * before the notice is not).
 */
export function allowanceOf(events: ReadonlyArray<Pick<TrademarkEventDoc, 'event_type' | 'event_date'>>): AllowanceFacts | null {
  const issued = events
    .filter((event) => event.event_type === 'notice_of_allowance_issued')
    .map((event) => event.event_date)
    .sort()
    .pop();
  if (issued === undefined) return null;
  const since = events.filter((event) => event.event_date >= issued);
  if (since.some((event) => event.event_type === 'statement_of_use_filed')) return null;
  return { notice_of_allowance_date: issued, use_extensions_granted: since.filter((event) => event.event_type === 'use_extension_granted').length };
}

/**
 * The events that record a maintenance filing, and the deadline type each meets. A declaration
 * filed alone does not meet a renewal (the US ten-year renewal needs section 9 as well), nor a
 * renewal a declaration: a deadline left listed costs a look, one dropped may cost the right.
 */
const FILING_EVENTS: ReadonlyMap<string, string> = new Map([
  ['renewal_filed', 'renewal'],
  ['renewed', 'renewal'],
  ['declaration_of_use_filed', 'declaration_of_use'],
  ['declaration_of_use_accepted', 'declaration_of_use'],
]);

/** The events maintenanceFilingsOf reads. */
export const MAINTENANCE_EVENT_TYPES: readonly string[] = [...FILING_EVENTS.keys()];

/** A mark's renewals and declarations on record, as deadline inputs (domain/deadlines.ts metBy). */
export function maintenanceFilingsOf(events: ReadonlyArray<Pick<TrademarkEventDoc, 'event_type' | 'event_date'>>): MaintenanceFiling[] {
  return events.flatMap((event) => {
    const type = FILING_EVENTS.get(event.event_type);
    return type === undefined ? [] : [{ type, filed_date: event.event_date }];
  });
}

/** Whether a mark's deadlines depend on its allowance facts (an allowed US application). */
export const needsAllowanceFacts = (mark: TrademarkDoc): boolean => mark.jurisdiction_code === 'US' && mark.status.stage === 'allowed';

export function deadlineInputOf(mark: TrademarkDoc, allowance: AllowanceFacts | null = null, filings: readonly MaintenanceFiling[] = []): DeadlineInput {
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
    ...(allowance ?? {}),
    ...(filings.length > 0 ? { maintenance_filings: filings } : {}),
  };
}
