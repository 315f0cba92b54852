/**
 * The bulk formats `marque ingest` reads: for each, the element that is one record and the
 * mapping of a record to what the write path takes. A record that cannot be loaded throws
 * RecordRejection, a record the reader refused (too large) too, and a mapped record with a field
 * past its bound (mapped-bounds.ts); `keyOf` names it in the summary (serial number, reel/frame,
 * proceeding number).
 */
import { join } from 'node:path';
import { checkMappedBounds } from './mapped-bounds';
import type { ParsedItem } from './parsed-item';
import { RecordRejection } from './record-rejection';
import { ASSIGNMENT_ENTRY, mapAssignmentEntry } from './uspto/assignments';
import { CASE_FILE, mapCaseFile } from './uspto/applications';
import { readUsptoCodeTables } from './uspto/code-tables';
import { UsptoEventTypes } from './uspto/events';
import { mapProceedingEntry, PROCEEDING_ENTRY } from './uspto/ttab';
import { mapSt96Trademark, ST96_TRADEMARK } from './st96/trademarks';
import { textAt, type XmlElement } from './xml/element';
import type { XmlRecord } from './xml/record-reader';

export const INGEST_FORMATS = ['uspto', 'uspto-assignments', 'uspto-ttab', 'st96'] as const;
export type IngestFormat = (typeof INGEST_FORMATS)[number];

export type { ParsedItem } from './parsed-item';

export interface FormatReader {
  /** Local name of the record element. */
  recordName: string;
  /**
   * What the format's documents are and whether a root element is theirs: a document with no
   * record whose root is not is refused as a file of another format (the wrong command), where a
   * day without records has the right root.
   */
  documents: { description: string; hasRoot(root: { name: string; namespace: string | null }): boolean };
  keyOf(element: XmlElement): string | null;
  /** `document` is the document's locator (file, or zip!entry). */
  map(record: XmlRecord, document: string): ParsedItem;
}

/** `dataDir`: the project's data/ directory (the code tables live in data/uspto). */
export function formatReader(format: IngestFormat, dataDir: string): FormatReader {
  const reader = readerOf(format, dataDir);
  return {
    ...reader,
    map: (record, document) => {
      if (record.refused !== null) throw new RecordRejection(record.refused);
      const item = reader.map(record, document);
      // Here, on the parse thread, before the item is copied to the thread that writes.
      checkMappedBounds(item);
      return item;
    },
  };
}

/** WIPO ST.96's namespaces (Common, Trademark, …) all start so. */
const ST96_NAMESPACES = 'http://www.wipo.int/standards/XMLSchema/ST96/';

function rootNamed(name: string, description: string): FormatReader['documents'] {
  return { description: `${description} (root element <${name}>)`, hasRoot: (root) => root.name === name };
}

function readerOf(format: IngestFormat, dataDir: string): FormatReader {
  switch (format) {
    case 'uspto':
    case 'st96': {
      const tables = readUsptoCodeTables(join(dataDir, 'uspto'));
      const context = { tables, events: new UsptoEventTypes(tables) };
      return format === 'uspto'
        ? {
            recordName: CASE_FILE,
            documents: rootNamed('trademark-applications-daily', 'a USPTO trademark applications file (daily or annual)'),
            keyOf: (e) => textAt(e, 'serial-number'),
            map: (record, document) => ({ kind: 'mark', mark: mapCaseFile(record, document, context) }),
          }
        : {
            recordName: ST96_TRADEMARK,
            documents: {
              description: `a WIPO ST.96 trademark file (root element in a namespace under ${ST96_NAMESPACES})`,
              hasRoot: (root) => root.namespace?.startsWith(ST96_NAMESPACES) === true,
            },
            keyOf: (e) => textAt(e, 'ApplicationNumber/ApplicationNumberText') ?? textAt(e, 'ApplicationNumber/ST13ApplicationNumber'),
            map: (record, document) => ({ kind: 'mark', mark: mapSt96Trademark(record, document, context) }),
          };
    }
    case 'uspto-assignments':
      return {
        recordName: ASSIGNMENT_ENTRY,
        documents: rootNamed('trademark-assignments', 'a USPTO trademark assignments file'),
        keyOf: (e) => {
          const reel = textAt(e, 'assignment/reel-no');
          const frame = textAt(e, 'assignment/frame-no');
          return reel === null || frame === null ? null : `${reel}/${frame}`;
        },
        map: (record, document) => ({ kind: 'assignment', assignment: mapAssignmentEntry(record, document) }),
      };
    case 'uspto-ttab':
      return {
        recordName: PROCEEDING_ENTRY,
        documents: rootNamed('ttab-proceedings', 'a USPTO TTAB proceedings file'),
        keyOf: (e) => textAt(e, 'number'),
        map: (record) => ({ kind: 'proceeding', proceeding: mapProceedingEntry(record) }),
      };
  }
}
