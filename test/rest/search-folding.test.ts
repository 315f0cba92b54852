/**
 * Clearance searches typed without the special letters of a mark: `q` and the indexed text are
 * folded alike (domain/text.ts), Latin letters without a decomposition to their ASCII forms
 * (ø→o, ł→l, ß→ss, æ→ae: Lucene's ASCIIFoldingFilter, CLDR Latin-ASCII), other scripts as they
 * are. Black-box over HTTP, on marks this test adds.
 */
import { expect } from 'chai';
import { addMark } from '../../workers/ingest/manual-marks';
import { MarkWriter } from '../../workers/ingest/mark-writer';
import { startTestApp, type TestApp } from '../support/harness';
import { ok } from '../support/http';

interface Row {
  id: string;
  mark_text?: string;
  name?: string;
}

interface Page {
  data: Row[];
}

const MARKS = ['ØRSTED', 'ŁÓDŹ DESIGN', 'STRAßE MODE', 'ÆRØ BRYGHUS', 'ЖУК'];

describe('REST: q finds marks and owners written with letters an attorney does not type', function () {
  this.timeout(120_000);
  let app: TestApp;
  const idOf = new Map<string, string>();

  const markIds = async (q: string): Promise<string[]> =>
    (await ok<Page>(await app.get(`/v1/trademarks?q=${encodeURIComponent(q)}&limit=100`))).data.map((row) => row.id);

  before(async () => {
    app = await startTestApp({ marks: 50 });
    const writer = new MarkWriter(app.adapters.store);
    const today = new Date().toISOString().slice(0, 10);
    for (const markText of MARKS) {
      const { trademark_id } = await addMark(app.adapters.store, writer, {
        markText,
        officeCode: 'EM',
        classes: [32],
        ownerName: `${markText} A/S`,
        status: 'pending',
        today,
      });
      idOf.set(markText, trademark_id);
    }
    await app.indexer.catchUp();
  });

  after(async () => app?.close());

  it('q=orsted finds ØRSTED, q=lodz ŁÓDŹ DESIGN, q=strasse STRAßE MODE, q=aero ÆRØ BRYGHUS', async () => {
    expect(await markIds('orsted')).to.include(idOf.get('ØRSTED'));
    expect(await markIds('lodz')).to.include(idOf.get('ŁÓDŹ DESIGN'));
    expect(await markIds('strasse')).to.include(idOf.get('STRAßE MODE'));
    expect(await markIds('AERO bryghus')).to.include(idOf.get('ÆRØ BRYGHUS'));
  });

  it('a query written with the letters finds the same marks', async () => {
    expect(await markIds('Ørsted')).to.include(idOf.get('ØRSTED'));
    expect(await markIds('Straße')).to.include(idOf.get('STRAßE MODE'));
  });

  it('Cyrillic text is not transliterated: жук finds ЖУК, zhuk does not', async () => {
    expect(await markIds('жук')).to.include(idOf.get('ЖУК'));
    expect(await markIds('zhuk')).to.not.include(idOf.get('ЖУК'));
  });

  it('owners are found the same way: q=orsted finds the owner ØRSTED A/S', async () => {
    const owners = await ok<Page>(await app.get('/v1/owners?q=orsted&limit=100'));
    expect(owners.data.map((row) => row.name)).to.include('ØRSTED A/S');
  });
});
