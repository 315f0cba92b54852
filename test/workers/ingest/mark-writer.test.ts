import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import type { DocumentStore } from '../../../datasources/ports';
import { catalogId } from '../../../domain/ids';
import {
  COLLECTIONS,
  type EntityDoc,
  type OwnerDoc,
  type TrademarkChangeDoc,
  type TrademarkDoc,
  type TrademarkEventDoc,
  type TrademarkRawRecordDoc,
  type TrademarkSourceDoc,
} from '../../../domain/records';
import { STORE_INDEXES } from '../../../resolvers/store-indexes';
import type { MarkInput } from '../../../workers/ingest/mark-input';
import type { MarkAmendment, OwnerHistoryInput } from '../../../workers/ingest/mark-input';
import { MarkWriter } from '../../../workers/ingest/mark-writer';
import { CASE_FILE, mapCaseFile } from '../../../workers/ingest/uspto/applications';
import { readUsptoCodeTables } from '../../../workers/ingest/uspto/code-tables';
import { UsptoEventTypes } from '../../../workers/ingest/uspto/events';
import { seedStore } from '../../../workers/ingest/seed';
import { canonicalName } from '../../../domain/party-names';
import { applicationsDocument, readRecords, sampleCaseFile, withElementText, withSerial } from '../../support/uspto-samples';

const tables = readUsptoCodeTables(join(__dirname, '..', '..', '..', 'data', 'uspto'));
const context = { tables, events: new UsptoEventTypes(tables) };

/** The marks of case-files, mapped as ingestion maps them. */
function marksOf(...caseFiles: string[]): MarkInput[] {
  return readRecords(applicationsDocument(caseFiles), CASE_FILE, 'sample.xml').map((record) => mapCaseFile(record, 'sample.xml', context));
}

/**
 * Case 98423838 as the USPTO would have published it on 14 May 2024, the day it was published for
 * opposition: status 686, no registration yet, the first eleven events, no registrant row. Built
 * from the real record (test/fixtures) by removing what happened later.
 */
function beforeRegistration(): string {
  let caseFile = sampleCaseFile('98423838');
  caseFile = withElementText(caseFile, 'transaction-date', '20240514');
  caseFile = withElementText(caseFile, 'status-code', '686');
  caseFile = withElementText(caseFile, 'status-date', '20240514');
  caseFile = withElementText(caseFile, 'registration-number', '0000000');
  caseFile = caseFile.replace(/\s*<registration-date>20240730<\/registration-date>/, '');
  caseFile = caseFile.replace(
    /\s*<case-file-event-statement>(?:(?!<\/case-file-event-statement>)[\s\S])*<date>2024(07|09)\d\d<\/date>[\s\S]*?<\/case-file-event-statement>/g,
    '',
  );
  caseFile = caseFile.replace(/\s*<case-file-owner>\s*<entry-number>1<\/entry-number>\s*<party-type>30<\/party-type>[\s\S]*?<\/case-file-owner>/, '');
  return caseFile;
}

