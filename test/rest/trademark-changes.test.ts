/**
 * GET /v1/trademarks/{id}/changes under the contract's field names (spec: `changed_field` keeps
 * versions whose `changed_fields` include it; parent fields use snake_case names such as
 * `status_stage`, `mark_text_primary`, `expiry_date`; child changes use related entity types
 * such as classifications, owners, attorneys, events), and the alerts those versions raise.
 *
 * A real USPTO case file is ingested through the one write path and restated by the office one
 * change at a time. Change records written by the code before these names (`mark_text`,
 * `owner_ids`, `attorney_ids`, no `events`) are written straight into the store, as existing data
 * directories hold them, and must read and filter the same way.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { catalogId, derivedTimeId } from '../../domain/ids';
import { COLLECTIONS, type AlertDoc, type TrademarkChangeDoc } from '../../domain/records';
import type { MarkInput } from '../../workers/ingest/mark-input';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { CASE_FILE, mapCaseFile } from '../../workers/ingest/uspto/applications';
import { readUsptoCodeTables } from '../../workers/ingest/uspto/code-tables';
import { UsptoEventTypes } from '../../workers/ingest/uspto/events';
import { startTestApp, type TestApp } from '../support/harness';
import { ok, send } from '../support/http';
import { applicationsDocument, readRecords, sampleCaseFile } from '../support/uspto-samples';

const tables = readUsptoCodeTables(join(__dirname, '..', '..', 'data', 'uspto'));
const context = { tables, events: new UsptoEventTypes(tables) };

function markOf(serial: string): MarkInput {
  const [input] = readRecords(applicationsDocument([sampleCaseFile(serial)]), CASE_FILE, 'sample.xml').map((record) =>
    mapCaseFile(record, 'sample.xml', context),
  );
  return input!;
}

interface Change {
  object: string;
  version: number;
  change_type: string;
  changed_fields: string[];
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown>;
}

interface Alert {
  id: string;
  trademark_id: string;
  trigger: { type: string; record_version: number; changed_fields: string[]; event_type: string | null };
}

const ELLINGTON = catalogId('tm_', 'US', '98423838');
const SUVENEER = catalogId('tm_', 'US', '98763166');
const LEGACY_NAMES = ['mark_text', 'owner_ids', 'attorney_ids'];

describe('REST: trademark changes under the contract field names (changed_field)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let writer: MarkWriter;
  let restatements = 0;
  let ellington: MarkInput;
  let watchId: string;

  const changes = async (id: string, query = ''): Promise<Change[]> =>
    (await ok<{ data: Change[] }>(await app.get(`/v1/trademarks/${id}/changes?limit=100${query}`))).data;
  const partiesOf = async (id: string) => {
    const body = await ok<{ owners: Array<{ id: string }>; attorneys: Array<{ id: string }> }>(await app.get(`/v1/trademarks/${id}`));
    return { owners: body.owners.map((o) => o.id), attorneys: body.attorneys.map((a) => a.id) };
  };

  /** The office restates the record with `edit` applied: a new raw record with a later data date. */
  const restate = async (input: MarkInput, edit: (input: MarkInput) => void): Promise<void> => {
    restatements += 1;
    edit(input);
    input.source = {
      ...input.source,
      payload_hash: `sha256:${createHash('sha256').update(`restatement ${restatements}`).digest('hex')}`,
      data_date: `2025-01-${String(restatements).padStart(2, '0')}`,
      raw: null,
    };
    const [result] = await writer.write([input]);
    expect(result?.outcome).to.equal('updated');
  };

  const evaluate = () => app.server.watchEvaluator.catchUp();
  const alertsOf = async (watch: string): Promise<Alert[]> =>
    (await ok<{ data: Alert[] }>(await send(app, 'GET', `/v1/watches/${watch}/alerts?limit=100`))).data;

  before(async () => {
    app = await startTestApp({ marks: 20 });
    writer = new MarkWriter(app.adapters.store);
    ellington = markOf('98423838');
    expect((await writer.write([ellington]))[0]?.outcome).to.equal('inserted');
    const watch = await ok<{ id: string }>(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { trademark_ids: [ELLINGTON] } }), 201);
    watchId = watch.id;
    await evaluate();
  });
  after(async () => app.close());

  describe('a mark restated by the office one change at a time', () => {
    let original: { owners: string[]; attorneys: string[] };

    before(async () => {
      original = await partiesOf(ELLINGTON);
      // v2: the mark text.
      await restate(ellington, (input) => {
        input.content = { ...input.content, mark_text: 'THE ELLINGTON AT OVIEDO PARK WEST' };
      });
      // v3: a new owner.
      await restate(ellington, (input) => {
        input.owners = [{ name: 'Oviedo Park Holdings LLC', entity_type: 'corporation', country_code: 'US', city: 'Orlando', postcode: '32801' }];
      });
      // v4: a second attorney.
      await restate(ellington, (input) => {
        input.attorneys = [...input.attorneys, { name: 'Jane Q. Counsel', country_code: 'US', email: null, firm: null }];
      });
      // v5: a second class.
      await restate(ellington, (input) => {
        input.content = {
          ...input.content,
          classifications: [...input.content.classifications, { nice_class: 43, goods_services_text: 'Temporary accommodation', nice_edition: null }],
        };
      });
      // v6: a new prosecution event, nothing else.
      await restate(ellington, (input) => {
        input.events = [
          ...input.events,
          {
            key: 'test:0099:GNRN:20250105',
            event_type: 'office_action_issued',
            event_date: '2025-01-05',
            office_event_code: null,
            description: 'Office action',
          },
        ];
      });
    });

    it('mark_text_primary: the version that changed the mark text, with old and new text', async () => {
      const rows = await changes(ELLINGTON, '&changed_field=mark_text_primary');
      expect(rows.map((row) => row.version)).to.deep.equal([2, 1]);
      expect(rows[0]).to.deep.include({
        object: 'trademark_change',
        change_type: 'updated',
        changed_fields: ['mark_text_primary'],
        old_values: { mark_text_primary: 'THE ELLINGTON AT OVIEDO PARK' },
        new_values: { mark_text_primary: 'THE ELLINGTON AT OVIEDO PARK WEST' },
      });
      expect(rows[1]!.new_values.mark_text_primary).to.equal('THE ELLINGTON AT OVIEDO PARK');
    });

    it('owners: the version with the new owner, keyed owners with the owner IDs', async () => {
      const now = await partiesOf(ELLINGTON);
      expect(now.owners).to.have.length(1).and.not.deep.equal(original.owners);
      const rows = await changes(ELLINGTON, '&changed_field=owners');
      expect(rows.map((row) => row.version)).to.deep.equal([3, 1]);
      expect(rows[0]).to.deep.include({ changed_fields: ['owners'], old_values: { owners: original.owners }, new_values: { owners: now.owners } });
      expect(rows[1]!.new_values.owners).to.deep.equal(original.owners);
    });

    it('attorneys: the version that added an attorney, keyed attorneys with the attorney IDs', async () => {
      const now = await partiesOf(ELLINGTON);
      expect(now.attorneys).to.have.length(2);
      const rows = await changes(ELLINGTON, '&changed_field=attorneys');
      expect(rows.map((row) => row.version)).to.deep.equal([4, 1]);
      expect(rows[0]).to.deep.include({
        changed_fields: ['attorneys'],
        old_values: { attorneys: original.attorneys },
        new_values: { attorneys: now.attorneys },
      });
    });

    it('classifications: the version that added a class, with the class numbers', async () => {
      const rows = await changes(ELLINGTON, '&changed_field=classifications');
      expect(rows.map((row) => row.version)).to.deep.equal([5, 1]);
      expect(rows[0]!.changed_fields).to.include('classifications');
      expect(rows[0]!.old_values).to.deep.include({ classifications: [36] });
      expect(rows[0]!.new_values).to.deep.include({ classifications: [36, 43] });
    });

    it('events: the version that added a prosecution event, and the first version with the events it arrived with', async () => {
      const rows = await changes(ELLINGTON, '&changed_field=events');
      expect(rows.map((row) => row.version)).to.deep.equal([6, 1]);
      expect(rows[0]).to.deep.include({
        changed_fields: ['events'],
        old_values: { events: [] },
        new_values: { events: [{ event_type: 'office_action_issued', event_date: '2025-01-05', office_event_code: null }] },
      });
      expect(rows[1]!.new_values.events).to.have.length(18);
    });

    it('status_stage and expiry_date filter as before; no record lists a storage name', async () => {
      expect((await changes(ELLINGTON, '&changed_field=status_stage')).map((row) => row.version)).to.deep.equal([1]);
      expect((await changes(ELLINGTON, '&changed_field=expiry_date')).map((row) => row.version)).to.deep.equal([1]);
      const all = await changes(ELLINGTON);
      expect(all.map((row) => row.version)).to.deep.equal([6, 5, 4, 3, 2, 1]);
      for (const row of all) {
        expect(
          row.changed_fields.filter((field) => LEGACY_NAMES.includes(field)),
          `v${row.version}`,
        ).to.deep.equal([]);
        expect(
          Object.keys(row.new_values).filter((field) => LEGACY_NAMES.includes(field)),
          `v${row.version}`,
        ).to.deep.equal([]);
      }
    });

    it("alerts of a trademark watch name the versions' changes by the same names", async () => {
      await evaluate();
      const triggers = (await alertsOf(watchId)).map((alert) => alert.trigger).sort((a, b) => a.record_version - b.record_version);
      // An attorney change alone is not news to a watcher; the others are (spec: alert triggers).
      expect(triggers.map((t) => [t.record_version, t.type, t.changed_fields])).to.deep.equal([
        [2, 'mark_change', ['mark_text_primary']],
        [3, 'mark_change', ['owners']],
        [5, 'mark_change', ['classifications', 'goods_services']],
        [6, 'event', ['events']],
      ]);
    });
  });

  describe('change records stored under the legacy names', () => {
    let owners: { before: string[]; after: string[] };
    let attorneys: string[];
    let legacyWatch: string;

    /** A change record as the code wrote it before the contract's names: storage names, no events. */
    const asOldCodeWrote = (row: TrademarkChangeDoc): TrademarkChangeDoc => {
      const rename = (field: string): string => ({ mark_text_primary: 'mark_text', owners: 'owner_ids', attorneys: 'attorney_ids' })[field] ?? field;
      const values = (record: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(record)
            .filter(([field]) => field !== 'events')
            .map(([field, value]) => [rename(field), value]),
        );
      return {
        ...row,
        changed_fields: row.changed_fields.filter((field) => field !== 'events').map(rename),
        old_values: row.old_values === null ? null : values(row.old_values),
        new_values: values(row.new_values),
      };
    };

    before(async () => {
      const suveneer = markOf('98763166');
      expect((await writer.write([suveneer]))[0]?.outcome).to.equal('inserted');
      const before = await partiesOf(SUVENEER);
      await restate(suveneer, (input) => {
        input.owners = [{ name: 'Huy Holdings Company Limited', entity_type: 'corporation', country_code: 'VN', city: 'Hanoi', postcode: '10000' }];
      });
      const after = await partiesOf(SUVENEER);
      owners = { before: before.owners, after: after.owners };
      attorneys = after.attorneys;
      const watch = await ok<{ id: string }>(await send(app, 'POST', '/v1/watches', { watch_type: 'trademark', query: { trademark_ids: [SUVENEER] } }), 201);
      legacyWatch = watch.id;
      await evaluate();
      // Rewritten as existing data directories hold them (this also puts them on the change feed,
      // as rows the old code wrote were when a service is upgraded before the watches read them).
      const store = app.adapters.store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges);
      for (const row of await store.find({ trademark_id: SUVENEER })) await store.replaceOne(asOldCodeWrote(row));
      const stored = await store.find({ trademark_id: SUVENEER }, { sort: { version: 1 } });
      expect(stored.map((row) => row.changed_fields.filter((field) => LEGACY_NAMES.includes(field)))).to.deep.equal([LEGACY_NAMES, ['owner_ids']]);
    });

    it('are served under the public names, values included', async () => {
      const [updated, created] = await changes(SUVENEER);
      expect(updated).to.deep.include({ version: 2, changed_fields: ['owners'], old_values: { owners: owners.before }, new_values: { owners: owners.after } });
      expect(created!.version).to.equal(1);
      expect(created!.changed_fields).to.include.members(['mark_text_primary', 'owners', 'attorneys']);
      expect(created!.changed_fields.filter((field) => LEGACY_NAMES.includes(field))).to.deep.equal([]);
      expect(created!.new_values).to.deep.include({ mark_text_primary: 'SUVENEER', owners: owners.before, attorneys });
      expect(Object.keys(created!.new_values).filter((field) => LEGACY_NAMES.includes(field))).to.deep.equal([]);
    });

    it('are found by changed_field under the public names (and the legacy names still match)', async () => {
      const versions = async (field: string) => (await changes(SUVENEER, `&changed_field=${field}`)).map((row) => row.version);
      expect(await versions('owners')).to.deep.equal([2, 1]);
      expect(await versions('attorneys')).to.deep.equal([1]);
      expect(await versions('mark_text_primary')).to.deep.equal([1]);
      expect(await versions('status_stage')).to.deep.equal([1]);
      expect(await versions('owner_ids')).to.deep.equal([2, 1]);
      expect((await changes(SUVENEER, '&changed_field=owner_ids'))[0]!.changed_fields).to.deep.equal(['owners']);
      // Paged, the filter holds on every page.
      const first = await ok<{ data: Change[]; pagination: { cursor: string | null } }>(
        await app.get(`/v1/trademarks/${SUVENEER}/changes?changed_field=owners&limit=1`),
      );
      expect(first.data.map((row) => row.version)).to.deep.equal([2]);
      const next = await ok<{ data: Change[] }>(
        await app.get(`/v1/trademarks/${SUVENEER}/changes?changed_field=owners&limit=1&cursor=${encodeURIComponent(first.pagination.cursor!)}`),
      );
      expect(next.data.map((row) => row.version)).to.deep.equal([1]);
    });

    it('raise alerts whose trigger names the public fields, and alerts stored with legacy names read under the public ones', async () => {
      await evaluate();
      const alerts = (await alertsOf(legacyWatch)).sort((a, b) => a.trigger.record_version - b.trigger.record_version);
      expect(alerts.map((alert) => [alert.trigger.record_version, alert.trigger.type])).to.deep.equal([
        [1, 'new_filing'],
        [2, 'mark_change'],
      ]);
      expect(alerts[0]!.trigger.changed_fields).to.include.members(['mark_text_primary', 'owners', 'attorneys']);
      expect(alerts[1]!.trigger.changed_fields).to.deep.equal(['owners']);
      for (const alert of alerts) expect(alert.trigger.changed_fields.filter((field) => LEGACY_NAMES.includes(field))).to.deep.equal([]);

      const stored = (await app.adapters.store.collection<AlertDoc>(COLLECTIONS.alerts).findOne({ _id: alerts[1]!.id }))!;
      const legacy: AlertDoc = {
        ...stored,
        _id: derivedTimeId('alt_', Date.parse(stored.created_at) - 1, 'legacy alert'),
        trigger: { ...stored.trigger, changed_fields: ['owner_ids', 'attorney_ids'] },
      };
      await app.adapters.store.collection<AlertDoc>(COLLECTIONS.alerts).insertOne(legacy);
      const read = await ok<Alert>(await send(app, 'GET', `/v1/alerts/${legacy._id}`));
      expect(read.trigger.changed_fields).to.deep.equal(['owners', 'attorneys']);
    });
  });
});
