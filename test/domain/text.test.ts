import { expect } from 'chai';
import { splitSearchText } from '../../datasources/search-query-rules';
import { foldedWords, foldText } from '../../domain/text';

describe('domain/text', () => {
  it('folds case, accents and punctuation to single spaces', () => {
    expect(foldText('  Café-Crème, S.A. ')).to.equal('cafe creme s a');
    expect(foldText('ÆON  Straße')).to.equal('æon straße');
    expect(foldText('—')).to.equal('');
  });

  it('splits the folded text into words', () => {
    expect(foldedWords('Coca-Cola® Zero')).to.deep.equal(['coca', 'cola', 'zero']);
    expect(foldedWords(' ,; ')).to.deep.equal([]);
  });

  it('gives search queries the same words as the fold (the index key and the query key agree)', () => {
    const { substringTerms, prefixTerms } = splitSearchText('Crème BRÛLÉE de la Maison');
    expect([...substringTerms, ...prefixTerms].sort()).to.deep.equal(['brulee', 'creme', 'de', 'la', 'maison']);
  });
});
