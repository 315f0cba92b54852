/**
 * Portfolios and saved searches, black-box over HTTP. Expected answers come from the contract's
 * own endpoints: a portfolio's deadlines equal POST /v1/deadlines/compute for its marks' public
 * fields, and a saved search's run equals GET /v1/trademarks with its parameters.
 */
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send } from '../support/http';
import { computedDeadlines } from '../support/mark-deadlines';

interface Portfolio {
  id: string;
  object: string;
  name: string;
  trademark_ids: string[];
  trademark_count: number;
}

interface Mark {
  id: string;
  office_code: string;
  jurisdiction_code: string;
  filing_route: string;
  status: { stage: string };
  filing_date: string;
  registration_date: string | null;
  expiry_date: string | null;
  renewal_due_date: string | null;
}

interface List<T> {
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null };
}

describe('portfolios and saved searches (issue 15)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let marks: Mark[];

  before(async () => {
    app = await startTestApp({ marks: 300 });
    marks = (await ok<List<Mark>>(await send(app, 'GET', '/v1/trademarks?offices=US&status_primary=active&limit=6'))).data;
    expect(marks.length).to.equal(6);
  });
  after(async () => app.close());

  describe('portfolios', () => {
    let portfolio: Portfolio;

    before(async () => {
      portfolio = await ok<Portfolio>(
        await send(app, 'POST', '/v1/portfolios', { name: 'ACME', trademark_ids: marks.slice(0, 4).map((mark) => mark.id) }),
        201,
      );
    });

    it('creates, reads, lists and renames', async () => {
      expect(portfolio).to.include({ object: 'portfolio', name: 'ACME', trademark_count: 4 });
      expect(portfolio.id).to.match(/^pf_/);
      expect((await ok<Portfolio>(await send(app, 'GET', `/v1/portfolios/${portfolio.id}`))).trademark_ids).to.deep.equal(
        marks.slice(0, 4).map((mark) => mark.id),
      );
      expect((await ok<List<Portfolio>>(await send(app, 'GET', '/v1/portfolios'))).data.map((p) => p.id)).to.include(portfolio.id);
      expect((await ok<Portfolio>(await send(app, 'PATCH', `/v1/portfolios/${portfolio.id}`, { name: 'ACME Corp.' }))).name).to.equal('ACME Corp.');
    });

    it('adds and removes marks; an unknown mark is 400 naming trademark_ids[i]', async () => {
      const added = await ok<Portfolio>(await send(app, 'POST', `/v1/portfolios/${portfolio.id}/trademarks`, { trademark_ids: [marks[4]?.id, marks[0]?.id] }));
      expect(added.trademark_count).to.equal(5);
      const removed = await ok<Portfolio>(await send(app, 'POST', `/v1/portfolios/${portfolio.id}/trademarks/remove`, { trademark_ids: [marks[4]?.id] }));
      expect(removed.trademark_ids).to.deep.equal(marks.slice(0, 4).map((mark) => mark.id));
      await fails(
        await send(app, 'POST', `/v1/portfolios/${portfolio.id}/trademarks`, { trademark_ids: [marks[5]?.id, 'tm_0000000000000000000000'] }),
        400,
        'validation_error',
        'trademark_ids[1]',
      );
    });

    it("lists the portfolio's marks with the trademark list filters", async () => {
      const all = await ok<List<{ id: string }>>(await send(app, 'GET', `/v1/portfolios/${portfolio.id}/trademarks?limit=100`));
      expect(all.data.map((mark) => mark.id).sort()).to.deep.equal(
        marks
          .slice(0, 4)
          .map((mark) => mark.id)
          .sort(),
      );
      const none = await ok<List<{ id: string }>>(await send(app, 'GET', `/v1/portfolios/${portfolio.id}/trademarks?offices=EM`));
      expect(none.data).to.deep.equal([]);
      const paged = await ok<List<{ id: string }>>(await send(app, 'GET', `/v1/portfolios/${portfolio.id}/trademarks?limit=3`));
      expect(paged.has_more).to.equal(true);
      const next = await ok<List<{ id: string }>>(
        await send(app, 'GET', `/v1/portfolios/${portfolio.id}/trademarks?limit=3&cursor=${encodeURIComponent(paged.pagination.cursor ?? '')}`),
      );
      expect([...paged.data, ...next.data].map((mark) => mark.id).sort()).to.deep.equal(all.data.map((mark) => mark.id).sort());
    });

    it('deadlines: the same computation as POST /v1/deadlines/compute for each mark, by due date; due_before keeps what is due before it', async () => {
      const asOf = '2026-06-01';
      const rows = (
        await ok<List<{ trademark_id: string; type: string; due_date: string }>>(
          await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?as_of_date=${asOf}&limit=100`),
        )
      ).data;
      const expected = await computedDeadlines(
        app,
        marks.slice(0, 4).map((mark) => mark.id),
        asOf,
      );
      expect(expected.length).to.be.above(0);
      expect(rows.map(({ trademark_id, type, due_date }) => ({ trademark_id, type, due_date }))).to.have.deep.members(expected);
      expect(rows.map((row) => row.due_date)).to.deep.equal([...rows.map((row) => row.due_date)].sort());
      const cutoff = rows[Math.floor(rows.length / 2)]?.due_date ?? '2030-01-01';
      const due = (
        await ok<List<{ due_date: string }>>(
          await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?as_of_date=${asOf}&due_before=${cutoff}&limit=100`),
        )
      ).data;
      expect(due.length).to.equal(rows.filter((row) => row.due_date < cutoff).length);
    });

    it('deadlines: an as_of_date outside the office years is 400 naming it', async () => {
      for (const asOf of ['0001-01-01', '9999-01-01']) {
        const response = await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?as_of_date=${asOf}`);
        const body = (await response.json()) as { error: { type: string; detail: string } };
        expect([response.status, body.error.type, body.error.detail]).to.deep.equal([
          400,
          'validation_error',
          `as_of_date: must be a date in the years 1800 to 2199 (got '${asOf}')`,
        ]);
      }
    });

    it('deadlines: a type that names no deadline type ("renewals") is 400 listing the types, through REST and GraphQL, not an empty list', async () => {
      const response = await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?type=renewals`);
      const body = (await response.json()) as { error: { type: string; detail: string } };
      expect([response.status, body.error.type]).to.deep.equal([400, 'validation_error']);
      expect(body.error.detail).to.match(/^type: must be one of .* \(got 'renewals'\)$/);
      for (const type of ['renewal', 'declaration_of_use', 'statement_of_use']) expect(body.error.detail).to.contain(type);
      const graphql = await send(app, 'POST', '/graphql', {
        query: `{ portfolioDeadlines(id: "${portfolio.id}", type: "renewals") { data { type } } }`,
      });
      const answer = (await graphql.json()) as { errors?: Array<{ extensions: { detail: string } }> };
      expect(answer.errors?.[0]?.extensions.detail).to.equal(body.error.detail);
      expect((await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?type=renewal`)).status).to.equal(200);
    });

    it('GraphQL portfolioDeadlineTimeline: the same deadlines as the REST list, overdue ones then by month, with counts per status', async () => {
      const now = new Date();
      const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 60, 1)).toISOString().slice(0, 10);
      const rows = (
        await ok<List<{ trademark_id: string; type: string; due_date: string; status: string }>>(
          await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines?due_before=${end}&limit=100`),
        )
      ).data;
      expect(rows.length).to.be.above(0);
      const response = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `{ portfolioDeadlineTimeline(id: "${portfolio.id}", months: 60, per_month: 100) { overdue { count deadlines { trademark_id type due_date } } months { month count by_status { status count } deadlines { trademark_id type due_date } } } }`,
        }),
      });
      type Group = {
        count: number;
        by_status: Array<{ status: string; count: number }>;
        deadlines: Array<{ trademark_id: string; type: string; due_date: string }>;
      };
      const body = (await response.json()) as { data: { portfolioDeadlineTimeline: { overdue: Group; months: Array<Group & { month: string }> } } };
      const { overdue, months } = body.data.portfolioDeadlineTimeline;
      const thisMonth = now.toISOString().slice(0, 7);
      expect(months).to.have.length(60);
      expect(months[0]?.month).to.equal(thisMonth);
      expect(months.map((month) => month.month)).to.deep.equal([...months.map((month) => month.month)].sort());
      // Still actionable but due before this month (a grace period) come first, as overdue.
      expect(overdue.count).to.equal(rows.filter((row) => row.due_date.slice(0, 7) < thisMonth).length);
      expect([...overdue.deadlines, ...months.flatMap((month) => month.deadlines)]).to.deep.equal(
        rows.map(({ trademark_id, type, due_date }) => ({ trademark_id, type, due_date })),
      );
      for (const month of months) {
        expect(month.count).to.equal(rows.filter((row) => row.due_date.startsWith(month.month)).length);
        expect(month.by_status.reduce((sum, entry) => sum + entry.count, 0)).to.equal(month.count);
      }
    });

    it("another organization's portfolio is 404 in REST and GraphQL", async () => {
      const other = app.keys.otherOrg;
      await fails(await send(app, 'GET', `/v1/portfolios/${portfolio.id}`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/portfolios/${portfolio.id}/trademarks`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/portfolios/${portfolio.id}/deadlines`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'POST', `/v1/portfolios/${portfolio.id}/trademarks`, { trademark_ids: [marks[5]?.id] }, other), 404, 'not_found');
      await fails(await send(app, 'DELETE', `/v1/portfolios/${portfolio.id}`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { portfolio_id: portfolio.id } }, other), 404, 'not_found');
      const graphql = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ portfolio(id: "${portfolio.id}") { id } }` }),
      });
      expect(graphql.status).to.equal(404);
    });

    it('a trademark watch of the portfolio follows marks added later', async () => {
      const watch = await ok<{ id: string }>(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { portfolio_id: portfolio.id } }), 201);
      await ok(await send(app, 'POST', `/v1/portfolios/${portfolio.id}/trademarks`, { trademark_ids: [marks[5]?.id] }));
      const preview = await ok<{ estimated_match_count: number }>(
        await send(app, 'POST', '/v1/watches/preview', { watch_type: 'trademark', query: { portfolio_id: portfolio.id }, count_only: true }),
      );
      expect(preview.estimated_match_count).to.equal(5);
      expect(watch.id).to.match(/^wch_/);
    });
  });

  describe('saved searches', () => {
    const query = { offices: ['US'], status_primary: 'active', sort: '-filing_date' };

    it('runs exactly as GET /v1/trademarks with its parameters, cursors included', async () => {
      const saved = await ok<{ id: string; object: string; query: Record<string, unknown> }>(
        await send(app, 'POST', '/v1/saved-searches', { name: 'US live', query }),
        201,
      );
      expect(saved.object).to.equal('saved_search');
      expect(saved.id).to.match(/^ss_/);
      const direct = await ok<List<{ id: string }> & { search_meta: unknown }>(
        await send(app, 'GET', '/v1/trademarks?offices=US&status_primary=active&sort=-filing_date&limit=5'),
      );
      const run = await ok<List<{ id: string }> & { search_meta: unknown }>(await send(app, 'POST', `/v1/saved-searches/${saved.id}/run`, { limit: 5 }));
      expect(run.data).to.deep.equal(direct.data);
      expect(run.search_meta).to.deep.equal(direct.search_meta);
      const nextDirect = await ok<List<{ id: string }>>(
        await send(
          app,
          'GET',
          `/v1/trademarks?offices=US&status_primary=active&sort=-filing_date&limit=5&cursor=${encodeURIComponent(direct.pagination.cursor ?? '')}`,
        ),
      );
      const nextRun = await ok<List<{ id: string }>>(
        await send(app, 'POST', `/v1/saved-searches/${saved.id}/run`, { limit: 5, cursor: run.pagination.cursor }),
      );
      expect(nextRun.data).to.deep.equal(nextDirect.data);
    });

    it("checks the query with GET /v1/trademarks's rules, errors named query.<param>", async () => {
      await fails(await send(app, 'POST', '/v1/saved-searches', { name: 'x', query: { nice_classes: [99] } }), 400, 'validation_error', 'query.nice_classes');
      await fails(await send(app, 'POST', '/v1/saved-searches', { name: 'x', query: { niceClasses: [9] } }), 400, 'validation_error', 'query.niceClasses');
      await fails(
        await send(app, 'POST', '/v1/saved-searches', { name: 'x', query: { filing_date_gte: 'yesterday' } }),
        400,
        'validation_error',
        'query.filing_date_gte',
      );
    });

    it('renames, deletes; another organization sees 404', async () => {
      const saved = await ok<{ id: string }>(await send(app, 'POST', '/v1/saved-searches', { name: 'CH', query: { offices: ['CH'] } }), 201);
      expect((await ok<{ name: string }>(await send(app, 'PATCH', `/v1/saved-searches/${saved.id}`, { name: 'Swiss' }))).name).to.equal('Swiss');
      await fails(await send(app, 'GET', `/v1/saved-searches/${saved.id}`, undefined, app.keys.otherOrg), 404, 'not_found');
      await fails(await send(app, 'POST', `/v1/saved-searches/${saved.id}/run`, {}, app.keys.otherOrg), 404, 'not_found');
      await ok(await send(app, 'DELETE', `/v1/saved-searches/${saved.id}`));
      await fails(await send(app, 'GET', `/v1/saved-searches/${saved.id}`), 404, 'not_found');
    });

    it('plan limits: a starter organization keeps 25 saved searches', async () => {
      const starter = await startTestApp({ marks: 20, organization: { plan: 'starter' } });
      try {
        for (let i = 0; i < 25; i++) await ok(await send(starter, 'POST', '/v1/saved-searches', { name: `s${i}`, query: { offices: ['US'] } }), 201);
        const refused = await fails(
          await send(starter, 'POST', '/v1/saved-searches', { name: 's25', query: { offices: ['US'] } }),
          403,
          'resource_limit_exceeded',
        );
        expect(refused.error).to.include({ limit_name: 'saved_searches', limit: 25, current: 25 });
      } finally {
        await starter.close();
      }
    });
  });
});
