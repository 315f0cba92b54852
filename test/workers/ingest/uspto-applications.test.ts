import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { OFFICE_EVENT_TYPE, UsptoEventTypes } from '../../../workers/ingest/uspto/events';
import { CASE_FILE, entityTypeOf, goodsText, mapCaseFile, ownerRoleOf, registrationExpiry } from '../../../workers/ingest/uspto/applications';
import { readUsptoCodeTables } from '../../../workers/ingest/uspto/code-tables';
import { usptoStatus } from '../../../workers/ingest/uspto/status';
import type { MarkInput, OwnerInput } from '../../../workers/ingest/mark-input';
import { officeDate, RecordRejection } from '../../../workers/ingest/record-rejection';
import { gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { APPLICATIONS_SAMPLE, applicationsDocument, fixture, readRecords, sampleCaseFile, withElementText } from '../../support/uspto-samples';
import { formatReader, type IngestFormat, type ParsedItem } from '../../../workers/ingest/formats';

const DATA = join(__dirname, '..', '..', '..', 'data', 'uspto');
const tables = readUsptoCodeTables(DATA);
const context = { tables, events: new UsptoEventTypes(tables) };
const csv = (file: string) => parse(readFileSync(join(DATA, file), 'utf8'), { columns: true }) as Array<Record<string, string>>;

// Values below were read by hand from test/fixtures/uspto/apc-sample-4-case-files.xml.
const text = readFileSync(APPLICATIONS_SAMPLE, 'utf8');
const records = readRecords(text, CASE_FILE, 'apc-sample-4-case-files.xml');
const marks = new Map<string, MarkInput>(
  records.map((record) => [record.element.children[0]!.text, mapCaseFile(record, 'apc-sample-4-case-files.xml', context)]),
);
const mark = (serial: string): MarkInput => marks.get(serial)!;
/** One case-file (built from a sample one) mapped as ingestion maps it, with the clock `now`. */
const mapped = (caseFile: string, now?: () => Date): MarkInput =>
  mapCaseFile(readRecords(applicationsDocument([caseFile]), CASE_FILE, 'test.xml')[0]!, 'test.xml', { ...context, ...(now ? { now } : {}) });
const owner = (ref: MarkInput['owners'][number]) => ref as OwnerInput;

describe('workers/ingest/uspto: a <case-file> as a mark', () => {
  it('reads the four real case-files of the sample, in order, each with its raw text', () => {
    expect([...marks.keys()]).to.deep.equal(['60146682', '98763166', '98423838', '85017257']);
    for (const record of records) {
      expect(record.raw.startsWith('<case-file>')).to.equal(true);
      expect(record.raw.endsWith('</case-file>')).to.equal(true);
      expect(text).to.include(record.raw);
    }
  });

  describe('identity, dates and provenance', () => {
    it('serial-number is the application number; registration-number 0000000 is none', () => {
      expect(mark('98423838')).to.include({ office_code: 'US', application_number: '98423838' });
      expect(mark('98423838').content.registration_number).to.equal('7463601');
      expect(mark('98763166').content.registration_number).to.equal(null);
      expect(mark('60146682').content.registration_number).to.equal('0146682');
    });

    it('filing-date, registration-date and published-for-opposition-date become YYYY-MM-DD', () => {
      expect(mark('98423838').content).to.include({ filing_date: '2024-02-27', registration_date: '2024-07-30', publication_date: '2024-05-14' });
      expect(mark('60146682').content).to.include({ filing_date: '1920-09-25', registration_date: '1921-09-20', publication_date: null });
      expect(mark('98763166').content).to.include({ filing_date: '2024-09-24', registration_date: null });
    });

    it('transaction-date is the data date; the locator names the file and record; payload_hash is the SHA-256 of the raw case-file, kept gzipped', () => {
      const source = mark('85017257').source;
      expect(source).to.include({ format: 'xml_dtd', data_date: '2024-09-14', locator: 'apc-sample-4-case-files.xml#4' });
      const raw = records[3]!.raw;
      expect(source.payload_hash).to.equal(`sha256:${createHash('sha256').update(raw, 'utf8').digest('hex')}`);
      expect(gunzipSync(Buffer.from(source.raw!.gzip_base64, 'base64')).toString('utf8')).to.equal(raw);
      expect(mark('60146682').source.data_date).to.equal('2016-03-16');
    });

    it('an office date is YYYYMMDD; 00000000 and partial dates are null; an impossible one rejects the record', () => {
      expect(officeDate('20240914', 'x')).to.equal('2024-09-14');
      expect(officeDate('00000000', 'x')).to.equal(null);
      expect(officeDate('19870000', 'x')).to.equal(null);
      expect(officeDate('20240900', 'x')).to.equal(null);
      expect(officeDate(null, 'x')).to.equal(null);
      expect(() => officeDate('20240231', 'filing-date')).to.throw(RecordRejection, "filing-date '20240231' is not a calendar date");
      expect(() => officeDate('2024-02-01', 'filing-date')).to.throw(RecordRejection, 'not a YYYYMMDD date');
    });

    it('a calendar date outside the years 1800-2199 rejects the record naming the field, never computing a term from it', () => {
      expect(officeDate('18000101', 'x')).to.equal('1800-01-01');
      expect(officeDate('21991231', 'x')).to.equal('2199-12-31');
      expect(() => officeDate('99991231', 'registration-date')).to.throw(RecordRejection, "registration-date '99991231' is outside the years 1800-2199");
      expect(() => officeDate('00010101', 'registration-date')).to.throw(RecordRejection, "registration-date '00010101' is outside the years 1800-2199");
      // Registered (status 700): the term would run to the year 10009, which no date can hold.
      expect(() => mapped(withElementText(sampleCaseFile('98423838'), 'registration-date', '99991231'))).to.throw(
        RecordRejection,
        "case-file-header/registration-date '99991231' is outside the years 1800-2199",
      );
      const renewed = sampleCaseFile('98423838').replace('</registration-date>', '</registration-date><renewal-date>99991231</renewal-date>');
      expect(() => mapped(renewed)).to.throw(RecordRejection, "case-file-header/renewal-date '99991231' is outside the years 1800-2199");
    });

    it('a case-file without a transaction-date, or dated after the day after today, cannot be ordered: it is rejected', () => {
      const now = () => new Date('2025-03-10T23:00:00.000Z');
      const undated = sampleCaseFile('98763166').replace(/\s*<transaction-date>\d+<\/transaction-date>/, '');
      expect(undated).to.not.include('<transaction-date>');
      expect(() => mapped(undated, now)).to.throw(RecordRejection, 'transaction-date is missing');
      expect(() => mapped(withElementText(sampleCaseFile('98763166'), 'transaction-date', '00000000'), now)).to.throw(
        RecordRejection,
        "transaction-date '00000000' is not a full date",
      );
      expect(mapped(withElementText(sampleCaseFile('98763166'), 'transaction-date', '20250311'), now).source.data_date).to.equal('2025-03-11');
      expect(() => mapped(withElementText(sampleCaseFile('98763166'), 'transaction-date', '20250312'), now)).to.throw(
        RecordRejection,
        "transaction-date '20250312' is after 2025-03-11",
      );
      expect(() => mapped(withElementText(sampleCaseFile('98763166'), 'transaction-date', '99991231'), now)).to.throw(RecordRejection, 'transaction-date');
    });
  });

  describe('status (status-code through the Live/Dead table)', () => {
    it('status-code 700 (Live/Registered) is active and registered, the raw code kept', () => {
      expect(mark('98423838').content.status).to.deep.equal({
        primary: 'active',
        stage: 'registered',
        reason: 'registration_in_force',
        challenge_states: [],
        office_status: { code: '700', description: 'REGISTERED' },
      });
    });

    it('status-code 630 (Live/Pending) is pending and filed', () => {
      expect(mark('98763166').content.status).to.include({ primary: 'pending', stage: 'filed' });
    });

    it('status-code 710 (Dead/Cancelled) is inactive and cancelled for want of a Section 8 declaration; termination is cancellation-date', () => {
      expect(mark('85017257').content.status).to.include({ primary: 'inactive', stage: 'cancelled', reason: 'cancelled_no_declaration_of_use' });
      expect(mark('85017257').content.termination_date).to.equal('2018-12-07');
    });

    it('status-code 626 (Dead/Cancelled, backfile) is inactive; without cancellation-date the termination is status-date', () => {
      expect(mark('60146682').content.status).to.include({ primary: 'inactive', stage: 'cancelled' });
      expect(mark('60146682').content.status.office_status).to.deep.equal({ code: '626', description: 'REGISTERED - BACKFILE CANCELLED OR EXPIRED' });
      expect(mark('60146682').content.termination_date).to.equal('2005-10-11');
    });

    it('takes the primary status from the Live/Dead column for every code of status_codes.csv, never from the code range', () => {
      const expected = (liveDead: string) =>
        liveDead.startsWith('Live/Registered') ? 'active' : liveDead.startsWith('Live') ? 'pending' : liveDead.startsWith('Dead') ? 'inactive' : 'unknown';
      for (const row of csv('status_codes.csv')) {
        const status = usptoStatus(row.code!, { oppositionPending: false, cancellationPending: false }, tables);
        expect(status.primary, row.code).to.equal(expected(row.live_dead_indicator!));
        expect(status.office_status, row.code).to.deep.equal({ code: row.code, description: row.description });
      }
      // Table 1: 410 and 413 are Live although in the IR-cancelled range, 610 and 632 Dead.
      expect(usptoStatus('410', { oppositionPending: false, cancellationPending: false }, tables).primary).to.equal('pending');
      expect(usptoStatus('610', { oppositionPending: false, cancellationPending: false }, tables).primary).to.equal('inactive');
    });

    it('opposition-pending-in and cancellation-pending-in add challenge states; 774 is an opposition, 790 a cancellation', () => {
      expect(usptoStatus('686', { oppositionPending: true, cancellationPending: false }, tables).challenge_states).to.deep.equal(['opposition_pending']);
      expect(usptoStatus('774', { oppositionPending: false, cancellationPending: false }, tables)).to.include({ stage: 'pending_opposition' });
      expect(usptoStatus('790', { oppositionPending: false, cancellationPending: false }, tables).challenge_states).to.deep.equal(['cancellation_pending']);
    });

    it('689/690 (notice of allowance withdrawn, cancelled) are back in examination; 773 (extension of time to oppose ended) awaits issue; 781/782 (Sections 16A/16B) are non-use cancellations', () => {
      const status = (code: string) => usptoStatus(code, { oppositionPending: false, cancellationPending: false }, tables);
      expect(status('688')).to.include({ stage: 'allowed' });
      expect(status('689')).to.include({ stage: 'examining', reason: 'under_examination' });
      expect(status('690')).to.include({ stage: 'examining', reason: 'under_examination' });
      expect(status('773')).to.include({ stage: 'pending_issuance' });
      expect(status('781')).to.include({ stage: 'cancelled', reason: 'cancelled_non_use' });
      expect(status('782')).to.include({ stage: 'cancelled', reason: 'cancelled_non_use' });
    });
  });

  describe('the mark itself', () => {
    it('mark-identification is the mark text', () => {
      expect(mark('98423838').content.mark_text).to.equal('THE ELLINGTON AT OVIEDO PARK');
      expect(mark('60146682').content.mark_text).to.equal('MACHINE-PISTOL');
    });

    it('mark-drawing-code 3 is combined, 4 and standard-characters-claimed-in T are word', () => {
      expect(mark('60146682').content.mark_feature_type).to.equal('combined');
      expect(mark('98423838').content.mark_feature_type).to.equal('word');
      // mark-drawing-code 0 (not yet coded) with standard-characters-claimed-in T.
      expect(mark('98763166').content.mark_feature_type).to.equal('word');
    });

    it('service-mark-in / trademark-in give the right kind; no collective or certification flag is individual', () => {
      expect(mark('98423838').content.right_kind).to.equal('service_mark');
      expect(mark('60146682').content.right_kind).to.equal('trademark');
      for (const m of marks.values()) expect(m.content.mark_legal_category).to.equal('individual');
    });

    it('design-search code 230308 is Vienna 23.03.08', () => {
      expect(mark('60146682').content.vienna_codes).to.deep.equal(['23.03.08']);
      expect(mark('98423838').content.vienna_codes).to.deep.equal([]);
    });

    it('classification international-code with the goods text of its GS statement', () => {
      expect(mark('60146682').content.classifications).to.deep.equal([{ nice_class: 9, goods_services_text: 'pistols', nice_edition: null }]);
      expect(mark('98763166').content.classifications).to.deep.equal([
        { nice_class: 16, goods_services_text: 'Stickers; Stick markers; Sticker albums; Sticker books', nice_edition: null },
      ]);
      expect(mark('85017257').content.classifications).to.deep.equal([
        { nice_class: 41, goods_services_text: 'Entertainment, namely, live performances by a musical band', nice_edition: null },
      ]);
      const goods = mark('98423838').content.classifications;
      expect(goods.map((c) => c.nice_class)).to.deep.equal([36]);
      expect(goods[0]!.goods_services_text.startsWith('Leasing or renting of multi-use and residential real estate;')).to.equal(true);
      expect(goods[0]!.goods_services_text.endsWith('Management of apartments')).to.equal(true);
    });

    it('goods text: [deleted] and ((less goods)) parts out, * markers dropped, every run of white space one space, none before punctuation', () => {
      expect(goodsText('Stickers;\n\tStick  markers\r\nalbums [deleted] ((less goods)) *books* ,pens ')).to.equal('Stickers; Stick markers albums books,pens');
    });

    it('a live registration expires ten years after registration-date (renewal due then); dead ones have no expiry', () => {
      expect(mark('98423838').content).to.include({ expiry_date: '2034-07-30', renewal_due_date: '2034-07-30' });
      expect(mark('85017257').content).to.include({ expiry_date: null, renewal_due_date: null });
      expect(registrationExpiry('1998-08-04', '2008-08-04')).to.equal('2018-08-04');
      expect(registrationExpiry('1985-03-01', null)).to.equal('2005-03-01');
    });
  });

  describe('owners, attorney and correspondent', () => {
    it('case-file-owner rows: the highest party-type group (30) is the current owner, every row is owner history', () => {
      const m = mark('98423838');
      expect(m.owners.map(owner)).to.deep.equal([
        { name: 'Brand Properties, LLC', entity_type: 'corporation', country_code: 'US', city: 'Atlanta', postcode: '30305' },
      ]);
      expect(m.owner_history.map((entry) => [entry.office_party_type, entry.role, entry.name])).to.deep.equal([
        ['10', 'applicant', 'Brand Properties, LLC'],
        ['20', 'owner_at_publication', 'Brand Properties, LLC'],
        ['30', 'registrant', 'Brand Properties, LLC'],
      ]);
    });

    it('legal-entity-type-code 01 is an individual; country is country, else US for a US state', () => {
      expect(owner(mark('98763166').owners[0]!)).to.deep.equal({
        name: 'Nguyen Quang Huy',
        entity_type: 'individual',
        country_code: 'VN',
        city: 'Hanoi',
        postcode: '10000',
      });
      expect(owner(mark('85017257').owners[0]!)).to.include({ name: 'Pope, Christopher', entity_type: 'individual', country_code: 'US', postcode: '90254' });
      expect(owner(mark('60146682').owners[0]!)).to.include({ name: 'AUTO ORDNANCE CORPORATION', entity_type: 'corporation', country_code: 'US' });
    });

    it('maps every legal-entity-type-code of entity_codes.csv and every party-type of party_types.csv', () => {
      const expected: Record<string, string> = {
        '01': 'individual',
        '02': 'partnership',
        '03': 'corporation',
        '16': 'corporation',
        '17': 'trust',
        '99': 'other',
      };
      for (const row of csv('entity_codes.csv')) {
        const type = entityTypeOf(row.code!);
        expect(['individual', 'partnership', 'corporation', 'trust', 'government', 'other'], row.code).to.include(type);
        if (expected[row.code!]) expect(type, row.code).to.equal(expected[row.code!]);
      }
      const roles = new Map(
        csv('party_types.csv')
          .filter((row) => row.code !== '70')
          .map((row) => [row.code!, ownerRoleOf(Number(row.code))]),
      );
      expect(roles.get('10')).to.equal('applicant');
      expect(roles.get('11')).to.equal('owner_before_publication');
      expect(roles.get('20')).to.equal('owner_at_publication');
      expect(roles.get('25')).to.equal('owner_after_publication');
      expect(roles.get('30')).to.equal('registrant');
      expect(roles.get('69')).to.equal('owner_after_registration');
    });

    it('attorney-name is the attorney; the rest of correspondent address-1 is the firm; the last line the country', () => {
      expect(mark('98423838').attorneys).to.deep.equal([
        { name: 'Austin Padgett', country_code: 'US', email: null, firm: { name: 'Troutman Pepper Hamilton Sanders LLP', country_code: 'US' } },
      ]);
      expect(mark('85017257').attorneys[0]).to.deep.include({
        name: 'Richard G. Eldredge',
        firm: { name: 'Leavitt & Eldredge Law Firm LLC', country_code: 'US' },
      });
      // address-1 is the attorney's name alone: no firm.
      expect(mark('98763166').attorneys).to.deep.equal([{ name: 'Britten Kekaimalie Bailey Westsmith', country_code: 'US', email: null, firm: null }]);
      // No attorney-name: the correspondent alone is not an attorney.
      expect(mark('60146682').attorneys).to.deep.equal([]);
    });
  });

  describe('prosecution events (case-file-event-statement)', () => {
    it('sorts by (date, number) whatever the XML order', () => {
      const events = mark('98423838').events;
      expect(events).to.have.length(18);
      expect(events.map((e) => e.office_event_code)).to.deep.equal([
        'NWAP', 'NWOS', 'DOCK', 'CNEA', 'GNEA', 'GNEN', 'XAEC', 'CNSA', 'NONP', 'PUBO', 'NPUB', 'R.PR', 'NRCC', 'COAR', 'CHAN', 'REAP', 'ARAA', 'TCCA',
      ]); // prettier-ignore
      expect(events.map((e) => e.event_date).slice(0, 3)).to.deep.equal(['2024-02-27', '2024-02-27', '2024-04-02']);
    });

    it('types events from data/event_types.json, directly by code or by the code table wording; other codes are office events', () => {
      const byCode = new Map(mark('98423838').events.map((e) => [e.office_event_code, e]));
      expect(byCode.get('NWAP')).to.include({ event_type: 'application_filed', description: 'NEW APPLICATION ENTERED', event_date: '2024-02-27' });
      expect(byCode.get('CNSA')?.event_type).to.equal('approved_for_publication');
      expect(byCode.get('PUBO')).to.include({ event_type: 'published', event_date: '2024-05-14' });
      expect(byCode.get('R.PR')).to.include({ event_type: 'registered', event_date: '2024-07-30' });
      // ARAA: listed in event_types.json by its wording only.
      expect(byCode.get('ARAA')?.event_type).to.equal('representative_changed');
      expect(byCode.get('NRCC')).to.include({ event_type: OFFICE_EVENT_TYPE, description: 'NOTICE OF REGISTRATION CONFIRMATION EMAILED' });
      const cancelled = mark('85017257').events.find((e) => e.office_event_code === 'C8..');
      expect(cancelled).to.include({ event_type: 'cancelled', event_date: '2018-12-07', description: 'CANCELLED SEC. 8 (6-YR)' });
      expect(mark('85017257').events.find((e) => e.office_event_code === 'E815')?.description).to.equal('TEAS SECTION 8 & 15 RECEIVED');
    });

    it('types codes the table words once per event type letter, and wordings with a number placeholder (the table writes 999999)', () => {
      // Wordings read from data/uspto/event_codes.csv.
      const typed: Array<[string, string]> = [
        ['OP.I', 'opposition_filed'], // OPPOSITION INSTITUTED NO. 999999
        ['OP.T', 'opposition_terminated'], // OPPOSITION TERMINATED NO. 999999
        ['OP.S', 'opposition_terminated'], // OPPOSITION SUSTAINED NO. 999999
        ['PETC', 'cancellation_requested'], // CANCELLATION INSTITUTED NO. 999999
        ['CNFR', 'final_refusal_issued'], // FINAL REFUSAL MAILED (O), … SU - FINAL REFUSAL - WRITTEN (W)
        ['CNSL', 'suspended'], // LETTER OF SUSPENSION MAILED
        ['C7..', 'surrendered'], // CANCELLED SECTION 7-TOTAL
        ['CNPR', 'statement_of_use_accepted'], // ALLOWED PRINCIPAL REGISTER - SOU ACCEPTED
        ['SUPC', OFFICE_EVENT_TYPE], // STATEMENT OF USE PROCESSING COMPLETE: formalities, not the acceptance
        ['EXT2', 'use_extension_requested'], // SOU EXTENSION 2 FILED
        ['EX3G', 'use_extension_granted'], // SOU EXTENSION 3 GRANTED
        ['IUSF', 'statement_of_use_filed'], // USE STATEMENT FILED
        ['C15A', 'declaration_of_use_accepted'], // REGISTERED - SEC. 8 (6-YR) ACCEPTED & SEC. 15 ACK.
        ['815F', 'declaration_of_use_filed'], // REGISTERED - SEC. 8 (6-YR) & SEC. 15 FILED
        ['RNL1', 'renewed'], // REGISTERED AND RENEWED (FIRST RENEWAL - 10 YRS)
        ['ABN4', 'abandoned'], // ABANDONMENT - AFTER INTER PARTES DECISION
        ['CNTA', OFFICE_EVENT_TYPE], // APPROVED FOR REGISTRATION SUPPLEMENTAL REGISTER: not published for opposition
      ];
      for (const [code, type] of typed) expect(context.events.typeOf(code), code).to.equal(type);
      // Without a wording in the record, the table's wording of the record's event type letter.
      expect(context.events.event('CNFR', '2024-01-02', 7, null, 'O').description).to.equal('FINAL REFUSAL MAILED');
      expect(context.events.event('CNFR', '2024-01-02', 7, null, 'W').description).to.equal('SU - FINAL REFUSAL - WRITTEN');
    });

    it('keys each event by entry number, code and date, so a restated event is the same event', () => {
      expect(mark('98763166').events).to.deep.equal([
        {
          key: 'e000001:NWAP:2024-09-25',
          event_type: 'application_filed',
          event_date: '2024-09-25',
          office_event_code: 'NWAP',
          description: 'NEW APPLICATION ENTERED',
        },
      ]);
    });
  });
});

// Issue 18: fields past bounds no real office record reaches are refused after mapping, since the
// party resolver and the per-class copies multiply them far past the 16 MiB bound on the raw record.
describe('workers/ingest/formats: a mapped record past a bound is rejected naming the field and the bound', () => {
  /** The first record of `xml`, mapped as ingestion maps it (through formats.ts). */
  const mapFirst = (format: IngestFormat, recordName: string, xml: string): ParsedItem =>
    formatReader(format, join(DATA, '..')).map(readRecords(xml, recordName, 'test.xml')[0]!, 'test.xml');
  const rejection = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (error instanceof RecordRejection) return error.message;
      throw error;
    }
    throw new Error('not rejected');
  };
  /** `length` characters of goods wording, single-spaced, with no space at either end. */
  const goods = (length: number) => `${'stickers '.repeat(Math.ceil(length / 9)).slice(0, length - 1)}s`;
  /** Sample 98763166 with its one goods statement (class 016) `text`, classified in all 45 classes with primary-code 016. */
  const sharedBy45 = (text: string) =>
    sampleCaseFile('98763166')
      .replace('<text>Stickers; Stick markers; Sticker albums; Sticker books</text>', `<text>${text}</text>`)
      .replace(
        '<international-code>016</international-code>',
        Array.from({ length: 45 }, (_, i) => `<international-code>${String(i + 1).padStart(3, '0')}</international-code>`).join(''),
      );

  it('rejects a goods text that 45 classes share through primary-code when the 45 copies together pass 4 MiB characters', () => {
    // 4 MiB = 4,194,304 characters; 45 x 93,207 = 4,194,315 is over, 45 x 93,206 = 4,194,270 is not.
    expect(rejection(() => mapFirst('uspto', CASE_FILE, applicationsDocument([sharedBy45(goods(93_207))])))).to.equal(
      'goods and services text of all classes together is longer than 4,194,304 characters',
    );
    const item = mapFirst('uspto', CASE_FILE, applicationsDocument([sharedBy45(goods(93_206))]));
    const classes = item.kind === 'mark' ? item.mark.content.classifications : [];
    expect(classes.map((c) => [c.nice_class, c.goods_services_text.length])).to.deep.equal(Array.from({ length: 45 }, (_, i) => [i + 1, 93_206]));
  });

  it('rejects an assignment whose assignee name, and a TTAB proceeding whose party name, is over 1,000 characters', () => {
    const assignments = readFileSync(fixture('uspto', 'assignments-sample-2-entries.xml'), 'utf8');
    const assignee = (name: string) => assignments.replace('<person-or-organization-name>MERCHANTS TRADING CO.INC.<', `<person-or-organization-name>${name}<`);
    expect(rejection(() => mapFirst('uspto-assignments', 'assignment-entry', assignee('M'.repeat(1_001))))).to.equal(
      'assignee name is longer than 1,000 characters',
    );
    expect(mapFirst('uspto-assignments', 'assignment-entry', assignee('M'.repeat(1_000))).kind).to.equal('assignment');
    const ttab = readFileSync(fixture('uspto', 'ttab-daily-sample-1-proceeding.xml'), 'utf8');
    const party = (name: string) => ttab.replace('<name>Octopus Energy Group Limited</name>', `<name>${name}</name>`);
    expect(rejection(() => mapFirst('uspto-ttab', 'proceeding-entry', party('O'.repeat(1_001))))).to.equal('party name is longer than 1,000 characters');
    expect(mapFirst('uspto-ttab', 'proceeding-entry', party('O'.repeat(1_000))).kind).to.equal('proceeding');
  });
});
