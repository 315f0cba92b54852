/**
 * include_total on the lists that are not search-index lists (an organization's own records, one
 * record's rows), black-box over HTTP, one table for all of them. Each expected total is what this
 * test created, or what the fixture's records hold (never the API's own answer): with
 * include_total=true pagination carries it, exact (total_count_approximate false), and the same on
 * the next page; without the parameter (or with false) neither member is there; a value that is
 * not a boolean is 400 naming include_total.
 */
import { expect } from 'chai';
import { COLLECTIONS, type TrademarkChangeDoc, type TrademarkEventDoc } from '../../domain/records';
import { addMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send } from '../support/http';
import { computedDeadlines } from '../support/mark-deadlines';
import { attorneyClients, readCatalog } from '../support/party-expectations';

interface Page<T = unknown> {
  object: string;
  data: T[];
  has_more: boolean;
  pagination: { cursor: string | null; total_count?: number; total_count_approximate?: boolean };
}

interface Case {
  list: string;
  /** The list's path with its filters (no paging parameters). */
  path: string;
  expected: number;
}

const today = (): string => new Date().toISOString().slice(0, 10);
const AS_OF = '2026-06-01';

const LISTS = [
  '/v1/organization/api-keys',
  '/v1/feedback',
  '/v1/owners/:id/related',
  '/v1/attorneys/:id/clients',
  '/v1/organization/logs',
  '/v1/watches',
  '/v1/watches/:id/alerts',
  '/v1/alerts',
  '/v1/portfolios',
  '/v1/portfolios/:id/deadlines',
  '/v1/saved-searches',
  '/v1/webhooks',
  '/v1/webhooks/:id/deliveries',
  '/v1/events',
  '/v1/trademarks/:id/changes',
  '/v1/trademarks/:id/history',
];

