import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedSearchIndex } from '../../../datasources/embedded/search-index';
import { TRADEMARK_INDEX } from '../../../datasources/index-definitions';
import { UnsupportedQueryError, type IndexDefinition } from '../../../datasources/ports';
import { describeSearchIndexContract } from '../search-index.contract';

describeSearchIndexContract('embedded SQLite', async () => createEmbeddedSearchIndex({ path: ':memory:' }));

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
    await index.ensureIndex(definition);
    await index.upsert('things', [{ id: 'a', name: 'apple', colour: 'red' }]);
    await index.ensureIndex({ ...definition, fields: { ...definition.fields, size: { kind: 'number', sortable: true } } });
    expect((await index.search({ index: 'things', filters: [], sort: [], limit: 10 })).hits).to.deep.equal([]);
    await index.upsert('things', [{ id: 'b', name: 'banana', size: 3 }]);
    expect((await index.search({ index: 'things', text: 'banana', filters: [], sort: [], limit: 10 })).hits.map((hit) => hit.id))
      .to.deep.equal(['b']);
    await index.close();
  });

  it('refuses to search an index that was not ensured', async () => {
    const index = createEmbeddedSearchIndex({ path: ':memory:' });
    const failure = await index.currentSnapshot('nope').then(() => null, (error: unknown) => error);
    expect(failure).to.be.instanceOf(UnsupportedQueryError);
    await index.close();
  });
});
