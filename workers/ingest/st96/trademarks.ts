/**
 * One WIPO ST.96 `<Trademark>` (Trademark and Common namespaces; the USPTO TSDR case-status XML,
 * and the bulk files offices such as CIPO publish in ST.96) as the full desired state of a mark,
 * mapped by the same rules as the USPTO daily XML wherever the two carry the same fact:
 *
 * - identity: `ApplicationNumber/IPOfficeCode` (else `RegistrationOfficeCode`) +
 *   `ApplicationNumberText` (else the ST.13 number, as CIPO writes it); US registration numbers
 *   are written with seven digits as in the daily XML. Only USPTO ST.96 documents were available
 *   to test against: the CIPO paths come from research/ingestion.md §3.2, untested;
 * - dates are ST.96 dates, kept as the calendar date written (`1995-02-07-05:00` → 1995-02-07);
 *   `FirstUsedDate`-style `YYYYMMDD` values are not used;
 * - US status codes (`MarkCurrentStatusCode`) and event codes go through the USPTO tables
 *   (uspto/status.ts, uspto/events.ts); ST.96 event codes carry the event's type letter after the
 *   four-character USPTO code (`CNSAO` = CNSA, type O), which is dropped. Other offices' codes are
 *   kept as office_status / office events with status unknown, as no table for them is shipped;
 * - owners: `ApplicantBag/Applicant`, `@sequenceNumber` being the party type (10, 20, 30, 31…);
 *   the highest is current. The name is `Contact/Name/EntityName` (or the organization or person
 *   name): in USPTO ST.96 `LegalEntityName` holds the entity type ("LIMITED LIABILITY COMPANY"),
 *   while CIPO puts the name there, so it is read as the name only outside the US; entity type from
 *   `NationalLegalEntityCode` (the USPTO codes, written without their leading zero);
 * - attorney: `RecordAttorney` person; firm, country and e-mail from `NationalCorrespondent` when
 *   its person is that attorney;
 * - mark type from `MarkStandardCharacterIndicator` and `MarkFeatureCode` (the USPTO drawing
 *   code); category and goods/services from `MarkCategory`; classes from the Nice or Primary
 *   `ClassNumber`s with their `GoodsServicesDescriptionText`; English text where a bilingual
 *   office gives several (`@languageCode`);
 * - data date (which version wins): ST.96 case-status documents carry no transaction date, so the
 *   latest of `MarkCurrentStatusDate` and the event dates stands in for it;
 * - image: `MarkImageBag/MarkImage/FileName` when it names an image file (`87881347.png`; the
 *   USPTO writes "No image available" when there is none), looked for beside the document
 *   (ingest-images.ts).
 */
import type { Classification, EntityType, MarkFeatureType, MarkLegalCategory, RightKind, TrademarkStatus } from '../../../domain/records';
import type { AttorneyInput, EventInput, MarkInput, OwnerHistoryInput, OwnerInput } from '../mark-input';
import { officeByCode } from '../../../domain/offices';
import { rawSource } from '../raw-source';
import { RecordRejection, st96Date } from '../record-rejection';
import { entityTypeOf, featureTypeOfDrawing, ownerRoleOf, registrationExpiry, type UsptoContext } from '../uspto/applications';
import { usptoStatus } from '../uspto/status';
import { allAt, at, children, textAt, type XmlElement } from '../xml/element';
import type { XmlRecord } from '../xml/record-reader';

export const ST96_TRADEMARK = 'Trademark';

/** A file name with a raster image's extension (what else a record writes there is prose). */
const IMAGE_FILE_NAME = /^[^/\\]+\.(png|jpe?g|gif|webp|tiff?|bmp)$/i;

function imageFile(fileName: string | null): Pick<MarkInput, 'image'> {
  const name = fileName?.trim() ?? '';
  return IMAGE_FILE_NAME.test(name) ? { image: { file_name: name, bytes: null } } : {};
}

/** The English one of repeated bilingual elements, else the first. */
function english(elements: readonly XmlElement[]): XmlElement | null {
  return elements.find((element) => element.attributes.languageCode === 'en') ?? elements[0] ?? null;
}

const truthy = (element: XmlElement | null, path: string) => textAt(element, path) === 'true';

function featureType(trademark: XmlElement): MarkFeatureType {
  return featureTypeOfDrawing(
    truthy(trademark, 'MarkRepresentation/MarkReproduction/WordMarkSpecification/MarkStandardCharacterIndicator'),
    textAt(trademark, 'MarkRepresentation/MarkDescriptionBag/NationalMarkDescription/MarkFeatureCode'),
  );
}

function category(trademark: XmlElement): { legal: MarkLegalCategory; goods: boolean; services: boolean } {
  const text = (textAt(trademark, 'MarkCategory') ?? '').toLowerCase();
  return {
    legal: text.includes('certification') ? 'certification' : text.includes('collective') ? 'collective' : 'individual',
    goods: text.includes('trademark') || text.includes('trade mark'),
    services: text.includes('service'),
  };
}

