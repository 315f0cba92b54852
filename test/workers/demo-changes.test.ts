/**
 * The demo's change simulator writes what an office would: new filings as filed, and publications
 * of marks that were examined and approved, never of a filing of the day.
 */
import { expect } from 'chai';
import { COLLECTIONS, type TrademarkDoc, type TrademarkEventDoc } from '../../domain/records';
import { DemoChanges } from '../../workers/demo-changes';
import { startTestApp, type TestApp } from '../support/harness';

describe('workers/demo-changes: the demo change simulator', function () {
  this.timeout(120_000);
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('files new US applications as filed, and publishes, every third change, a US mark of the catalog approved and awaiting publication', async () => {
    const marks = app.adapters.store.collection<TrademarkDoc>(COLLECTIONS.trademarks);
    const awaiting = await marks.find({ office_code: 'US', 'status.stage': 'pending_publication' });
    expect(awaiting.length, 'the fixture has US marks awaiting publication').to.be.above(0);
    const simulator = new DemoChanges(app.adapters.store, 6, 7, (error) => {
      throw error;
    });
    const today = new Date().toISOString().slice(0, 10);
    const written = [await simulator.tick(), await simulator.tick(), await simulator.tick()];
    for (const id of written.slice(0, 2)) {
      const filed = (await marks.findOne({ _id: id }))!;
      expect(filed).to.include({ filing_date: today, publication_date: null, office_code: 'US' });
      expect(filed.status.stage).to.equal('filed');
    }
    const published = (await marks.findOne({ _id: written[2]! }))!;
    expect(awaiting.map((mark) => mark._id)).to.include(published._id);
    expect(published.filing_date < today).to.equal(true);
    expect(published).to.include({ publication_date: today });
    expect(['published', 'opposition_period']).to.include(published.status.stage);
    const events = await app.adapters.store
      .collection<TrademarkEventDoc>(COLLECTIONS.trademarkEvents)
      .find({ trademark_id: published._id, event_type: 'published' });
    expect(events.map((event) => event.event_date)).to.include(today);
  });
});
