/**
 * domain/transliteration: the other customary readings of a Cyrillic or Greek mark. Expected
 * spellings are the standards' (named in each case), not the code's output.
 */
import { expect } from 'chai';
import { latinReading, latinReadings, MAX_READINGS } from '../../domain/transliteration';

describe('domain/transliteration latinReadings', () => {
  const includes = (text: string, ...expected: string[]) => expect(latinReadings(text), text).to.include.members(expected);

  it('the reading comes first, and a mark has at most MAX_READINGS (8) readings, each once', () => {
    for (const text of ['ШКОДА', 'Хюндай', 'ЩАСТИЕ', 'ΧΑΡΙΜΠΟ', 'Жигули Щука Хюндай Джип']) {
      const readings = latinReadings(text);
      expect(readings[0], text).to.equal(latinReading(text));
      expect(readings.length, text).to.be.at.most(MAX_READINGS).and.at.most(8);
      expect(new Set(readings).size, text).to.equal(readings.length);
    }
    expect(latinReadings('NOVALUX')).to.deep.equal([]);
  });

  it('BGN/PCGN: х kh, щ shch; Greek χ kh', () => {
    includes('ХВАНЧКАРА', 'KHVANCHKARA');
    includes('БОРЩ', 'BORSHCH');
    includes('ΧΑΝΙΑ', 'KHANIA');
  });

  it('ICAO 9303 (Russian passports): й i, ю iu, я ia', () => {
    includes('Хюндай', 'Khiundai');
    includes('ЯНА', 'IANA');
  });

  it('Ukrainian national system (2010): г h, и y, ц ts, я ia inside a word; not for a text with ы, э, ё or ъ', () => {
    includes('ГОВЕРЛА', 'HOVERLA');
    includes('Хортиця', 'Khortytsia');
    includes('Моршинська', 'Morshynska');
    expect(latinReadings('ГЫРЫ')).not.to.include('HYRY');
  });

  it('ISO 9: ш š, ж ž, щ ŝ folded as Latin marks are; ц c before e, i', () => {
    includes('ШКОДА', 'SKODA');
    includes('ЖИВА', 'ZIVA');
    includes('ЦЕНТРУМ', 'CENTRUM');
    // Before a, o, u a Latin c is a k: ц stays ts there.
    expect(latinReadings('ЛИЦО')).not.to.include('LICO');
  });

  it('foreign names: Cyrillic дж j and й i; Greek μπ b, ντ d, γκ g, τζ j, ου u wherever they stand', () => {
    includes('ДЖИП', 'JIP');
    includes('ДЖОНСОН', 'JONSON');
    includes('ЛУКОЙЛ', 'LUKOIL');
    includes('ΜΑΡΛΜΠΟΡΟ', 'MARLBORO');
    includes('ΒΟΝΤΑΦΟΝ', 'VODAFON');
    includes('ΣΑΜΣΟΥΝΓΚ', 'SAMSUNG');
    includes('ΤΖΙΠ', 'JIP');
  });

  it('French: ш ch (АШАН, Auchan)', () => {
    includes('АШАН', 'ACHAN');
  });
});