function classifications(trademark: XmlElement): Classification[] {
  const byClass = new Map<number, Classification>();
  for (const goodsServices of allAt(trademark, 'GoodsServicesBag/GoodsServices')) {
    const texts = new Map<string, string>();
    for (const description of allAt(goodsServices, 'ClassDescriptionBag/ClassDescription')) {
      const number = textAt(description, 'ClassNumber');
      const text = english(children(description, 'GoodsServicesDescriptionText'))?.text.trim();
      if (number !== null && text) texts.set(number, text);
    }
    for (const classification of allAt(goodsServices, 'GoodsServicesClassificationBag/GoodsServicesClassification')) {
      const kind = textAt(classification, 'ClassificationKindCode');
      const number = textAt(classification, 'ClassNumber');
      if ((kind !== 'Nice' && kind !== 'Primary') || number === null) continue;
      const niceClass = Number(number);
      if (!Number.isInteger(niceClass) || niceClass < 1 || niceClass > 45 || byClass.has(niceClass)) continue;
      byClass.set(niceClass, { nice_class: niceClass, goods_services_text: texts.get(number) ?? '', nice_edition: null });
    }
  }
  return [...byClass.values()].sort((a, b) => a.nice_class - b.nice_class);
}

function contactName(contact: XmlElement | null): string | null {
  return (
    textAt(contact, 'Name/EntityName') ?? textAt(contact, 'Name/OrganizationName/OrganizationStandardName') ?? textAt(contact, 'Name/PersonName/PersonFullName')
  );
}

const postal = (contact: XmlElement | null) => at(contact, 'PostalAddressBag/PostalAddress/PostalStructuredAddress');

function applicants(trademark: XmlElement, officeCode: string): Array<{ partyType: number; owner: OwnerInput }> {
  return allAt(trademark, 'ApplicantBag/Applicant')
    .flatMap((applicant) => {
      const contact = at(applicant, 'Contact');
      const name = contactName(contact) ?? (officeCode === 'US' ? null : textAt(applicant, 'LegalEntityName'));
      if (name === null) return [];
      const address = postal(contact);
      const code = textAt(applicant, 'NationalLegalEntityCode');
      const entityType: EntityType = officeCode === 'US' ? entityTypeOf(code === null ? null : code.padStart(2, '0')) : 'other';
      const country = textAt(address, 'CountryCode') ?? textAt(applicant, 'IncorporationCountryCode');
      return [
        {
          partyType: Number(applicant.attributes.sequenceNumber ?? 0),
          owner: { name, entity_type: entityType, country_code: country, city: textAt(address, 'CityName'), postcode: textAt(address, 'PostalCode') },
        },
      ];
    })
    .sort((a, b) => a.partyType - b.partyType);
}

function attorneys(trademark: XmlElement): AttorneyInput[] {
  const name = textAt(trademark, 'RecordAttorney/Contact/Name/PersonName/PersonFullName');
  if (name === null) return [];
  const correspondent = at(trademark, 'NationalCorrespondent/Contact');
  const same = textAt(correspondent, 'Name/PersonName/PersonFullName')?.toUpperCase() === name.toUpperCase();
  const address = postal(correspondent);
  const country = same ? (textAt(address, 'CountryCode') ?? null) : null;
  const firm = same ? textAt(correspondent, 'Name/OrganizationName/OrganizationStandardName') : null;
  const email = same
    ? (children(at(correspondent, 'EmailAddressBag'), 'EmailAddressText')
        .find((e) => e.text.trim() !== '')
        ?.text.trim() ?? null)
    : null;
  return [{ name, country_code: country, email, firm: firm === null ? null : { name: firm, country_code: country } }];
}

function events(trademark: XmlElement, officeCode: string, context: UsptoContext): EventInput[] {
  const list: Array<{ number: number; event: EventInput }> = [];
  for (const event of allAt(trademark, 'MarkEventBag/MarkEvent')) {
    const rawCode = textAt(event, 'NationalMarkEvent/MarkEventCode');
    const date = st96Date(textAt(event, 'MarkEventDate'), 'MarkEventDate');
    const number = Number(textAt(event, 'NationalMarkEvent/MarkEventEntryNumber'));
    if (rawCode === null || date === null || !Number.isInteger(number)) continue;
    const description = textAt(event, 'NationalMarkEvent/MarkEventDescriptionText');
    if (officeCode === 'US') {
      const code = rawCode.length === 5 ? rawCode.slice(0, 4) : rawCode;
      list.push({ number, event: context.events.event(code, date, number, description) });
    } else {
      list.push({
        number,
        event: {
          key: `e${String(number).padStart(6, '0')}:${rawCode}:${date}`,
          event_type: 'office_event',
          event_date: date,
          office_event_code: rawCode,
          description,
        },
      });
    }
  }
  list.sort((a, b) => (a.event.event_date < b.event.event_date ? -1 : a.event.event_date > b.event.event_date ? 1 : a.number - b.number));
  return list.map((entry) => entry.event);
}

