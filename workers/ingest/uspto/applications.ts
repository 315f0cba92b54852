/**
 * One `<case-file>` of the USPTO "Trademark Full Text XML – Daily Applications" (and the annual
 * backfile, same DTD v2.0) as the full desired state of a mark (research/ingestion.md §6, checked
 * against the sample files):
 *
 * - identity: office US + `serial-number` (eight digits); `registration-number` 0000000 → none;
 * - status: `status-code` through uspto/status.ts (Live/Dead table; families for the stage);
 *   `opposition-pending-in` / `cancellation-pending-in` add challenge states;
 * - dates `YYYYMMDD` → `YYYY-MM-DD` (00000000 and partial dates → null, impossible ones reject the
 *   record); publication = `published-for-opposition-date`; termination (dead marks) =
 *   `cancellation-date`, else `abandonment-date`, else `status-date`; expiry (live registrations
 *   only) = the end of the registration's current term, from `registration-date` (ten-year terms;
 *   twenty for registrations before 16 November 1989) and `renewal-date`; renewal due = expiry;
 * - mark type from `standard-characters-claimed-in` and the first digit of `mark-drawing-code`
 *   (data/uspto/drawing_codes.csv): standard characters, 1 and 4 → word, 2 → figurative, 3 →
 *   combined, 5 (stylized words: "figurative" in EUIPO terms) → figurative, 6 (no drawing: sound)
 *   → other; legal category from the collective / certification flags; goods or services from
 *   `trademark-in` / `service-mark-in` (else from the classes);
 * - classes: `international-code` 001–045 with the goods text of the `GS{class}` statements
 *   (suffix 2, "less goods" only, left out; `[deleted]` and `((less goods))` wording removed,
 *   `*added*` asterisks dropped); US-only classes (pre-1973) are not Nice classes and are left out;
 * - owners: `case-file-owner` rows by `party-type` (data/uspto/party_types.csv): the highest group
 *   below 70 is the current owner(s), every row is owner history; entity type from
 *   `legal-entity-type-code` (entity_codes.csv); country `country`, else US when only a US `state`
 *   is given;
 * - attorney: `attorney-name`; firm: the first correspondent line after that name ("Austin Padgett
 *   Troutman Pepper Hamilton Sanders LLP" → "Troutman Pepper Hamilton Sanders LLP"); country: the
 *   correspondent's last line when it names a country;
 * - events: `case-file-event-statement` rows (uspto/events.ts), sorted by (date, number); outgoing
 *   Madrid filings (`madrid-international-filing-record`) as international_application_filed;
 * - design codes `230308` → Vienna `23.03.08`; inbound Madrid (66(a)):
 *   `international-registration` number and date, route madrid, designation date = filing date;
 * - data date = `transaction-date`, which decides which version of a mark wins (mark-writer.ts).
 *   A case-file without one (absent, `00000000`, partial), or with one after the day after today
 *   (UTC, by `UsptoContext.now`), rejects the record: it cannot be ordered against the mark's other
 *   versions, and written anyway it would overwrite a newer record or, dated in the future, make
 *   every later real file of the mark count as older.
 */
import { addDays, addMonths, type IsoDate } from '../../../domain/dates';
import { countryCodeOfName } from '../../../domain/countries';
import type { Classification, EntityType, MarkFeatureType, MarkLegalCategory, OwnerHistoryRole, RightKind } from '../../../domain/records';
import type { AttorneyInput, EventInput, MarkInput, OwnerHistoryInput, OwnerInput } from '../mark-input';
import { rawSource } from '../raw-source';
import { officeDate, RecordRejection } from '../record-rejection';
import { allAt, at, textAt, type XmlElement } from '../xml/element';
import type { XmlRecord } from '../xml/record-reader';
import type { UsptoCodeTables } from './code-tables';
import type { UsptoEventTypes } from './events';
import { usptoStatus } from './status';

export const CASE_FILE = 'case-file';

export interface UsptoContext {
  tables: UsptoCodeTables;
  events: UsptoEventTypes;
  /**
   * The clock a transaction-date is checked against; default the system clock, which is also the
   * write path's (MarkWriter's) default. Mapping runs in the parse thread, where the run's own
   * `now` option (a function) cannot be passed: tests that map directly pin it here.
   */
  now?: () => Date;
}

const ENTITY_TYPE_BY_CODE: Readonly<Record<string, EntityType>> = {
  '01': 'individual',
  '02': 'partnership',
  '03': 'corporation',
  '08': 'trust',
  '09': 'corporation',
  '10': 'corporation',
  '11': 'corporation',
  '13': 'partnership',
  '14': 'government',
  '15': 'government',
  '16': 'corporation',
  '17': 'trust',
  '18': 'trust',
  '19': 'individual',
};

