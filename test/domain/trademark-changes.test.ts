/**
 * Change-record field names against the contract (spec, GET /v1/trademarks/{id}/changes):
 * parent fields by snake_case name such as status_stage, mark_text_primary, expiry_date; child
 * changes by related entity type: classifications, owners, attorneys, events. Records stored
 * under the older storage names (mark_text, owner_ids, attorney_ids) read under the public ones.
 */
import { expect } from 'chai';
import { COLLECTIONS, type TrademarkChangeDoc, type TrademarkDoc, type TrademarkStatus } from '../../domain/records';
import {
  addEvents,
  diffValues,
  publicChange,
  publicChangedFields,
  publicFieldName,
  recordAtVersion,
  storedFieldNames,
  trackedValues,
  type FieldChanges,
} from '../../domain/trademark-changes';
import { classifyChange, isMatchRelevant } from '../../domain/watch-triggers';
import { generateCatalog } from '../../workers/ingest/generator';

/** The first mark the generator makes from a fixed seed, with the fields these tests name set by hand. */
const GENERATED: TrademarkDoc = (() => {
  for (const batch of generateCatalog({ marks: 1, seed: 20261126 })) if (batch.collection === COLLECTIONS.trademarks) return batch.docs[0] as TrademarkDoc;
  throw new Error('the generator made no mark');
})();

function mark(overrides: Partial<TrademarkDoc> = {}): TrademarkDoc {
  return {
    ...GENERATED,
    mark_text: 'QUARTZ LANTERN',
    classifications: [{ nice_class: 9, goods_services_text: 'Software', nice_edition: null }],
    owner_ids: ['own_a'],
    attorney_ids: ['att_a'],
    ...overrides,
  };
}

function change(fields: string[], oldValues: Record<string, unknown> | null, newValues: Record<string, unknown>, version = 2): TrademarkChangeDoc {
  return {
    _id: `tm_0123456789abcdefghjk:v${version}`,
    trademark_id: 'tm_0123456789abcdefghjk',
    version,
    change_type: version === 1 ? 'created' : 'updated',
    changed_fields: fields,
    old_values: oldValues,
    new_values: newValues,
    source_data_date: '2026-02-01',
    office_code: 'US',
    created_at: '2026-02-02T00:00:00.000Z',
  };
}

