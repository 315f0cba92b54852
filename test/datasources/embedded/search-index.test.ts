import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedSearchIndex } from '../../../datasources/embedded/search-index';
import { KeptMatches, type KeptSet, type MatchSet } from '../../../datasources/embedded/search-index/kept-matches';
import { searchSql } from '../../../datasources/embedded/search-index/query-sql';
import { layoutFor } from '../../../datasources/embedded/search-index/schema';
import { TRADEMARK_INDEX } from '../../../datasources/index-definitions';
import { StaleSnapshotError, UnsupportedQueryError, type IndexDefinition } from '../../../datasources/ports';
import { describeSearchIndexContract } from '../search-index.contract';
import { openTogether } from '../../support/open-together';
import { WRITE_TOGETHER_DEFINITION, writeTogether } from '../../support/write-together';

describeSearchIndexContract('embedded SQLite', async () => createEmbeddedSearchIndex({ path: ':memory:' }));

/**
 * Enough marks for the adapter to gather planner statistics: 4 offices, 3 statuses, a filing date
 * per day, so no single-column index is selective; all named "Alpha <n>".
 */
async function writeMarksWithStatistics(path: string): Promise<void> {
  const index = createEmbeddedSearchIndex({ path });
  await index.ensureIndex(TRADEMARK_INDEX);
  const offices = ['US', 'EM', 'GB', 'JP'];
  const statuses = ['active', 'inactive', 'pending'];
  await index.upsert(
    'trademarks',
    Array.from({ length: 2400 }, (_, i) => ({
      id: `tm_${i}`,
      mark_text: `Alpha ${i}`,
      office_code: offices[i % 4]!,
      status_primary: statuses[i % 3]!,
      filing_date: new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10),
    })),
  );
  await index.close();
}

