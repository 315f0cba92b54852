/**
 * What a portfolio's deadlines must be, asked of the deadline calculator as a client would: each
 * mark's detail (GET /v1/trademarks/{id}) posted as one item to POST /v1/deadlines/compute; for
 * an allowed US application also its notice of allowance and the extensions of time granted
 * since, read from its history (GET /v1/trademarks/{id}/history) as 37 C.F.R. §2.89 counts them,
 * unless a statement of use was filed since; and for every mark the renewals and declarations in
 * its history as the item's maintenance_filings (the OpenAPI document names the event types).
 */
import { ok, send } from './http';
import type { TestApp } from './harness';

export interface ExpectedDeadline {
  trademark_id: string;
  type: string;
  due_date: string;
}

interface MarkDetail {
  jurisdiction_code: string;
  filing_route: string;
  status: { stage: string };
  filing_date: string | null;
  registration_date: string | null;
  expiry_date: string | null;
  renewal_due_date: string | null;
  designation_date?: string | null;
  international_registration_date?: string | null;
}

/**
 * The deadlines POST /v1/deadlines/compute gives each mark as of `asOf`, in the marks' order;
 * `status` asks as if each mark had that status instead of its own.
 */
export async function computedDeadlines(
  app: TestApp,
  trademarkIds: readonly string[],
  asOf: string,
  options: { status?: string; horizonYears?: number } = {},
): Promise<ExpectedDeadline[]> {
  const deadlines: ExpectedDeadline[] = [];
  for (const id of trademarkIds) {
    const detail = await ok<MarkDetail>(await send(app, 'GET', `/v1/trademarks/${id}`));
    const item = {
      jurisdiction: detail.jurisdiction_code,
      filing_route: detail.filing_route,
      status: options.status ?? detail.status.stage,
      filing_date: detail.filing_date,
      registration_date: detail.registration_date,
      expiry_date: detail.expiry_date,
      renewal_due_date: detail.renewal_due_date,
      designation_date: detail.designation_date ?? null,
      international_registration_date: detail.international_registration_date ?? null,
      ...(detail.jurisdiction_code === 'US' && detail.status.stage === 'allowed' ? await allowance(app, id) : {}),
      maintenance_filings: await maintenanceFilings(app, id),
    };
    const computed = await ok<{ data: Array<{ deadlines: Array<{ type: string; due_date: string }> }> }>(
      await send(app, 'POST', '/v1/deadlines/compute', {
        items: [item],
        as_of_date: asOf,
        ...(options.horizonYears ? { horizon_years: options.horizonYears } : {}),
      }),
    );
    deadlines.push(...(computed.data[0]?.deadlines ?? []).map((deadline) => ({ trademark_id: id, type: deadline.type, due_date: deadline.due_date })));
  }
  return deadlines;
}

/** Renewals (renewal_filed, renewed) and declarations (declaration_of_use_filed, _accepted) in a mark's history. */
async function maintenanceFilings(app: TestApp, id: string): Promise<Array<{ type: string; filed_date: string }>> {
  const meets: Record<string, string> = {
    renewal_filed: 'renewal',
    renewed: 'renewal',
    declaration_of_use_filed: 'declaration_of_use',
    declaration_of_use_accepted: 'declaration_of_use',
  };
  const events = await ok<{ data: Array<{ event_type: string; event_date: string }> }>(
    await send(app, 'GET', `/v1/trademarks/${id}/history?category=maintenance&limit=100`),
  );
  return events.data.flatMap((event) => (meets[event.event_type] ? [{ type: meets[event.event_type]!, filed_date: event.event_date }] : []));
}

/** The item fields of an allowed US application, read from its history. */
async function allowance(app: TestApp, id: string): Promise<Record<string, unknown>> {
  const dates = async (type: string) =>
    (await ok<{ data: Array<{ event_date: string }> }>(await send(app, 'GET', `/v1/trademarks/${id}/history?event_type=${type}&limit=100`))).data
      .map((event) => event.event_date)
      .sort();
  const notice = (await dates('notice_of_allowance_issued')).pop();
  if (notice === undefined) return {};
  if ((await dates('statement_of_use_filed')).some((date) => date >= notice)) return {};
  return { notice_of_allowance_date: notice, use_extensions_granted: (await dates('use_extension_granted')).filter((date) => date >= notice).length };
}
