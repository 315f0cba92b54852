/**
 * USPTO prosecution-history events as Marque events. The event type is the data/event_types.json
 * type listing the USPTO code (`uspto_tsdr[].code`), or listing, without a code, the wording the
 * USPTO event table gives that code (ARAA "ATTORNEY/DOM.REP.REVOKED AND/OR APPOINTED" →
 * representative_changed); any other code is an `office_event`. The office's code and wording are
 * kept; where the record has no wording, the event table's is used.
 */
import { EVENT_TYPES } from '../../../resolvers/reference-data';
import type { EventInput } from '../mark-input';
import type { UsptoCodeTables } from './code-tables';

/** Event type of office events Marque has no type of its own for. */
export const OFFICE_EVENT_TYPE = 'office_event';

const wording = (text: string): string => text.toUpperCase().replace(/\s+/g, ' ').trim();

export class UsptoEventTypes {
  private readonly byCode = new Map<string, string>();

  constructor(private readonly tables: UsptoCodeTables) {
    const codesByWording = new Map<string, string[]>();
    for (const [code, description] of tables.events) codesByWording.set(wording(description), [...(codesByWording.get(wording(description)) ?? []), code]);
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
  event(code: string, date: string, number: number, description: string | null): EventInput {
    return {
      key: `e${String(number).padStart(6, '0')}:${code}:${date}`,
      event_type: this.typeOf(code),
      event_date: date,
      office_event_code: code,
      description: description ?? this.tables.events.get(code) ?? null,
    };
  }
}
