/**
 * The largest record the reader reads: 16 MiB of UTF-8 (16 × 1024 × 1024 = 16,777,216 bytes).
 * Record sizes are counted by hand from the markup below: `<r><k>2</k><t>` is 14 characters and
 * `</t></r>` 8, so a record holding n ASCII characters of text is n + 22 bytes; é (U+00E9) is 2
 * bytes of UTF-8 (C3 A9) and 商 (U+5546) 3 (E5 95 86), each one character.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { formatReader } from '../../../../workers/ingest/formats';
import { RecordRejection } from '../../../../workers/ingest/record-rejection';
import { CASE_FILE } from '../../../../workers/ingest/uspto/applications';
import { MAX_RECORD_BYTES, MAX_RECORD_ELEMENTS, XmlFormatError, type XmlRecord } from '../../../../workers/ingest/xml/record-reader';
import { applicationsDocument, readRecords, sampleCaseFile, withElementText } from '../../../support/uspto-samples';

const BOUND = 16_777_216;
const MARKUP = 22;
const record = (key: number, text: string, after = '') => `<r><k>${key}</k><t>${text}</t>${after}</r>`;
const refusal = (index: number, line: number) => `<r> record ${index} (line ${line}) is larger than 16 MiB (16777216 bytes of UTF-8): not read`;
/** A document of these records, one a line after `<root>` (so record i starts on line i + 1). */
const read = (...records: string[]): XmlRecord[] => readRecords(`<root>\n${records.join('\n')}\n</root>\n`, 'r');

describe('workers/ingest/xml/record-reader: the largest record read', () => {
  it('is 16 MiB of UTF-8', () => {
    expect(MAX_RECORD_BYTES).to.equal(BOUND);
  });

  it('reads a record of exactly 16 MiB whole and refuses one a byte larger, alone: the records around them are read', () => {
    const [first, exact, over, last] = read(record(1, 'a'), record(2, 'x'.repeat(BOUND - MARKUP)), record(3, 'x'.repeat(BOUND - MARKUP + 1)), record(4, 'b'));
    expect(first).to.deep.include({ raw: '<r><k>1</k><t>a</t></r>', index: 1, line: 2, refused: null });
    expect(exact!.raw.length).to.equal(BOUND);
    expect(exact).to.deep.include({ index: 2, line: 3, refused: null });
    expect(exact!.element.children[1]!.text.length).to.equal(BOUND - MARKUP);
    expect(over).to.deep.include({ raw: '', index: 3, line: 4, refused: refusal(3, 4) });
    expect(last).to.deep.include({ raw: '<r><k>4</k><t>b</t></r>', index: 4, line: 5, refused: null });
  });

  it('counts bytes, not characters: 2-byte characters up to 16 MiB are read, 3-byte ones past it refused though they are fewer characters', () => {
    // (16,777,216 - 22) / 2 = 8,388,597 é make exactly the bound; 5,592,399 商 make 22 + 16,777,197 = 16,777,219 bytes.
    const [latin, cjk] = read(record(1, 'é'.repeat(8_388_597)), record(2, '商'.repeat(5_592_399)));
    expect(latin!.refused).to.equal(null);
    expect(latin!.raw.length).to.equal(22 + 8_388_597);
    expect(cjk).to.deep.include({ raw: '', refused: refusal(2, 3) });
  });

  it('skips the text of a record far over the bound: refused with the elements read before it, and the next record is read exactly', () => {
    // Known to be over the bound well inside the x: the entity, the CDATA and <after> come after.
    const huge = `${'x'.repeat(2 * BOUND)}&amp;<![CDATA[<not a tag>]]>y`;
    const [over, next] = read(record(1, huge, '<after>z</after>'), record(2, 'c'));
    expect(over).to.deep.include({ raw: '', index: 1, refused: refusal(1, 2) });
    // <t> opened before the bound; its text ends after it, and <after> opens after it.
    expect(over!.element.children).to.deep.equal([
      { name: 'k', attributes: {}, children: [], text: '1' },
      { name: 't', attributes: {}, children: [], text: '' },
    ]);
    expect(next).to.deep.include({ raw: '<r><k>2</k><t>c</t></r>', index: 2, line: 3, refused: null });
    expect(next!.element.children.map((child) => child.text)).to.deep.equal(['2', 'c']);
  });

  it('still checks a skipped record: a mismatched end tag in it stops the document', () => {
    expect(() => read(`<r><t>${'x'.repeat(2 * BOUND)}</t><u></v></r>`)).to.throw(XmlFormatError, /^test\.xml:2:\d+: unexpected close tag/);
  });

  it('a refused case-file is rejected by its format with the reason, and named by its serial number (read before the bound)', () => {
    const format = formatReader('uspto', join(__dirname, '..', '..', '..', '..', 'data'));
    const [refused] = readRecords(applicationsDocument([withElementText(sampleCaseFile('98763166'), 'mark-identification', 'x'.repeat(BOUND))]), CASE_FILE);
    expect(refused!.refused).to.match(/^<case-file> record 1 \(line \d+\) is larger than 16 MiB \(16777216 bytes of UTF-8\): not read$/);
    expect(format.keyOf(refused!.element)).to.equal('98763166');
    expect(() => format.map(refused!, 'test.xml')).to.throw(RecordRejection, refused!.refused!);
  });
});

describe('workers/ingest/xml/record-reader: the most elements in a record', () => {
  const ELEMENTS = 500_000;
  /** A record of n elements: <r> and <k> and n - 2 empty <a/>. */
  const ofElements = (key: number, n: number) => `<r><k>${key}</k>${'<a/>'.repeat(n - 2)}</r>`;

  it('is 500,000', () => {
    expect(MAX_RECORD_ELEMENTS).to.equal(ELEMENTS);
  });

  it('reads a record of exactly 500,000 elements and refuses one of 500,001, alone, with the elements read before the bound', () => {
    const [exact, over, next] = read(ofElements(1, ELEMENTS), ofElements(2, ELEMENTS + 1), record(3, 'c'));
    expect(exact).to.deep.include({ index: 1, line: 2, refused: null });
    expect(exact!.element.children).to.have.length(ELEMENTS - 1);
    expect(over).to.deep.include({ raw: '', index: 2, line: 3, refused: '<r> record 2 (line 3) has more than 500,000 elements: not read' });
    expect(over!.element.children[0]).to.deep.equal({ name: 'k', attributes: {}, children: [], text: '2' });
    expect(over!.element.children).to.have.length(ELEMENTS - 1);
    expect(next).to.deep.include({ raw: '<r><k>3</k><t>c</t></r>', index: 3, line: 4, refused: null });
  });

  it('counts nested elements too', () => {
    const nested = `<r><k>1</k>${'<a>'.repeat(ELEMENTS)}${'</a>'.repeat(ELEMENTS)}</r>`;
    const [over] = read(nested);
    expect(over!.refused).to.equal('<r> record 1 (line 2) has more than 500,000 elements: not read');
  });
});
