/**
 * The SQLite tables behind one search index:
 * - `si_<index>`: one row per document. `seq` is the rowid (AUTOINCREMENT, so never reused) and
 *   doubles as the first-indexed sequence: a snapshot is then a rowid range, and the FTS and side
 *   tables key on it. `id` is the unique public ID. One typed column per scalar non-text field.
 * - `si_<index>__<field>`: one per array field, rows `(doc_seq, value)`, indexed both ways.
 * - `si_<index>__substr`: FTS5 trigram table over the text fields (substring matching).
 * - `si_<index>__words`: FTS5 unicode61 table with 1- and 2-character prefix indexes, serving the
 *   short terms the trigram table cannot match.
 * Both FTS tables are contentless (the text lives in the DocumentStore), with contentless_delete
 * so documents can be replaced and removed.
 */
import type Database from 'better-sqlite3';
import type { IndexDefinition, IndexFieldKind } from '../../ports';
import { assertValidDefinition, textFieldNames } from '../../search-query-rules';

export interface IndexLayout {
  definition: IndexDefinition;
  mainTable: string;
  /** Scalar non-text fields: columns of the main table. */
  scalarFields: string[];
  /** Array non-text fields: one side table each. */
  arrayFields: string[];
  /** Text fields, in FTS column order. */
  textFields: string[];
  substringTable: string;
  wordTable: string;
  sideTable(field: string): string;
}

const DEFINITIONS_TABLE = 'si__definitions';

const COLUMN_TYPES: Record<IndexFieldKind, string> = {
  keyword: 'TEXT',
  date: 'TEXT',
  text: 'TEXT',
  number: 'REAL',
  boolean: 'INTEGER',
};

export function layoutFor(definition: IndexDefinition): IndexLayout {
  assertValidDefinition(definition);
  const mainTable = `si_${definition.name}`;
  const nonText = Object.keys(definition.fields).filter((name) => definition.fields[name]!.kind !== 'text');
  return {
    definition,
    mainTable,
    scalarFields: nonText.filter((name) => !definition.fields[name]!.array),
    arrayFields: nonText.filter((name) => definition.fields[name]!.array),
    textFields: textFieldNames(definition),
    substringTable: `${mainTable}__substr`,
    wordTable: `${mainTable}__words`,
    sideTable: (field) => `${mainTable}__${field}`,
  };
}

/** The FTS5 tables of an index (none when it has no text fields). */
export function ftsTables(layout: IndexLayout): string[] {
  return layout.textFields.length > 0 ? [layout.substringTable, layout.wordTable] : [];
}

/**
 * The B-tree indexes of an index's tables: on each main-table column, on each side table's values,
 * and the definition's compound indexes (which end with the id tiebreaker, like sortable columns).
 */
export function secondaryIndexes(layout: IndexLayout): Array<{ name: string; create: string }> {
  const { definition, mainTable } = layout;
  const indexes: Array<{ name: string; create: string }> = [];
  const onMainTable = (name: string, columns: readonly string[]): void => {
    indexes.push({ name, create: `CREATE INDEX IF NOT EXISTS ${name} ON ${mainTable} (${columns.join(', ')})` });
  };
  for (const name of layout.scalarFields) {
    const spec = definition.fields[name]!;
    // Booleans split the table in two halves; an index on them would only mislead the planner.
    if (spec.kind === 'boolean') continue;
    // Sortable columns carry the id tiebreaker so `ORDER BY field, id` reads the index in order.
    onMainTable(`${mainTable}_${name}`, spec.sortable ? [name, 'id'] : [name]);
  }
  for (const fields of definition.compoundIndexes ?? []) {
    onMainTable(`${mainTable}_ci__${fields.join('__')}`, [...fields, 'id']);
  }
  for (const name of layout.arrayFields) {
    const side = layout.sideTable(name);
    indexes.push({ name: `${side}_value`, create: `CREATE INDEX IF NOT EXISTS ${side}_value ON ${side} (value, doc_seq)` });
  }
  return indexes;
}

function creationStatements(layout: IndexLayout): string[] {
  const { definition, mainTable } = layout;
  const columns = layout.scalarFields.map((name) => `${name} ${COLUMN_TYPES[definition.fields[name]!.kind]}`);
  const statements = [`CREATE TABLE ${mainTable} (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE${columns.map((c) => `, ${c}`).join('')})`];
  for (const name of layout.arrayFields) {
    const side = layout.sideTable(name);
    const valueType = COLUMN_TYPES[definition.fields[name]!.kind];
    statements.push(`CREATE TABLE ${side} (doc_seq INTEGER NOT NULL, value ${valueType} NOT NULL, PRIMARY KEY (doc_seq, value)) WITHOUT ROWID`);
  }
  if (layout.textFields.length > 0) {
    const ftsColumns = layout.textFields.join(', ');
    statements.push(
      `CREATE VIRTUAL TABLE ${layout.substringTable} USING fts5(${ftsColumns}, ` +
        `tokenize='trigram case_sensitive 0 remove_diacritics 1', content='', contentless_delete=1)`,
      `CREATE VIRTUAL TABLE ${layout.wordTable} USING fts5(${ftsColumns}, ` +
        `tokenize='unicode61 remove_diacritics 2', prefix='1 2', detail='column', content='', contentless_delete=1)`,
    );
  }
  return [...statements, ...secondaryIndexes(layout).map((index) => index.create)];
}

