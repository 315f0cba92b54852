import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogId } from '../../../domain/ids';
import { CATALOG_COLLECTIONS, COLLECTIONS, type TrademarkDoc } from '../../../domain/records';
import { runIngest, type IngestOptions, type IngestSummary } from '../../../workers/ingest/run-ingest';
import { startTestApp, type TestApp } from '../../support/harness';
import { ok } from '../../support/http';
import {
  applicationsDocument,
  APPLICATIONS_SAMPLE,
  fixture,
  sampleCaseFile,
  withElementText,
  withSerial,
  writeRepeatedApplications,
  writeZip,
  zipEntriesReadDuring,
} from '../../support/uspto-samples';

const DATA = join(__dirname, '..', '..', '..', 'data');
const SERIALS = ['60146682', '98763166', '98423838', '85017257'];

describe('workers/ingest/run-ingest: office files through the write path, seen over HTTP', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dir: string;

  const ingest = (format: IngestOptions['format'], paths: string[], extra: Partial<IngestOptions> = {}): Promise<IngestSummary> =>
    runIngest(app.adapters, { format, paths, dataDir: DATA, dryRun: false, thread: false, ...extra });
  /** Catalog writes (marks and parties) on the change feed since `position`; request logs aside. */
  const catalogWritesSince = async (position: string | null) => (await app.adapters.store.readChanges(position, 10_000, CATALOG_COLLECTIONS)).events.length;
  const mark = (serial: string) => app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({ _id: catalogId('tm_', 'US', serial) });
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  before(async () => {
    app = await startTestApp({ marks: 200 });
    dir = mkdtempSync(join(tmpdir(), 'marque-ingest-'));
  });

  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('USPTO daily applications', () => {
    let first: IngestSummary;

    before(async () => {
      first = await ingest('uspto', [APPLICATIONS_SAMPLE]);
      await app.indexer.catchUp();
    });

    it('loads every case-file of the sample and summarizes the run', () => {
      expect(first).to.deep.include({ format: 'uspto', dry_run: false, records_read: 4, inserted: 4, updated: 0, unchanged: 0, rejected: 0, error: null });
      expect(first.files).to.deep.equal([{ file: 'apc-sample-4-case-files.xml', status: 'loaded', records_read: 4, rejected: 0 }]);
    });

    it('changes nothing when the same file is loaded again', async () => {
      const position = await app.adapters.store.latestPosition();
      const again = await ingest('uspto', [APPLICATIONS_SAMPLE]);
      expect(again).to.deep.include({ records_read: 4, inserted: 0, updated: 0, unchanged: 4 });
      expect(await catalogWritesSince(position)).to.equal(0);
      for (const serial of SERIALS) expect((await mark(serial))?.version).to.equal(1);
    });

    it('serves an ingested mark like any other: detail with parties, status and owner history', async () => {
      const id = catalogId('tm_', 'US', '98423838');
      const body = await ok<Record<string, unknown> & { owners: Array<{ name: string }>; attorneys: Array<Record<string, unknown>> }>(
        await app.get(`/v1/trademarks/${id}`),
      );
      expect(body).to.deep.include({
        id,
        object: 'trademark',
        mark_text: 'THE ELLINGTON AT OVIEDO PARK',
        application_number: '98423838',
        registration_number: '7463601',
        office_code: 'US',
        jurisdiction_code: 'US',
        filing_date: '2024-02-27',
        registration_date: '2024-07-30',
        publication_date: '2024-05-14',
        version: 1,
        source_updated_at: '2024-09-14T00:00:00.000Z',
      });
      expect(body.status).to.deep.equal({
        primary: 'active',
        stage: 'registered',
        reason: 'registration_in_force',
        challenge_states: [],
        office_status: { code: '700', description: 'REGISTERED' },
      });
      expect(body.owners.map((o) => o.name)).to.deep.equal(['Brand Properties, LLC']);
      expect(body.attorneys).to.have.length(1);
      expect(body.attorneys[0]).to.include({ name: 'Austin Padgett', firm_name: 'Troutman Pepper Hamilton Sanders LLP', country_code: 'US' });
      expect((body.owner_history as Array<{ role: string }>).map((row) => row.role)).to.deep.equal(['applicant', 'owner_at_publication', 'registrant']);
    });

    it('serves its provenance, and with include=raw the raw case-file whose SHA-256 is the payload hash', async () => {
      const id = catalogId('tm_', 'US', '85017257');
      const source = await ok<Record<string, unknown>>(await app.get(`/v1/trademarks/${id}/source`));
      expect(source).to.include({
        object: 'trademark_source',
        trademark_id: id,
        office_code: 'US',
        source_format: 'xml_dtd',
        source_response_type: 'bulk_daily',
        source_locator: 'apc-sample-4-case-files.xml#4',
        source_data_date: '2024-09-14',
      });
      expect(source).to.not.have.property('raw_record');
      const withRaw = await ok<{ raw_record: string; payload_hash: string }>(await app.get(`/v1/trademarks/${id}/source?include=raw`));
      expect(withRaw.raw_record).to.equal(sampleCaseFile('85017257'));
      expect(withRaw.payload_hash).to.equal(`sha256:${createHash('sha256').update(withRaw.raw_record, 'utf8').digest('hex')}`);
    });

    it('serves its prosecution history in (date, number) order with the office codes, and its change record', async () => {
      const id = catalogId('tm_', 'US', '98423838');
      const history = await ok<{ data: Array<{ event_type: string; office_event_code: string; event_date: string; category: string | null }> }>(
        await app.get(`/v1/trademarks/${id}/history?sort=event_date&limit=5`),
      );
      expect(history.data.map((e) => [e.event_date, e.office_event_code, e.event_type])).to.deep.equal([
        ['2024-02-27', 'NWAP', 'application_filed'],
        ['2024-02-27', 'NWOS', 'application_data_entered'],
        ['2024-04-02', 'DOCK', 'assigned_to_examiner'],
        ['2024-04-09', 'CNEA', 'office_event'],
        ['2024-04-09', 'GNEA', 'office_event'],
      ]);
      expect(history.data[3]?.category).to.equal('other');
      const changes = await ok<{ data: Array<{ version: number; change_type: string; source_data_date: string }> }>(
        await app.get(`/v1/trademarks/${id}/changes`),
      );
      expect(changes.data.map((c) => [c.version, c.change_type, c.source_data_date])).to.deep.equal([[1, 'created', '2024-09-14']]);
    });

    it('finds ingested marks by search once the indexer has followed the change feed', async () => {
      const body = await ok<{ data: Array<{ id: string; owners: Array<{ name: string }> }> }>(
        await app.get('/v1/trademarks?office=US&application_number=98763166'),
      );
      expect(body.data.map((row) => row.id)).to.deep.equal([catalogId('tm_', 'US', '98763166')]);
      expect(body.data[0]?.owners.map((o) => o.name)).to.deep.equal(['Nguyen Quang Huy']);
      const byText = await ok<{ data: Array<{ id: string }> }>(await app.get('/v1/trademarks?q=MACHINE-PISTOL&offices=US'));
      expect(byText.data.map((row) => row.id)).to.include(catalogId('tm_', 'US', '60146682'));
    });

    it('finds the registration the office writes 0146682 (<registration-number>) by 146682, 0146682 and 0.146.682; not by 1466820', async () => {
      const found = async (number: string) =>
        (await ok<{ data: Array<{ id: string }> }>(await app.get(`/v1/trademarks?office=US&registration_number=${number}&limit=100`))).data.map(
          (row) => row.id,
        );
      // Every US mark stored with that number: the sample's case-file, and the copies with fresh serials other tests load.
      const stored = (
        await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ office_code: 'US', registration_number: '0146682' })
      ).map((m) => m._id);
      expect(stored).to.include(catalogId('tm_', 'US', '60146682'));
      for (const number of ['146682', '0146682', '0.146.682']) expect((await found(number)).sort(), number).to.deep.equal(stored.sort());
      expect(await found('1466820')).to.deep.equal([]);
    });
  });

  it('loads the ST.96 samples as marks like any other', async () => {
    const summary = await ingest('st96', [fixture('st96', 'uspto-tsdr-st96-rn2178784.xml'), fixture('st96', 'uspto-tsdr-st96-sn87881347.xml')]);
    expect(summary).to.deep.include({ format: 'st96', records_read: 2, inserted: 2, rejected: 0, error: null });
    const body = await ok<{ mark_text: string; registration_number: string; owners: Array<{ name: string }>; owner_history: Array<{ name: string }> }>(
      await app.get(`/v1/trademarks/${catalogId('tm_', 'US', '74631225')}`),
    );
    expect(body).to.include({ mark_text: 'JAVA', registration_number: '2178784' });
    expect(body.owners.map((o) => o.name)).to.deep.equal(['Oracle America, Inc.']);
    expect(body.owner_history.map((row) => row.name)).to.deep.equal([
      'Sun Microsystems, Inc.',
      'Sun Microsystems, Inc.',
      'Sun Microsystems, Inc.',
      'Oracle America, Inc.',
    ]);
    const source = await ok<{ source_format: string; source_data_date: string }>(await app.get(`/v1/trademarks/${catalogId('tm_', 'US', '87881347')}/source`));
    expect(source).to.include({ source_format: 'xml_st96', source_data_date: '2018-08-27' });
  });

  it('reads files in the order given: an older file after a newer one changes nothing', async () => {
    const newer = write('apc-newer.xml', applicationsDocument([withSerial(sampleCaseFile('98763166'), '97000001')]));
    const older = write(
      'apc-older.xml',
      applicationsDocument([
        withElementText(withElementText(withSerial(sampleCaseFile('98763166'), '97000001'), 'transaction-date', '20240901'), 'status-code', '602'),
      ]),
    );
    const summary = await ingest('uspto', [newer, older]);
    expect(summary).to.deep.include({ records_read: 2, inserted: 1, skipped_older: 1 });
    expect((await mark('97000001'))?.status.office_status?.code).to.equal('630');
  });

  it('rejects an invalid record with its serial number and reason while the rest load', async () => {
    const bad = withElementText(withSerial(sampleCaseFile('98763166'), '97000011'), 'filing-date', '20240231');
    const path = write(
      'apc-invalid.xml',
      applicationsDocument([withSerial(sampleCaseFile('98763166'), '97000010'), bad, withSerial(sampleCaseFile('85017257'), '97000012')]),
    );
    const summary = await ingest('uspto', [path]);
    expect(summary).to.deep.include({ records_read: 3, inserted: 2, rejected: 1, error: null });
    expect(summary.rejections).to.deep.equal([
      { document: 'apc-invalid.xml', record: 2, key: '97000011', reason: "case-file-header/filing-date '20240231' is not a calendar date" },
    ]);
    expect(await mark('97000011')).to.equal(null);
  });

  it('rejects a registered case-file whose registration-date is 99991231 with its serial while the records around it load', async () => {
    const registered = (serial: string) => withSerial(sampleCaseFile('98423838'), serial);
    const path = write(
      'apc-regdate.xml',
      applicationsDocument([registered('97000041'), withElementText(registered('97000042'), 'registration-date', '99991231'), registered('97000043')]),
    );
    const summary = await ingest('uspto', [path]);
    expect(summary).to.deep.include({ records_read: 3, inserted: 2, rejected: 1, error: null });
    expect(summary.rejections).to.deep.equal([
      { document: 'apc-regdate.xml', record: 2, key: '97000042', reason: "case-file-header/registration-date '99991231' is outside the years 1800-2199" },
    ]);
    expect(await mark('97000042')).to.equal(null);
    expect((await mark('97000043'))?.expiry_date).to.equal('2034-07-30');
  });

  it('rejects a case-file without a transaction-date or dated in the future, leaving the stored record as it was for the next real file', async () => {
    const serial = '97000050';
    const dated = (date: string, status: string) =>
      withElementText(withElementText(withSerial(sampleCaseFile('98763166'), serial), 'transaction-date', date), 'status-code', status);
    expect(await ingest('uspto', [write('apc-dated-2025.xml', applicationsDocument([dated('20250301', '630')]))])).to.deep.include({ inserted: 1 });
    const stored = await mark(serial);
    expect(stored?.source_updated_at).to.equal('2025-03-01T00:00:00.000Z');

    const undated = dated('20250301', '602').replace(/\s*<transaction-date>\d+<\/transaction-date>/, '');
    const future = dated('99991231', '602');
    const nextYear = String(new Date().getUTCFullYear() + 1);
    const ahead = dated(`${nextYear}0601`, '602');
    const summary = await ingest('uspto', [write('apc-undated.xml', applicationsDocument([undated, future, ahead]))]);
    expect(summary).to.deep.include({ records_read: 3, inserted: 0, updated: 0, unchanged: 0, skipped_older: 0, rejected: 3, error: null });
    expect(summary.rejections.map(({ key, reason }) => ({ key, reason: reason.replace(/ after \d{4}-\d\d-\d\d,/, ' after DAY,') }))).to.deep.equal([
      { key: serial, reason: 'transaction-date is missing: the case-file cannot be ordered against other versions' },
      { key: serial, reason: "transaction-date '99991231' is outside the years 1800-2199" },
      { key: serial, reason: `transaction-date '${nextYear}0601' is after DAY, the day after today: a future date cannot be ordered against other versions` },
    ]);
    expect(await mark(serial)).to.deep.equal(stored);

    // The next real file is newer than what is stored, and applies.
    const later = await ingest('uspto', [write('apc-dated-2026.xml', applicationsDocument([dated('20260105', '602')]))]);
    expect(later).to.deep.include({ records_read: 1, updated: 1, skipped_older: 0, rejected: 0 });
    expect(await mark(serial)).to.deep.include({ version: 2, source_updated_at: '2026-01-05T00:00:00.000Z' });
    expect((await mark(serial))?.status.office_status?.code).to.equal('602');
  });

  it('stops at a truncated file naming the line and column, with every complete record before it committed whole', async () => {
    const full = join(dir, 'apc-full.xml');
    await writeRepeatedApplications(full, { firstSerial: 96000000, records: 40 });
    const text = readFileSync(full, 'utf8');
    const cut = text.slice(0, Math.floor(text.length * 0.6));
    const path = write('apc-truncated.xml', cut);
    const complete = cut.split('</case-file>').length - 1;
    const summary = await ingest('uspto', [path], { batchSize: 7 });
    expect(summary.error).to.not.equal(null);
    expect(summary.error!.file).to.equal('apc-truncated.xml');
    expect(summary.error!.line).to.equal(cut.split('\n').length);
    expect(summary.error!.message).to.match(/^apc-truncated\.xml:\d+:\d+: /);
    expect(summary.files).to.deep.equal([{ file: 'apc-truncated.xml', status: 'failed', records_read: complete, rejected: 0 }]);
    expect(summary.inserted).to.equal(complete);
    const stored = await app.adapters.store
      .collection<TrademarkDoc>(COLLECTIONS.trademarks)
      .find({ application_number: { $gte: '96000000', $lt: '97000000' } });
    expect(stored).to.have.length(complete);
    // Each committed mark is whole: its version, change record and source observation.
    const changes = await app.adapters.store.collection(COLLECTIONS.trademarkChanges).countDocuments({ trademark_id: { $in: stored.map((doc) => doc._id) } });
    const sources = await app.adapters.store.collection(COLLECTIONS.trademarkSources).countDocuments({ trademark_id: { $in: stored.map((doc) => doc._id) } });
    expect([changes, sources]).to.deep.equal([complete, complete]);
  });

  it('never resolves external entities: a file declaring one stops with the entity error and nothing of the target is read', async () => {
    // The sample's own internal DTD subset, with an external entity added, used in a mark text.
    const document = applicationsDocument([withElementText(withSerial(sampleCaseFile('98763166'), '97000020'), 'mark-identification', '&secret;')]);
    const path = write('apc-xxe.xml', document.replace(']>', '<!ENTITY secret SYSTEM "file:///etc/hostname">\n]>'));
    const summary = await ingest('uspto', [path]);
    expect(summary.error?.message).to.match(/^apc-xxe\.xml:\d+:\d+: undefined entity/);
    expect(await mark('97000020')).to.equal(null);
  });

  it('reads a 10-record zip as a stream in a parse thread, locating each record in its entry', async () => {
    const caseFiles = Array.from({ length: 10 }, (_, i) => withSerial(sampleCaseFile(SERIALS[i % 4]!), String(95000000 + i)));
    const path = join(dir, 'apc250101.zip');
    await writeZip(path, [{ name: 'apc250101.xml', content: applicationsDocument(caseFiles) }]);
    const summary = await ingest('uspto', [path], { thread: true });
    expect(summary).to.deep.include({ records_read: 10, inserted: 10, error: null });
    expect(summary.files).to.deep.equal([{ file: 'apc250101.zip!apc250101.xml', status: 'loaded', records_read: 10, rejected: 0 }]);
    const source = await ok<{ source_locator: string }>(await app.get(`/v1/trademarks/${catalogId('tm_', 'US', '95000006')}/source`));
    expect(source.source_locator).to.equal('apc250101.zip!apc250101.xml#7');
  });

  it('reads a zip of many documents with one pass over its directory to list them and one to read them, not one per document', async () => {
    const documents = 150;
    const path = join(dir, 'apc-many.zip');
    await writeZip(
      path,
      Array.from({ length: documents }, (_, i) => ({
        name: `apc${String(i).padStart(4, '0')}.xml`,
        content: applicationsDocument([withSerial(sampleCaseFile(SERIALS[i % 4]!), String(93000000 + i))]),
      })),
    );
    let summary: IngestSummary | null = null;
    // A dry run reads every document as a run does and leaves the store to the other tests.
    const read = await zipEntriesReadDuring(async () => (summary = await ingest('uspto', [path], { dryRun: true })));
    expect(summary).to.deep.include({ records_read: documents, rejected: 0, error: null });
    expect(summary!.files[documents - 1]).to.deep.equal({ file: 'apc-many.zip!apc0149.xml', status: 'loaded', records_read: 1, rejected: 0 });
    // A pass reads each entry, and one call more finds the end.
    expect(read).to.be.at.most(2 * (documents + 1));
  });

  it('stops at bytes that are not UTF-8 naming their line and column, with every record before them committed whole', async () => {
    // Three of the sample case-files in turn (the fourth is the one the search test above looks for by its words).
    const text = applicationsDocument(Array.from({ length: 40 }, (_, i) => withSerial(sampleCaseFile(SERIALS[1 + (i % 3)]!), String(92000000 + i))));
    // FF FE (never in UTF-8) after the 35th case-file's serial number, past the first 256 KB read.
    const before = text.slice(0, text.indexOf('<serial-number>92000034</serial-number>') + '<serial-number>92000034</serial-number>'.length);
    const path = join(dir, 'apc-utf8.xml');
    writeFileSync(path, Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(before.length))]));
    const byte = Buffer.byteLength(before);
    expect(byte).to.be.greaterThan(256 * 1024);
    // As the parser counts: lines from 1, columns from 0 in characters.
    const line = before.split('\n').length;
    const column = [...before.slice(before.lastIndexOf('\n') + 1)].length;

    const summary = await ingest('uspto', [path], { batchSize: 7 });
    expect(summary.error).to.deep.equal({
      file: 'apc-utf8.xml',
      line,
      column,
      message: `apc-utf8.xml:${line}:${column}: bytes that are not UTF-8 (byte ${byte} of the document)`,
    });
    expect(summary.files).to.deep.equal([{ file: 'apc-utf8.xml', status: 'failed', records_read: 34, rejected: 0 }]);
    expect(summary.inserted).to.equal(34);
    for (const serial of ['92000000', '92000033']) expect(await mark(serial), serial).to.deep.include({ version: 1 });
    expect(await mark('92000034')).to.equal(null);
  });

  it('stops at a file the parse thread runs out of memory on, naming it; the batches it handed over before are committed whole, none after', async () => {
    // 400,000 nested elements between records: the XML parser holds every open element, far more
    // than a 48 MB heap (the real cap is 256 MB; a 48 MB one fits the thread itself, run from source).
    const caseFiles = Array.from({ length: 4 }, (_, i) => withSerial(sampleCaseFile(SERIALS[i]!), String(94000000 + i)));
    const nesting = '<a>'.repeat(400_000) + '</a>'.repeat(400_000);
    const path = write('apc-deep.xml', applicationsDocument([...caseFiles, nesting, withSerial(sampleCaseFile('98423838'), '94000004')]));
    const summary = await ingest('uspto', [path], { thread: true, parseHeapMb: 48, batchSize: 2 });
    expect(summary.error).to.deep.equal({
      file: 'apc-deep.xml',
      line: null,
      column: null,
      message: 'apc-deep.xml: the parser ran out of memory (more than 48 MB): too much text, comments or nesting outside any record',
    });
    // A thread that dies of its heap may die before its last batches reach the writer (Node drops a
    // dead thread's undelivered messages): which of the four are committed depends on timing, but
    // only whole batches, in order, are, and the summary counts exactly those.
    const committed: number[] = [];
    for (let i = 0; i < 4; i++) if ((await mark(String(94000000 + i))) !== null) committed.push(i);
    expect([0, 2, 4]).to.include(committed.length);
    expect(committed).to.deep.equal([0, 1, 2, 3].slice(0, committed.length));
    for (const i of committed) expect(await mark(String(94000000 + i)), `9400000${i}`).to.deep.include({ version: 1 });
    expect(summary.files).to.deep.equal([{ file: 'apc-deep.xml', status: 'failed', records_read: committed.length, rejected: 0 }]);
    expect(summary).to.deep.include({ records_read: committed.length, inserted: committed.length });
    expect(await mark('94000004')).to.equal(null);
  });

  it('stops at a zip whose entry has an unsafe path, naming the zip and the entry, and reads nothing of it', async () => {
    // yazl refuses to write such a name, so the zip is written with one of the same length, then renamed in place.
    const path = join(dir, 'apc-traversal.zip');
    await writeZip(path, [{ name: 'xx/apc-traversal.xml', content: applicationsDocument([withSerial(sampleCaseFile('98423838'), '94000010')]) }]);
    const bytes = readFileSync(path);
    writeFileSync(path, Buffer.from(bytes.toString('latin1').replaceAll('xx/apc-traversal.xml', '../apc-traversal.xml'), 'latin1'));
    for (const thread of [false, true]) {
      const summary = await ingest('uspto', [path], { thread });
      expect(summary.error).to.deep.equal({ file: null, line: null, column: null, message: `${path}: zip entry '../apc-traversal.xml' has an unsafe path` });
      expect(summary).to.deep.include({ files: [], records_read: 0 });
    }
    expect(await mark('94000010')).to.equal(null);
  });

  it('stops at a zip entry whose compressed data is damaged, naming the zip and the entry', async () => {
    const path = join(dir, 'apc-damaged.zip');
    await writeZip(path, [{ name: 'apc-damaged.xml', content: applicationsDocument([withSerial(sampleCaseFile('98423838'), '94000020')]) }]);
    const bytes = readFileSync(path);
    // The entry's deflate data starts after the local header (30 bytes, the name, the extra field);
    // 0x07 there declares a block of the reserved type 3, which inflating always refuses.
    bytes[30 + bytes.readUInt16LE(26) + bytes.readUInt16LE(28)] = 0x07;
    writeFileSync(path, bytes);
    const summary = await ingest('uspto', [path], { thread: true });
    expect(summary.error?.file).to.equal('apc-damaged.zip!apc-damaged.xml');
    expect(summary.error?.message).to.satisfy((message: string) => message.startsWith(`${path}: zip entry 'apc-damaged.xml' cannot be read (`));
    expect(summary.error?.message).to.contain('invalid block type');
    expect(summary.files).to.deep.equal([{ file: 'apc-damaged.zip!apc-damaged.xml', status: 'failed', records_read: 0, rejected: 0 }]);
    expect(await mark('94000020')).to.equal(null);
  });

  it('stops at a zip holding no XML document, naming the zip, as at a directory holding none', async () => {
    const noXml = join(dir, 'apc-readme.zip');
    await writeZip(noXml, [{ name: 'readme.txt', content: 'the daily files go here' }]);
    const empty = join(dir, 'apc-empty.zip');
    await writeZip(empty, []);
    for (const path of [noXml, empty]) {
      const summary = await ingest('uspto', [path]);
      expect(summary.error, path).to.deep.equal({ file: null, line: null, column: null, message: `${path}: no .xml document in this zip archive` });
      expect(summary).to.deep.include({ files: [], records_read: 0 });
    }
  });

  it('stops at a file of another format (the wrong command), naming it and its root element; a file of the right format without records loads', async () => {
    const wrong: Array<[IngestOptions['format'], string, string]> = [
      [
        'st96',
        fixture('st96', 'uspto-tsdr-st66-sn87881347.xml'),
        '<Trademark> record and its root element is <Transaction> (namespace http://www.wipo.int/standards/XMLSchema/trademarks): not a WIPO ST.96 trademark file',
      ],
      ['st96', APPLICATIONS_SAMPLE, '<Trademark> record and its root element is <trademark-applications-daily>: not a WIPO ST.96'],
      [
        'uspto',
        fixture('uspto', 'ttab-daily-sample-1-proceeding.xml'),
        '<case-file> record and its root element is <ttab-proceedings>: not a USPTO trademark applications file',
      ],
      [
        'uspto',
        fixture('st96', 'uspto-tsdr-st96-sn87881347.xml'),
        '<case-file> record and its root element is <TrademarkTransaction> (namespace http://www.wipo.int/standards/XMLSchema/ST96/Trademark)',
      ],
      [
        'uspto-ttab',
        APPLICATIONS_SAMPLE,
        '<proceeding-entry> record and its root element is <trademark-applications-daily>: not a USPTO TTAB proceedings file',
      ],
      [
        'uspto-assignments',
        fixture('uspto', 'ttab-daily-sample-1-proceeding.xml'),
        '<assignment-entry> record and its root element is <ttab-proceedings>: not a USPTO trademark assignments file',
      ],
    ];
    for (const [format, path, message] of wrong) {
      for (const dryRun of [false, true]) {
        const summary = dryRun ? await runIngest(null, { format, paths: [path], dataDir: DATA, dryRun, thread: false }) : await ingest(format, [path]);
        expect(summary.error?.message, `${format} ${path}`).to.contain(`: holds no ${message}`);
        expect(summary.error?.file).to.equal(path.split('/').pop());
        expect(summary.files).to.deep.equal([{ file: path.split('/').pop(), status: 'failed', records_read: 0, rejected: 0 }]);
      }
    }
    const quiet = await ingest('uspto', [write('apc-no-records.xml', applicationsDocument([]))]);
    expect(quiet).to.deep.include({ records_read: 0, error: null });
    expect(quiet.files).to.deep.equal([{ file: 'apc-no-records.xml', status: 'loaded', records_read: 0, rejected: 0 }]);
  });

  // A name under the 16 MiB record bound still cost the party resolver over 1 GB of memory.
  it('rejects a case-file whose owner or attorney name is over 1,000 characters, naming the field, while the records around it load', async () => {
    const named = (serial: string, element: string, length: number) =>
      withElementText(withSerial(sampleCaseFile('98763166'), serial), element, `${'Longname '.repeat(Math.ceil(length / 9)).slice(0, length - 1)}s`);
    const path = write(
      'apc-long-names.xml',
      applicationsDocument([
        withSerial(sampleCaseFile('85017257'), '97000060'),
        named('97000061', 'party-name', 1_001),
        named('97000062', 'party-name', 1_000),
        named('97000063', 'attorney-name', 1_001),
        withSerial(sampleCaseFile('98423838'), '97000064'),
      ]),
    );
    const summary = await ingest('uspto', [path]);
    expect(summary).to.deep.include({ records_read: 5, inserted: 3, rejected: 2, error: null });
    expect(summary.rejections).to.deep.equal([
      { document: 'apc-long-names.xml', record: 2, key: '97000061', reason: 'owner name is longer than 1,000 characters' },
      { document: 'apc-long-names.xml', record: 4, key: '97000063', reason: 'attorney name is longer than 1,000 characters' },
    ]);
    expect(await mark('97000061')).to.equal(null);
    expect(await mark('97000063')).to.equal(null);
    const [ownerId] = (await mark('97000062'))!.owner_ids;
    const owner = await app.adapters.store.collection<{ _id: string; name: string }>(COLLECTIONS.owners).findOne({ _id: ownerId! });
    expect(owner?.name.length).to.equal(1_000);
    expect(await mark('97000060')).to.not.equal(null);
    expect(await mark('97000064')).to.not.equal(null);
  });

  it('parses and validates without writing on a dry run', async () => {
    const position = await app.adapters.store.latestPosition();
    const path = write('apc-dry.xml', applicationsDocument([withSerial(sampleCaseFile('98423838'), '97000030')]));
    const summary = await runIngest(null, { format: 'uspto', paths: [path], dataDir: DATA, dryRun: true, thread: false });
    expect(summary).to.deep.include({ dry_run: true, records_read: 1, inserted: 0, rejected: 0, error: null });
    expect(await catalogWritesSince(position)).to.equal(0);
    expect(await mark('97000030')).to.equal(null);
  });

  describe('assignments and TTAB proceedings, joined to their marks by serial number', () => {
    /**
     * The real sample TTAB entry as an opposition: its one party (P, Octopus Energy Group Limited)
     * pleads `pleaded` against a defendant (D) named `applicant` whose application is `opposed`.
     */
    const oppositionEntry = (o: { number: string; pleaded: string; opposed: string; applicant: string }): string => {
      const sample = readFileSync(fixture('uspto', 'ttab-daily-sample-1-proceeding.xml'), 'utf8');
      const party = sample.slice(sample.indexOf('<party>'), sample.indexOf('</party>') + '</party>'.length);
      const withProperty = (text: string, serial: string) =>
        text.replace('<serial-number>79412016</serial-number>', `<serial-number>${serial}</serial-number>`);
      const defendant = withProperty(party, o.opposed)
        .replace('<role-code>P</role-code>', '<role-code>D</role-code>')
        .replace('<name>Octopus Energy Group Limited</name>', `<name>${o.applicant}</name>`);
      return sample
        .replace('<number>79412016</number>', `<number>${o.number}</number>`)
        .replace('<type-code>EXA</type-code>', '<type-code>OPP</type-code>')
        .replace(party, withProperty(party, o.pleaded) + defendant);
    };

    before(async () => {
      // The marks the sample assignments and proceeding name, built from real case-files with their serials.
      const targets = ['71614627', '71600001', '71231446', '79412016'].map((serial, i) => withSerial(sampleCaseFile(SERIALS[i]!), serial));
      await ingest('uspto', [write('apc-targets.xml', applicationsDocument(targets))]);
    });

    it('records assignments as owner history and events, never as the current owner', async () => {
      const ownersBefore = (await mark('71614627'))!.owner_ids;
      const summary = await ingest('uspto-assignments', [
        fixture('uspto', 'assignments-sample-2-entries.xml'),
        fixture('uspto', 'assignments-sample-historical-shape.xml'),
      ]);
      expect(summary).to.deep.include({ records_read: 3, updated: 3, not_found: 0, rejected: 0 });
      const id = catalogId('tm_', 'US', '71614627');
      const body = await ok<{ owners: Array<{ id: string }>; owner_history: Array<Record<string, unknown>>; version: number }>(
        await app.get(`/v1/trademarks/${id}`),
      );
      expect(body.owners.map((o) => o.id)).to.deep.equal(ownersBefore);
      expect(body.version).to.equal(2);
      expect(body.owner_history.filter((row) => row.source === 'assignment')).to.deep.equal([
        {
          owner_id: body.owner_history.find((row) => row.role === 'assignor')!.owner_id,
          name: 'JENSEN, PETER A/S',
          role: 'assignor',
          source: 'assignment',
          office_party_type: null,
          recorded_date: '1955-01-05',
          reference: '1/0058',
          conveyance: 'ASSIGNS THE ENTIRE INTEREST AND THE GOODWILL',
        },
        {
          owner_id: body.owner_history.find((row) => row.role === 'assignee')!.owner_id,
          name: 'MERCHANTS TRADING CO.INC.',
          role: 'assignee',
          source: 'assignment',
          office_party_type: null,
          recorded_date: '1955-01-05',
          reference: '1/0058',
          conveyance: 'ASSIGNS THE ENTIRE INTEREST AND THE GOODWILL',
        },
      ]);
      const history = await ok<{ data: Array<{ event_type: string; event_date: string; description: string }> }>(
        await app.get(`/v1/trademarks/${id}/history?event_type=assignment_recorded`),
      );
      expect(history.data).to.deep.equal([
        {
          ...history.data[0],
          event_type: 'assignment_recorded',
          event_date: '1955-01-05',
          description: 'ASSIGNS THE ENTIRE INTEREST AND THE GOODWILL (reel/frame 1/0058)',
        },
      ]);
      // "CHANGE OF NAME 19530513" (reel/frame 1/0001) is a change of the owner's details.
      const renamed = await ok<{ data: Array<{ event_date: string }> }>(
        await app.get(`/v1/trademarks/${catalogId('tm_', 'US', '71231446')}/history?event_type=owner_details_changed`),
      );
      expect(renamed.data.map((e) => e.event_date)).to.deep.equal(['1955-01-03']);
      expect((await ingest('uspto-assignments', [fixture('uspto', 'assignments-sample-2-entries.xml')])).unchanged).to.equal(2);
    });

    it('rejects an assignment naming more than 1,000 assignors and assignees together; one of exactly 1,000 loads', async () => {
      // The first entry of the real sample (reel/frame 1/0058, one assignor, naming 71614627) with
      // its one assignee replaced by n - 1 assignees, under new reel/frame numbers.
      const sample = readFileSync(fixture('uspto', 'assignments-sample-2-entries.xml'), 'utf8');
      const entry = sample.slice(sample.indexOf('<assignment-entry>'), sample.indexOf('</assignment-entry>') + '</assignment-entry>'.length);
      const withParties = (frame: string, parties: number) =>
        entry
          .replace('<frame-no>0058</frame-no>', `<frame-no>${frame}</frame-no>`)
          .replace(
            /<assignees>[\s\S]*<\/assignees>/,
            `<assignees>${Array.from({ length: parties - 1 }, (_, i) => `<assignee><person-or-organization-name>ASSIGNEE ${i + 1} INC.</person-or-organization-name></assignee>`).join('')}</assignees>`,
          );
      const path = write(
        'assignments-many-parties.xml',
        `${sample.slice(0, sample.indexOf('<assignment-entry>'))}${withParties('9001', 1_001)}${withParties('9002', 1_000)}</assignment-information></trademark-assignments>\n`,
      );
      const summary = await ingest('uspto-assignments', [path]);
      expect(summary).to.deep.include({ records_read: 2, updated: 1, rejected: 1, error: null });
      expect(summary.rejections).to.deep.equal([
        { document: 'assignments-many-parties.xml', record: 1, key: '1/9001', reason: 'assignment names more than 1,000 assignors and assignees together' },
      ]);
      const rows = (await mark('71614627'))!.owner_history.filter((row) => row.source === 'assignment');
      expect(rows.filter((row) => row.reference === '1/9002')).to.have.length(1_000);
      expect(rows.filter((row) => row.reference === '1/9001')).to.deep.equal([]);
    });

    it('stores a TTAB proceeding with its parties, joined to its mark, and served by the proceedings routes', async () => {
      const summary = await ingest('uspto-ttab', [fixture('uspto', 'ttab-daily-sample-1-proceeding.xml')]);
      expect(summary).to.deep.include({ records_read: 1, updated: 1, not_found: 0, proceedings: { inserted: 1, updated: 0, unchanged: 0 } });
      await app.indexer.catchUp();
      const id = catalogId('tm_', 'US', '79412016');
      const list = await ok<{ data: Array<Record<string, unknown> & { parties: Array<Record<string, unknown>> }> }>(
        await app.get(`/v1/trademarks/${id}/proceedings`),
      );
      expect(list.data).to.have.length(1);
      expect(list.data[0]).to.deep.include({
        id: catalogId('prc_', 'US', '79412016'),
        proceeding_type: 'appeal',
        proceeding_number: '79412016',
        status: 'pending',
        filed_date: '2026-04-14',
        decision_date: null,
      });
      expect(list.data[0]!.parties.map((p) => [p.name, p.role])).to.deep.equal([['Octopus Energy Group Limited', 'other']]);
      const detail = await ok<{ has_proceedings: boolean; version: number }>(await app.get(`/v1/trademarks/${id}`));
      expect(detail).to.include({ has_proceedings: true, version: 2 });
      const history = await ok<{ data: Array<{ event_type: string; event_date: string }> }>(
        await app.get(`/v1/trademarks/${id}/history?event_type=appeal_filed`),
      );
      expect(history.data.map((e) => e.event_date)).to.deep.equal(['2026-04-14']);
      const again = await ingest('uspto-ttab', [fixture('uspto', 'ttab-daily-sample-1-proceeding.xml')]);
      expect(again.proceedings).to.deep.equal({ inserted: 0, updated: 0, unchanged: 1 });
    });

    it('joins a proceeding loaded before its mark when the case-file arrives: count, event, classes and the applicant as owner', async () => {
      // An opposition against 71800001, not yet loaded, defended by the applicant the case-file
      // built from 98763166 names (<party-name>Nguyen Quang Huy</party-name>, VN, class 016).
      const opposition = oppositionEntry({ number: '91000002', pleaded: '71231446', opposed: '71800001', applicant: 'NGUYEN QUANG HUY' });
      const early = await ingest('uspto-ttab', [write('ttab-early.xml', opposition)]);
      expect(early).to.deep.include({ not_found: 1, proceedings: { inserted: 1, updated: 0, unchanged: 0 } });
      const caseFile = write('apc-late.xml', applicationsDocument([withSerial(sampleCaseFile('98763166'), '71800001')]));
      expect(await ingest('uspto', [caseFile])).to.deep.include({ inserted: 1, error: null });
      await app.indexer.catchUp();
      const id = catalogId('tm_', 'US', '71800001');
      const detail = await ok<{ has_proceedings: boolean; version: number; owners: Array<{ id: string }> }>(await app.get(`/v1/trademarks/${id}`));
      expect(detail).to.include({ has_proceedings: true, version: 2 });
      const events = await ok<{ data: Array<{ event_date: string }> }>(await app.get(`/v1/trademarks/${id}/history?event_type=opposition_filed`));
      expect(events.data.map((event) => event.event_date)).to.deep.equal(['2026-04-14']);
      const proceeding = await ok<{ contested_classes: number[]; parties: Array<{ owner_id: string; role: string; country_code: string | null }> }>(
        await app.get(`/v1/proceedings/${catalogId('prc_', 'US', '91000002')}`),
      );
      expect(proceeding.contested_classes).to.deep.equal([16]);
      expect(proceeding.parties.find((p) => p.role === 'respondent')).to.include({ owner_id: detail.owners[0]!.id, country_code: 'VN' });
      const listed = await ok<{ total_count?: number; data: Array<{ id: string }> }>(
        await app.get(`/v1/trademarks?office=US&has_proceedings=true&application_number=71800001`),
      );
      expect(listed.data.map((mark) => mark.id)).to.deep.equal([id]);
      // Loading the case-file again joins nothing twice.
      expect(await ingest('uspto', [caseFile])).to.deep.include({ unchanged: 1 });
      expect((await ok<{ version: number }>(await app.get(`/v1/trademarks/${id}`))).version).to.equal(2);
    });

    it("joins an opposition to the defendant's mark only: the opposer's pleaded registration is its ground, not opposed", async () => {
      // The opposer pleads 71231446 (class 036) against the application 71600001 (class 016).
      const opposition = oppositionEntry({ number: '91000001', pleaded: '71231446', opposed: '71600001', applicant: 'NGUYEN QUANG HUY' });
      const ownersNamed = async () =>
        (await app.adapters.store.collection<{ _id: string }>(COLLECTIONS.owners).find({ canonical_name: 'nguyen quang huy' }))
          .map((owner) => owner._id)
          .sort();
      const ownersBefore = await ownersNamed();
      const summary = await ingest('uspto-ttab', [write('ttab-opposition.xml', opposition)]);
      expect(summary).to.deep.include({ records_read: 1, updated: 1, not_found: 0, proceedings: { inserted: 1, updated: 0, unchanged: 0 } });
      await app.indexer.catchUp();
      const id = catalogId('prc_', 'US', '91000001');
      const proceeding = await ok<{
        proceeding_type: string;
        contested_classes: number[];
        description: string;
        parties: Array<{ name: string; role: string }>;
      }>(await app.get(`/v1/proceedings/${id}`));
      expect(proceeding).to.deep.include({ proceeding_type: 'opposition', contested_classes: [16] });
      expect(proceeding.parties.map((p) => [p.name, p.role])).to.deep.equal([
        ['Octopus Energy Group Limited', 'opponent'],
        ['NGUYEN QUANG HUY', 'respondent'],
      ]);
      // The respondent is the applicant, the owner of the opposed mark: no second owner record is made for it.
      const opposedOwners = (await ok<{ owners: Array<{ id: string }> }>(await app.get(`/v1/trademarks/${catalogId('tm_', 'US', '71600001')}`))).owners.map(
        (o) => o.id,
      );
      expect(proceeding.parties[1]).to.include({ owner_id: opposedOwners[0] });
      expect(await ownersNamed()).to.deep.equal(ownersBefore);
      expect(proceeding.description).to.contain('marks pleaded against it: 71231446');
      const opposed = catalogId('tm_', 'US', '71600001');
      const pleaded = catalogId('tm_', 'US', '71231446');
      const proceedingsOf = async (markId: string) =>
        (await ok<{ data: Array<{ id: string }> }>(await app.get(`/v1/trademarks/${markId}/proceedings`))).data.map((p) => p.id);
      expect(await proceedingsOf(opposed)).to.include(id);
      expect(await proceedingsOf(pleaded)).to.not.include(id);
      const oppositionEvents = async (markId: string) =>
        (await ok<{ data: Array<{ event_date: string }> }>(await app.get(`/v1/trademarks/${markId}/history?event_type=opposition_filed`))).data.map(
          (e) => e.event_date,
        );
      expect(await oppositionEvents(opposed)).to.deep.equal(['2026-04-14']);
      expect(await oppositionEvents(pleaded)).to.deep.equal([]);
    });
  });
});
