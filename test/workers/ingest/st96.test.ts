import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MarkInput, OwnerInput } from '../../../workers/ingest/mark-input';
import { mapSt96Trademark, ST96_TRADEMARK } from '../../../workers/ingest/st96/trademarks';
import { CASE_FILE, mapCaseFile } from '../../../workers/ingest/uspto/applications';
import { readUsptoCodeTables } from '../../../workers/ingest/uspto/code-tables';
import { UsptoEventTypes } from '../../../workers/ingest/uspto/events';
import { st96Date, RecordRejection } from '../../../workers/ingest/record-rejection';
import { APPLICATIONS_SAMPLE, fixture, readRecords } from '../../support/uspto-samples';

const tables = readUsptoCodeTables(join(__dirname, '..', '..', '..', 'data', 'uspto'));
const context = { tables, events: new UsptoEventTypes(tables) };

function st96(file: string): MarkInput {
  const [record, ...more] = readRecords(readFileSync(fixture('st96', file), 'utf8'), ST96_TRADEMARK, file);
  expect(more).to.deep.equal([]);
  return mapSt96Trademark(record!, file, context);
}

// Values below were read by hand from test/fixtures/st96/*.xml.
const java = st96('uspto-tsdr-st96-rn2178784.xml');
const burger = st96('uspto-tsdr-st96-sn87881347.xml');
const owner = (ref: MarkInput['owners'][number]) => ref as OwnerInput;

