/**
 * Watches and alerts, black-box over HTTP: marks are written through the one write path (as
 * `marque marks add|update` does), the watch evaluator is run, and the alerts are read back.
 * Expected triggers and dates come from the contract, the office rule (US opposition: 30 days
 * from publication) and the trademark detail's own opposition window.
 */
import { expect } from 'chai';
import { COLLECTIONS, type AlertDoc, type TrademarkDoc } from '../../domain/records';
import { addMark, updateMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { startTestApp, type TestApp } from '../support/harness';
import { fails, ok, send } from '../support/http';

interface Watch {
  id: string;
  object: string;
  watch_type: string;
  status: string;
  query: Record<string, unknown>;
  evaluating_since: string;
}

interface Alert {
  id: string;
  object: string;
  watch_id: string;
  trademark_id: string;
  trademark: { id: string; mark_text: string } | null;
  status: string;
  trigger: { type: string; record_version: number; event_type: string | null };
  score: number | null;
  signals: Array<{ type: string }> | null;
  must_act_by: string | null;
  opposition_window_status: string;
}

interface List<T> {
  object: string;
  data: T[];
  has_more: boolean;
}

const today = (): string => new Date().toISOString().slice(0, 10);

describe('watches and alerts (issue 15)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let writer: MarkWriter;

  before(async () => {
    // More monitoring requests than the plan's 100 a minute: the limit is not what this file tests.
    app = await startTestApp({ marks: 300, organization: { limitsOverride: { per_minute: { monitoring: 1_000 } } } });
    writer = new MarkWriter(app.adapters.store);
  });
  after(async () => app.close());

  const createWatch = async (body: unknown, key?: string): Promise<Watch> => ok<Watch>(await send(app, 'POST', '/v1/watches', body, key), 201);
  const evaluate = () => app.server.watchEvaluator.catchUp();
  const alertsOf = async (watchId: string): Promise<Alert[]> => (await ok<List<Alert>>(await send(app, 'GET', `/v1/watches/${watchId}/alerts?limit=100`))).data;
  const add = async (markText: string, officeCode: string, classes: number[], status = 'pending') =>
    (await addMark(app.adapters.store, writer, { markText, officeCode, classes, ownerName: 'Watch Test Ltd', status, today: today() })).trademark_id;

  describe('filter watches', () => {
    it('alert exactly once for a new mark matching the filters, with trigger new_filing; none for a mark outside them', async () => {
      const watch = await createWatch({ watch_type: 'filter', name: 'US class 9', query: { filters: { offices: ['us'], niceClasses: [9] } } });
      expect(watch).to.include({ object: 'watch', watch_type: 'filter', status: 'active' });
      expect(watch.id).to.match(/^wch_/);
      const matching = await add('Quartz Lantern', 'US', [9, 42]);
      await add('Quartz Lantern', 'EM', [9]);
      await add('Quartz Lantern', 'US', [25]);
      await evaluate();
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts.map((alert) => alert.trademark_id)).to.deep.equal([matching]);
      const [alert] = alerts as [Alert];
      expect(alert).to.include({ object: 'alert', watch_id: watch.id, status: 'open', score: null, signals: null });
      expect(alert.trigger).to.include({ type: 'new_filing', record_version: 1 });
      expect(alert.trademark).to.include({ id: matching, mark_text: 'Quartz Lantern' });
      // Not yet published: no window, nothing to act on.
      expect(alert).to.include({ must_act_by: null, opposition_window_status: 'not_published' });
      const diagnostics = await ok<{ evaluation: { alerts_created: number; last_change_processed_at: string | null; last_error: string | null } }>(
        await send(app, 'GET', `/v1/watches/${watch.id}/diagnostics`),
      );
      expect(diagnostics.evaluation).to.include({ alerts_created: 1, last_error: null });
      expect(diagnostics.evaluation.last_change_processed_at).to.be.a('string');
    });

    it('on a saved search: takes its filters (echoed in query.filters) and alerts on what they match', async () => {
      const saved = await ok<{ id: string }>(
        await send(app, 'POST', '/v1/saved-searches', { name: 'EM class 25', query: { offices: ['EM'], nice_classes: [25], sort: '-filing_date' } }),
        201,
      );
      const watch = await createWatch({ watch_type: 'filter', query: { saved_search_id: saved.id } });
      expect(watch.query).to.deep.equal({ saved_search_id: saved.id, filters: { offices: ['em'], niceClasses: [25] } });
      const matching = await add('Cobalt Meadow', 'EM', [25]);
      await add('Cobalt Meadow', 'US', [25]);
      await add('Cobalt Meadow', 'EM', [9]);
      await evaluate();
      expect((await alertsOf(watch.id)).map((alert) => alert.trademark_id)).to.deep.equal([matching]);
    });

    it('a saved search that cannot back a filter watch, or is not the organization’s, is refused by name', async () => {
      const withText = await ok<{ id: string }>(await send(app, 'POST', '/v1/saved-searches', { name: 'text', query: { q: 'cobalt', offices: ['US'] } }), 201);
      await fails(
        await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { saved_search_id: withText.id } }),
        400,
        'validation_error',
        'query.saved_search_id',
      );
      const theirs = await ok<{ id: string }>(
        await send(app, 'POST', '/v1/saved-searches', { name: 'theirs', query: { offices: ['US'] } }, app.keys.otherOrg),
        201,
      );
      await fails(await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { saved_search_id: theirs.id } }), 404, 'not_found');
      await fails(
        await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { saved_search_id: theirs.id, filters: { offices: ['us'] } } }),
        400,
        'validation_error',
        'query.saved_search_id',
      );
      await fails(
        await send(app, 'POST', '/v1/watches', { watch_type: 'similarity', query: { q: 'COBALT', saved_search_id: theirs.id } }),
        400,
        'validation_error',
        'query.saved_search_id',
      );
    });

    it('refuses office, jurisdiction, country and Vienna codes that name nothing (a watch on them could never alert), on create and preview', async () => {
      // "EU" is a jurisdiction, not an office (the EUIPO's office code is EM); ZZ and QQ name nothing.
      for (const [filters, parameter] of [
        [{ offices: ['EU'] }, 'query.filters.offices[0]'],
        [{ offices: ['us', 'XX'] }, 'query.filters.offices[1]'],
        [{ office: 'XX' }, 'query.filters.office'],
        [{ jurisdictions: ['ZZ'] }, 'query.filters.jurisdictions[0]'],
        [{ ownerCountry: ['QQQ'] }, 'query.filters.ownerCountry[0]'],
        [{ viennaCodes: ['1.2'] }, 'query.filters.viennaCodes[0]'],
      ] as const) {
        for (const path of ['/v1/watches', '/v1/watches/preview']) {
          const body = await fails(await send(app, 'POST', path, { watch_type: 'filter', query: { filters } }), 400, 'validation_error', parameter);
          expect(body.error.parameter).to.equal(parameter);
        }
      }
      // Casing is not a mistake: codes are read as the lists write them.
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { jurisdictions: ['eu'], ownerCountry: ['de'], office: 'em' } } });
      expect(watch.query).to.deep.equal({ filters: { jurisdictions: ['EU'], ownerCountry: ['DE'], office: 'EM' } });
      await send(app, 'DELETE', `/v1/watches/${watch.id}`);
    });

    it('an evaluator that catches up matches each version as it was: the same alerts as one that kept up', async () => {
      const pendingWatch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['us'], niceClasses: [44], statusPrimary: ['pending'] } } });
      const activeWatch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['us'], niceClasses: [44], statusPrimary: ['active'] } } });
      // Filed (v1, pending) and registered (v2, active) before the evaluator reads either change.
      const id = await add('Heron Quay', 'US', [44], 'pending');
      await updateMark(app.adapters.store, writer, id, { status: 'registered', eventType: null, publicationDate: '2025-03-04', today: today() });
      await evaluate();
      const triggers = async (watchId: string) => (await alertsOf(watchId)).map((alert) => `${alert.trigger.type} v${alert.trigger.record_version}`);
      // v1 was a pending new filing; v2 made it active: each watch hears of the version that matched it.
      expect(await triggers(pendingWatch.id)).to.deep.equal(['new_filing v1']);
      expect(await triggers(activeWatch.id)).to.deep.equal(['registration v2']);
      for (const watch of [pendingWatch, activeWatch]) await send(app, 'DELETE', `/v1/watches/${watch.id}`);
    });

    it('a change made while the watch was active is its, even when the evaluator reads it after a pause and resume; one made while paused is not', async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['us'], niceClasses: [43] } } });
      const before = await add('Plover Inn', 'US', [43]);
      await ok(await send(app, 'POST', `/v1/watches/${watch.id}/pause`));
      const during = await add('Curlew Inn', 'US', [43]);
      // Read by the evaluator while paused, and again after the resume: the same answer.
      await evaluate();
      await ok(await send(app, 'POST', `/v1/watches/${watch.id}/resume`));
      const afterResume = await add('Dunlin Inn', 'US', [43]);
      await evaluate();
      const alerted = (await alertsOf(watch.id)).map((alert) => alert.trademark_id).sort();
      expect(alerted).to.deep.equal([before, afterResume].sort());
      expect(alerted).not.to.include(during);
      await send(app, 'DELETE', `/v1/watches/${watch.id}`);
    });

    const patchQuery = async (watchId: string, query: unknown): Promise<Watch> => {
      const patched = await ok<Watch>(await send(app, 'PATCH', `/v1/watches/${watchId}`, { query }));
      // The queries it had are the evaluator's business, not part of the watch object.
      expect(patched).not.to.have.property('earlier_queries');
      return patched;
    };

    it('a change made before the query was PATCHed, read by the evaluator after, is matched with the query the watch had: it alerts', async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['us'], niceClasses: [41] } } });
      const before = await add('Godwit Hall', 'US', [41]);
      await patchQuery(watch.id, { filters: { offices: ['us'], niceClasses: [42] } });
      await evaluate();
      expect((await alertsOf(watch.id)).map((alert) => alert.trademark_id)).to.deep.equal([before]);
      await send(app, 'DELETE', `/v1/watches/${watch.id}`);
    });

    it('a mark only the new query matches alerts when made after the PATCH, not when made before it and read after', async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['us'], niceClasses: [39] } } });
      const before = await add('Whimbrel Yard', 'US', [40]);
      await patchQuery(watch.id, { filters: { offices: ['us'], niceClasses: [40] } });
      const after = await add('Sanderling Yard', 'US', [40]);
      // Now outside the query: the old query's class no longer alerts.
      await add('Turnstone Yard', 'US', [39]);
      await evaluate();
      const alerted = (await alertsOf(watch.id)).map((alert) => alert.trademark_id);
      expect(alerted).to.deep.equal([after]);
      expect(alerted).not.to.include(before);
      const read = await ok<Watch>(await send(app, 'GET', `/v1/watches/${watch.id}`));
      expect(read.query).to.deep.equal({ filters: { offices: ['us'], niceClasses: [40] } });
      expect(read).not.to.have.property('earlier_queries');
      await send(app, 'DELETE', `/v1/watches/${watch.id}`);
    });

    it('stores filters.offices lowercase whatever the casing, and translates them for matching', async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['uS', 'Em'] } } });
      expect(watch.query).to.deep.equal({ filters: { offices: ['us', 'em'] } });
    });
  });

  describe('trademark watches', () => {
    it('publication: one alert whose must_act_by is the 30-day US window of the mark detail', async () => {
      const id = await add('Cobalt Heron', 'US', [9]);
      const watch = await createWatch({ watch_type: 'trademark', query: { trademark_ids: [id] } });
      await evaluate();
      // Published two days ago: the window runs 30 days from publication (37 CFR 2.101(c)).
      const published = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
      await updateMark(app.adapters.store, writer, id, { status: 'published', eventType: null, publicationDate: published, today: today() });
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts).to.have.length(1);
      const [alert] = alerts as [Alert];
      expect(alert.trigger).to.include({ type: 'publication', record_version: 2 });
      const detail = await ok<{ opposition_window: { must_act_by: string; status: string } }>(await send(app, 'GET', `/v1/trademarks/${id}`));
      expect(alert.must_act_by).to.equal(detail.opposition_window.must_act_by);
      expect(alert.opposition_window_status).to.equal(detail.opposition_window.status);
      // 30 days after publication, or the next business day when that falls on a weekend.
      const nominal = new Date(Date.parse(published) + 30 * 86_400_000);
      const actBy = new Date(`${alert.must_act_by}T00:00:00Z`);
      expect(actBy.getTime()).to.be.at.least(nominal.getTime());
      expect(actBy.getTime() - nominal.getTime()).to.be.at.most(4 * 86_400_000);
    });

    it('registration and opposition events are named as such; a change watchers do not care about gives none', async () => {
      const id = await add('Amber Finch', 'US', [35]);
      const watch = await createWatch({ watch_type: 'trademark', query: { trademark_ids: [id] } });
      await updateMark(app.adapters.store, writer, id, { status: null, eventType: 'opposition_filed', publicationDate: null, today: today() });
      await evaluate();
      await updateMark(app.adapters.store, writer, id, { status: 'registered', eventType: null, publicationDate: null, today: today() });
      await evaluate();
      const types = (await alertsOf(watch.id)).map((alert) => [alert.trigger.type, alert.trigger.event_type]);
      // Newest first.
      expect(types).to.deep.equal([
        ['registration', null],
        ['opposition_filed', 'opposition_filed'],
      ]);
    });

    it('a paused watch produces nothing; resumed, it continues from now and does not replay what it missed', async () => {
      const id = await add('Slate Comet', 'US', [9]);
      const watch = await createWatch({ watch_type: 'trademark', query: { trademark_ids: [id] } });
      const paused = await ok<Watch>(await send(app, 'POST', `/v1/watches/${watch.id}/pause`));
      expect(paused.status).to.equal('paused');
      await updateMark(app.adapters.store, writer, id, { status: 'registered', eventType: null, publicationDate: null, today: today() });
      await evaluate();
      expect(await alertsOf(watch.id)).to.deep.equal([]);
      const resumed = await ok<Watch>(await send(app, 'POST', `/v1/watches/${watch.id}/resume`));
      expect(resumed.status).to.equal('active');
      expect(resumed.evaluating_since > watch.evaluating_since).to.equal(true);
      await evaluate();
      expect(await alertsOf(watch.id)).to.deep.equal([]);
      await updateMark(app.adapters.store, writer, id, { status: 'cancelled', eventType: null, publicationDate: null, today: today() });
      await evaluate();
      expect((await alertsOf(watch.id)).map((alert) => alert.trigger.type)).to.deep.equal(['cancellation']);
    });
  });

  describe('similarity watches', () => {
    it('a look-alike filing alerts with its score and signals (phonetic, typo); an unrelated one does not; the preview finds it', async () => {
      const watch = await createWatch({ watch_type: 'similarity', query: { q: 'Luminara', filters: { offices: ['us'] } } });
      const lookalike = await add('LUMMINARA', 'US', [9]);
      await add('Timberwolf', 'US', [9]);
      await add('LUMMINARA', 'EM', [9]);
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts.map((alert) => alert.trademark_id)).to.deep.equal([lookalike]);
      const [alert] = alerts as [Alert];
      expect(alert.score).to.be.at.least(0.75).and.below(1);
      expect(alert.signals?.map((signal) => signal.type)).to.include.members(['phonetic', 'typo']);
      await app.indexer.catchUp();
      const preview = await ok<{ data: Array<{ id: string }>; scores: Array<{ trademark_id: string; score: number }> }>(
        await send(app, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query: { q: 'Luminara', filters: { offices: ['us'] } } }),
      );
      expect(preview.data.map((mark) => mark.id)).to.include(lookalike);
      expect(preview.scores.find((entry) => entry.trademark_id === lookalike)?.score).to.equal(alert.score);
    });

    it('the preview finds the one-letter-off marks the watch alerts on (KENTRIVOX, ZENTRIVAX for ZENTRIVOX), though their keys differ', async () => {
      const query = { q: 'ZENTRIVOX', filters: { offices: ['em'], niceClasses: [9] } };
      const watch = await createWatch({ watch_type: 'similarity', query });
      const first = await add('KENTRIVOX', 'EM', [9]);
      const last = await add('ZENTRIVAX', 'EM', [9]);
      await add('Harbour Finch', 'EM', [9]);
      await evaluate();
      const alerted = (await alertsOf(watch.id)).map((alert) => alert.trademark_id);
      expect(alerted).to.have.members([first, last]);
      await app.indexer.catchUp();
      const preview = await ok<{ data: Array<{ id: string }> }>(await send(app, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query }));
      expect(preview.data.map((mark) => mark.id)).to.include.members([first, last]);
    });

    it('the preview of a mark too short to halve lists the one-letter-off marks its watch alerts on', async () => {
      // VOKE and ROKE share no phonetic key (FK, RK) nor look-alike form, and VOKE has no half of
      // four letters; they differ by one letter of four (typo 0.75), and share the trigram oke.
      const query = { q: 'VOKE', filters: { offices: ['em'] } };
      const watch = await createWatch({ watch_type: 'similarity', query });
      const oneOff = await add('ROKE', 'EM', [9]);
      await evaluate();
      expect((await alertsOf(watch.id)).map((alert) => alert.trademark_id)).to.include(oneOff);
      await app.indexer.catchUp();
      const preview = await ok<{ data: Array<{ id: string }> }>(await send(app, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query }));
      expect(preview.data.map((mark) => mark.id)).to.include(oneOff);
    });

    it('a mark spelled in Cyrillic or Greek letters drawn like Latin ones alerts on a Latin watch as a look-alike, and the preview lists it', async () => {
      const query = { q: 'BYPEX', filters: { offices: ['em'] } };
      const watch = await createWatch({ watch_type: 'similarity', query });
      // Cyrillic В У Р Е Х and Greek Β Υ Ρ Ε Χ are drawn as B Y P E X (Unicode confusables), though
      // read VUREKH / VYRECH: they look like the watched mark, not sound like it.
      const cyrillic = await add('ВУРЕХ', 'EM', [9]);
      const greek = await add('ΒΥΡΕΧ', 'EM', [9]);
      // Ж and Л are drawn like no Latin capital.
      const unrelated = await add('ЖУРНАЛ', 'EM', [9]);
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts.map((alert) => alert.trademark_id)).to.have.members([cyrillic, greek]);
      for (const alert of alerts) {
        expect(alert.score).to.equal(0.95);
        expect(alert.signals?.map((signal) => signal.type)).to.include('visual');
      }
      await app.indexer.catchUp();
      const preview = await ok<{ data: Array<{ id: string }> }>(await send(app, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query }));
      expect(preview.data.map((mark) => mark.id)).to.include.members([cyrillic, greek]);
      expect(preview.data.map((mark) => mark.id)).not.to.include(unrelated);
    });

    it('a mark filed in Cyrillic or Greek alerts on a Latin watch through its transliteration, and the preview lists it whichever script q is in', async () => {
      const query = { q: 'DORVALUX', filters: { offices: ['em'] } };
      const watch = await createWatch({ watch_type: 'similarity', query });
      const latin = await add('DORVALUX', 'EM', [9]);
      // Read DORVALYUKS (ю yu, кс ks) and DORVALOUX (ντ at a word's start d, β v, ου ou, ξ x).
      const cyrillic = await add('ДОРВАЛЮКС', 'EM', [9]);
      const greek = await add('ΝΤΟΡΒΑΛΟΥΞ', 'EM', [9]);
      const unrelated = await add('ТИМБЕРВУЛФ', 'EM', [9]);
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts.map((alert) => alert.trademark_id)).to.have.members([latin, cyrillic, greek]);
      for (const alert of alerts.filter((each) => each.trademark_id !== latin)) {
        expect(alert.score, alert.trademark?.mark_text).to.be.at.least(0.75).and.below(1);
        expect(alert.signals?.map((signal) => signal.type)).to.include('transliteration');
      }
      await app.indexer.catchUp();
      const previewIds = async (q: string) =>
        (
          await ok<{ data: Array<{ id: string }> }>(await send(app, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query: { ...query, q } }))
        ).data.map((mark) => mark.id);
      const fromLatin = await previewIds('DORVALUX');
      expect(fromLatin).to.include.members([cyrillic, greek]);
      expect(fromLatin).not.to.include(unrelated);
      expect(await previewIds('ДОРВАЛЮКС')).to.include.members([latin, greek]);
    });

    it('a mark filed in Cyrillic or Greek alerts through another customary romanization of its letters, and the preview lists it', async () => {
      const query = { q: 'SKODA', filters: { offices: ['em'] } };
      const watch = await createWatch({ watch_type: 'similarity', query });
      // ШКОДА reads SHKODA, and SKODA in ISO 9 (ш š, folded as ŠKODA is); ΣΚΟΝΤΑ reads SKONTA (ELOT
      // 743: ντ nt inside a word), and SKODA as Greek spells a foreign name (ντ for d).
      const cyrillic = await add('ШКОДА', 'EM', [12]);
      const greek = await add('ΣΚΟΝΤΑ', 'EM', [12]);
      const unrelated = await add('ЖУРНАЛ', 'EM', [12]);
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts.map((alert) => alert.trademark_id)).to.have.members([cyrillic, greek]);
      for (const alert of alerts) {
        expect(alert.score, alert.trademark?.mark_text).to.be.at.least(0.75).and.at.most(0.9);
        expect(alert.signals?.map((signal) => signal.type)).to.include('transliteration');
      }
      await app.indexer.catchUp();
      const preview = await ok<{ data: Array<{ id: string }> }>(await send(app, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query }));
      expect(preview.data.map((mark) => mark.id)).to.include.members([cyrillic, greek]);
      expect(preview.data.map((mark) => mark.id)).not.to.include(unrelated);
    });

    it('an identical mark alerts with its score and the exact signal', async () => {
      const watch = await createWatch({ watch_type: 'similarity', query: { q: 'Verdant Oriole', score_threshold: 0.5 } });
      const id = await add('VERDANT ORIOLE', 'GB', [9]);
      await add('Bright Walrus', 'GB', [9]);
      await evaluate();
      const alerts = await alertsOf(watch.id);
      expect(alerts.map((alert) => alert.trademark_id)).to.deep.equal([id]);
      expect(alerts[0]?.score).to.equal(1);
      expect(alerts[0]?.signals?.map((signal) => signal.type)).to.include('exact');
    });
  });

  describe('exactly once', () => {
    it('evaluating the same changes again (a restart before the checkpoint) creates no second alert', async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['ch'] } } });
      await add('Twice Told', 'CH', [9]);
      await evaluate();
      const first = await alertsOf(watch.id);
      // Forget the position: a fresh evaluator reads from a checkpoint set back before the change.
      const { WatchEvaluator } = await import('../../workers/watches/evaluator');
      await app.adapters.store
        .collection<{ _id: string; position: string | null }>(COLLECTIONS.meta)
        .replaceOne({ _id: 'watch_evaluator_position', position: null });
      const replay = new WatchEvaluator(app.adapters.store, app.adapters.search);
      await replay.catchUp();
      const again = await alertsOf(watch.id);
      expect(again.map((alert) => alert.id)).to.deep.equal(first.map((alert) => alert.id));
      expect(await app.adapters.store.collection<AlertDoc>(COLLECTIONS.alerts).countDocuments({ watch_id: watch.id })).to.equal(1);
    });
  });

  describe('alerts: read, look up, triage', () => {
    let alertId: string;
    let watchId: string;
    before(async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['jp'], niceClasses: [3] } } });
      watchId = watch.id;
      await add('Lotus Ember', 'JP', [3]);
      await evaluate();
      alertId = ((await alertsOf(watch.id))[0] as Alert).id;
    });

    it('lists by organization with filters, reads one, looks up many (unknown IDs left out)', async () => {
      const listed = await ok<List<Alert>>(await send(app, 'GET', `/v1/alerts?watch_id=${watchId}&status=open`));
      expect(listed.data.map((alert) => alert.id)).to.deep.equal([alertId]);
      expect((await ok<Alert>(await send(app, 'GET', `/v1/alerts/${alertId}`))).id).to.equal(alertId);
      const unknown = 'alt_0000000000000000000000zz';
      const lookup = await ok<{ object: string; data: Alert[] }>(await send(app, 'POST', '/v1/alerts/lookup', { ids: [unknown, alertId] }, undefined, {}));
      expect(lookup.object).to.equal('list');
      expect(lookup.data.map((alert) => alert.id)).to.deep.equal([alertId]);
    });

    it('alert lookup needs no Idempotency-Key', async () => {
      const response = await fetch(`${app.baseUrl}/v1/alerts/lookup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [alertId] }),
      });
      expect(response.status).to.equal(200);
    });

    it('triage: open → acknowledged → open → dismissed; acknowledged → dismissed directly is 400', async () => {
      const patch = (status: string) => send(app, 'PATCH', `/v1/alerts/${alertId}`, { status });
      expect((await ok<Alert>(await patch('acknowledged'))).status).to.equal('acknowledged');
      await fails(await patch('dismissed'), 400, 'validation_error', 'status');
      expect((await ok<Alert>(await patch('open'))).status).to.equal('open');
      expect((await ok<Alert>(await patch('dismissed'))).status).to.equal('dismissed');
      const listed = await ok<List<Alert>>(await send(app, 'GET', `/v1/alerts?status=dismissed`));
      expect(listed.data.map((alert) => alert.id)).to.include(alertId);
    });

    it("another organization's watch and alert are 404 in REST and GraphQL, and absent from its lists", async () => {
      const other = app.keys.otherOrg;
      await fails(await send(app, 'GET', `/v1/watches/${watchId}`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/alerts/${alertId}`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'GET', `/v1/watches/${watchId}/alerts`, undefined, other), 404, 'not_found');
      await fails(await send(app, 'PATCH', `/v1/alerts/${alertId}`, { status: 'open' }, other), 404, 'not_found');
      await fails(await send(app, 'POST', `/v1/watches/${watchId}/pause`, undefined, other), 404, 'not_found');
      expect((await ok<List<Alert>>(await send(app, 'GET', '/v1/alerts', undefined, other))).data).to.deep.equal([]);
      expect((await ok<{ data: Alert[] }>(await send(app, 'POST', '/v1/alerts/lookup', { ids: [alertId] }, other))).data).to.deep.equal([]);
      const graphql = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ watch(id: "${watchId}") { id } }` }),
      });
      expect(graphql.status).to.equal(404);
      const gqlAlert = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${other}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ alerts { data { id } } }` }),
      });
      expect(((await gqlAlert.json()) as { data: { alerts: { data: unknown[] } } }).data.alerts.data).to.deep.equal([]);
    });
  });

  describe("the spec's query rules and errors", () => {
    it('an unknown filters key is 400 listing the allowed camelCase keys', async () => {
      const error = await fails(
        await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { filters: { nice_classes: [9] } } }),
        400,
        'validation_error',
      );
      expect(error.error.detail).to.contain('query.filters.nice_classes').and.to.contain('niceClasses');
    });

    it('query.match in any form is 400, on create and preview', async () => {
      for (const match of ['exact', { type: 'phonetic' }, null]) {
        await fails(await send(app, 'POST', '/v1/watches', { watch_type: 'similarity', query: { q: 'x', match } }), 400, 'validation_error', 'query.match');
        await fails(
          await send(app, 'POST', '/v1/watches/preview', { watch_type: 'filter', query: { filters: { offices: ['us'] }, match } }),
          400,
          'validation_error',
          'query.match',
        );
      }
    });

    it('IDs of the wrong kind inside filters are id_type_mismatch; malformed ones 400', async () => {
      await fails(
        await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { filters: { ownerId: ['tm_0000000000000000000000'] } } }),
        400,
        'id_type_mismatch',
        'query.filters.ownerId[0]',
      );
      await fails(
        await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { trademark_ids: ['nope'] } }),
        400,
        'validation_error',
        'query.trademark_ids[0]',
      );
      await fails(await send(app, 'GET', '/v1/watches/alt_0000000000000000000000'), 400, 'id_type_mismatch');
    });

    it('bulk: all or none, the failing item named items[i].field', async () => {
      const before = (await ok<List<Watch>>(await send(app, 'GET', '/v1/watches?limit=100'))).data.length;
      const error = await fails(
        await send(app, 'POST', '/v1/watches/bulk', {
          items: [
            { watch_type: 'filter', query: { filters: { offices: ['us'] } } },
            { watch_type: 'similarity', query: { q: 'Nova', score_threshold: 2 } },
          ],
        }),
        400,
        'validation_error',
      );
      expect(error.error.detail).to.match(/^items\[1\]\.query\.score_threshold/);
      expect((await ok<List<Watch>>(await send(app, 'GET', '/v1/watches?limit=100'))).data.length).to.equal(before);
      const created = await ok<{ object: string; data: Watch[] }>(
        await send(app, 'POST', '/v1/watches/bulk', {
          items: [
            { watch_type: 'filter', query: { filters: { offices: ['us'] } } },
            { watch_type: 'similarity', query: { q: 'Nova' } },
          ],
        }),
        201,
      );
      expect(created.object).to.equal('list');
      expect(created.data.map((watch) => watch.watch_type)).to.deep.equal(['filter', 'similarity']);
    });

    it('PATCH changes the query and metadata; DELETE stops the watch and keeps its alerts', async () => {
      const watch = await createWatch({ watch_type: 'filter', query: { filters: { offices: ['au'] } }, metadata: { team: 'a' } });
      const patched = await ok<Watch & { metadata: Record<string, string> }>(
        await send(app, 'PATCH', `/v1/watches/${watch.id}`, {
          query: { filters: { offices: ['AU'], niceClasses: [25] } },
          metadata: { team: null, owner: 'b' },
        }),
      );
      expect(patched.query).to.deep.equal({ filters: { offices: ['au'], niceClasses: [25] } });
      expect(patched.metadata).to.deep.equal({ owner: 'b' });
      await add('Kestrel Dune', 'AU', [25]);
      await evaluate();
      expect(await alertsOf(watch.id)).to.have.length(1);
      await ok(await send(app, 'DELETE', `/v1/watches/${watch.id}`));
      await fails(await send(app, 'GET', `/v1/watches/${watch.id}`), 404, 'not_found');
      expect((await ok<List<Alert>>(await send(app, 'GET', `/v1/alerts?watch_id=${watch.id}`))).data).to.have.length(1);
    });

    it('the plan caps the watches an organization keeps: starter 25, then 403 resource_limit_exceeded naming the limit', async () => {
      const starter = await startTestApp({ marks: 20, organization: { plan: 'starter' } });
      try {
        const items = Array.from({ length: 25 }, () => ({ watch_type: 'filter', query: { filters: { offices: ['us'] } } }));
        await ok(await send(starter, 'POST', '/v1/watches/bulk', { items }), 201);
        const refused = await fails(await send(starter, 'POST', '/v1/watches', items[0]), 403, 'resource_limit_exceeded', 'watches');
        expect(refused.error).to.include({ limit_name: 'watches', limit: 25, current: 25 });
        // Deleting one frees a place.
        const first = (await ok<List<Watch>>(await send(starter, 'GET', '/v1/watches?limit=1'))).data[0] as Watch;
        await ok(await send(starter, 'DELETE', `/v1/watches/${first.id}`));
        await ok(await send(starter, 'POST', '/v1/watches', items[0]), 201);
      } finally {
        await starter.close();
      }
    });

    it('a key without portfolios:manage is 403 forbidden; a plan without monitoring is 403 plan_upgrade_required', async () => {
      await fails(await send(app, 'GET', '/v1/watches', undefined, app.keys.billingOnly), 403, 'forbidden');
      const free = await startTestApp({ marks: 20, organization: { plan: 'free' } });
      try {
        await fails(await send(free, 'GET', '/v1/watches'), 403, 'plan_upgrade_required');
        await fails(
          await send(free, 'POST', '/v1/watches/preview', { watch_type: 'filter', query: { filters: { offices: ['us'] } } }),
          403,
          'plan_upgrade_required',
        );
        await fails(await send(free, 'GET', '/v1/alerts'), 403, 'plan_upgrade_required');
      } finally {
        await free.close();
      }
    });
  });

  describe('preview and diagnostics', () => {
    it('diagnostics: a trademark watch whose portfolio was deleted says so in last_error, naming the portfolio', async () => {
      const [mark] = (await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ office_code: 'US' })).slice(0, 1);
      const portfolio = await ok<{ id: string }>(await send(app, 'POST', '/v1/portfolios', { name: 'Followed', trademark_ids: [mark!._id] }), 201);
      const watch = await createWatch({ watch_type: 'trademark', query: { portfolio_id: portfolio.id } });
      const lastError = async () =>
        (await ok<{ evaluation: { last_error: string | null } }>(await send(app, 'GET', `/v1/watches/${watch.id}/diagnostics`))).evaluation.last_error;
      expect(await lastError()).to.equal(null);
      await ok(await send(app, 'DELETE', `/v1/portfolios/${portfolio.id}`));
      const error = await lastError();
      expect(error).to.contain(`query.portfolio_id: the portfolio ${portfolio.id} was deleted`);
      expect(error).to.contain('follows no marks');
    });

    it('preview: a page in summary shape with the exact count; count_only answers the number alone', async () => {
      await app.indexer.catchUp();
      const query = { filters: { offices: ['US'] } };
      const marks = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).countDocuments({ office_code: 'US' });
      const preview = await ok<{
        object: string;
        data: Array<{ id: string; office_code: string }>;
        estimated_match_count: number;
        estimate_basis?: string;
      }>(await send(app, 'POST', '/v1/watches/preview', { watch_type: 'filter', query, limit: 5 }));
      expect(preview.object).to.equal('watch_preview');
      expect(preview.estimated_match_count).to.equal(marks);
      // Spec (Watch preview): estimate_basis "absent means exact".
      expect(preview).not.to.have.property('estimate_basis');
      expect(preview.data).to.have.length(5);
      expect(preview.data.every((mark) => mark.office_code === 'US')).to.equal(true);
      const countOnly = await ok<{ data: unknown; estimated_match_count: number }>(
        await send(app, 'POST', '/v1/watches/preview', { watch_type: 'filter', query, count_only: true }),
      );
      expect(countOnly).to.include({ data: null, estimated_match_count: marks });
    });

    it("preview: another organization's portfolio or saved search is 404, as on create, through REST and GraphQL", async () => {
      const [markId] = (await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({}, { limit: 1 })).map((mark) => mark._id);
      const theirPortfolio = await ok<{ id: string }>(
        await send(app, 'POST', '/v1/portfolios', { name: 'theirs', trademark_ids: [markId] }, app.keys.otherOrg),
        201,
      );
      const theirSearch = await ok<{ id: string }>(
        await send(app, 'POST', '/v1/saved-searches', { name: 'theirs', query: { offices: ['EM'] } }, app.keys.otherOrg),
        201,
      );
      const unknownPortfolio = await send(app, 'POST', '/v1/watches/preview', { watch_type: 'trademark', query: { portfolio_id: 'pf_0000000000000000000a' } });
      const foreignPortfolio = await send(app, 'POST', '/v1/watches/preview', { watch_type: 'trademark', query: { portfolio_id: theirPortfolio.id } });
      const unknownBody = await fails(unknownPortfolio, 404, 'not_found', 'query.portfolio_id');
      const foreignBody = await fails(foreignPortfolio, 404, 'not_found', 'query.portfolio_id');
      // Indistinguishable from an ID that does not exist (the ID itself aside).
      expect(foreignBody.error.title).to.equal(unknownBody.error.title);
      await fails(
        await send(app, 'POST', '/v1/watches/preview', { watch_type: 'filter', query: { saved_search_id: theirSearch.id }, count_only: true }),
        404,
        'not_found',
        'query.saved_search_id',
      );
      const graphql = await fetch(`${app.baseUrl}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${app.keys.full}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          query: `{ previewWatch(watch_type: "trademark", query: { portfolio_id: "${theirPortfolio.id}" }) { estimated_match_count } }`,
        }),
      });
      expect(graphql.status).to.equal(404);
      expect(JSON.stringify(await graphql.json())).not.to.contain(markId);
    });

    it("preview: a saved search's filters are the query's, as on create", async () => {
      await app.indexer.catchUp();
      const saved = await ok<{ id: string }>(await send(app, 'POST', '/v1/saved-searches', { name: 'EU marks', query: { offices: ['EM'] } }), 201);
      const euMarks = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).countDocuments({ office_code: 'EM' });
      const all = await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).countDocuments({});
      expect(euMarks).to.be.greaterThan(0).and.lessThan(all);
      const preview = await ok<{ estimated_match_count: number }>(
        await send(app, 'POST', '/v1/watches/preview', { watch_type: 'filter', query: { saved_search_id: saved.id }, count_only: true }),
      );
      expect(preview.estimated_match_count).to.equal(euMarks);
    });

    it('preview: 504 preview_timeout when the budget ends first; 429 with Retry-After for a second concurrent preview', async () => {
      const tiny = await startTestApp({ marks: 200, previewBudgetMs: 0 });
      try {
        await fails(
          await send(tiny, 'POST', '/v1/watches/preview', { watch_type: 'similarity', query: { q: 'Nova Lantern Quartz Heron' } }),
          504,
          'preview_timeout',
        );
      } finally {
        await tiny.close();
      }
      // Hold the organization's preview slot as a running preview does, then ask for another.
      await app.adapters.kv.set(`watch-preview:${app.organizationId}`, '1', { ttlMs: 10_000 });
      try {
        const response = await send(app, 'POST', '/v1/watches/preview', { watch_type: 'filter', query: { filters: { offices: ['us'] } } });
        await fails(response, 429, 'rate_limited');
        expect(response.headers.get('retry-after')).to.match(/^\d+$/);
      } finally {
        await app.adapters.kv.delete(`watch-preview:${app.organizationId}`);
      }
    });

    it('diagnostics: evaluation state, and window_status closed for marks published before 2024', async () => {
      const id = await add('Old Harbour', 'US', [9]);
      await updateMark(app.adapters.store, writer, id, { status: 'registered', eventType: null, publicationDate: '2019-05-07', today: today() });
      const watch = await createWatch({ watch_type: 'trademark', query: { trademark_ids: [id] } });
      const diagnostics = await ok<{
        object: string;
        evaluation: { alerts_created: number };
        marks: Array<{ trademark_id: string; opposition_window: { window_status: string; must_act_by: string | null } }>;
      }>(await send(app, 'GET', `/v1/watches/${watch.id}/diagnostics`));
      expect(diagnostics.object).to.equal('watch_diagnostics');
      expect(diagnostics.evaluation.alerts_created).to.equal(0);
      expect(diagnostics.marks).to.have.length(1);
      // Published 2019-05-07: the 30-day window closed on 2019-06-06.
      expect(diagnostics.marks[0]?.opposition_window).to.include({ window_status: 'closed' });
    });
  });
});

describe('the alertCreated subscription (server-sent events)', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ marks: 50 });
  });
  after(async () => app.close());

  /** Opens the subscription with `key` and resolves with the first alert it receives (or null when aborted). */
  /** Opens the alertCreated stream with `key`. */
  async function openStream(key: string, signal: AbortSignal): Promise<Response> {
    const response = await fetch(`${app.baseUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { alertCreated { id trademark_id } }' }),
      signal,
    });
    expect(response.status).to.equal(200);
    return response;
  }

  function firstAlert(key: string, signal: AbortSignal): Promise<{ id: string; trademark_id: string } | null> {
    return (async () => {
      const response = await openStream(key, signal);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return null;
          text += new TextDecoder().decode(value);
          const match = /^data: (.+)$/m.exec(text);
          if (match?.[1]) return (JSON.parse(match[1]) as { data: { alertCreated: { id: string; trademark_id: string } } }).data.alertCreated;
        }
      } catch (error) {
        if (signal.aborted) return null;
        throw error;
      }
    })();
  }

  it("streams the organization's new alerts, and not to another organization", async () => {
    const mine = new AbortController();
    const theirs = new AbortController();
    const received = firstAlert(app.keys.full, mine.signal);
    const otherReceived = firstAlert(app.keys.otherOrg, theirs.signal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const watch = await ok<Watch>(await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { filters: { offices: ['nz'] } } }), 201);
    const writer = new MarkWriter(app.adapters.store);
    const { trademark_id } = await addMark(app.adapters.store, writer, {
      markText: 'Tui Beacon',
      officeCode: 'NZ',
      classes: [9],
      ownerName: null,
      status: 'pending',
      today: today(),
    });
    await app.server.watchEvaluator.catchUp();
    const alert = await received;
    expect(alert?.trademark_id).to.equal(trademark_id);
    const stored = await ok<List<Alert>>(await send(app, 'GET', `/v1/watches/${watch.id}/alerts`));
    expect(alert?.id).to.equal(stored.data[0]?.id);
    theirs.abort();
    expect(await otherReceived).to.equal(null);
    mine.abort();
  });

  /** Everything a subscription stream sends until the server ends it (or `signal` aborts it). */
  async function streamText(key: string, signal: AbortSignal): Promise<string> {
    const response = await openStream(key, signal);
    try {
      return await response.text();
    } catch (error) {
      if (signal.aborted) return '(aborted)';
      throw error;
    }
  }

  for (const [change, act] of [
    ['revoked', (id: string) => send(app, 'DELETE', `/v1/organization/api-keys/${id}`)],
    ['rotated', (id: string) => send(app, 'POST', `/v1/organization/api-keys/${id}/rotate`)],
  ] as const) {
    it(`a key ${change} while its stream is open gets no further alert: the stream ends with unauthorized`, async () => {
      const key = await ok<{ id: string; secret: string }>(
        await send(app, 'POST', '/v1/organization/api-keys', { name: `streaming ${change}`, scopes: ['trademarks:read', 'portfolios:manage'] }),
        201,
      );
      const watch = await ok<Watch>(await send(app, 'POST', '/v1/watches', { watch_type: 'filter', query: { filters: { offices: ['sg'] } } }), 201);
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), 20_000);
      const text = streamText(key.secret, stop.signal);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await act(key.id)).status).to.be.within(200, 299);
      const writer = new MarkWriter(app.adapters.store);
      const { trademark_id } = await addMark(app.adapters.store, writer, {
        markText: `Merlion ${change}`,
        officeCode: 'SG',
        classes: [9],
        ownerName: null,
        status: 'pending',
        today: today(),
      });
      await app.server.watchEvaluator.catchUp();
      // The alert exists for the organization…
      const stored = await ok<List<Alert>>(await send(app, 'GET', `/v1/watches/${watch.id}/alerts`));
      expect(stored.data.map((alert) => alert.trademark_id)).to.include(trademark_id);
      // …but the stream of the key that no longer stands ends without it.
      const sent = await text;
      clearTimeout(timer);
      expect(sent).not.to.equal('(aborted)');
      expect(sent).not.to.contain(trademark_id);
      expect(sent).to.contain(`the API key was ${change}`);
      await send(app, 'DELETE', `/v1/watches/${watch.id}`);
    });
  }
});