export function entityTypeOf(code: string | null): EntityType {
  return (code !== null ? ENTITY_TYPE_BY_CODE[code] : undefined) ?? 'other';
}

export function ownerRoleOf(partyType: number): OwnerHistoryRole {
  if (partyType === 10) return 'applicant';
  if (partyType < 20) return 'owner_before_publication';
  if (partyType === 20) return 'owner_at_publication';
  if (partyType < 30) return 'owner_after_publication';
  if (partyType === 30) return 'registrant';
  return 'owner_after_registration';
}

const flag = (header: XmlElement | null, name: string): boolean => textAt(header, name) === 'T';

function featureType(header: XmlElement | null): MarkFeatureType {
  return featureTypeOfDrawing(flag(header, 'standard-characters-claimed-in'), textAt(header, 'mark-drawing-code'));
}

/**
 * The feature type from the USPTO mark drawing code (its first digit), or word when standard
 * characters are claimed. The daily XML and ST.96 (MarkFeatureCode) carry the same code.
 */
export function featureTypeOfDrawing(standardCharacters: boolean, drawingCode: string | null | undefined): MarkFeatureType {
  if (standardCharacters) return 'word';
  switch (drawingCode?.charAt(0)) {
    case '1':
    case '4':
      return 'word';
    case '2':
    case '5':
      return 'figurative';
    case '3':
      return 'combined';
    default:
      return 'other';
  }
}

function legalCategory(header: XmlElement | null): MarkLegalCategory {
  if (flag(header, 'certification-mark-in')) return 'certification';
  if (['collective-trademark-in', 'collective-service-mark-in', 'collective-membership-mark-in'].some((name) => flag(header, name))) return 'collective';
  return 'individual';
}

function rightKind(header: XmlElement | null, classes: readonly Classification[]): RightKind {
  const goods = flag(header, 'trademark-in') || (!flag(header, 'service-mark-in') && classes.some((c) => c.nice_class <= 34));
  const services = flag(header, 'service-mark-in') || (!flag(header, 'trademark-in') && classes.some((c) => c.nice_class >= 35));
  return goods && services ? 'trademark_and_service_mark' : services ? 'service_mark' : 'trademark';
}

/**
 * Whitespace runs as one space. A single space between words is left alone rather than replaced
 * by itself: V8 lists every match before building the result, and a list of one match per word
 * took about 230 MB for a 16 MB goods text, more than the parse thread's heap can hold.
 */
const oneSpace = (text: string): string => text.replace(/\s{2,}|[^\S ]/g, ' ');

/** Goods/services wording for search and display: deleted and "less goods" parts out, markers dropped. */
export function goodsText(raw: string): string {
  return oneSpace(
    raw
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/\(\([^)]*\)\)/g, ' ')
      .replace(/\*/g, ''),
  )
    .replace(/\s+([;,.])/g, '$1')
    .trim();
}

function classifications(caseFile: XmlElement): Classification[] {
  const goodsByClass = new Map<string, string[]>();
  for (const statement of allAt(caseFile, 'case-file-statements/case-file-statement')) {
    const type = textAt(statement, 'type-code') ?? '';
    const text = textAt(statement, 'text');
    if (!/^GS\d{3}[0-9]$/.test(type) || type.charAt(5) === '2' || text === null) continue;
    goodsByClass.set(type.slice(2, 5), [...(goodsByClass.get(type.slice(2, 5)) ?? []), goodsText(text)]);
  }
  const byClass = new Map<number, Classification>();
  for (const classification of allAt(caseFile, 'classifications/classification')) {
    for (const code of allAt(classification, 'international-code')) {
      const niceClass = Number(code.text.trim());
      if (!Number.isInteger(niceClass) || niceClass < 1 || niceClass > 45 || byClass.has(niceClass)) continue;
      const texts = goodsByClass.get(code.text.trim()) ?? goodsByClass.get(textAt(classification, 'primary-code') ?? '') ?? [];
      byClass.set(niceClass, { nice_class: niceClass, goods_services_text: texts.filter((t) => t !== '').join('; '), nice_edition: null });
    }
  }
  return [...byClass.values()].sort((a, b) => a.nice_class - b.nice_class);
}

interface OwnerRow {
  partyType: number;
  entry: number;
  owner: OwnerInput;
}