function dropStatements(layout: IndexLayout): string[] {
  return [
    `DROP TABLE IF EXISTS ${layout.mainTable}`,
    ...layout.arrayFields.map((name) => `DROP TABLE IF EXISTS ${layout.sideTable(name)}`),
    `DROP TABLE IF EXISTS ${layout.substringTable}`,
    `DROP TABLE IF EXISTS ${layout.wordTable}`,
  ];
}

/** What decides the tables' shape and what their rows mean; compound indexes are not part of it. */
function tableShape(definition: IndexDefinition): string {
  return JSON.stringify({ name: definition.name, fields: definition.fields, revision: definition.revision ?? 0 });
}

/**
 * Makes the B-tree indexes of a layout's tables exactly those it wants: creates the missing ones
 * (recreating those an interrupted bulk load dropped, or a new compound index) and drops those
 * the definition no longer lists. A new index on a filled table gets its planner statistics.
 */
function reconcileSecondaryIndexes(db: Database.Database, layout: IndexLayout): void {
  const tables = [layout.mainTable, ...layout.arrayFields.map(layout.sideTable)];
  const existing = new Set(
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${tables.map(() => '?').join(', ')})`)
      .pluck()
      .all(...tables) as string[],
  );
  const wanted = secondaryIndexes(layout);
  const filled = db.prepare(`SELECT 1 FROM ${layout.mainTable} LIMIT 1`).get() !== undefined;
  for (const index of wanted) {
    if (existing.has(index.name)) continue;
    db.exec(index.create);
    if (filled) db.exec(`ANALYZE ${index.name}`);
  }
  const wantedNames = new Set(wanted.map((index) => index.name));
  [...existing].filter((name) => !wantedNames.has(name)).forEach((name) => db.exec(`DROP INDEX ${name}`));
}

/**
 * Creates the tables of a definition. When a definition of the same index with other fields or
 * another revision was stored, its tables are dropped and recreated empty: the index is derived data (contentless FTS
 * cannot be rebuilt in place), so the indexer must then feed it again from the DocumentStore.
 * A definition that differs only in its compound indexes keeps the data and adjusts the indexes.
 * Asks for a refill when the tables were created (empty) or a refill they asked for is not marked done
 * (`markFilled`): the mark is written in the transaction that creates them, so a process stopped
 * before its refill finished leaves the next start to refill. The stored definition is read inside the write
 * transaction: two processes started together on one data directory (`serve` beside
 * `marque worker`) would otherwise both find none, and the second's CREATE TABLE would fail.
 */
export function ensureTables(db: Database.Database, layout: IndexLayout): EnsuredTables {
  const wanted = JSON.stringify(layout.definition);
  const ensure = db.transaction((): EnsuredTables => {
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${DEFINITIONS_TABLE} ` +
        '(name TEXT PRIMARY KEY, definition TEXT NOT NULL, filled INTEGER NOT NULL DEFAULT 1, base_sequence INTEGER NOT NULL DEFAULT 0)',
    );
    // Files written before refills were marked or sequences carried over lack the columns: their
    // indexes count as filled, numbered from the start.
    const columns = db.prepare(`SELECT name FROM pragma_table_info('${DEFINITIONS_TABLE}')`).pluck().all() as string[];
    if (!columns.includes('filled')) db.exec(`ALTER TABLE ${DEFINITIONS_TABLE} ADD COLUMN filled INTEGER NOT NULL DEFAULT 1`);
    if (!columns.includes('base_sequence')) db.exec(`ALTER TABLE ${DEFINITIONS_TABLE} ADD COLUMN base_sequence INTEGER NOT NULL DEFAULT 0`);
    const row = db.prepare(`SELECT definition, filled, base_sequence FROM ${DEFINITIONS_TABLE} WHERE name = ?`).get(layout.definition.name) as
      { definition: string; filled: number; base_sequence: number } | undefined;
    const stored = row ? (JSON.parse(row.definition) as IndexDefinition) : undefined;
    const keep = stored !== undefined && tableShape(stored) === tableShape(layout.definition);
    let baseSequence = row?.base_sequence ?? 0;
    if (keep) {
      reconcileSecondaryIndexes(db, layout);
    } else {
      // The new tables number their documents on from the old ones' last sequence: a snapshot of
      // the old tables (in a cursor) is then below every new one, and refused rather than misread.
      baseSequence = stored ? lastSequence(db, layoutFor(stored).mainTable) : 0;
      if (stored) dropStatements(layoutFor(stored)).forEach((sql) => db.exec(sql));
      creationStatements(layout).forEach((sql) => db.exec(sql));
      if (baseSequence > 0) db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(layout.mainTable, baseSequence);
    }
    const filled = keep && row?.filled === 1;
    if (row?.definition !== wanted || row.filled !== Number(filled) || row.base_sequence !== baseSequence) {
      db.prepare(`INSERT OR REPLACE INTO ${DEFINITIONS_TABLE} (name, definition, filled, base_sequence) VALUES (?, ?, ?, ?)`).run(
        layout.definition.name,
        wanted,
        Number(filled),
        baseSequence,
      );
    }
    return { needsRefill: !filled, baseSequence };
  });
  return ensure.immediate();
}

export interface EnsuredTables {
  needsRefill: boolean;
  /** The sequence the tables were created at (0 for the first tables): a cursor's snapshot at or below it was taken of tables since dropped. */
  baseSequence: number;
}

function lastSequence(db: Database.Database, mainTable: string): number {
  return (db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(mainTable) as number | undefined) ?? 0;
}

/** Records that the index's refill finished: `ensureTables` no longer asks for one. */
export function markTablesFilled(db: Database.Database, name: string): void {
  db.prepare(`UPDATE ${DEFINITIONS_TABLE} SET filled = 1 WHERE name = ?`).run(name);
}
