/**
 * Watch diagnostics and alerts show the opposition window trademark detail shows (the one rule
 * choice, resolvers/trademarks/opposition-window.ts): a Japanese mark, opposed after
 * registration, is not `no_rule` there either. Black-box over HTTP, the mark written through the
 * one write path as `marque marks add|update` does.
 */
import { expect } from 'chai';
import { addMark, updateMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { startTestApp, type TestApp } from '../support/harness';
import { ok, send } from '../support/http';

interface Window {
  status: string;
  trigger_event: string;
  publication_date: string | null;
  window_opens: string | null;
  window_closes: string | null;
  must_act_by: string | null;
  days_remaining: number | null;
  approximate: boolean;
}

describe('opposition windows in watch diagnostics and alerts', function () {
  this.timeout(60_000);
  let app: TestApp;
  let writer: MarkWriter;

  before(async () => {
    app = await startTestApp({ marks: 50 });
    writer = new MarkWriter(app.adapters.store);
  });
  after(async () => app.close());

  it('a JP mark registered in 2016: closed, from the JP registration_publication rule, in detail, alert and diagnostics alike', async () => {
    const { trademark_id: id } = await addMark(app.adapters.store, writer, {
      markText: 'Kiri Lantern',
      officeCode: 'JP',
      classes: [9],
      ownerName: 'Watch Test KK',
      status: 'pending',
      today: '2015-09-01',
    });
    const watch = await ok<{ id: string }>(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { trademark_ids: [id] } }), 201);
    await app.server.watchEvaluator.catchUp();
    // Registered 2016-03-11 (the date `registered` fills in), never published in the record.
    await updateMark(app.adapters.store, writer, id, { status: 'registered', eventType: null, publicationDate: null, today: '2016-03-11' });
    await app.server.watchEvaluator.catchUp();

    // By hand, JP domestic rule (registration_publication, 2 months, day_after, calendar JP), the
    // registration date standing in for its gazette publication: opens 2016-03-12, closes
    // 2016-03-11 + 2 months = 2016-05-11, a Wednesday (no roll); closed long ago.
    const detail = await ok<{ registration_date: string; opposition_window: Window }>(await send(app, 'GET', `/v1/trademarks/${id}`));
    expect(detail.registration_date).to.equal('2016-03-11');
    expect(detail.opposition_window).to.include({
      status: 'closed',
      trigger_event: 'registration_publication',
      publication_date: '2016-03-11',
      window_opens: '2016-03-12',
      window_closes: '2016-05-11',
      must_act_by: '2016-05-11',
      approximate: true,
    });

    const alerts = await ok<{ data: Array<{ trigger: { type: string }; must_act_by: string | null; opposition_window_status: string }> }>(
      await send(app, 'GET', `/v1/watches/${watch.id}/alerts?limit=100`),
    );
    const registration = alerts.data.find((alert) => alert.trigger.type === 'registration');
    expect(registration, JSON.stringify(alerts.data)).to.not.equal(undefined);
    expect(registration).to.include({ must_act_by: '2016-05-11', opposition_window_status: 'closed' });

    const diagnostics = await ok<{ marks: Array<{ trademark_id: string; opposition_window: Record<string, unknown> }> }>(
      await send(app, 'GET', `/v1/watches/${watch.id}/diagnostics`),
    );
    expect(diagnostics.marks).to.have.length(1);
    expect(diagnostics.marks[0]!.opposition_window).to.deep.equal({
      window_status: 'closed',
      // The JP rule runs from the registration's publication; the registration date stands in for it.
      trigger_event: 'registration_publication',
      publication_date: detail.registration_date,
      window_opens: '2016-03-12',
      window_closes: '2016-05-11',
      must_act_by: '2016-05-11',
      days_remaining: detail.opposition_window.days_remaining,
      approximate: true,
    });
  });
});