function ownerRows(caseFile: XmlElement): OwnerRow[] {
  const rows: OwnerRow[] = [];
  for (const row of allAt(caseFile, 'case-file-owners/case-file-owner')) {
    const partyType = Number(textAt(row, 'party-type'));
    const name = textAt(row, 'party-name');
    // 70: a correspondent row of legacy records, not an owner.
    if (!Number.isInteger(partyType) || partyType < 10 || partyType >= 70 || name === null) continue;
    const country = textAt(row, 'country') ?? (textAt(row, 'state') !== null ? 'US' : null);
    rows.push({
      partyType,
      entry: Number(textAt(row, 'entry-number') ?? 0),
      owner: {
        name,
        entity_type: entityTypeOf(textAt(row, 'legal-entity-type-code')),
        country_code: country,
        city: textAt(row, 'city'),
        postcode: textAt(row, 'postcode'),
      },
    });
  }
  return rows.sort((a, b) => a.partyType - b.partyType || a.entry - b.entry);
}

function attorneys(caseFile: XmlElement): AttorneyInput[] {
  const name = textAt(caseFile, 'case-file-header/attorney-name');
  if (name === null) return [];
  const lines = ['address-1', 'address-2', 'address-3', 'address-4', 'address-5']
    .map((line) => textAt(caseFile, `correspondent/${line}`))
    .filter((line): line is string => line !== null);
  const first = oneSpace(lines[0] ?? '');
  const normalizedName = oneSpace(name);
  const firmName = first.toUpperCase().startsWith(normalizedName.toUpperCase()) ? first.slice(normalizedName.length).trim() : '';
  const last = lines[lines.length - 1];
  const country = lines.length > 1 && last !== undefined ? countryCodeOfName(last) : null;
  return [{ name, country_code: country, email: null, firm: firmName === '' ? null : { name: firmName, country_code: country } }];
}

function events(caseFile: XmlElement, context: UsptoContext): EventInput[] {
  const list: Array<{ number: number; event: EventInput }> = [];
  for (const row of allAt(caseFile, 'case-file-event-statements/case-file-event-statement')) {
    const code = textAt(row, 'code');
    const date = officeDate(textAt(row, 'date'), 'case-file-event-statement/date');
    const number = Number(textAt(row, 'number'));
    if (code === null || date === null || !Number.isInteger(number)) continue;
    list.push({ number, event: context.events.event(code, date, number, textAt(row, 'description-text'), textAt(row, 'type')) });
  }
  list.sort((a, b) => (a.event.event_date < b.event.event_date ? -1 : a.event.event_date > b.event.event_date ? 1 : a.number - b.number));
  const madrid: EventInput[] = [];
  for (const filing of allAt(caseFile, 'madrid-international-filing-requests/madrid-international-filing-record')) {
    const reference = textAt(filing, 'reference-number');
    const date = officeDate(textAt(filing, 'original-filing-date-uspto'), 'madrid-international-filing-record/original-filing-date-uspto');
    if (reference === null || date === null) continue;
    const irNumber = textAt(filing, 'international-registration-number');
    madrid.push({
      key: `madrid:${reference}`,
      event_type: 'international_application_filed',
      event_date: date,
      office_event_code: null,
      description: `International application ${reference}${irNumber && !/^0+$/.test(irNumber) ? ` (international registration ${irNumber})` : ''}`,
    });
  }
  return [...list.map((entry) => entry.event), ...madrid];
}

/** End of the current term of a registration (see the module header). */
export function registrationExpiry(registrationDate: IsoDate, renewalDate: IsoDate | null): IsoDate {
  const termYears = (start: IsoDate) => (start < '1989-11-16' ? 20 : 10);
  let end = addMonths(registrationDate, 12 * termYears(registrationDate));
  const anchor = renewalDate ?? registrationDate;
  while (end <= anchor) end = addMonths(end, 12 * termYears(end));
  return end;
}

function viennaCode(code: string): string | null {
  return /^\d{6}$/.test(code) ? `${code.slice(0, 2)}.${code.slice(2, 4)}.${code.slice(4, 6)}` : null;
}

/** The case-file's `transaction-date`, or a rejection when the record cannot be ordered by it (module header). */
function transactionDateOf(caseFile: XmlElement, now: Date): IsoDate {
  const raw = textAt(caseFile, 'transaction-date');
  const date = officeDate(raw, 'transaction-date');
  if (date === null)
    throw new RecordRejection(
      `transaction-date ${raw === null || raw === '' ? 'is missing' : `'${raw}' is not a full date`}: the case-file cannot be ordered against other versions`,
    );
  // A day of slack for zones and clocks a little off; a real daily file is never dated further ahead.
  const latest = addDays(now.toISOString().slice(0, 10), 1);
  if (date > latest)
    throw new RecordRejection(`transaction-date '${raw}' is after ${latest}, the day after today: a future date cannot be ordered against other versions`);
  return date;
}

