/**
 * Writes documents into the tables of one index with prepared statements. Callers run each
 * `upsert`/`remove` batch inside one transaction.
 */
import type Database from 'better-sqlite3';
import type { IndexDocument } from '../../ports';
import { assertValidDocument, withFoldedText } from '../../search-query-rules';
import { ftsTables, type IndexLayout } from './schema';

type SqlValue = string | number | null;

export interface IndexWriter {
  upsert(docs: readonly IndexDocument[]): void;
  remove(ids: readonly string[]): void;
  /** Highest sequence ever assigned in this index (0 before the first upsert). */
  currentSequence(): number;
}

function toSqlValue(value: string | number | boolean): SqlValue {
  return typeof value === 'boolean' ? Number(value) : value;
}

function listOf(value: IndexDocument[string]): Array<string | number> {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value as string | number];
}

/** Text of a text field as one FTS column value; array values become separate lines. */
function textOf(value: IndexDocument[string]): string | null {
  const values = listOf(value);
  return values.length === 0 ? null : values.join('\n');
}

export function createIndexWriter(db: Database.Database, layout: IndexLayout): IndexWriter {
  const { mainTable, scalarFields, arrayFields, textFields } = layout;
  const columns = ['id', ...scalarFields];
  // Look up first rather than INSERT ... ON CONFLICT: an upsert would burn an AUTOINCREMENT value.
  const findSeq = db.prepare(`SELECT seq FROM ${mainTable} WHERE id = ?`).pluck();
  const insertMain = db.prepare(`INSERT INTO ${mainTable} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING seq`).pluck();
  const updateMain = scalarFields.length > 0 ? db.prepare(`UPDATE ${mainTable} SET ${scalarFields.map((f) => `${f} = ?`).join(', ')} WHERE seq = ?`) : null;
  const removeMain = db.prepare(`DELETE FROM ${mainTable} WHERE id = ? RETURNING seq`).pluck();
  const sequence = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = ?`).pluck();
  const sideStatements = arrayFields.map((field) => ({
    field,
    clear: db.prepare(`DELETE FROM ${layout.sideTable(field)} WHERE doc_seq = ?`),
    add: db.prepare(`INSERT OR IGNORE INTO ${layout.sideTable(field)} (doc_seq, value) VALUES (?, ?)`),
  }));
  const ftsColumns = ['rowid', ...textFields];
  const ftsStatements = ftsTables(layout).map((table) => ({
    insert: db.prepare(`INSERT INTO ${table} (${ftsColumns.join(', ')}) VALUES (${ftsColumns.map(() => '?').join(', ')})`),
    replace: db.prepare(`INSERT OR REPLACE INTO ${table} (${ftsColumns.join(', ')}) VALUES (${ftsColumns.map(() => '?').join(', ')})`),
    remove: db.prepare(`DELETE FROM ${table} WHERE rowid = ?`),
  }));

  function currentSequence(): number {
    return (sequence.get(mainTable) as number | undefined) ?? 0;
  }

  /**
   * Rows first, FTS after, each FTS table in one run: an insert into the main table opens a
   * statement savepoint, and FTS5 flushes its pending terms to a new segment at every savepoint,
   * so interleaving the two would write (and later merge) one tiny segment per document.
   */
  function upsert(docs: readonly IndexDocument[]): void {
    const ftsRows: Array<{ seq: number; isNew: boolean; texts: Array<string | null> }> = [];
    for (const doc of docs) {
      assertValidDocument(layout.definition, doc);
      const scalars = scalarFields.map((field) => {
        const value = doc[field];
        return value === undefined || value === null ? null : toSqlValue(value as string | number | boolean);
      });
      const existing = findSeq.get(doc.id) as number | undefined;
      const isNew = existing === undefined;
      const seq = isNew ? (insertMain.get(doc.id, ...scalars) as number) : existing;
      if (!isNew) updateMain?.run(...scalars, seq);
      for (const side of sideStatements) {
        if (!isNew) side.clear.run(seq);
        for (const value of listOf(doc[side.field])) side.add.run(seq, toSqlValue(value));
      }
      const folded = withFoldedText(layout.definition, doc);
      ftsRows.push({ seq, isNew, texts: textFields.map((field) => textOf(folded[field])) });
    }
    for (const fts of ftsStatements) {
      for (const row of ftsRows) (row.isNew ? fts.insert : fts.replace).run(row.seq, ...row.texts);
    }
  }

  function remove(ids: readonly string[]): void {
    for (const id of ids) {
      const seq = removeMain.get(id) as number | undefined;
      if (seq === undefined) continue;
      sideStatements.forEach((side) => side.clear.run(seq));
      ftsStatements.forEach((fts) => fts.remove.run(seq));
    }
  }

  return { upsert, remove, currentSequence };
}