describe('workers/ingest/mark-writer: the one write path for marks', function () {
  this.timeout(30_000);
  let dir: string;
  let store: DocumentStore;
  let writer: MarkWriter;
  let clock: number;

  const marks = () => store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
  const changesOf = (id: string) => store.collection<TrademarkChangeDoc>(COLLECTIONS.trademarkChanges).find({ trademark_id: id }, { sort: { version: 1 } });
  const eventsOf = (id: string) =>
    store.collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents).find({ trademark_id: id }, { sort: { event_date: 1, _id: 1 } });
  const feedLength = async () => Number((await store.latestPosition()) ?? 0);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marque-writer-'));
    store = createEmbeddedDocumentStore({ path: join(dir, 'store.sqlite') });
    await store.ensureIndexes(STORE_INDEXES);
    clock = Date.parse('2026-11-20T10:00:00.000Z');
    writer = new MarkWriter(store, () => new Date(clock));
  });

  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('inserts a new mark as version 1 with a created change record, its events, parties, source and raw record, all on the change feed', async () => {
    const [input] = marksOf(sampleCaseFile('98423838'));
    const [result] = await writer.write([input!]);
    const id = catalogId('tm_', 'US', '98423838');
    expect(result).to.deep.equal({ trademark_id: id, outcome: 'inserted', version: 1 });

    const doc = (await marks().findOne({ _id: id }))!;
    expect(doc).to.include({ version: 1, office_code: 'US', application_number: '98423838', mark_text: 'THE ELLINGTON AT OVIEDO PARK', proceeding_count: 0 });
    expect(doc.source_updated_at).to.equal('2024-09-14T00:00:00.000Z');
    expect(doc.created_at).to.equal('2026-11-20T10:00:00.000Z');

    const [created, ...more] = await changesOf(id);
    expect(more).to.deep.equal([]);
    expect(created).to.include({ _id: `${id}:v1`, version: 1, change_type: 'created', old_values: null, source_data_date: '2024-09-14', office_code: 'US' });
    expect(created!.new_values).to.include({ status_stage: 'registered', status_primary: 'active', office_status_code: '700', registration_number: '7463601' });
    // The contract's names: parent fields in snake_case, child changes by entity type.
    expect(created!.changed_fields).to.include.members([
      'status_stage',
      'mark_text_primary',
      'owners',
      'attorneys',
      'classifications',
      'goods_services',
      'owner_history',
      'events',
    ]);
    expect(created!.changed_fields.filter((field) => ['mark_text', 'owner_ids', 'attorney_ids'].includes(field))).to.deep.equal([]);
    expect(created!.new_values).to.include({ mark_text_primary: 'THE ELLINGTON AT OVIEDO PARK' });
    // A new mark's events are new: all 18 are the version's events change.
    expect(created!.new_values.events).to.have.length(18);

    expect((await eventsOf(id)).map((e) => e.office_event_code)).to.have.length(18);

    // The three owner rows (10, 20, 30) name one company: one owner, one entity.
    const owners = await store.collection<OwnerDoc>(COLLECTIONS.owners).find({});
    expect(owners).to.have.length(1);
    expect(owners[0]).to.include({
      name: 'Brand Properties, LLC',
      canonical_name: 'brand properties',
      country_code: 'US',
      entity_type: 'corporation',
      dedupe_key: 'org|brand properties|US',
    });
    expect(doc.owner_ids).to.deep.equal([owners[0]!._id]);
    expect(doc.owner_history.map((entry) => entry.owner_id)).to.deep.equal([owners[0]!._id, owners[0]!._id, owners[0]!._id]);
    const entity = await store.collection<EntityDoc>(COLLECTIONS.entities).findOne({ _id: owners[0]!.entity_id });
    expect(entity?.member_owner_ids).to.deep.equal([owners[0]!._id]);

    const [source] = await store.collection<TrademarkSourceDoc>(COLLECTIONS.trademarkSources).find({ trademark_id: id });
    expect(source).to.include({
      source_format: 'xml_dtd',
      source_locator: 'sample.xml#1',
      source_data_date: '2024-09-14',
      payload_hash: input!.source.payload_hash,
    });
    const [raw] = await store.collection<TrademarkRawRecordDoc>(COLLECTIONS.trademarkRawRecords).findByIds([source!._id]);
    expect(raw?.media_type).to.equal('application/xml');

    const feed = await store.readChanges(null, 100);
    expect(feed.events.filter((e) => e.collection === COLLECTIONS.trademarks).map((e) => [e.operation, e.documentId])).to.deep.equal([['insert', id]]);
  });

  it('writes nothing at all for the same raw record again', async () => {
    const inputs = marksOf(...['60146682', '98763166', '98423838', '85017257'].map(sampleCaseFile));
    await writer.write(inputs);
    const position = await feedLength();
    const results = await writer.write(marksOf(...['60146682', '98763166', '98423838', '85017257'].map(sampleCaseFile)));
    expect(results.map((r) => [r.outcome, r.version])).to.deep.equal([
      ['unchanged', 1],
      ['unchanged', 1],
      ['unchanged', 1],
      ['unchanged', 1],
    ]);
    expect(await feedLength()).to.equal(position);
    expect(await store.collection(COLLECTIONS.trademarkChanges).countDocuments({})).to.equal(4);
    expect(await store.collection(COLLECTIONS.trademarkSources).countDocuments({})).to.equal(4);
  });

  it('records the later version of a case with exactly the fields that changed', async () => {
    const id = catalogId('tm_', 'US', '98423838');
    expect((await writer.write(marksOf(beforeRegistration())))[0]?.outcome).to.equal('inserted');
    expect((await marks().findOne({ _id: id }))?.status).to.deep.include({ stage: 'opposition_period', primary: 'pending' });
    expect(await eventsOf(id)).to.have.length(11);
    const ownerId = (await marks().findOne({ _id: id }))!.owner_ids[0]!;

    clock += 60_000;
    const [result] = await writer.write(marksOf(sampleCaseFile('98423838')));
    expect(result).to.deep.equal({ trademark_id: id, outcome: 'updated', version: 2 });
    const [, update] = await changesOf(id);
    const officeRow = (type: string, role: string) => ({
      owner_id: ownerId,
      name: 'Brand Properties, LLC',
      role,
      source: 'office_record',
      office_party_type: type,
      recorded_date: null,
      reference: null,
      conveyance: null,
    });
    expect(update).to.deep.equal({
      _id: `${id}:v2`,
      trademark_id: id,
      version: 2,
      change_type: 'updated',
      changed_fields: [
        'status_stage',
        'status_primary',
        'status_reason',
        'office_status_code',
        'registration_number',
        'registration_date',
        'expiry_date',
        'renewal_due_date',
        'owner_history',
        'events',
      ],
      old_values: {
        status_stage: 'opposition_period',
        status_primary: 'pending',
        status_reason: 'in_opposition_period',
        office_status_code: '686',
        registration_number: null,
        registration_date: null,
        expiry_date: null,
        renewal_due_date: null,
        owner_history: [officeRow('10', 'applicant'), officeRow('20', 'owner_at_publication')],
        events: [],
      },
      new_values: {
        status_stage: 'registered',
        status_primary: 'active',
        status_reason: 'registration_in_force',
        office_status_code: '700',
        registration_number: '7463601',
        registration_date: '2024-07-30',
        expiry_date: '2034-07-30',
        renewal_due_date: '2034-07-30',
        owner_history: [officeRow('10', 'applicant'), officeRow('20', 'owner_at_publication'), officeRow('30', 'registrant')],
        events: [
          { event_type: 'registered', event_date: '2024-07-30', office_event_code: 'R.PR' },
          { event_type: 'office_event', event_date: '2024-07-30', office_event_code: 'NRCC' },
          { event_type: 'office_event', event_date: '2024-09-10', office_event_code: 'COAR' },
          { event_type: 'office_event', event_date: '2024-09-10', office_event_code: 'CHAN' },
          { event_type: 'office_event', event_date: '2024-09-10', office_event_code: 'REAP' },
          { event_type: 'representative_changed', event_date: '2024-09-10', office_event_code: 'ARAA' },
          { event_type: 'office_event', event_date: '2024-09-10', office_event_code: 'TCCA' },
        ],
      },
      source_data_date: '2024-09-14',
      office_code: 'US',
      created_at: '2026-11-20T10:01:00.000Z',
    });
    expect(await eventsOf(id)).to.have.length(18);
    expect((await marks().findOne({ _id: id }))?.version).to.equal(2);
  });

  it('never lets an older record overwrite a newer one', async () => {
    const id = catalogId('tm_', 'US', '98423838');
    await writer.write(marksOf(sampleCaseFile('98423838')));
    const position = await feedLength();
    const [result] = await writer.write(marksOf(beforeRegistration()));
    expect(result).to.deep.equal({ trademark_id: id, outcome: 'skipped_older', version: 1 });
    expect((await marks().findOne({ _id: id }))?.status.stage).to.equal('registered');
    expect(await feedLength()).to.equal(position);
    // The same applies inside one batch: the later record wins whatever the order.
    const other = withSerial(sampleCaseFile('98423838'), '98423839');
    const [newer, older] = await writer.write(marksOf(other, withSerial(beforeRegistration(), '98423839')));
    expect([newer?.outcome, older?.outcome]).to.deep.equal(['inserted', 'skipped_older']);
  });

  it('matches parties to existing records by the dedupe rule: one owner for an individual at two streets of one postcode', async () => {
    await writer.write(marksOf(sampleCaseFile('85017257')));
    const owners = await store.collection<OwnerDoc>(COLLECTIONS.owners).find({});
    // Rows 30 (2629 Manhattan Avenue) and 20/10 (2030 Manhattan Ave.), all Hermosa Beach 90254.
    expect(owners.map((o) => [o.name, o.entity_type, o.dedupe_key])).to.deep.equal([['Pope, Christopher', 'individual', 'person|pope christopher|US|90254']]);
  });

  it('matches an ingested party to a generated owner with the same canonical name and country', async () => {
    await seedStore(store, { marks: 40, seed: 7 });
    const generated = (await store.collection<OwnerDoc>(COLLECTIONS.owners).find({ entity_type: 'corporation' }, { sort: { _id: 1 }, limit: 1 }))[0]!;
    const [input] = marksOf(withSerial(sampleCaseFile('98763166'), '98000001'));
    input!.owners = [
      { name: `${generated.name.toUpperCase()}.`, entity_type: 'corporation', country_code: generated.country_code, city: 'Elsewhere', postcode: null },
    ];
    await writer.write([input!]);
    const doc = await marks().findOne({ _id: catalogId('tm_', 'US', '98000001') });
    expect(canonicalName(`${generated.name.toUpperCase()}.`)).to.equal(generated.canonical_name);
    expect(doc?.owner_ids).to.deep.equal([generated._id]);
  });

  it('records a new owner as a change with the old owner detached, so the party indexes recount both', async () => {
    const id = catalogId('tm_', 'US', '98763166');
    await writer.write(marksOf(sampleCaseFile('98763166')));
    const before = (await marks().findOne({ _id: id }))!;
    const [later] = marksOf(withElementText(sampleCaseFile('98763166'), 'transaction-date', '20241001'));
    later!.owners = [{ name: 'Huy Holdings Company Limited', entity_type: 'corporation', country_code: 'VN', city: 'Hanoi', postcode: '10000' }];
    clock += 1000;
    expect((await writer.write([later!]))[0]?.outcome).to.equal('updated');
    const after = (await marks().findOne({ _id: id })) as TrademarkDoc & { detached_party_ids?: string[] };
    expect(after.owner_ids).to.have.length(1);
    expect(after.owner_ids[0]).to.not.equal(before.owner_ids[0]);
    expect(after.detached_party_ids).to.deep.equal(before.owner_ids);
    const [, change] = await changesOf(id);
    expect(change?.changed_fields).to.deep.equal(['owners']);
    expect(change?.old_values).to.deep.equal({ owners: before.owner_ids });
    expect(change?.new_values).to.deep.equal({ owners: after.owner_ids });
  });

  it('adds assignment rows and events without touching the current owner, and keeps them when the office record is updated', async () => {
    const id = catalogId('tm_', 'US', '98423838');
    await writer.write(marksOf(beforeRegistration()));
    const owners = (await marks().findOne({ _id: id }))!.owner_ids;
    const amendment = {
      trademark_id: id,
      owner_history: [
        {
          owner: { name: 'Ellington Holdings LLC', entity_type: 'corporation' as const, country_code: 'US', city: null, postcode: null },
          name: 'Ellington Holdings LLC',
          role: 'assignee' as const,
          office_party_type: null,
          recorded_date: '2024-06-01',
          reference: '8400/0001',
          conveyance: 'ASSIGNS THE ENTIRE INTEREST',
        },
      ],
      events: [
        {
          key: 'assignment:8400/0001',
          event_type: 'assignment_recorded',
          event_date: '2024-06-01',
          office_event_code: null,
          description: 'ASSIGNS THE ENTIRE INTEREST',
        },
      ],
      data_date: '2024-06-01',
    };
    expect((await writer.amend([amendment]))[0]).to.deep.include({ outcome: 'updated', version: 2 });
    expect((await writer.amend([amendment]))[0]).to.deep.include({ outcome: 'unchanged', version: 2 });
    expect((await writer.amend([{ ...amendment, trademark_id: catalogId('tm_', 'US', '11111111') }]))[0]?.outcome).to.equal('not_found');
    const amended = (await marks().findOne({ _id: id }))!;
    expect(amended.owner_ids).to.deep.equal(owners);
    expect(amended.owner_history.filter((entry) => entry.source === 'assignment').map((entry) => [entry.role, entry.name, entry.reference])).to.deep.equal([
      ['assignee', 'Ellington Holdings LLC', '8400/0001'],
    ]);
    const [, , change] = [null, ...(await changesOf(id))];
    expect(change?.changed_fields).to.deep.equal(['owner_history', 'events']);
    expect(change?.source_data_date).to.equal('2024-06-01');

    await writer.write(marksOf(sampleCaseFile('98423838')));
    const updated = (await marks().findOne({ _id: id }))!;
    expect(updated.version).to.equal(3);
    expect(updated.owner_history.map((entry) => entry.role)).to.deep.equal(['applicant', 'owner_at_publication', 'registrant', 'assignee']);
    expect((await eventsOf(id)).some((event) => event._id === `${id}:assignment:8400/0001`)).to.equal(true);
  });
});

