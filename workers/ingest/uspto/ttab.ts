/**
 * One `<proceeding-entry>` of the USPTO TTAB daily bulk XML (`ttab-proceedings`): an opposition,
 * cancellation, ex parte appeal or extension of time to oppose, its parties and the marks it is
 * against (`property-information/property/serial-number` of the defendant's party where there is
 * one, joined to marks by serial number; see contestedSerials).
 *
 * Types: OPP → opposition, CAN → cancellation, EXA → appeal, CNU → concurrent_use, INT →
 * interference, anything else (EXT, extensions of time to oppose) → other. Roles by `role-code`:
 * P (plaintiff) is the opponent of an opposition and the petitioner otherwise, except in an ex
 * parte appeal, whose one party, the appellant, is `other`; D (defendant) is the respondent.
 * Status: no TTAB status-code table was available, so a proceeding whose prosecution history
 * records a termination or a final decision is `other` with that entry's date as decision date,
 * and any other proceeding `pending`; the raw status code is kept in the description.
 */
import type { PartyRole, ProceedingStatus, ProceedingType } from '../../../domain/records';
import type { OwnerInput } from '../mark-input';
import { officeDate, RecordRejection } from '../record-rejection';
import { allAt, textAt, type XmlElement } from '../xml/element';
import type { XmlRecord } from '../xml/record-reader';

export const PROCEEDING_ENTRY = 'proceeding-entry';

export interface ProceedingPartyRecord {
  owner: OwnerInput;
  role: PartyRole;
}

export interface ProceedingRecord {
  number: string;
  /** The TTAB type code as written (OPP, CAN, EXA, EXT, …). */
  type_code: string;
  proceeding_type: ProceedingType;
  status: ProceedingStatus;
  filed_date: string;
  decision_date: string | null;
  description: string;
  parties: ProceedingPartyRecord[];
  /** Serial numbers of the contested marks (eight digits): see contestedSerials. */
  serials: string[];
}

const TYPES: Readonly<Record<string, ProceedingType>> = { OPP: 'opposition', CAN: 'cancellation', EXA: 'appeal', CNU: 'concurrent_use', INT: 'interference' };
const TYPE_WORDING: Readonly<Record<string, string>> = {
  OPP: 'Opposition',
  CAN: 'Cancellation',
  EXA: 'Ex parte appeal',
  EXT: 'Extension of time to oppose',
  CNU: 'Concurrent use',
  INT: 'Interference',
};
const TERMINATION = /TERMINATED|BOARD'?S DECISION|FINAL DECISION|DISMISSED|SUSTAINED|WITHDRAWN/;

function roleOf(code: string | null, type: ProceedingType): PartyRole {
  if (code === 'D') return 'respondent';
  if (code !== 'P' || type === 'appeal') return 'other';
  return type === 'opposition' ? 'opponent' : 'petitioner';
}

export function mapProceedingEntry(record: XmlRecord): ProceedingRecord {
  const entry = record.element;
  const number = textAt(entry, 'number');
  if (number === null) throw new RecordRejection('proceeding-entry has no number');
  const typeCode = textAt(entry, 'type-code') ?? '';
  const type = TYPES[typeCode] ?? 'other';
  const filedDate = officeDate(textAt(entry, 'filing-date'), 'filing-date');
  if (filedDate === null) throw new RecordRejection(`proceeding ${number} has no filing-date`);
  const history = allAt(entry, 'prosecution-history/prosecution-entry')
    .map((row) => ({
      date: officeDate(textAt(row, 'date'), 'prosecution-entry/date'),
      text: textAt(row, 'history-text') ?? '',
      id: Number(textAt(row, 'identifier') ?? 0),
    }))
    .sort((a, b) => a.id - b.id);
  const ended = [...history].reverse().find((row) => TERMINATION.test(row.text.toUpperCase()));
  const parties = allAt(entry, 'party-information/party');
  const { contested, pleaded } = contestedSerials(parties, type);
  const latest = history[history.length - 1];
  const statusCode = textAt(entry, 'status-code');
  return {
    number,
    type_code: typeCode,
    proceeding_type: type,
    status: ended ? 'other' : 'pending',
    filed_date: filedDate,
    decision_date: ended?.date ?? null,
    description: [
      `${TYPE_WORDING[typeCode] ?? `Proceeding type ${typeCode}`} ${number}`,
      statusCode === null ? null : `TTAB status code ${statusCode}`,
      pleaded.length === 0 ? null : `marks pleaded against it: ${pleaded.join(', ')}`,
      latest?.text ? `last entry: ${latest.text}` : null,
    ]
      .filter((part) => part !== null)
      .join('; '),
    parties: parties.flatMap((party) => {
      const name = textAt(party, 'name');
      if (name === null) return [];
      return [
        { owner: { name, entity_type: 'other' as const, country_code: null, city: null, postcode: null }, role: roleOf(textAt(party, 'role-code'), type) },
      ];
    }),
    serials: contested,
  };
}

const propertySerials = (party: XmlElement): string[] =>
  allAt(party, 'property-information/property')
    .map((property) => textAt(property, 'serial-number'))
    .filter((serial): serial is string => serial !== null && /^\d{1,8}$/.test(serial) && !/^0+$/.test(serial))
    .map((serial) => serial.padStart(8, '0'));

/**
 * The marks a proceeding is against, and those pleaded against them. In an opposition, a
 * cancellation or an extension of time to oppose, the defendant's (D) marks are contested and the
 * plaintiff's (P) are its grounds: the opposer's own registration is not opposed. An appeal's
 * one party names its own application; concurrent use and interference put every party's marks at
 * issue. Where no defendant names a mark, every named mark is taken as contested.
 */
function contestedSerials(parties: readonly XmlElement[], type: ProceedingType): { contested: string[]; pleaded: string[] } {
  const named = [...new Set(parties.flatMap(propertySerials))];
  if (type === 'appeal' || type === 'concurrent_use' || type === 'interference') return { contested: named, pleaded: [] };
  const defended = [...new Set(parties.filter((party) => textAt(party, 'role-code') === 'D').flatMap(propertySerials))];
  if (defended.length === 0) return { contested: named, pleaded: [] };
  return { contested: defended, pleaded: named.filter((serial) => !defended.includes(serial)) };
}
