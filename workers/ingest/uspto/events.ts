/**
 * USPTO prosecution-history events as Marque events. The event type is the data/event_types.json
 * type listing the USPTO code (`uspto_tsdr[].code`), or listing, without a code, a wording the
 * USPTO event table gives that code (ARAA "ATTORNEY/DOM.REP.REVOKED AND/OR APPOINTED" →
 * representative_changed; the table words many codes once per event type letter, and writes a
 * number placeholder as 999999 where event_types.json writes <n>); any other code is an
 * `office_event`. The office's code and wording are kept; where the record has no wording, the
 * table's wording of the record's event type letter is used.
 */
import { EVENT_TYPES } from '../../../resolvers/reference-data';
import type { EventInput } from '../mark-input';
import type { UsptoCodeTables } from './code-tables';

/** Event type of office events Marque has no type of its own for. */
export const OFFICE_EVENT_TYPE = 'office_event';

/** A wording as compared: case and spacing aside, a number placeholder (`<n>` in data/event_types.json, `999999` in the USPTO table) as `#`. */
const wording = (text: string): string =>
  text
    .toUpperCase()
    .replace(/<N>|\b9{4,}\b/g, '#')
    .replace(/\s+/g, ' ')
    .trim();

export class UsptoEventTypes {
  private readonly byCode = new Map<string, string>();

  constructor(private readonly tables: UsptoCodeTables) {
    const codesByWording = new Map<string, string[]>();
    for (const [code, wordings] of tables.events) {
      for (const { description } of wordings) codesByWording.set(wording(description), [...(codesByWording.get(wording(description)) ?? []), code]);
    }
    for (const type of EVENT_TYPES) {
      for (const entry of type.uspto_tsdr) {
        const codes = entry.code !== undefined ? [entry.code] : (codesByWording.get(wording(entry.description)) ?? []);
        for (const code of codes) if (!this.byCode.has(code)) this.byCode.set(code, type.code);
      }
    }
  }

  typeOf(code: string): string {
    return this.byCode.get(code) ?? OFFICE_EVENT_TYPE;
  }

  /**
   * One event. `key` is its identity within the mark: entry number (zero-padded, so IDs sort by
   * number within a day), code and date; an office that restates the event restates the key.
   */
  event(code: string, date: string, number: number, description: string | null, typeLetter: string | null = null): EventInput {
    return {
      key: `e${String(number).padStart(6, '0')}:${code}:${date}`,
      event_type: this.typeOf(code),
      event_date: date,
      office_event_code: code,
      description: description ?? this.tableWording(code, typeLetter),
    };
  }

  /** The table's wording of a code, the one of the record's event type letter where the table has it. */
  private tableWording(code: string, typeLetter: string | null): string | null {
    const wordings = this.tables.events.get(code) ?? [];
    return (wordings.find((entry) => entry.type === typeLetter) ?? wordings[0])?.description ?? null;
  }
}
