/**
 * What a portfolio's deadlines must be, asked of the deadline calculator as a client would: each
 * mark's detail (GET /v1/trademarks/{id}) posted as one item to POST /v1/deadlines/compute.
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
