/**
 * portfolioDeadlines through one group of portfolioDeadlineTimeline (`month`, `overdue`), over
 * /graphql: paging through a month, or the overdue deadlines, gives every deadline the timeline
 * counts in it, once each, in the timeline's order and with its statuses; bad arguments are 400
 * naming the argument; the REST route is left as it was. The portfolio holds catalog marks and 24
 * copies of two of them (one with a deadline this year, one with a deadline in its grace period),
 * so that a month and the overdue group each hold more than the timeline's 20 per group.
 */
import { expect } from 'chai';
import { catalogId } from '../../../domain/ids';
import { COLLECTIONS, type TrademarkDoc } from '../../../domain/records';
import { startTestApp, type TestApp } from '../../support/harness';
import { fails, ok, send } from '../../support/http';

interface Row {
  trademark_id: string;
  type: string;
  due_date: string;
  status: string;
}

interface Group {
  count: number;
  by_status: Array<{ status: string; count: number }>;
  deadlines: Row[];
}

interface Timeline {
  overdue: Group;
  months: Array<Group & { month: string }>;
}

interface GraphqlAnswer<T> {
  status: number;
  data?: T;
  errors?: Array<{ message: string; extensions: { type: string; parameter?: string } }>;
}

const ROW = 'trademark_id type due_date status';
const PAGE = `query Page($id: ID!, $month: String, $overdue: Boolean, $limit: Int, $cursor: String, $as_of_date: String) {
  portfolioDeadlines(id: $id, month: $month, overdue: $overdue, limit: $limit, cursor: $cursor, as_of_date: $as_of_date) {
    data { ${ROW} }
    has_more
    pagination { cursor }
  }
}`;

