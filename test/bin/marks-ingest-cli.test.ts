import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { catalogId } from '../../domain/ids';
import { serveDataDir, type DataDirServer } from '../support/data-dir-server';
import { runMarque as marque } from '../support/serve-process';
import { applicationsDocument, APPLICATIONS_SAMPLE, sampleCaseFile, withElementText, withSerial, writeZip } from '../support/uspto-samples';

async function failing(dataDir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return marque(dataDir, ...args).then(
    () => expect.fail(`marque ${args.join(' ')} succeeded`),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

interface Detail {
  id: string;
  mark_text: string;
  application_number: string;
  office_code: string;
  status: { primary: string; stage: string };
  classifications: Array<{ nice_class: number }>;
  owners: Array<{ name: string }>;
  publication_date: string | null;
  registration_date: string | null;
  version: number;
}

describe('bin: marque marks add|update and marque ingest', function () {
  this.timeout(180_000);
  let dataDir: string;
  let serving: DataDirServer;
  let key: string;

  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(serving.baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
    const body = (await response.json()) as T;
    expect(response.status, JSON.stringify(body)).to.equal(200);
    return body;
  };
  /** Trademark writes on the change feed for this mark, in order. */
  const feedOf = async (id: string) =>
    (await serving.adapters.store.readChanges(null, 100_000, [COLLECTIONS.trademarks])).events.filter((e) => e.documentId === id).map((e) => e.operation);

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'marque-marks-'));
    await marque(dataDir, 'seed', '--marks', '60', '--seed', '3');
    const org = JSON.parse((await marque(dataDir, 'orgs', 'create', '--name', 'Watchers')).stdout) as { id: string };
    key = (JSON.parse((await marque(dataDir, 'keys', 'create', '--org', org.id, '--scopes', 'trademarks:read')).stdout) as { secret: string }).secret;
    serving = await serveDataDir(dataDir);
  });

  after(async () => {
    await serving.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('adds an application with a minted number, status, classes and owner, on the change feed like an ingested mark', async () => {
    const added = JSON.parse(
      (await marque(dataDir, 'marks', 'add', '--mark-text', 'Blue Falcon', '--office', 'us', '--classes', '9,42', '--owner-name', 'Falcon Labs, Inc.')).stdout,
    ) as { id: string; object: string; outcome: string; version: number };
    expect(added).to.deep.equal({ id: catalogId('tm_', 'US', 'MQ0000001'), object: 'trademark', outcome: 'inserted', version: 1 });
    const detail = await get<Detail>(`/v1/trademarks/${added.id}`);
    expect(detail).to.deep.include({ mark_text: 'Blue Falcon', application_number: 'MQ0000001', office_code: 'US', version: 1 });
    expect(detail.status).to.include({ primary: 'pending', stage: 'filed' });
    expect(detail.classifications.map((c) => c.nice_class)).to.deep.equal([9, 42]);
    expect(detail.owners.map((o) => o.name)).to.deep.equal(['Falcon Labs, Inc.']);
    const changes = await get<{ data: Array<{ version: number; change_type: string }> }>(`/v1/trademarks/${added.id}/changes`);
    expect(changes.data.map((c) => [c.version, c.change_type])).to.deep.equal([[1, 'created']]);
    expect(await feedOf(added.id)).to.deep.equal(['insert']);

    const second = JSON.parse(
      (await marque(dataDir, 'marks', 'add', '--mark-text', 'Red Heron', '--office', 'US', '--classes', '25', '--status', 'registered')).stdout,
    ) as {
      id: string;
    };
    expect(second.id).to.equal(catalogId('tm_', 'US', 'MQ0000002'));
    expect((await get<Detail>(`/v1/trademarks/${second.id}`)).status).to.include({ primary: 'active', stage: 'registered' });
  });

  it('updates a mark: status, event and publication date in one new version with its change record', async () => {
    const id = catalogId('tm_', 'US', 'MQ0000001');
    const today = new Date().toISOString().slice(0, 10);
    const updated = JSON.parse(
      (await marque(dataDir, 'marks', 'update', id, '--status', 'registered', '--event', 'registered', '--publication-date', '2026-10-01')).stdout,
    ) as { id: string; outcome: string; version: number };
    expect(updated).to.deep.equal({ id, object: 'trademark', outcome: 'updated', version: 2 });
    const detail = await get<Detail>(`/v1/trademarks/${id}`);
    expect(detail).to.deep.include({ version: 2, publication_date: '2026-10-01', registration_date: today });
    expect(detail.status).to.include({ primary: 'active', stage: 'registered' });
    const changes = await get<{
      data: Array<{ version: number; changed_fields: string[]; old_values: Record<string, unknown>; new_values: Record<string, unknown> }>;
    }>(`/v1/trademarks/${id}/changes`);
    expect(changes.data[0]).to.deep.include({
      version: 2,
      changed_fields: ['status_stage', 'status_primary', 'publication_date', 'registration_date', 'events'],
      old_values: { status_stage: 'filed', status_primary: 'pending', publication_date: null, registration_date: null, events: [] },
      new_values: {
        status_stage: 'registered',
        status_primary: 'active',
        publication_date: '2026-10-01',
        registration_date: today,
        events: [{ event_type: 'registered', event_date: today, office_event_code: null }],
      },
    });
    const history = await get<{ data: Array<{ event_type: string }> }>(`/v1/trademarks/${id}/history`);
    expect(history.data.map((e) => e.event_type)).to.include.members(['registered', 'application_filed']);
    expect(await feedOf(id)).to.deep.equal(['insert', 'replace']);

    // The same status again changes nothing and writes nothing.
    const again = JSON.parse((await marque(dataDir, 'marks', 'update', id, '--status', 'registered')).stdout) as { outcome: string; version: number };
    expect(again).to.deep.include({ outcome: 'unchanged', version: 2 });
    expect(await feedOf(id)).to.deep.equal(['insert', 'replace']);
  });

  it('updates a generated mark through the same path', async () => {
    const generated = (await serving.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).find({ 'status.primary': 'pending' }, { limit: 1 }))[0]!;
    const updated = JSON.parse((await marque(dataDir, 'marks', 'update', generated._id, '--status', 'abandoned', '--event', 'abandoned')).stdout) as {
      version: number;
    };
    expect(updated.version).to.equal(generated.version + 1);
    const detail = await get<Detail>(`/v1/trademarks/${generated._id}`);
    expect(detail.status).to.include({ primary: 'inactive', stage: 'abandoned' });
  });

  it('refuses bad marks arguments with exit code 2', async () => {
    for (const args of [
      ['marks', 'add', '--mark-text', 'X', '--office', 'US'],
      ['marks', 'add', '--mark-text', 'X', '--office', 'ZZ', '--classes', '9'],
      ['marks', 'add', '--mark-text', 'X', '--office', 'US', '--classes', '46'],
      ['marks', 'add', '--mark-text', 'X', '--office', 'US', '--classes', '9', '--status', 'sleeping'],
      ['marks', 'update', catalogId('tm_', 'US', 'MQ0000001'), '--event', 'no_such_event'],
      ['marks', 'update', catalogId('tm_', 'US', 'NOPE')],
      ['marks', 'update', 'own_abc', '--status', 'registered'],
    ]) {
      const error = await failing(dataDir, ...args);
      expect(error.code, args.join(' ')).to.equal(2);
      expect(error.stderr).to.contain('marque:');
    }
  });

  it('ingests a USPTO file and prints the summary; a truncated one exits 1 naming file, line and column', async () => {
    const summary = JSON.parse((await marque(dataDir, 'ingest', 'uspto', APPLICATIONS_SAMPLE)).stdout) as Record<string, unknown>;
    expect(summary).to.deep.include({ format: 'uspto', records_read: 4, inserted: 4, error: null });
    const detail = await get<Detail>(`/v1/trademarks/${catalogId('tm_', 'US', '98423838')}`);
    expect(detail.mark_text).to.equal('THE ELLINGTON AT OVIEDO PARK');

    const text = readFileSync(APPLICATIONS_SAMPLE, 'utf8');
    const truncated = join(dataDir, 'apc-truncated.xml');
    writeFileSync(truncated, text.slice(0, text.indexOf('<serial-number>98423838')));
    const error = await failing(dataDir, 'ingest', 'uspto', truncated);
    expect(error.code).to.equal(1);
    expect(error.stderr).to.match(/marque: apc-truncated\.xml:\d+:\d+: /);
    expect(JSON.parse(error.stdout)).to.deep.include({ records_read: 2, unchanged: 2 });

    const dry = JSON.parse((await marque(dataDir, 'ingest', 'uspto', '--dry-run', APPLICATIONS_SAMPLE)).stdout) as Record<string, unknown>;
    expect(dry).to.deep.include({ dry_run: true, records_read: 4, inserted: 0 });
    expect((await failing(dataDir, 'ingest', 'epo', APPLICATIONS_SAMPLE)).code).to.equal(2);
  });

  it('exits 0 with the summary when a registered case-file has registration-date 99991231: that record is rejected, the rest load', async () => {
    const registered = (serial: string) => withSerial(sampleCaseFile('98423838'), serial);
    const path = join(dataDir, 'apc-regdate.xml');
    writeFileSync(
      path,
      applicationsDocument([registered('97990001'), withElementText(registered('97990002'), 'registration-date', '99991231'), registered('97990003')]),
    );
    const summary = JSON.parse((await marque(dataDir, 'ingest', 'uspto', path)).stdout) as Record<string, unknown>;
    expect(summary).to.deep.include({ records_read: 3, inserted: 2, rejected: 1, error: null });
    expect(summary.rejections).to.deep.equal([
      { document: 'apc-regdate.xml', record: 2, key: '97990002', reason: "case-file-header/registration-date '99991231' is outside the years 1800-2199" },
    ]);
  });

  it('exits 0 when one case-file is larger than 16 MiB: that record is rejected with its serial and the bound, one of exactly 16 MiB loads', async () => {
    const BOUND = 16 * 1024 * 1024;
    // A case-file whose mark-identification fills it to `bytes` bytes (ASCII: one byte a character).
    const sized = (serial: string, bytes: number) => {
      const empty = withElementText(withSerial(sampleCaseFile('98763166'), serial), 'mark-identification', '');
      return withElementText(empty, 'mark-identification', 'X'.repeat(bytes - Buffer.byteLength(empty)));
    };
    const over = sized('97990022', BOUND + 1);
    const text = applicationsDocument([withSerial(sampleCaseFile('98763166'), '97990021'), over, sized('97990023', BOUND)]);
    const path = join(dataDir, 'apc-large.xml');
    writeFileSync(path, text);
    const line = text.slice(0, text.indexOf(over)).split('\n').length;
    const summary = JSON.parse((await marque(dataDir, 'ingest', 'uspto', path)).stdout) as Record<string, unknown>;
    expect(summary).to.deep.include({ records_read: 3, inserted: 2, rejected: 1, error: null });
    expect(summary.rejections).to.deep.equal([
      {
        document: 'apc-large.xml',
        record: 2,
        key: '97990022',
        reason: `<case-file> record 2 (line ${line}) is larger than 16 MiB (16777216 bytes of UTF-8): not read`,
      },
    ]);
    const [largest] = await serving.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findByIds([catalogId('tm_', 'US', '97990023')]);
    expect(largest!.mark_text.length).to.equal(
      BOUND - Buffer.byteLength(withElementText(withSerial(sampleCaseFile('98763166'), '97990023'), 'mark-identification', '')),
    );
  });

  it('exits 0 when one case-file holds 4,000,000 tiny elements (16 MB, under the byte bound): that record is rejected naming the element bound, the rest load', async () => {
    // Each element of the tree holds about 160 bytes of heap: read whole, this record alone would
    // need some 640 MB, past the parse thread's 256 MB heap (it used to stop the run there).
    const crowded = withSerial(sampleCaseFile('98763166'), '97990032').replace('</case-file>', `${'<x/>'.repeat(4_000_000)}</case-file>`);
    const text = applicationsDocument([withSerial(sampleCaseFile('98763166'), '97990031'), crowded, withSerial(sampleCaseFile('98763166'), '97990033')]);
    const path = join(dataDir, 'apc-crowded.xml');
    writeFileSync(path, text);
    const line = text.slice(0, text.indexOf(crowded)).split('\n').length;
    const summary = JSON.parse((await marque(dataDir, 'ingest', 'uspto', path)).stdout) as Record<string, unknown>;
    expect(summary).to.deep.include({ records_read: 3, inserted: 2, rejected: 1, error: null });
    expect(summary.rejections).to.deep.equal([
      { document: 'apc-crowded.xml', record: 2, key: '97990032', reason: `<case-file> record 2 (line ${line}) has more than 500,000 elements: not read` },
    ]);
  });

  it('exits 1 naming the path when a file is missing, is not XML or a zip, or a directory holds neither', async () => {
    const empty = mkdtempSync(join(dataDir, 'downloads-'));
    writeFileSync(join(empty, 'README.txt'), 'the daily files go here');
    for (const [path, message] of [
      [join(dataDir, 'apc261126.xml'), 'no such file or directory'],
      [join(empty, 'README.txt'), 'not an .xml or .zip file'],
      [empty, 'no .xml or .zip file in this directory'],
    ] as const) {
      const error = await failing(dataDir, 'ingest', 'uspto', path);
      expect(error.code, path).to.equal(1);
      expect(error.stderr).to.contain(`marque: ${path}: ${message}`);
      expect(JSON.parse(error.stdout)).to.deep.include({ records_read: 0, inserted: 0 });
    }
  });

  it('exits 1 with the summary and a one-line message naming the zip when it holds no XML document or an entry with an unsafe path', async () => {
    const noXml = join(dataDir, 'apc-readme.zip');
    await writeZip(noXml, [{ name: 'readme.txt', content: 'the daily files go here' }]);
    const empty = join(dataDir, 'apc-empty.zip');
    await writeZip(empty, []);
    // yazl refuses to write a name leaving the archive's folder: write one of the same length, then rename it in place.
    const traversal = join(dataDir, 'apc-traversal.zip');
    await writeZip(traversal, [{ name: 'xx/x.xml', content: applicationsDocument([withSerial(sampleCaseFile('98423838'), '97990010')]) }]);
    writeFileSync(traversal, Buffer.from(readFileSync(traversal).toString('latin1').replaceAll('xx/x.xml', '../x.xml'), 'latin1'));
    for (const [path, message] of [
      [noXml, 'no .xml document in this zip archive'],
      [empty, 'no .xml document in this zip archive'],
      [traversal, "zip entry '../x.xml' has an unsafe path"],
    ] as const) {
      const error = await failing(dataDir, 'ingest', 'uspto', path);
      expect(error.code, path).to.equal(1);
      expect(error.stderr.trim().split('\n').at(-1)).to.equal(`marque: ${path}: ${message}`);
      const summary = JSON.parse(error.stdout) as Record<string, unknown>;
      expect(summary).to.deep.include({
        files: [],
        records_read: 0,
        inserted: 0,
        error: { file: null, line: null, column: null, message: `${path}: ${message}` },
      });
    }
  });
});