function statusOf(trademark: XmlElement, officeCode: string, context: UsptoContext): TrademarkStatus {
  const code = textAt(trademark, 'MarkCurrentStatusCode');
  if (officeCode === 'US') return usptoStatus(code, { oppositionPending: false, cancellationPending: false }, context.tables);
  const description =
    textAt(trademark, 'NationalTrademarkInformation/MarkCurrentStatusExternalDescriptionText') ?? textAt(trademark, 'MarkCurrentStatusInternalDescriptionText');
  return { primary: 'unknown', stage: 'unknown', reason: 'unknown', challenge_states: [], office_status: code === null ? null : { code, description } };
}

export function mapSt96Trademark(record: XmlRecord, document: string, context: UsptoContext): MarkInput {
  const trademark = record.element;
  const officeCode = (textAt(trademark, 'ApplicationNumber/IPOfficeCode') ?? textAt(trademark, 'RegistrationOfficeCode'))?.toUpperCase() ?? null;
  const number = textAt(trademark, 'ApplicationNumber/ApplicationNumberText') ?? textAt(trademark, 'ApplicationNumber/ST13ApplicationNumber');
  if (officeCode === null || !/^[A-Z]{2}$/.test(officeCode)) throw new RecordRejection('ApplicationNumber/IPOfficeCode is missing');
  if (number === null) throw new RecordRejection('ApplicationNumber/ApplicationNumberText (or ST13ApplicationNumber) is missing');
  const date = (path: string) => st96Date(textAt(trademark, path), path);
  const filingDate = date('ApplicationDate');
  if (filingDate === null) throw new RecordRejection('ApplicationDate is missing');
  const status = statusOf(trademark, officeCode, context);
  const registrationDate = date('RegistrationDate');
  const renewalDate = date('NationalTrademarkInformation/RenewalDate');
  const statusDate = date('MarkCurrentStatusDate');
  const expiry = officeCode === 'US' && status.primary === 'active' && registrationDate !== null ? registrationExpiry(registrationDate, renewalDate) : null;
  const registrationNumber = textAt(trademark, 'RegistrationNumber');
  const classes = classifications(trademark);
  const kind = category(trademark);
  const goods = kind.goods || (!kind.services && classes.some((c) => c.nice_class <= 34));
  const services = kind.services || (!kind.goods && classes.some((c) => c.nice_class >= 35));
  const right: RightKind = goods && services ? 'trademark_and_service_mark' : services ? 'service_mark' : 'trademark';
  const rows = applicants(trademark, officeCode);
  const currentType = rows[rows.length - 1]?.partyType ?? null;
  const ownerHistory: OwnerHistoryInput[] = rows.map((row) => ({
    owner: row.owner,
    name: row.owner.name,
    role: ownerRoleOf(row.partyType),
    office_party_type: row.partyType === 0 ? null : String(row.partyType),
    recorded_date: null,
    reference: null,
    conveyance: null,
  }));
  const markEvents = events(trademark, officeCode, context);
  const dataDate = [statusDate, ...markEvents.map((event) => event.event_date)].reduce<string | null>(
    (a, b) => (b !== null && (a === null || b > a) ? b : a),
    null,
  );
  const publicationDates = allAt(trademark, 'PublicationBag/Publication')
    .map((publication) => st96Date(textAt(publication, 'PublicationDate'), 'PublicationDate'))
    .filter((value): value is string => value !== null)
    .sort();
  const irNumber = textAt(trademark, 'InternationalMarkIdentifier');
  const madrid = irNumber !== null || truthy(trademark, 'NationalFilingBasis/FilingBasis/BasisInternationalRegistrationIndicator');
  return {
    office_code: officeCode,
    application_number: number,
    content: {
      mark_text: english(allAt(trademark, 'MarkRepresentation/MarkReproduction/WordMarkSpecification/MarkVerbalElementText'))?.text.trim() ?? '',
      registration_number:
        registrationNumber === null ? null : officeCode === 'US' && /^\d+$/.test(registrationNumber) ? registrationNumber.padStart(7, '0') : registrationNumber,
      ir_number: irNumber,
      jurisdiction_code: officeByCode(officeCode)?.jurisdiction_code ?? officeCode,
      filing_route: madrid ? 'madrid' : 'national',
      scope_kind: 'national',
      mark_feature_type: featureType(trademark),
      mark_legal_category: kind.legal,
      right_kind: right,
      is_series_mark: false,
      series_id: null,
      is_retracted: false,
      vienna_codes: [],
      media: [],
      status,
      filing_date: filingDate,
      priority_date: null,
      publication_date: publicationDates[0] ?? null,
      registration_date: registrationDate,
      expiry_date: expiry,
      renewal_due_date: expiry,
      termination_date: status.primary === 'inactive' ? statusDate : null,
      international_registration_date: null,
      designation_date: madrid ? filingDate : null,
      classifications: classes,
    },
    owners: rows.filter((row) => row.partyType === currentType).map((row) => row.owner),
    attorneys: attorneys(trademark),
    owner_history: ownerHistory,
    events: markEvents,
    ...imageFile(textAt(trademark, 'MarkRepresentation/MarkReproduction/MarkImageBag/MarkImage/FileName')),
    source: rawSource(record.raw, {
      format: 'xml_st96',
      responseType: 'case_status',
      locator: `${document}#${record.index}`,
      dataDate,
      mediaType: 'application/xml',
    }),
  };
}