describe('workers/ingest/mark-writer: an assignment naming many marks', function () {
  this.timeout(120_000);
  let dir: string;
  let store: DocumentStore;
  /** Marks replaced by each outermost transaction of the store, in order. */
  let marksPerTransaction: number[];
  let writer: MarkWriter;
  const MARKS = 2_500;
  const serial = (i: number) => String(97_100_000 + i);
  const ids = Array.from({ length: MARKS }, (_, i) => catalogId('tm_', 'US', serial(i)));

  /** The store, counting the marks each transaction replaces (what one transaction holds in memory until it commits). */
  function counting(target: DocumentStore): DocumentStore {
    let depth = 0;
    return new Proxy(target, {
      get(object, key) {
        if (key === 'transaction')
          return async <R>(work: () => Promise<R>): Promise<R> => {
            if (depth++ === 0) marksPerTransaction.push(0);
            try {
              return await object.transaction(work);
            } finally {
              depth--;
            }
          };
        if (key === 'collection')
          return (name: string) => {
            const collection = object.collection(name);
            if (name !== COLLECTIONS.trademarks) return collection;
            return new Proxy(collection, {
              get(inner, member) {
                if (member === 'replaceOne')
                  return (doc: TrademarkDoc) => {
                    marksPerTransaction[marksPerTransaction.length - 1]!++;
                    return inner.replaceOne(doc);
                  };
                const value = Reflect.get(inner, member) as unknown;
                return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(inner) : value;
              },
            });
          };
        const value = Reflect.get(object, key) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  }

  /** One recorded assignment of `parties` assignees naming every mark, as run-ingest turns it into amendments. */
  function assignment(reference: string, parties: number): MarkAmendment[] {
    const history: OwnerHistoryInput[] = Array.from({ length: parties }, (_, i) => ({
      owner: { name: `Assignee ${i} Holdings LLC`, entity_type: 'corporation' as const, country_code: 'US', city: null, postcode: null },
      name: `Assignee ${i} Holdings LLC`,
      role: 'assignee' as const,
      office_party_type: null,
      recorded_date: '2024-06-01',
      reference,
      conveyance: 'ASSIGNS THE ENTIRE INTEREST',
    }));
    return ids.map((trademark_id) => ({ trademark_id, owner_history: history, events: [], data_date: '2024-06-01' }));
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marque-writer-'));
    const raw = createEmbeddedDocumentStore({ path: join(dir, 'store.sqlite') });
    await raw.ensureIndexes(STORE_INDEXES);
    store = counting(raw);
    writer = new MarkWriter(store, () => new Date('2026-11-20T10:00:00.000Z'));
    marksPerTransaction = [];
    const caseFiles = Array.from({ length: MARKS }, (_, i) => withSerial(sampleCaseFile('98423838'), serial(i)));
    for (let i = 0; i < MARKS; i += 500) await writer.write(marksOf(...caseFiles.slice(i, i + 500)));
  });

  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes at most 2,000 marks a transaction, and every mark gains its rows once', async () => {
    marksPerTransaction = [];
    const results = await writer.amend(assignment('8400/0001', 3));
    expect(results.map((result) => result.outcome)).to.deep.equal(ids.map(() => 'updated'));
    expect(marksPerTransaction).to.deep.equal([2_000, 500]);
    const stored = await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds([ids[0]!, ids[1_999]!, ids[2_000]!, ids[MARKS - 1]!]);
    for (const mark of stored) expect(mark!.owner_history.filter((row) => row.reference === '8400/0001').map((row) => row.name)).to.have.length(3);
  });

  it('writes at most 50,000 owner-history rows a transaction: 60 parties, 833 marks a transaction', async () => {
    // 50,000 / 60 = 833.3: 833 marks (49,980 rows) a transaction, then 833, 833 and the last 1.
    marksPerTransaction = [];
    await writer.amend(assignment('8400/0002', 60));
    expect(marksPerTransaction).to.deep.equal([833, 833, 833, 1]);
    const [last] = await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds([ids[MARKS - 1]!]);
    expect(new Set(last!.owner_history.filter((row) => row.reference === '8400/0002').map((row) => row.name)).size).to.equal(60);
  });

  it('adds nothing when the same assignment is read again', async () => {
    marksPerTransaction = [];
    const results = await writer.amend(assignment('8400/0002', 60));
    expect(new Set(results.map((result) => result.outcome))).to.deep.equal(new Set(['unchanged']));
    expect(marksPerTransaction.reduce((sum, n) => sum + n, 0)).to.equal(0);
  });
});
