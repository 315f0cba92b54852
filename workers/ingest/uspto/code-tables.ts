/**
 * The USPTO code tables the mapping reads (data/uspto/, sources in data/SOURCES-uspto.md): status
 * codes with their Live/Dead column (Table 1 of the Trademark Applications documentation) and
 * prosecution event codes with their descriptions (USPTO OCE Trademark Case Files Dataset).
 * Read once per process from a directory the caller names (the project's data/uspto).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

export interface UsptoStatusCode {
  description: string;
  /** USPTO's Live/Dead/Indifferent column, e.g. `Live/Registered`, `Dead/Cancelled`, `Indifferent`. */
  liveDead: string;
}

/** One wording of an event code: the table words a code once per event type letter (I incoming, O outgoing, E e-mailed, …). */
export interface UsptoEventWording {
  type: string;
  description: string;
}

export interface UsptoCodeTables {
  statuses: ReadonlyMap<string, UsptoStatusCode>;
  /** Event code → every wording the table gives it, in table order. */
  events: ReadonlyMap<string, readonly UsptoEventWording[]>;
}

function rows(dir: string, file: string): Array<Record<string, string>> {
  return parse(readFileSync(join(dir, file), 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Array<Record<string, string>>;
}

export function readUsptoCodeTables(dir: string): UsptoCodeTables {
  return {
    statuses: new Map(rows(dir, 'status_codes.csv').map((row) => [row.code!, { description: row.description!, liveDead: row.live_dead_indicator! }])),
    events: groupedWordings(rows(dir, 'event_codes.csv')),
  };
}

function groupedWordings(table: Array<Record<string, string>>): Map<string, UsptoEventWording[]> {
  const byCode = new Map<string, UsptoEventWording[]>();
  for (const row of table) byCode.set(row.code!, [...(byCode.get(row.code!) ?? []), { type: row.event_type_cd!, description: row.description! }]);
  return byCode;
}
