/**
 * One `<assignment-entry>` of the USPTO trademark assignments bulk XML (`trademark-assignments`):
 * a recorded ownership change, keyed by reel/frame, naming assignors, assignees and the marks
 * (`properties/property/serial-no`). It becomes owner-history rows (assignor, assignee) and one
 * event on each mark it names; it never replaces a mark's current owner, because a recorded
 * assignment is a recorded fact, not a conclusion about title (the office's own record says who
 * the owner is).
 *
 * The conveyance text is kept as written and classed by keywords: assignments and mergers →
 * assignment_recorded, name or address changes → owner_details_changed, licences →
 * license_recorded, anything else (security interests, releases, …) → office_event. Party
 * countries come from `country-name` (a US `state` alone is not taken to mean the US here, as
 * assignment records also use it for foreign provinces); entity types from `legal-entity-text`.
 */
import { countryCodeOfName } from '../../../domain/countries';
import type { EntityType } from '../../../domain/records';
import type { EventInput, OwnerInput } from '../mark-input';
import { officeDate, RecordRejection } from '../record-rejection';
import { allAt, textAt, type XmlElement } from '../xml/element';
import type { XmlRecord } from '../xml/record-reader';

export const ASSIGNMENT_ENTRY = 'assignment-entry';

export interface AssignmentRecord {
  /** reel/frame, e.g. 1/0058. */
  reference: string;
  recorded_date: string | null;
  conveyance: string | null;
  assignors: OwnerInput[];
  assignees: OwnerInput[];
  /** Serial numbers of the marks it names (eight digits). */
  serials: string[];
  event: EventInput | null;
  locator: string;
}

const ENTITY_TYPES: ReadonlyArray<[pattern: RegExp, type: EntityType]> = [
  [/INDIVIDUAL|SOLE PROPRIETOR/, 'individual'],
  [/PARTNERSHIP/, 'partnership'],
  [/TRUST|ESTATE/, 'trust'],
  [/GOVERNMENT|AGENCY|STATE OF|MUNICIPAL/, 'government'],
  [/CORPORATION|COMPANY|INCORPORATED|LIMITED|GMBH|AKTIENGESELLSCHAFT/, 'corporation'],
];

function entityType(text: string | null): EntityType {
  const upper = (text ?? '').toUpperCase();
  return ENTITY_TYPES.find(([pattern]) => pattern.test(upper))?.[1] ?? 'other';
}

function party(element: XmlElement): OwnerInput | null {
  const name = textAt(element, 'person-or-organization-name');
  if (name === null) return null;
  const countryName = textAt(element, 'country-name');
  return {
    name,
    entity_type: entityType(textAt(element, 'legal-entity-text')),
    country_code: countryName === null ? null : countryCodeOfName(countryName),
    city: textAt(element, 'city'),
    postcode: textAt(element, 'postcode'),
  };
}

const EVENT_TYPES: ReadonlyArray<[pattern: RegExp, type: string]> = [
  [/CHANGE OF NAME|NAME CHANGE|CHANGE OF ADDRESS|ADDRESS CHANGE/, 'owner_details_changed'],
  [/LICEN[CS]E/, 'license_recorded'],
  [/SECURITY|RELEASE|LIEN|COLLATERAL/, 'office_event'],
  [/ASSIGN|MERGER|NUNC PRO TUNC|TRANSFER/, 'assignment_recorded'],
];

export function conveyanceEventType(conveyance: string | null): string {
  const upper = (conveyance ?? '').toUpperCase();
  return EVENT_TYPES.find(([pattern]) => pattern.test(upper))?.[1] ?? 'office_event';
}

export function mapAssignmentEntry(record: XmlRecord, document: string): AssignmentRecord {
  const entry = record.element;
  const reel = textAt(entry, 'assignment/reel-no');
  const frame = textAt(entry, 'assignment/frame-no');
  if (reel === null || frame === null) throw new RecordRejection('assignment has no reel-no/frame-no');
  const reference = `${reel}/${frame}`;
  const serials = allAt(entry, 'properties/property')
    .map((property) => textAt(property, 'serial-no'))
    .filter((serial): serial is string => serial !== null && /^\d{1,8}$/.test(serial))
    .map((serial) => serial.padStart(8, '0'));
  if (serials.length === 0) throw new RecordRejection(`assignment ${reference} names no mark by serial number`);
  const recordedDate = officeDate(textAt(entry, 'assignment/date-recorded'), 'assignment/date-recorded');
  const conveyance = textAt(entry, 'assignment/conveyance-text');
  return {
    reference,
    recorded_date: recordedDate,
    conveyance,
    assignors: allAt(entry, 'assignors/assignor').flatMap((element) => party(element) ?? []),
    assignees: allAt(entry, 'assignees/assignee').flatMap((element) => party(element) ?? []),
    serials: [...new Set(serials)],
    event:
      recordedDate === null
        ? null
        : {
            key: `assignment:${reference}`,
            event_type: conveyanceEventType(conveyance),
            event_date: recordedDate,
            office_event_code: null,
            description: conveyance === null ? `Assignment recorded at reel/frame ${reference}` : `${conveyance} (reel/frame ${reference})`,
          },
    locator: `${document}#${record.index}`,
  };
}