describe('domain/trademark-changes: change-record field names', () => {
  it('tracks the contract names: mark_text_primary, owners, attorneys, classifications; never the storage names', () => {
    const values = trackedValues(mark());
    expect(values).to.include.keys('status_stage', 'mark_text_primary', 'expiry_date', 'classifications', 'owners', 'attorneys');
    expect(values).to.not.have.any.keys('mark_text', 'owner_ids', 'attorney_ids');
    expect(values.mark_text_primary).to.equal('QUARTZ LANTERN');
    expect(values.owners).to.deep.equal(['own_a']);
    expect(values.attorneys).to.deep.equal(['att_a']);
    expect(values.classifications).to.deep.equal([9]);
  });

  it('a changed mark text, owner, attorney or class is diffed under the public name with old and new values', () => {
    const before = mark();
    const after = mark({
      mark_text: 'QUARTZ LANTERNS',
      owner_ids: ['own_b'],
      attorney_ids: ['att_a', 'att_b'],
      classifications: [...before.classifications, { nice_class: 42, goods_services_text: 'SaaS', nice_edition: null }],
    });
    const diff = diffValues(trackedValues(before), trackedValues(after));
    expect(diff.changed_fields).to.deep.equal(['mark_text_primary', 'classifications', 'goods_services', 'owners', 'attorneys']);
    expect(diff.old_values).to.deep.include({ mark_text_primary: 'QUARTZ LANTERN', owners: ['own_a'], attorneys: ['att_a'], classifications: [9] });
    expect(diff.new_values).to.deep.include({
      mark_text_primary: 'QUARTZ LANTERNS',
      owners: ['own_b'],
      attorneys: ['att_a', 'att_b'],
      classifications: [9, 42],
    });
  });

  it('new prosecution events are the events change: old value [], new value the events', () => {
    const changes: FieldChanges = { changed_fields: [], old_values: {}, new_values: {} };
    addEvents(changes, []);
    expect(changes.changed_fields).to.deep.equal([]);
    addEvents(changes, [{ event_type: 'published', event_date: '2026-03-01', office_event_code: 'NPUB' }]);
    expect(changes).to.deep.equal({
      changed_fields: ['events'],
      old_values: { events: [] },
      new_values: { events: [{ event_type: 'published', event_date: '2026-03-01', office_event_code: 'NPUB' }] },
    });
  });

  it('maps the legacy storage names to the public ones, and a public name to every name it may be stored under', () => {
    expect(['mark_text', 'owner_ids', 'attorney_ids', 'status_stage', 'events', 'owners'].map(publicFieldName)).to.deep.equal([
      'mark_text_primary',
      'owners',
      'attorneys',
      'status_stage',
      'events',
      'owners',
    ]);
    expect(storedFieldNames('mark_text_primary')).to.deep.equal(['mark_text_primary', 'mark_text']);
    expect(storedFieldNames('owners')).to.deep.equal(['owners', 'owner_ids']);
    expect(storedFieldNames('attorneys')).to.deep.equal(['attorneys', 'attorney_ids']);
    expect(storedFieldNames('owner_ids')).to.deep.equal(['owners', 'owner_ids']);
    expect(storedFieldNames('expiry_date')).to.deep.equal(['expiry_date']);
    expect(storedFieldNames('events')).to.deep.equal(['events']);
    expect(storedFieldNames('toString')).to.deep.equal(['toString']);
    expect(publicChangedFields(['owner_ids', 'status_stage', 'owners'])).to.deep.equal(['owners', 'status_stage']);
  });

  it('serves a record stored under the legacy names under the public names, values included', () => {
    const legacy = change(
      ['mark_text', 'owner_ids', 'attorney_ids', 'status_stage'],
      { mark_text: 'A', owner_ids: ['own_a'], attorney_ids: [], status_stage: 'filed' },
      {
        mark_text: 'B',
        owner_ids: ['own_b'],
        attorney_ids: ['att_b'],
        status_stage: 'published',
      },
    );
    const served = publicChange(legacy);
    expect(served.changed_fields).to.deep.equal(['mark_text_primary', 'owners', 'attorneys', 'status_stage']);
    expect(served.old_values).to.deep.equal({ mark_text_primary: 'A', owners: ['own_a'], attorneys: [], status_stage: 'filed' });
    expect(served.new_values).to.deep.equal({ mark_text_primary: 'B', owners: ['own_b'], attorneys: ['att_b'], status_stage: 'published' });
    expect(legacy.changed_fields).to.deep.equal(['mark_text', 'owner_ids', 'attorney_ids', 'status_stage']);

    const created = publicChange(change(['owner_ids'], null, { owner_ids: ['own_a'] }, 1));
    expect(created).to.deep.include({ changed_fields: ['owners'], old_values: null, new_values: { owners: ['own_a'] } });

    const current = change(['owners'], { owners: [] }, { owners: ['own_a'] });
    expect(publicChange(current)).to.equal(current);
  });
});

describe('domain/trademark-changes: a record as an earlier version left it', () => {
  // Three versions, each change record made as the write path makes it (diff of the tracked values).
  const v1 = mark({ version: 1, status: { ...GENERATED.status, primary: 'pending', stage: 'examining', reason: null }, registration_date: null });
  const v2 = mark({
    version: 2,
    mark_text: 'QUARTZ LANTERNS',
    status: { ...GENERATED.status, primary: 'active', stage: 'registered', reason: null, office_status: { code: '800', description: 'Registered' } },
    registration_date: '2025-05-06',
    classifications: [
      { nice_class: 9, goods_services_text: 'Software', nice_edition: null },
      { nice_class: 42, goods_services_text: 'Hosting', nice_edition: '12' },
    ],
    owner_ids: ['own_b'],
  });
  const v3 = mark({
    ...v2,
    version: 3,
    attorney_ids: ['att_b'],
    classifications: [{ nice_class: 42, goods_services_text: 'Hosting services', nice_edition: '12' }],
  });
  const recordOf = (before: TrademarkDoc, after: TrademarkDoc): TrademarkChangeDoc => {
    const diff = diffValues(trackedValues(before), trackedValues(after));
    return change(diff.changed_fields, diff.old_values, diff.new_values, after.version);
  };
  const later = [recordOf(v2, v3), recordOf(v1, v2)];

  it("undoes the later versions newest first: every tracked value is the earlier version's", () => {
    expect(trackedValues(recordAtVersion(v3, 1, later))).to.deep.equal(trackedValues(v1));
    expect(trackedValues(recordAtVersion(v3, 2, later))).to.deep.equal(trackedValues(v2));
    expect(recordAtVersion(v3, 1, later).version).to.equal(1);
  });

  it('is the record itself at its own version, and reads legacy names', () => {
    expect(recordAtVersion(v3, 3, later)).to.equal(v3);
    const legacy = change(
      ['mark_text', 'owner_ids'],
      { mark_text: 'OLD TEXT', owner_ids: ['own_old'] },
      { mark_text: 'QUARTZ LANTERN', owner_ids: ['own_a'] },
      2,
    );
    const before = recordAtVersion(mark({ version: 2 }), 1, [legacy]);
    expect(before).to.include({ mark_text: 'OLD TEXT' });
    expect(before.owner_ids).to.deep.equal(['own_old']);
  });
});