describe('embedded SearchIndex on a file', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'marque-search-'));
  });

  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('keeps documents and sequences across reopening when the definition is unchanged', async () => {
    const path = join(directory, 'search.db');
    const first = createEmbeddedSearchIndex({ path });
    await first.ensureIndex(TRADEMARK_INDEX);
    await first.upsert('trademarks', [{ id: 'tm_1', mark_text: 'Acme', office_code: 'US', nice_classes: [9] }]);
    await first.close();

    const second = createEmbeddedSearchIndex({ path });
    await second.ensureIndex(TRADEMARK_INDEX);
    await second.upsert('trademarks', [{ id: 'tm_2', mark_text: 'Acme Two', office_code: 'US' }]);
    const result = await second.search({ index: 'trademarks', text: 'acme', filters: [], sort: [], limit: 10 });
    expect(result.hits.map((hit) => hit.id)).to.deep.equal(['tm_1', 'tm_2']);
    expect(await second.currentSnapshot('trademarks')).to.equal(2);
    await second.close();
  });

  it('recreates the index empty when its definition changed', async () => {
    const path = join(directory, 'search.db');
    const index = createEmbeddedSearchIndex({ path });
    const definition: IndexDefinition = { name: 'things', fields: { name: { kind: 'text' }, colour: { kind: 'keyword' } } };
    expect((await index.ensureIndex(definition)).needsRefill).to.equal(true);
    await index.upsert('things', [{ id: 'a', name: 'apple', colour: 'red' }]);
    await index.markFilled('things');
    expect((await index.ensureIndex(definition)).needsRefill).to.equal(false);
    expect((await index.ensureIndex({ ...definition, fields: { ...definition.fields, size: { kind: 'number', sortable: true } } })).needsRefill).to.equal(true);
    expect((await index.search({ index: 'things', filters: [], sort: [], limit: 10 })).hits).to.deep.equal([]);
    await index.upsert('things', [{ id: 'b', name: 'banana', size: 3 }]);
    expect((await index.search({ index: 'things', text: 'banana', filters: [], sort: [], limit: 10 })).hits.map((hit) => hit.id)).to.deep.equal(['b']);
    await index.close();
  });

  it('numbers the documents of a recreated index on from the old tables, and refuses a snapshot of the old tables', async () => {
    const path = join(directory, 'search.db');
    const index = createEmbeddedSearchIndex({ path });
    const definition: IndexDefinition = { name: 'things', fields: { name: { kind: 'text' }, size: { kind: 'number', sortable: true } } };
    await index.ensureIndex(definition);
    await index.upsert('things', [
      { id: 'a', name: 'apple', size: 1 },
      { id: 'b', name: 'banana', size: 2 },
      { id: 'c', name: 'cherry', size: 3 },
    ]);
    const oldSnapshot = await index.currentSnapshot('things');
    expect(oldSnapshot).to.equal(3);
    // An upgrade: another revision recreates the tables, and the refill writes the documents again.
    await index.ensureIndex({ ...definition, revision: 1 });
    await index.upsert('things', [
      { id: 'a', name: 'apple', size: 1 },
      { id: 'b', name: 'banana', size: 2 },
    ]);
    expect(await index.currentSnapshot('things')).to.equal(5);
    const failure = await index.search({ index: 'things', filters: [], sort: [], limit: 10, snapshot: oldSnapshot }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(StaleSnapshotError);
    const current = await index.search({ index: 'things', filters: [], sort: [], limit: 10, snapshot: 5 });
    expect(current.hits.map((hit) => hit.id)).to.deep.equal(['a', 'b']);
    await index.close();
  });

  it('keeps the documents when only the compound indexes changed, and adds and drops those indexes', async () => {
    const path = join(directory, 'search.db');
    const definition: IndexDefinition = {
      name: 'things',
      fields: { colour: { kind: 'keyword' }, shape: { kind: 'keyword' }, size: { kind: 'number', sortable: true } },
      compoundIndexes: [['colour', 'size']],
    };
    const index = createEmbeddedSearchIndex({ path });
    await index.ensureIndex(definition);
    await index.upsert('things', [
      { id: 'a', colour: 'red', shape: 'round', size: 2 },
      { id: 'b', colour: 'red', shape: 'square', size: 1 },
    ]);
    await index.markFilled('things');
    expect((await index.ensureIndex({ ...definition, compoundIndexes: [['colour', 'shape', 'size']] })).needsRefill).to.equal(false);
    const result = await index.search({
      index: 'things',
      filters: [{ field: 'colour', op: 'eq', value: 'red' }],
      sort: [{ field: 'size', direction: 'asc' }],
      limit: 10,
    });
    expect(result.hits.map((hit) => hit.id)).to.deep.equal(['b', 'a']);
    await index.close();

    const db = new Database(path, { readonly: true });
    const names = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'si_things' AND sql IS NOT NULL`).pluck().all();
    db.close();
    expect(names).to.include('si_things_ci__colour__shape__size').and.not.include('si_things_ci__colour__size');
  });

  it('answers an office + status list sorted by filing date from a compound index, in order', async () => {
    const path = join(directory, 'search.db');
    await writeMarksWithStatistics(path);
    const query = {
      index: 'trademarks',
      filters: [
        { field: 'office_code', op: 'eq' as const, value: 'US' },
        { field: 'status_primary', op: 'eq' as const, value: 'active' },
      ],
      sort: [{ field: 'filing_date', direction: 'desc' as const }],
      limit: 21,
    };
    const { hits } = searchSql(layoutFor(TRADEMARK_INDEX), query, 1);
    const db = new Database(path, { readonly: true });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${hits.sql}`).all(...hits.params) as Array<{ detail: string }>).map((row) => row.detail);
    db.close();
    // Reading the index in filing-date order lets the LIMIT stop after one page; a temporary
    // B-tree for the whole ORDER BY would mean sorting every matching mark first.
    expect(plan.join('\n')).to.match(/USING (COVERING )?INDEX si_trademarks_ci__office_code__status_primary__filing_date/);
    expect(plan.join('\n')).not.to.match(/TEMP B-TREE FOR ORDER BY/);
  });

  it('pages a sorted text search whose word is in thousands of marks in sort order, as with few', async () => {
    // 3,600 marks: every third one "Beta <n>" (1,200, below the 2,000 matches under which the
    // matches drive the query), the others "Alpha <n>" (2,400: the index walk tests each row).
    const offices = ['US', 'EM', 'GB'];
    const marks = Array.from({ length: 3600 }, (_, i) => ({
      id: `tm_${String(i).padStart(4, '0')}`,
      mark_text: i % 3 === 0 ? `Beta ${i}` : `Alpha ${i}`,
      office_code: offices[i % 2]!,
      status_primary: i % 5 === 0 ? 'pending' : 'active',
      filing_date: new Date(Date.UTC(2000, 0, 1 + Math.floor(i / 4))).toISOString().slice(0, 10),
    }));
    const index = createEmbeddedSearchIndex({ path: join(directory, 'search.db') });
    await index.ensureIndex(TRADEMARK_INDEX);
    await index.upsert('trademarks', marks);
    for (const word of ['alpha', 'beta']) {
      const expected = marks
        .filter((mark) => mark.mark_text.toLowerCase().includes(word) && mark.office_code === 'US' && mark.status_primary === 'active')
        .sort((a, b) => b.filing_date.localeCompare(a.filing_date) || a.id.localeCompare(b.id))
        .map((mark) => mark.id);
      const query = {
        index: 'trademarks',
        text: word,
        filters: [
          { field: 'office_code', op: 'eq' as const, value: 'US' },
          { field: 'status_primary', op: 'eq' as const, value: 'active' },
        ],
        sort: [{ field: 'filing_date', direction: 'desc' as const }],
        limit: 7,
      };
      const first = await index.search(query);
      const second = await index.search({ ...query, searchAfter: first.hits[first.hits.length - 1]!.sortValues, snapshot: first.snapshot });
      expect(
        [...first.hits, ...second.hits].map((hit) => hit.id),
        word,
      ).to.deep.equal(expected.slice(0, 14));
      expect(first.hits.every((hit) => hit.score === null)).to.equal(true);
    }
    await index.close();
  });

  it('walks the compound index for a text search with many matches, from FTS5 or kept, testing each row against them', async () => {
    const path = join(directory, 'search.db');
    await writeMarksWithStatistics(path);
    const query = {
      index: 'trademarks',
      text: 'alpha',
      filters: [
        { field: 'office_code', op: 'eq' as const, value: 'US' },
        { field: 'status_primary', op: 'eq' as const, value: 'active' },
      ],
      sort: [{ field: 'filing_date', direction: 'desc' as const }],
      limit: 21,
    };
    const db = new Database(path, { readonly: true });
    db.exec('CREATE TABLE temp.kept (seq INTEGER PRIMARY KEY)');
    const planOf = (plan: 'filtering' | 'driving', kept?: KeptSet[]) => {
      const { hits } = searchSql(layoutFor(TRADEMARK_INDEX), query, 1, plan, kept);
      return (db.prepare(`EXPLAIN QUERY PLAN ${hits.sql}`).all(...hits.params) as Array<{ detail: string }>).map((row) => row.detail).join('\n');
    };
    // Matches read from FTS5 or from a kept set alike.
    for (const plan of [planOf('filtering'), planOf('filtering', [{ table: 'temp.kept', size: 2400 }])]) {
      expect(plan).to.match(/INDEX si_trademarks_ci__office_code__status_primary__filing_date/);
      expect(plan).not.to.match(/TEMP B-TREE FOR ORDER BY/);
    }
    // A few kept matches drive the query instead.
    expect(planOf('driving', [{ table: 'temp.kept', size: 10 }])).to.match(/^(SCAN|SEARCH) k\b/);
    db.close();
  });

  it('answers a repeated sorted text search as the first time, with few and many matches, and follows writes of this and other connections', async () => {
    const path = join(directory, 'search.db');
    await writeMarksWithStatistics(path);
    const index = createEmbeddedSearchIndex({ path });
    await index.ensureIndex(TRADEMARK_INDEX);
    // "Alpha 1…" is in 1 + 10 + 100 + 1,000 of the 2,400 marks "Alpha <n>" (n from 0): few; "alpha" in all of them.
    const search = async (text: string) =>
      (
        await index.search({
          index: 'trademarks',
          text,
          filters: [{ field: 'office_code', op: 'eq', value: 'EM' }],
          sort: [{ field: 'filing_date', direction: 'desc' }],
          limit: 5,
        })
      ).hits.map((hit) => hit.id);
    // EM is every fourth mark from tm_1; filing dates grow with n, so the newest come first.
    const expected = { 'alpha 1': ['tm_1997', 'tm_1993', 'tm_1989', 'tm_1985', 'tm_1981'], alpha: ['tm_2397', 'tm_2393', 'tm_2389', 'tm_2385', 'tm_2381'] };
    for (const [text, ids] of Object.entries(expected)) {
      for (let time = 1; time <= 3; time++) expect(await search(text), `${text}, time ${time}`).to.deep.equal(ids);
    }

    await index.upsert('trademarks', [{ id: 'tm_2397', mark_text: 'Omega', office_code: 'EM', filing_date: '2030-01-01' }]);
    for (let time = 1; time <= 3; time++) expect(await search('alpha')).to.deep.equal(['tm_2393', 'tm_2389', 'tm_2385', 'tm_2381', 'tm_2377']);

    const other = createEmbeddedSearchIndex({ path });
    await other.ensureIndex(TRADEMARK_INDEX);
    await other.upsert('trademarks', [{ id: 'tm_new', mark_text: 'Alpha 1 new', office_code: 'EM', filing_date: '2031-01-01' }]);
    await other.close();
    for (let time = 1; time <= 3; time++) expect(await search('alpha 1')).to.deep.equal(['tm_new', 'tm_1997', 'tm_1993', 'tm_1989', 'tm_1985']);
    await index.close();
  });

  it('keeps few matches the first time an expression is searched, more the second time, until the index changes', () => {
    const db = new Database(join(directory, 'kept.db'));
    db.exec("CREATE VIRTUAL TABLE words USING fts5(text, tokenize='trigram')");
    const insert = db.prepare('INSERT INTO words (rowid, text) VALUES (?, ?)');
    [
      [1, 'alpha'],
      [2, 'alphabet'],
      [3, 'beta'],
    ].forEach(([rowid, text]) => insert.run(rowid, text));
    const forgotten: string[] = [];
    const kept = new KeptMatches(db, (table) => forgotten.push(table));
    const alpha = { table: 'words', expression: '"alph"' };
    const beta = { table: 'words', expression: '"beta"' };
    const rowsOf = (set: MatchSet) => (set === 'many' ? set : db.prepare(`SELECT seq FROM ${set.table} ORDER BY seq`).pluck().all());
    const few = 2;

    expect(kept.setsFor([alpha, beta], few).map(rowsOf)).to.deep.equal(['many', [3]]);
    const sets = kept.setsFor([alpha, beta], few);
    expect(sets.map(rowsOf)).to.deep.equal([[1, 2], [3]]);
    expect(kept.setsFor([alpha], few)).to.deep.equal([sets[0]]);

    kept.noteWrite();
    expect(kept.setsFor([alpha], few)).to.deep.equal(['many']);
    expect(forgotten).to.have.members(sets.map((set) => (set as KeptSet).table));
    expect(kept.setsFor([alpha], few).map(rowsOf)).to.deep.equal([[1, 2]]);

    const writer = new Database(join(directory, 'kept.db'));
    writer.prepare('INSERT INTO words (rowid, text) VALUES (?, ?)').run(4, 'alphorn');
    writer.close();
    expect(kept.setsFor([alpha], 4).map(rowsOf)).to.deep.equal([[1, 2, 4]]);
    db.close();
  });

  it('refuses a compound index over a text or array field', async () => {
    const index = createEmbeddedSearchIndex({ path: ':memory:' });
    const definition: IndexDefinition = {
      name: 'things',
      fields: { name: { kind: 'text' }, tags: { kind: 'keyword', array: true }, size: { kind: 'number' } },
      compoundIndexes: [['tags', 'size']],
    };
    const failure = await index.ensureIndex(definition).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(UnsupportedQueryError);
    await index.close();
  });

  it('lets processes that open a new file at the same moment each ensure the index, one creating it, none failing', async function () {
    this.timeout(60_000);
    // `serve` and `marque worker` started together on a new data directory: each ensures the index.
    const outcomes = await openTogether('search-index', directory, 3, 12);
    expect(outcomes.filter((outcome) => 'error' in outcome)).to.deep.equal([]);
    // One of them creates the tables; the others are asked to refill as well until a refill is
    // marked finished (none is here), so each file has at least one and none was created twice
    // (which would have failed the second CREATE TABLE).
    const creators = new Set<string>();
    for (const outcome of outcomes) if ('created' in outcome && outcome.created) creators.add(outcome.path);
    expect(creators.size).to.equal(12);
  });

  it('lets processes write one index at the same moment (two refills after an upgrade), none failing on the lock', async function () {
    this.timeout(120_000);
    const path = join(directory, 'together.sqlite');
    const errors = await writeTogether(path, 3, 30, 300);
    expect(errors).to.deep.equal([]);
    const index = createEmbeddedSearchIndex({ path });
    await index.ensureIndex(WRITE_TOGETHER_DEFINITION);
    const { total } = await index.search({ index: WRITE_TOGETHER_DEFINITION.name, filters: [], sort: [], limit: 0, countUpTo: 100_000 });
    expect(total?.value).to.equal(3 * 30 * 300);
    await index.close();
  });

  it('refuses to search an index that was not ensured', async () => {
    const index = createEmbeddedSearchIndex({ path: ':memory:' });
    const failure = await index.currentSnapshot('nope').then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(UnsupportedQueryError);
    await index.close();
  });
});