export function mapCaseFile(record: XmlRecord, document: string, context: UsptoContext): MarkInput {
  const caseFile = record.element;
  const serial = textAt(caseFile, 'serial-number');
  if (serial === null || !/^\d{1,8}$/.test(serial)) throw new RecordRejection(`serial-number '${serial ?? ''}' is not a serial number`);
  const transactionDate = transactionDateOf(caseFile, context.now?.() ?? new Date());
  const header = at(caseFile, 'case-file-header');
  const date = (field: string) => officeDate(textAt(header, field), `case-file-header/${field}`);
  const filingDate = date('filing-date');
  if (filingDate === null) throw new RecordRejection('case-file-header/filing-date is missing');
  const registrationNumber = textAt(caseFile, 'registration-number');
  const status = usptoStatus(
    textAt(header, 'status-code'),
    { oppositionPending: flag(header, 'opposition-pending-in'), cancellationPending: flag(header, 'cancellation-pending-in') },
    context.tables,
  );
  const registrationDate = date('registration-date');
  const renewalDate = date('renewal-date');
  const statusDate = date('status-date');
  const cancellationDate = date('cancellation-date');
  const abandonmentDate = date('abandonment-date');
  const publicationDate = date('published-for-opposition-date');
  const expiry = status.primary === 'active' && registrationDate !== null ? registrationExpiry(registrationDate, renewalDate) : null;
  const madrid = flag(header, 'filing-basis-filed-as-66a-in') || flag(header, 'filing-basis-current-66a-in');
  const irNumber = textAt(caseFile, 'international-registration/international-registration-number');
  const priorityDates = allAt(caseFile, 'foreign-applications/foreign-application')
    .filter((application) => textAt(application, 'foreign-priority-claim-in') === 'T')
    .map((application) => officeDate(textAt(application, 'filing-date'), 'foreign-application/filing-date'))
    .filter((value): value is string => value !== null)
    .sort();
  const classes = classifications(caseFile);
  const rows = ownerRows(caseFile);
  const currentType = rows.length === 0 ? null : rows[rows.length - 1]!.partyType;
  const ownerHistory: OwnerHistoryInput[] = rows.map((row) => ({
    owner: row.owner,
    name: row.owner.name,
    role: ownerRoleOf(row.partyType),
    office_party_type: String(row.partyType),
    recorded_date: null,
    reference: null,
    conveyance: null,
  }));
  return {
    office_code: 'US',
    application_number: serial.padStart(8, '0'),
    content: {
      mark_text: textAt(header, 'mark-identification') ?? '',
      registration_number: registrationNumber === null || /^0+$/.test(registrationNumber) ? null : registrationNumber,
      ir_number: irNumber === null || /^0+$/.test(irNumber) ? null : irNumber,
      jurisdiction_code: 'US',
      filing_route: madrid ? 'madrid' : 'national',
      scope_kind: 'national',
      mark_feature_type: featureType(header),
      mark_legal_category: legalCategory(header),
      right_kind: rightKind(header, classes),
      is_series_mark: false,
      series_id: null,
      is_retracted: false,
      vienna_codes: [...new Set(allAt(caseFile, 'design-searches/design-search').map((search) => viennaCode(textAt(search, 'code') ?? '')))].filter(
        (code): code is string => code !== null,
      ),
      media: [],
      status,
      filing_date: filingDate,
      priority_date: priorityDates[0] ?? null,
      publication_date: publicationDate,
      registration_date: registrationDate,
      expiry_date: expiry,
      renewal_due_date: expiry,
      termination_date: status.primary === 'inactive' ? (cancellationDate ?? abandonmentDate ?? statusDate) : null,
      international_registration_date: officeDate(
        textAt(caseFile, 'international-registration/international-registration-date'),
        'international-registration-date',
      ),
      designation_date: madrid ? filingDate : null,
      classifications: classes,
    },
    owners: rows.filter((row) => row.partyType === currentType).map((row) => row.owner),
    attorneys: attorneys(caseFile),
    owner_history: ownerHistory,
    events: events(caseFile, context),
    source: rawSource(record.raw, {
      format: 'xml_dtd',
      responseType: 'bulk_daily',
      locator: `${document}#${record.index}`,
      dataDate: transactionDate,
      mediaType: 'application/xml',
    }),
  };
}