describe('workers/ingest/st96: a WIPO ST.96 <Trademark> as a mark', () => {
  it('ApplicationNumber (IPOfficeCode, ApplicationNumberText) is the identity; RegistrationNumber is kept', () => {
    expect(java).to.include({ office_code: 'US', application_number: '74631225' });
    expect(java.content.registration_number).to.equal('2178784');
    expect(burger).to.include({ office_code: 'US', application_number: '87881347' });
    expect(burger.content.registration_number).to.equal(null);
  });

  it('ApplicationDate 1995-02-07-05:00 is the calendar date written; RegistrationDate and PublicationDate likewise', () => {
    expect(java.content).to.include({ filing_date: '1995-02-07', registration_date: '1998-08-04', publication_date: '1996-10-08' });
    expect(burger.content).to.include({ filing_date: '2018-04-17', registration_date: null, publication_date: null });
    expect(st96Date('2018-08-27-04:00', 'x')).to.equal('2018-08-27');
    expect(st96Date('2018-08-27Z', 'x')).to.equal('2018-08-27');
    expect(() => st96Date('2018-02-30', 'ApplicationDate')).to.throw(RecordRejection, "ApplicationDate '2018-02-30' is not a date");
    // As in the daily XML: a year outside 1800-2199 is no office date (a term computed from it would not fit a date).
    expect(() => st96Date('9999-12-31', 'RegistrationDate')).to.throw(RecordRejection, "RegistrationDate '9999-12-31' is outside the years 1800-2199");
    expect(() => st96Date('0001-01-01Z', 'RegistrationDate')).to.throw(RecordRejection, 'outside the years 1800-2199');
  });

  it('MarkCurrentStatusCode goes through the USPTO table: 800 registered and renewed, 680 approved for publication', () => {
    expect(java.content.status).to.deep.equal({
      primary: 'active',
      stage: 'registered',
      reason: 'renewed',
      challenge_states: [],
      office_status: { code: '800', description: 'REGISTERED AND RENEWED' },
    });
    expect(burger.content.status).to.include({ primary: 'pending', stage: 'pending_publication', reason: 'awaiting_publication' });
    // RenewalDate 2008-08-04: the registration's term runs to 2018-08-04.
    expect(java.content.expiry_date).to.equal('2018-08-04');
  });

  it('MarkVerbalElementText, MarkStandardCharacterIndicator / MarkFeatureCode and MarkCategory', () => {
    expect(java.content).to.include({ mark_text: 'JAVA', mark_feature_type: 'word', right_kind: 'trademark', mark_legal_category: 'individual' });
    expect(burger.content).to.include({ mark_text: 'BURGER ADDICT', mark_feature_type: 'word', right_kind: 'service_mark' });
  });

  it('GoodsServicesClassification ClassNumber with the ClassDescription text', () => {
    expect(burger.content.classifications).to.have.length(1);
    expect(burger.content.classifications[0]).to.include({ nice_class: 43, nice_edition: null });
    expect(
      burger.content.classifications[0]!.goods_services_text.startsWith('Restaurant; Restaurant and bar services; Restaurant and café services;'),
    ).to.equal(true);
    expect(java.content.classifications.map((c) => c.nice_class)).to.deep.equal([9]);
    expect(
      java.content.classifications[0]!.goods_services_text.startsWith('computer programs for use in developing and executing other computer programs'),
    ).to.equal(true);
  });

  it('ApplicantBag: the highest sequenceNumber (31) is the owner, every applicant is owner history; EntityName is the name', () => {
    expect(java.owners.map(owner)).to.deep.equal([
      { name: 'Oracle America, Inc.', entity_type: 'corporation', country_code: 'US', city: 'REDWOOD SHORES', postcode: '94065' },
    ]);
    expect(java.owner_history.map((row) => [row.office_party_type, row.role, row.name])).to.deep.equal([
      ['10', 'applicant', 'Sun Microsystems, Inc.'],
      ['20', 'owner_at_publication', 'Sun Microsystems, Inc.'],
      ['30', 'registrant', 'Sun Microsystems, Inc.'],
      ['31', 'owner_after_registration', 'Oracle America, Inc.'],
    ]);
    // LegalEntityName holds the entity type in USPTO ST.96; NationalLegalEntityCode 16 is an LLC.
    expect(burger.owners.map(owner)).to.deep.equal([
      { name: 'Burger Addict Renton LLC', entity_type: 'corporation', country_code: 'US', city: 'Kirkland', postcode: '98033' },
    ]);
  });

  it('RecordAttorney, with firm, country and e-mail from the NationalCorrespondent who is that attorney', () => {
    expect(java.attorneys).to.deep.equal([
      { name: 'Andrew Roppel', country_code: 'US', email: 'docket@hollandhart.com', firm: { name: 'Holland & Hart LLP', country_code: 'US' } },
    ]);
    expect(burger.attorneys).to.deep.equal([
      { name: 'Stuart A. Heller', country_code: 'US', email: 'hellerlaw@aol.com', firm: { name: 'Law Office of Stuart A. Heller', country_code: 'US' } },
    ]);
  });

  it('MarkEvent codes are the USPTO code and its type letter (CNSAO = CNSA), typed and sorted as in the daily XML', () => {
    expect(java.events).to.have.length(33);
    expect(java.events[0]).to.deep.equal({
      key: 'e000001:DOCK:1995-07-03',
      event_type: 'assigned_to_examiner',
      event_date: '1995-07-03',
      office_event_code: 'DOCK',
      description: 'ASSIGNED TO EXAMINER',
    });
    const registered = java.events.find((e) => e.office_event_code === 'R.PR');
    expect(registered).to.include({ event_type: 'registered', event_date: '1998-08-04' });
    expect(java.events.find((e) => e.office_event_code === '89AG')).to.include({ event_type: 'renewed', event_date: '2008-08-11' });
    expect(burger.events.map((e) => e.office_event_code).slice(0, 3)).to.deep.equal(['NWAP', 'NWOS', 'DOCK']);
    expect(burger.events.filter((e) => e.office_event_code === 'CNSA').map((e) => [e.event_type, e.event_date])).to.deep.equal([
      ['approved_for_publication', '2018-08-27'],
      ['approved_for_publication', '2018-08-27'],
    ]);
  });

  it('has no transaction date: the latest status or event date is the data date; the locator names the file', () => {
    expect(java.source).to.include({ format: 'xml_st96', response_type: 'case_status', data_date: '2011-12-29', locator: 'uspto-tsdr-st96-rn2178784.xml#1' });
    expect(burger.source.data_date).to.equal('2018-08-27');
  });

  // The samples hold no case in both formats (the daily XML cases are 60146682, 98763166, 98423838,
  // 85017257; the ST.96 ones 74631225 and 87881347), so agreement is checked on the conventions the
  // two readers share, each side read from its own real file.
  it('writes the facts both formats carry the way the daily XML reader does', () => {
    const daily = new Map(
      readRecords(readFileSync(APPLICATIONS_SAMPLE, 'utf8'), CASE_FILE).map((record) => [
        record.element.children[0]!.text,
        mapCaseFile(record, 'daily.xml', context),
      ]),
    );
    const registered = daily.get('98423838')!;
    // Registration numbers with seven digits, both status codes through the same table.
    expect(registered.content.registration_number).to.match(/^\d{7}$/);
    expect(java.content.registration_number).to.match(/^\d{7}$/);
    expect(registered.content.status.office_status?.description).to.equal(tables.statuses.get('700')?.description);
    // The same event code gets the same type and the same key shape in both (R.PR, DOCK, NWAP).
    for (const code of ['R.PR', 'DOCK', 'NWAP']) {
      const fromDaily = [...daily.values()].flatMap((m) => m.events).find((e) => e.office_event_code === code)!;
      const fromSt96 = [...java.events, ...burger.events].find((e) => e.office_event_code === code)!;
      expect(fromSt96.event_type, code).to.equal(fromDaily.event_type);
      expect(fromSt96.key.replace(/\d{4}-\d{2}-\d{2}$/, '').replace(/^e\d{6}/, 'e')).to.equal(
        fromDaily.key.replace(/\d{4}-\d{2}-\d{2}$/, '').replace(/^e\d{6}/, 'e'),
      );
    }
    // Party types and legal-entity codes (written 3 in ST.96, 03 in the daily XML) read alike.
    expect(java.owner_history.find((row) => row.office_party_type === '30')?.role).to.equal(
      registered.owner_history.find((row) => row.office_party_type === '30')?.role,
    );
    expect(owner(java.owners[0]!).entity_type).to.equal(owner(daily.get('60146682')!.owners[0]!).entity_type);
  });
});