describe('trademark watches: a renewal window opening (time, not a change)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let clock = new Date('2026-01-05T12:00:00Z');
  before(async () => {
    app = await startTestApp({ marks: 20, now: () => clock });
  });
  after(async () => app.close());

  it('alerts once when the window opens, with must_act_by the renewal due date', async () => {
    const writer = new MarkWriter(app.adapters.store);
    // Registered 2017-03-01: the 10-year renewal is due 2027-03-01, filable from a year before
    // (15 U.S.C. 1059; 37 CFR 2.182), so the window opens 2026-03-01.
    const { trademark_id } = await addMark(app.adapters.store, writer, {
      markText: 'Heron Vale',
      officeCode: 'US',
      classes: [9],
      ownerName: null,
      status: 'registered',
      today: '2017-03-01',
    });
    const watch = await ok<Watch>(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { trademark_ids: [trademark_id] } }), 201);
    await app.server.watchEvaluator.catchUp();
    expect(await app.server.watchEvaluator.sweepRenewalWindows()).to.equal(0);
    clock = new Date('2026-03-02T12:00:00Z');
    expect(await app.server.watchEvaluator.sweepRenewalWindows()).to.equal(1);
    expect(await app.server.watchEvaluator.sweepRenewalWindows()).to.equal(0);
    const alerts = (await ok<List<Alert>>(await send(app, 'GET', `/v1/watches/${watch.id}/alerts`))).data.filter(
      (alert) => alert.trigger.type === 'renewal_window_opened',
    );
    expect(alerts).to.have.length(1);
    expect(alerts[0]?.must_act_by).to.equal('2027-03-01');
  });
});