describe('portfolioDeadlines by timeline group (month, overdue), paged', function () {
  this.timeout(120_000);
  // A fixed day (the middle of a month) so the groups, and what is overdue, are the same on every run.
  const NOW = new Date('2026-11-16T12:00:00Z');
  const COPIES = 24;
  let app: TestApp;
  let portfolioId: string;

  async function graphql<T>(query: string, variables: Record<string, unknown> = {}, key = app.keys.full): Promise<GraphqlAnswer<T>> {
    const response = await app.post('/graphql', { query, variables }, key);
    return { status: response.status, ...((await response.json()) as Omit<GraphqlAnswer<T>, 'status'>) };
  }

  async function timeline(perMonth: number): Promise<Timeline> {
    const answer = await graphql<{ portfolioDeadlineTimeline: Timeline }>(
      `query ($id: ID!, $per_month: Int) { portfolioDeadlineTimeline(id: $id, months: 12, per_month: $per_month) {
        overdue { count by_status { status count } deadlines { ${ROW} } }
        months { month count by_status { status count } deadlines { ${ROW} } }
      } }`,
      { id: portfolioId, per_month: perMonth },
    );
    expect(answer.status, JSON.stringify(answer.errors)).to.equal(200);
    return answer.data!.portfolioDeadlineTimeline;
  }

  /** Every page of one group, `limit` at a time. */
  async function pageThrough(group: { month: string } | { overdue: boolean }, limit: number): Promise<{ rows: Row[]; pages: number }> {
    const rows: Row[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: GraphqlAnswer<{ portfolioDeadlines: { data: Row[]; has_more: boolean; pagination: { cursor: string | null } } }> = await graphql(PAGE, {
        id: portfolioId,
        ...group,
        limit,
        cursor,
      });
      expect(answer.status, JSON.stringify(answer.errors)).to.equal(200);
      const page = answer.data!.portfolioDeadlines;
      expect(page.data.length).to.be.at.most(limit);
      rows.push(...page.data);
      cursor = page.pagination.cursor;
      expect(page.has_more).to.equal(cursor !== null);
      pages += 1;
    } while (cursor !== null && pages < 100);
    return { rows, pages };
  }

  const keyOf = (row: Row): string => `${row.trademark_id}/${row.type}/${row.due_date}`;

  const statusCounts = (rows: readonly Row[]) => {
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
    return [...counts].map(([status, count]) => ({ status, count })).sort((a, b) => (a.status < b.status ? -1 : 1));
  };

  before(async () => {
    app = await startTestApp({ marks: 300, now: () => NOW, organization: { plan: 'pro' } });
    const today = NOW.toISOString().slice(0, 10);
    // Marks whose renewal fell due in the last months (some still in their grace period) and marks due within the year.
    const recent = await ok<{ data: Array<{ id: string }> }>(
      await send(app, 'GET', `/v1/trademarks?renewal_due_date_lt=${today}&renewal_due_date_gte=2026-05-16&limit=20`),
    );
    const coming = await ok<{ data: Array<{ id: string }> }>(
      await send(app, 'GET', `/v1/trademarks?status_primary=active&renewal_due_date_gte=${today}&sort=renewal_due_date&limit=20`),
    );
    const portfolio = await ok<{ id: string }>(
      await send(app, 'POST', '/v1/portfolios', { name: 'Docket', trademark_ids: [...recent.data, ...coming.data].map((mark) => mark.id) }),
      201,
    );
    portfolioId = portfolio.id;
    const { overdue, months } = await timeline(20);
    const overdueMark = overdue.deadlines[0]?.trademark_id;
    const monthMark = months.find((month) => month.count > 0)?.deadlines[0]?.trademark_id;
    expect(overdueMark, 'a catalog mark with an overdue deadline').to.be.a('string');
    expect(monthMark, 'a catalog mark with a deadline within the year').to.be.a('string');
    // Copies of a mark share its deadlines: COPIES more in its month (and in the overdue group).
    const marks = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const copies: string[] = [];
    for (const id of [overdueMark!, monthMark!]) {
      const mark = (await marks.findOne({ _id: id }))!;
      for (let i = 0; i < COPIES; i++) {
        const application_number = `${mark.application_number}C${i}`;
        const copy: TrademarkDoc = { ...mark, _id: catalogId('tm_', mark.office_code, application_number), application_number, owner_ids: [] };
        await marks.insertOne(copy);
        copies.push(copy._id);
      }
    }
    await ok(await send(app, 'POST', `/v1/portfolios/${portfolioId}/trademarks`, { trademark_ids: copies }));
  });

  after(async () => app?.close());

  it("pages through a month of more than 20 deadlines: each once, in the timeline's order, as many as its count", async () => {
    const shown = await timeline(20);
    const whole = await timeline(100);
    const busy = shown.months.filter((month) => month.count > 20);
    expect(busy.length, 'a month of more than 20 deadlines').to.be.at.least(1);
    for (const month of busy) {
      expect(month.deadlines).to.have.length(20);
      const { rows, pages } = await pageThrough({ month: month.month }, 7);
      expect(pages).to.equal(Math.ceil(month.count / 7));
      expect(rows).to.have.length(month.count);
      expect(new Set(rows.map(keyOf)).size).to.equal(month.count);
      expect(rows.every((row) => row.due_date.startsWith(`${month.month}-`))).to.equal(true);
      // The timeline's first 20, then the rest, in its order (due date, mark, type), with its statuses.
      expect(rows.slice(0, 20)).to.deep.equal(month.deadlines);
      expect(rows).to.deep.equal(whole.months.find((candidate) => candidate.month === month.month)?.deadlines);
      expect(statusCounts(rows)).to.deep.equal(month.by_status);
    }
  });

  it("pages through the overdue deadlines (due before this month, still actionable) as the timeline's overdue group", async () => {
    const { overdue } = await timeline(20);
    const whole = await timeline(100);
    expect(overdue.count).to.be.above(20);
    const { rows } = await pageThrough({ overdue: true }, 9);
    expect(rows).to.have.length(overdue.count);
    expect(new Set(rows.map(keyOf)).size).to.equal(overdue.count);
    expect(rows.every((row) => row.due_date < '2026-11-01')).to.equal(true);
    expect(rows.slice(0, 20)).to.deep.equal(overdue.deadlines);
    expect(rows).to.deep.equal(whole.overdue.deadlines);
    expect(statusCounts(rows)).to.deep.equal(overdue.by_status);
    // overdue: false is the rest, every month's deadlines; the two halves make the whole list.
    const { rows: rest } = await pageThrough({ overdue: false }, 100);
    expect(rest.every((row) => row.due_date >= '2026-11-01')).to.equal(true);
    const all = await ok<{ data: Row[] }>(await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?limit=100`));
    expect(all.data.length).to.be.below(100);
    expect([...rows, ...rest].map(keyOf)).to.deep.equal(all.data.map(keyOf));
  });

  it('counts the current month from as_of_date when it is given', async () => {
    const answer = await graphql<{ portfolioDeadlines: { data: Row[] } }>(PAGE, { id: portfolioId, overdue: true, as_of_date: '2027-03-10', limit: 100 });
    expect(answer.status, JSON.stringify(answer.errors)).to.equal(200);
    const rows = answer.data!.portfolioDeadlines.data;
    const list = await ok<{ data: Row[] }>(
      await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?as_of_date=2027-03-10&due_before=2027-03-01&limit=100`),
    );
    expect(rows.length).to.be.above(0);
    expect(rows.map(keyOf)).to.deep.equal(list.data.map(keyOf));
  });

  it('refuses bad arguments with 400 validation_error naming the argument, and a cursor of another group', async () => {
    const refused = async (variables: Record<string, unknown>, parameter: string) => {
      const answer = await graphql(PAGE, { id: portfolioId, ...variables });
      expect(answer.status, JSON.stringify(answer)).to.equal(400);
      expect(answer.errors?.[0]?.extensions).to.include({ type: 'validation_error', parameter });
      expect(answer.errors?.[0]?.message).to.match(new RegExp(`^${parameter}: `));
    };
    for (const month of ['2026-13', '2026-00', '2026-1', 'March', '2026-11-01', '']) await refused({ month }, 'month');
    await refused({ month: '2026-12', overdue: true }, 'overdue');
    await refused({ month: '2026-12', overdue: false }, 'overdue');
    await refused({ month: '2026-12', limit: 0 }, 'limit');
    await refused({ overdue: true, limit: 101 }, 'limit');
    await refused({ month: '2026-12', as_of_date: '2026-02-30' }, 'as_of_date');
    // A cursor belongs to its group: not another month's, not the overdue one's, not the whole list's.
    const first = await graphql<{ portfolioDeadlines: { pagination: { cursor: string | null } } }>(PAGE, { id: portfolioId, overdue: true, limit: 1 });
    const cursor = first.data!.portfolioDeadlines.pagination.cursor;
    expect(cursor).to.be.a('string');
    await refused({ month: '2026-12', cursor }, 'cursor');
    await refused({ overdue: false, cursor }, 'cursor');
    await refused({ cursor }, 'cursor');
    // A value of the wrong type is refused by GraphQL itself, before the resolver.
    const typed = await graphql(`{ portfolioDeadlines(id: "${portfolioId}", month: 202612) { has_more } }`);
    expect(typed.status).to.equal(400);
    expect(typed.errors?.[0]?.extensions.type).to.equal('validation_error');
  });

  it('is guarded as the portfolio deadlines route, and that route takes no group parameter', async () => {
    const billing = await graphql(PAGE, { id: portfolioId, month: '2026-12' }, app.keys.billingOnly);
    expect(billing.status).to.equal(403);
    const other = await graphql(PAGE, { id: portfolioId, month: '2026-12' }, app.keys.otherOrg);
    expect(other.status).to.equal(404);
    await fails(await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?month=2026-12`), 400, 'validation_error', 'month');
    await fails(await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?overdue=true`), 400, 'validation_error', 'overdue');
    // Its pages still run through every deadline.
    const first = await ok<{ data: Row[]; pagination: { cursor: string | null } }>(await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?limit=10`));
    const next = await ok<{ data: Row[] }>(
      await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?limit=10&cursor=${encodeURIComponent(first.pagination.cursor!)}`),
    );
    const all = await ok<{ data: Row[] }>(await send(app, 'GET', `/v1/portfolios/${portfolioId}/deadlines?limit=20`));
    expect([...first.data, ...next.data].map(keyOf)).to.deep.equal(all.data.map(keyOf));
  });
});