describe('domain/watch-triggers: reads change records under the public names, legacy records too', () => {
  it('an owner or mark text change is news to a filter watch whichever name it is stored under; an attorney change is not', () => {
    for (const field of ['owners', 'owner_ids', 'mark_text_primary', 'mark_text', 'classifications']) {
      expect(isMatchRelevant(change([field], {}, {})), field).to.equal(true);
      expect(classifyChange(change([field], {}, {}), mark()), field).to.deep.equal({ type: 'mark_change', event_type: null });
    }
    for (const field of ['attorneys', 'attorney_ids']) {
      expect(isMatchRelevant(change([field], {}, {})), field).to.equal(false);
      expect(classifyChange(change([field], {}, {}), mark()), field).to.equal(null);
    }
  });

  it('an added event is an event trigger', () => {
    const added = change(['events'], { events: [] }, { events: [{ event_type: 'office_action_issued', event_date: '2026-03-01', office_event_code: null }] });
    expect(classifyChange(added, mark())).to.deep.equal({ type: 'event', event_type: 'office_action_issued' });
  });
});

describe('domain/watch-triggers: a mark seen for the first time (its change record says seen 2026-02-01)', () => {
  const first = change([], null, {}, 1);
  const live = (overrides: Partial<TrademarkDoc>) =>
    mark({
      status: { primary: 'pending', stage: 'examining', reason: 'under_examination', challenge_states: [], office_status: null },
      designation_date: null,
      ...overrides,
    });
  const classify = (overrides: Partial<TrademarkDoc>) => classifyChange(first, live(overrides));

  it('is a new filing when filed up to 180 days before (2025-08-05 is 180 days before 2026-02-01), and not from the 181st day', () => {
    expect(classify({ filing_date: '2026-01-15' })).to.deep.equal({ type: 'new_filing', event_type: null });
    expect(classify({ filing_date: '2025-08-05' })).to.deep.equal({ type: 'new_filing', event_type: null });
    expect(classify({ filing_date: '2025-08-04' })).to.equal(null);
  });

  it('is a new filing for a recent Madrid designation of an older international registration', () => {
    expect(classify({ filing_date: '2019-03-01', designation_date: '2026-01-20' })).to.deep.equal({ type: 'new_filing', event_type: null });
  });

  it('from a back file: nothing for a mark filed decades ago, a publication while its opposition period may run, nothing for a dead one', () => {
    const registered: TrademarkStatus = { primary: 'active', stage: 'registered', reason: 'registration_in_force', challenge_states: [], office_status: null };
    expect(classify({ filing_date: '1995-02-07', status: registered })).to.equal(null);
    const opposable: TrademarkStatus = {
      primary: 'pending',
      stage: 'opposition_period',
      reason: 'in_opposition_period',
      challenge_states: [],
      office_status: null,
    };
    expect(classify({ filing_date: '2024-03-01', status: opposable })).to.deep.equal({ type: 'publication', event_type: null });
    const cancelled: TrademarkStatus = { primary: 'inactive', stage: 'cancelled', reason: null, challenge_states: [], office_status: null };
    expect(classify({ filing_date: '2026-01-30', status: cancelled })).to.equal(null);
  });
});