describe('REST: include_total on the lists of an organization’s own records and of one record’s rows', function () {
  this.timeout(120_000);
  let app: TestApp;
  const cases: Case[] = [];

  const created = async <T>(path: string, body: unknown, status = 201): Promise<T> => ok<T>(await send(app, 'POST', path, body), status);

  before(async function () {
    this.timeout(180_000);
    app = await startTestApp();
    const catalog = await readCatalog(app.adapters.store);

    // API keys: the harness made three (full, billing, legacy); three more here, two of them revoked.
    const keys: Array<{ id: string }> = [];
    for (const name of ['one', 'two', 'three']) keys.push(await created<{ id: string }>('/v1/organization/api-keys', { name, scopes: ['trademarks:read'] }));
    for (const key of keys.slice(0, 2)) await ok(await send(app, 'DELETE', `/v1/organization/api-keys/${key.id}`));
    cases.push({ list: 'api keys', path: '/v1/organization/api-keys', expected: 3 + keys.length });
    cases.push({ list: 'revoked api keys', path: '/v1/organization/api-keys?status=revoked', expected: 2 });

    // Feedback: three bugs and two ideas.
    const feedbackTypes = ['bug', 'bug', 'bug', 'feature_request', 'feature_request'];
    for (const type of feedbackTypes) await created('/v1/feedback', { type, message: `A ${type} report` });
    cases.push({ list: 'feedback', path: '/v1/feedback', expected: feedbackTypes.length });
    cases.push({ list: 'feedback of one type', path: '/v1/feedback?type=bug', expected: 3 });

    // An owner's relatives and an attorney's clients, from the fixture's records.
    const owner = [...catalog.owners].filter((o) => o.merged_into === null).sort((a, b) => b.relationships.length - a.relationships.length)[0]!;
    expect(owner.relationships.length).to.be.at.least(2);
    cases.push({ list: 'owner relatives', path: `/v1/owners/${owner._id}/related`, expected: owner.relationships.length });
    const children = owner.relationships.filter((r) => r.direction === 'child').length;
    if (children >= 2) cases.push({ list: 'owner children', path: `/v1/owners/${owner._id}/related?direction=child`, expected: children });
    const clientsOf = (id: string) => attorneyClients(catalog, id).size;
    const attorney = [...catalog.attorneys].filter((a) => a.merged_into === null).sort((a, b) => clientsOf(b._id) - clientsOf(a._id))[0]!;
    expect(clientsOf(attorney._id)).to.be.at.least(2);
    cases.push({ list: 'attorney clients', path: `/v1/attorneys/${attorney._id}/clients`, expected: clientsOf(attorney._id) });

    // Watches: two that will alert, two whose filters none of the marks below match.
    const watch = async (filters: Record<string, unknown>) => (await created<{ id: string }>('/v1/watches', { watch_type: 'filter', query: { filters } })).id;
    const usClass9 = await watch({ offices: ['us'], niceClasses: [9] });
    const emClass25 = await watch({ offices: ['em'], niceClasses: [25] });
    await watch({ offices: ['us'], niceClasses: [45] });
    await watch({ offices: ['em'], niceClasses: [44] });
    cases.push({ list: 'watches', path: '/v1/watches', expected: 4 });
    cases.push({ list: 'watches of one type', path: '/v1/watches?watch_type=filter', expected: 4 });

    // Alerts: four new US class 9 marks and two EM class 25 marks, each alerting one watch once.
    const writer = new MarkWriter(app.adapters.store);
    const add = (markText: string, officeCode: string, niceClass: number) =>
      addMark(app.adapters.store, writer, { markText, officeCode, classes: [niceClass], ownerName: 'Totals Test Ltd', status: 'pending', today: today() });
    for (const text of ['Quill Harbor', 'Quill Meadow', 'Quill Summit', 'Quill Lagoon']) await add(text, 'US', 9);
    for (const text of ['Velvet Orbit', 'Velvet Comet']) await add(text, 'EM', 25);
    await app.server.watchEvaluator.catchUp();
    await app.server.watchEvaluator.catchUp();
    cases.push({ list: 'watch alerts', path: `/v1/watches/${usClass9}/alerts`, expected: 4 });
    cases.push({ list: 'alerts', path: '/v1/alerts', expected: 6 });
    cases.push({ list: 'alerts of one watch (filter)', path: `/v1/alerts?watch_id=${emClass25}`, expected: 2 });
    cases.push({ list: 'open alerts', path: '/v1/alerts?status=open', expected: 6 });

    // Events: one watch.created per watch, one alert.created per alert.
    cases.push({ list: 'watch.created events', path: '/v1/events?type=watch.created', expected: 4 });
    cases.push({ list: 'alert.created events', path: '/v1/events?type=alert.created', expected: 6 });

    // Portfolios and saved searches; the first portfolio's deadlines counted through POST /v1/deadlines/compute.
    const marks = (await ok<Page<{ id: string }>>(await send(app, 'GET', '/v1/trademarks?offices=US&status_primary=active&limit=4'))).data;
    expect(marks.length).to.equal(4);
    const portfolio = await created<{ id: string }>('/v1/portfolios', { name: 'Deadlines', trademark_ids: marks.map((mark) => mark.id) });
    await created('/v1/portfolios', { name: 'Second' });
    await created('/v1/portfolios', { name: 'Third' });
    cases.push({ list: 'portfolios', path: '/v1/portfolios', expected: 3 });
    const deadlines = (
      await computedDeadlines(
        app,
        marks.map((mark) => mark.id),
        AS_OF,
      )
    ).length;
    expect(deadlines).to.be.at.least(2);
    cases.push({ list: 'portfolio deadlines', path: `/v1/portfolios/${portfolio.id}/deadlines?as_of_date=${AS_OF}`, expected: deadlines });
    for (const name of ['US live', 'EM live', 'Class 9']) await created('/v1/saved-searches', { name, query: { offices: ['US'], nice_classes: [9] } });
    cases.push({ list: 'saved searches', path: '/v1/saved-searches', expected: 3 });

    // Webhooks, made last and subscribed to an event nothing here raises: their only deliveries are three tests.
    const endpoints: Array<{ id: string }> = [];
    for (const n of [1, 2, 3])
      endpoints.push(await created<{ id: string }>('/v1/webhooks', { url: `http://127.0.0.1:9/hook-${n}`, enabled_events: ['webhook_endpoint.disabled'] }));
    cases.push({ list: 'webhook endpoints', path: '/v1/webhooks', expected: endpoints.length });
    for (let i = 0; i < 3; i++) await created(`/v1/webhooks/${endpoints[0]!.id}/test`, {}, 202);
    cases.push({ list: 'webhook deliveries', path: `/v1/webhooks/${endpoints[0]!.id}/deliveries`, expected: 3 });

    // Request logs: three calls of one route, written out before the lists are read.
    for (let i = 0; i < 3; i++) await ok(await send(app, 'GET', '/v1/organization/plan'));
    await app.flushRequestLogs();
    cases.push({ list: 'request logs of one route', path: '/v1/organization/logs?route=/v1/organization/plan', expected: 3 });

    // A mark's change records and prosecution events, counted in the fixture's records.
    const changes = await app.adapters.store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges).find({});
    const events = await app.adapters.store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents).find({});
    const countBy = (ids: string[]): Map<string, number> => ids.reduce((counts, id) => counts.set(id, (counts.get(id) ?? 0) + 1), new Map<string, number>());
    const stageChanges = countBy(changes.filter((change) => change.changed_fields.includes('status_stage')).map((change) => change.trademark_id));
    const [changed, stageChangeCount] = [...stageChanges].sort((a, b) => b[1] - a[1])[0]!;
    cases.push({ list: 'trademark changes', path: `/v1/trademarks/${changed}/changes`, expected: changes.filter((c) => c.trademark_id === changed).length });
    cases.push({ list: 'trademark changes of one field', path: `/v1/trademarks/${changed}/changes?changed_field=status_stage`, expected: stageChangeCount });
    const [eventful, eventCount] = [...countBy(events.map((event) => event.trademark_id))].sort((a, b) => b[1] - a[1])[0]!;
    cases.push({ list: 'trademark history', path: `/v1/trademarks/${eventful}/history`, expected: eventCount });
  });
  after(async () => app?.close());

  const withParams = (path: string, params: string): string => `${path}${path.includes('?') ? '&' : '?'}${params}`;
  const page = async (path: string): Promise<Page> => ok<Page>(await send(app, 'GET', path));

  it('covers each of these lists', () => {
    for (const template of LISTS) {
      const pattern = new RegExp(`^${template.replace(':id', '[^/]+')}(?:\\?|$)`);
      expect(
        cases.some((c) => pattern.test(c.path)),
        template,
      ).to.equal(true);
    }
  });

  it('include_total=true: pagination carries the exact total of the list under its filters, the same on the next page', async () => {
    for (const { list, path, expected } of cases) {
      expect(expected, list).to.be.at.least(2);
      const first = await page(withParams(path, 'include_total=true&limit=1'));
      expect(first.pagination, list).to.deep.equal({ cursor: first.pagination.cursor, total_count: expected, total_count_approximate: false });
      expect(first.data.length, list).to.equal(1);
      expect(first.has_more, list).to.equal(true);
      const second = await page(withParams(path, `include_total=true&limit=1&cursor=${encodeURIComponent(first.pagination.cursor!)}`));
      expect(second.data.length, list).to.equal(1);
      expect(second.pagination.total_count, list).to.equal(expected);
      expect(second.pagination.total_count_approximate, list).to.equal(false);
    }
  });

  it('a row written between two pages is not listed, and the total stays as the first page counted it', async () => {
    const path = '/v1/events?type=watch.created';
    const first = await page(withParams(path, 'include_total=true&limit=1'));
    const counted = first.pagination.total_count!;
    await created('/v1/watches', { watch_type: 'filter', name: 'Written between pages', query: { filters: { offices: ['us'] } } });
    let cursor = first.pagination.cursor;
    const ids = first.data.map((row) => (row as { id: string }).id);
    while (cursor !== null) {
      const next = await page(withParams(path, `include_total=true&limit=1&cursor=${encodeURIComponent(cursor)}`));
      expect(next.pagination.total_count).to.equal(counted);
      ids.push(...next.data.map((row) => (row as { id: string }).id));
      cursor = next.pagination.cursor;
    }
    expect(ids).to.have.length(counted);
    // A new first page counts the new row.
    expect((await page(withParams(path, 'include_total=true&limit=1'))).pagination.total_count).to.equal(counted + 1);
  });

  it('without include_total, or with false, pagination carries the cursor alone', async () => {
    for (const { list, path } of cases) {
      for (const params of ['limit=1', 'limit=1&include_total=false']) {
        const body = await page(withParams(path, params));
        expect(Object.keys(body.pagination), `${list} ${params}`).to.deep.equal(['cursor']);
      }
    }
  });

  it('include_total that is not a boolean is 400 naming include_total and the rule (a parameter of the endpoint, not an unknown one)', async () => {
    for (const { path } of cases) {
      const refused = await fails(await send(app, 'GET', withParams(path, 'include_total=yes')), 400, 'validation_error', 'include_total');
      expect(refused.error.detail, path).to.contain('true or false');
    }
  });
});
