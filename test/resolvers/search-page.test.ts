import { expect } from 'chai';
import type { SearchIndex, SearchQuery, SearchResult } from '../../datasources/ports';
import type { RequestContext } from '../../resolvers/context';
import { CursorCodec } from '../../resolvers/cursors';
import { searchIdPage, TOTAL_COUNT_CAP } from '../../resolvers/search-page';

/** A search index that records the query and answers with a fixed result. */
function fakeSearch(result: SearchResult, seen: SearchQuery[]): SearchIndex {
  return {
    search: async (query: SearchQuery) => {
      seen.push(query);
      return result;
    },
  } as unknown as SearchIndex;
}

function contextWith(search: SearchIndex): RequestContext {
  return { services: { search, cursors: new CursorCodec(Buffer.from('k')) } } as unknown as RequestContext;
}

describe('resolvers/search-page: totals and the 10,000 cap', () => {
  it('asks the index to count up to 10,000 only with include_total, and reports a capped count as approximate', async () => {
    const seen: SearchQuery[] = [];
    const capped: SearchResult = { hits: [{ id: 'tm_a', score: null, sortValues: ['tm_a'] }], total: { value: 10_000, approximate: true }, snapshot: 7 };
    const page = await searchIdPage({ index: 'trademarks', binding: {}, filters: [], sort: [], include_total: true }, contextWith(fakeSearch(capped, seen)));
    expect(TOTAL_COUNT_CAP).to.equal(10_000);
    expect(seen[0]?.countUpTo).to.equal(10_000);
    expect(page.pagination).to.deep.equal({ cursor: null, total_count: 10_000, total_count_approximate: true });

    const plain = await searchIdPage({ index: 'trademarks', binding: {}, filters: [], sort: [] }, contextWith(fakeSearch(capped, seen)));
    expect(seen[1]?.countUpTo).to.equal(undefined);
    expect(plain.pagination).to.deep.equal({ cursor: null });
  });

  it('fetches one row more than the page to tell whether another page exists', async () => {
    const seen: SearchQuery[] = [];
    const hits = ['tm_a', 'tm_b', 'tm_c'].map((id) => ({ id, score: null, sortValues: [id] }));
    const page = await searchIdPage(
      { index: 'trademarks', binding: { q: 'x' }, filters: [], sort: [], limit: 2 },
      contextWith(fakeSearch({ hits, snapshot: 3 }, seen)),
    );
    expect(seen[0]?.limit).to.equal(3);
    expect(page.ids).to.deep.equal(['tm_a', 'tm_b']);
    expect(page.has_more).to.equal(true);
    expect(page.pagination.cursor).to.be.a('string');
  });
});
