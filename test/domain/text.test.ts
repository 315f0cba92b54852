import { expect } from 'chai';
import { splitSearchText } from '../../datasources/search-query-rules';
import { foldedWords, foldText } from '../../domain/text';

describe('domain/text', () => {
  it('folds case, accents and punctuation to single spaces', () => {
    expect(foldText('  Café-Crème, S.A. ')).to.equal('cafe creme s a');
    expect(foldText('—')).to.equal('');
  });

  // Expected values: Apache Lucene's ASCIIFoldingFilter (Elasticsearch's `asciifolding`), which for
  // these letters agrees with Unicode CLDR's Latin-ASCII transform; then lowercased.
  it('folds the Latin letters that have no decomposition to their usual ASCII forms', () => {
    const table: Array<[string, string]> = [
      ['ø Ø', 'o o'],
      ['ł Ł', 'l l'],
      ['đ Đ ð Ð', 'd d d d'],
      ['ħ Ħ', 'h h'],
      ['æ Æ', 'ae ae'],
      ['œ Œ', 'oe oe'],
      ['ß ẞ', 'ss ss'],
      ['þ Þ', 'th th'],
      ['ı', 'i'],
      ['ŀ Ŀ', 'l l'],
      ['ŧ Ŧ', 't t'],
      ['ĸ', 'q'],
      ['ŋ Ŋ', 'n n'],
    ];
    for (const [letters, folded] of table) expect(foldText(letters), letters).to.equal(folded);
  });

  it('folds marks and names written with those letters to what an attorney types', () => {
    expect(foldText('ØRSTED')).to.equal('orsted');
    expect(foldText('ŁÓDŹ')).to.equal('lodz');
    expect(foldText('STRAßE')).to.equal('strasse');
    expect(foldText('ÆRØ')).to.equal('aero');
    expect(foldText('ÆON  Straße')).to.equal('aeon strasse');
    expect(foldText('Þórður Guðjónsson')).to.equal('thordur gudjonsson');
    expect(foldedWords('Œuvre-Ħamrun')).to.deep.equal(['oeuvre', 'hamrun']);
  });

  it('leaves other scripts as they are: Cyrillic and Greek text keeps matching itself', () => {
    expect(foldText('ЖУК Жёлтый')).to.equal('жук желтыи');
    expect(foldText('ΩΜΈΓΑ Ἀθῆναι')).to.equal('ωμεγα αθηναι');
    expect(foldText('東京 ØRSTED')).to.equal('東京 orsted');
  });

  it('folding a key of the earlier fold (accents and case only) gives what folding the original gives, and folding twice changes nothing, for every code point', () => {
    // The party-key upgrade refolds stored keys (domain/party-keys.ts): it relies on both. Capitals
    // the Latin table folds and whose small letters it does not (Ʀ/ʀ, Ɩ/ɩ, U+A7AA…) broke it (upgrade audit).
    const earlierFold = (text: string): string =>
      text
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
    const broken: string[] = [];
    for (let codePoint = 0x80; codePoint <= 0x2ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const word = `${String.fromCodePoint(codePoint)}ab`;
      const folded = foldText(word);
      if (foldText(folded) !== folded || foldText(earlierFold(word)) !== folded) broken.push(`U+${codePoint.toString(16).toUpperCase()}`);
    }
    expect(broken).to.deep.equal([]);
    expect(foldText('ƦOCK Energy')).to.equal(foldText('ʀock energy'));
  });

  it('splits the folded text into words', () => {
    expect(foldedWords('Coca-Cola® Zero')).to.deep.equal(['coca', 'cola', 'zero']);
    expect(foldedWords(' ,; ')).to.deep.equal([]);
  });

  it('gives search queries the same words as the fold (the index key and the query key agree)', () => {
    const { substringTerms, prefixTerms } = splitSearchText('Crème BRÛLÉE de la Maison');
    expect([...substringTerms, ...prefixTerms].sort()).to.deep.equal(['brulee', 'creme', 'de', 'la', 'maison']);
    expect(splitSearchText('Øresund Ål').substringTerms).to.deep.equal(['oresund']);
    expect(splitSearchText('Øresund Ål').prefixTerms).to.deep.equal(['al']);
  });
});
