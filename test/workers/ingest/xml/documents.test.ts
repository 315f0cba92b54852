/**
 * Decoding a document's bytes: where bytes that are not UTF-8 stand, and the text before them,
 * when the chunks the file is read in cut characters apart. Bytes written by hand from the UTF-8
 * table (RFC 3629): € is E2 82 AC; FF never occurs in UTF-8; E2 82 must be followed by 80–BF.
 */
import { expect } from 'chai';
import { Readable } from 'node:stream';
import { decodedText, InvalidEncodingError, type XmlDocument } from '../../../../workers/ingest/xml/documents';

const document: XmlDocument = {
  name: 'chunks.xml',
  size: 0,
  open: async () => Readable.from([]),
  readBeside: async () => new Map(),
  close: () => undefined,
};

/** The text decoded from these chunks, and the error that stopped it (null when none did). */
async function decode(chunks: number[][]): Promise<{ text: string; error: unknown }> {
  let text = '';
  try {
    for await (const piece of decodedText(document, Readable.from(chunks.map((chunk) => Buffer.from(chunk))), () => undefined)) text += piece;
  } catch (error) {
    return { text, error };
  }
  return { text, error: null };
}

const ascii = (text: string) => [...Buffer.from(text, 'latin1')];

describe('workers/ingest/xml/documents: decoding UTF-8 read in chunks', () => {
  it('reads a character cut across two chunks whole', async () => {
    expect(
      await decode([
        [...ascii('<a>'), 0xe2, 0x82],
        [0xac, ...ascii('</a>')],
      ]),
    ).to.deep.equal({ text: '<a>€</a>', error: null });
  });

  it('stops at a byte no UTF-8 text holds, after yielding every character before it, the cut one included', async () => {
    const { text, error } = await decode([
      [...ascii('<a>'), 0xe2, 0x82],
      [0xac, ...ascii('ok'), 0xff, ...ascii('</a>')],
    ]);
    expect(text).to.equal('<a>€ok');
    expect(error).to.be.instanceOf(InvalidEncodingError);
    // <a> is bytes 0–2, € 3–5, "ok" 6–7: FF is byte 8.
    expect((error as InvalidEncodingError).offset).to.equal(8);
  });

  it('places a character left unfinished by the chunk before at the byte it starts on', async () => {
    const { text, error } = await decode([[...ascii('<a>x'), 0xe2, 0x82], [...ascii('y</a>')]]);
    expect(text).to.equal('<a>x');
    expect((error as InvalidEncodingError).offset).to.equal(4);
  });

  it('finds the first bad byte of a long chunk, not the chunk', async () => {
    const before = ascii('<a>' + 'z'.repeat(100_000));
    const { text, error } = await decode([[...before, 0xc3, 0xa9, 0xc3, 0x28, ...ascii('</a>')]]);
    // é (C3 A9) is whole; C3 28 is not a character: it starts at byte 100,005.
    expect(text).to.equal('<a>' + 'z'.repeat(100_000) + 'é');
    expect((error as InvalidEncodingError).offset).to.equal(100_005);
  });
});
