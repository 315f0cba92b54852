import { expect } from 'chai';
import { COLLECTIONS, type TrademarkDoc } from '../../domain/records';
import { TRADEMARK_INDEX } from '../../datasources/index-definitions';
import { startTestApp, type TestApp } from '../support/harness';
import { SearchIndexer } from '../../workers/indexer';

interface ListBody {
  data: Array<{ id: string; filing_date: string }>;
  has_more: boolean;
  pagination: { cursor: string | null };
}

describe('REST: cursors pin a snapshot', function () {
  let app: TestApp;

  before(async function () {
    this.timeout(120_000);
    app = await startTestApp({ marks: 400 });
  });

  after(async () => app.close());

  it('never shows marks inserted after the first page in later pages, but a new query does', async () => {
    const path = '/v1/trademarks?offices=US,EM,GB&sort=-filing_date&limit=5';
    const first = (await (await app.get(path)).json()) as ListBody;
    expect(first.has_more).to.equal(true);

    const marks = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const template = (await marks.findOne({ office_code: 'US' })) as TrademarkDoc;
    const inserted: TrademarkDoc = {
      ...template,
      _id: 'tm_snapshottest0000000000',
      application_number: '99999999',
      filing_date: '1900-01-02',
    };
    await marks.insertOne(inserted);
    await app.indexer.catchUp();

    const seen: string[] = first.data.map((r) => r.id);
    let cursor = first.pagination.cursor;
    while (cursor) {
      const page = (await (await app.get(`${path}&cursor=${encodeURIComponent(cursor)}`)).json()) as ListBody;
      seen.push(...page.data.map((r) => r.id));
      cursor = page.pagination.cursor;
    }
    expect(seen).not.to.include(inserted._id);
    expect(new Set(seen).size).to.equal(seen.length);

    const fresh = (await (await app.get('/v1/trademarks?offices=US&sort=filing_date&limit=1')).json()) as ListBody;
    expect(fresh.data[0]?.id).to.equal(inserted._id);
  });

  it('refuses a cursor issued before an upgrade rebuilt the search index (400 cursor_expired), rather than skipping marks', async () => {
    const path = '/v1/trademarks?offices=US,EM,GB&sort=filing_date&limit=5';
    const first = (await (await app.get(path)).json()) as ListBody;
    // The upgrade: an index definition of another revision recreates the tables, and the start refills them.
    await app.adapters.search.ensureIndex({ ...TRADEMARK_INDEX, revision: (TRADEMARK_INDEX.revision ?? 0) + 1 });
    await new SearchIndexer(app.adapters.store, app.adapters.search, (error) => {
      throw error;
    }).ensureIndexes();
    const stale = await app.get(`${path}&cursor=${encodeURIComponent(first.pagination.cursor as string)}`);
    const body = (await stale.json()) as { error: { type: string; detail: string; parameter?: string } };
    expect(stale.status).to.equal(400);
    expect(body.error.type).to.equal('cursor_expired');
    expect(body.error.detail).to.contain('cursor');
    // Starting over pages through the rebuilt index as before.
    const again = (await (await app.get(path)).json()) as ListBody;
    expect(again.data.map((row) => row.id)).to.deep.equal(first.data.map((row) => row.id));
  });

  it('skips marks deleted after the first page silently', async () => {
    const path = '/v1/trademarks?offices=CN,JP&sort=filing_date&limit=3';
    const first = (await (await app.get(path)).json()) as ListBody;
    const second = (await (await app.get(`${path}&cursor=${encodeURIComponent(first.pagination.cursor as string)}`)).json()) as ListBody;
    const victim = second.data[0]?.id as string;
    await app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks).deleteOne({ _id: victim });
    const again = (await (await app.get(`${path}&cursor=${encodeURIComponent(first.pagination.cursor as string)}`)).json()) as ListBody;
    expect(again.data.map((r) => r.id)).not.to.include(victim);
    expect(again.data.length).to.be.at.most(3);
  });
});
