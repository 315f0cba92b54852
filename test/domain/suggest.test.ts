import { expect } from 'chai';
import {
  editSimilarity,
  goodsWords,
  levenshtein,
  markTextSimilarity,
  rankClasses,
  rankCompletions,
  rankTerms,
  stem,
  trigramsOf,
  type StandardTerm,
} from '../../domain/suggest';

// Expected orders and scores below are worked out by hand from the documented formulas.

const MARKS = ['SPARK', 'SPARKLE', 'BLUE SPARK', 'SPARROW', 'SPORK', 'PARK AVENUE', 'ZEBRA'];

const TERMS: StandardTerm[] = [
  { term: 'tee-shirts', nice_class: 25, basic_number: '250001' },
  { term: 'shirts', nice_class: 25, basic_number: '250002' },
  { term: 'hats', nice_class: 25, basic_number: '250003' },
  { term: 'clothing', nice_class: 25, basic_number: '250004' },
  { term: 'computer software, recorded', nice_class: 9, basic_number: '090001' },
  { term: 'computer software design', nice_class: 42, basic_number: '420001' },
  { term: 'restaurant services', nice_class: 43, basic_number: '430001' },
  { term: 'coffee', nice_class: 30, basic_number: '300001' },
];

const HEADINGS = [
  { nice_class: 9, heading: 'Recorded and downloadable computer software' },
  { nice_class: 25, heading: 'Clothing, footwear, headwear.' },
  { nice_class: 42, heading: 'Scientific and technological services; design and development of computer hardware and software' },
  { nice_class: 43, heading: 'Services for providing food and drink' },
];

describe('domain/suggest', () => {
  describe('text helpers', () => {
    it('computes edit distances and similarities', () => {
      expect(levenshtein('kitten', 'sitting')).to.equal(3);
      expect(levenshtein('', 'abc')).to.equal(3);
      expect(editSimilarity('SHETBAZIO', 'Shetbazlo')).to.be.closeTo(1 - 1 / 9, 1e-9);
      expect(editSimilarity('same', 'SAME')).to.equal(1);
    });

    it('lists trigrams within words only', () => {
      expect(trigramsOf('Ab-cde')).to.deep.equal(['cde']);
      expect(trigramsOf('abcd')).to.deep.equal(['abc', 'bcd']);
    });

    it('stems plural endings and drops stop words', () => {
      expect(['batteries', 'boxes', 'glass', 'bus', 'shirts'].map(stem)).to.deep.equal(['battery', 'box', 'glass', 'bus', 'shirt']);
      expect(goodsWords('T-shirts and hats, namely hats')).to.deep.equal(['t', 'shirt', 'hat']);
    });
  });

  describe('rankCompletions', () => {
    it('puts exact, prefix, word-prefix and then typo matches in that order', () => {
      const ranked = rankCompletions('Spark', MARKS, (m) => m, 10);
      expect(ranked.map((r) => r.item)).to.deep.equal(['SPARK', 'SPARKLE', 'BLUE SPARK', 'SPORK', 'SPARROW', 'PARK AVENUE']);
      expect(ranked.map((r) => r.match)).to.deep.equal(['exact', 'prefix', 'word_prefix', 'fuzzy', 'fuzzy', 'fuzzy']);
      // 0.8 + 0.1·5/7; 0.6 + 0.1·5/10; 0.5 − 0.1; 0.5 − 0.1 − 0.05·2/7; 0.5 − 0.1 − 0.05·6/11
      expect(ranked.map((r) => r.score)).to.deep.equal([1, 0.8714, 0.65, 0.4, 0.3857, 0.3727]);
    });

    it('allows no typo below four characters and breaks ties by length then alphabet', () => {
      const ranked = rankCompletions('sp', MARKS, (m) => m, 10);
      expect(ranked.map((r) => r.item)).to.deep.equal(['SPARK', 'SPORK', 'SPARKLE', 'SPARROW', 'BLUE SPARK']);
    });

    it('honours the limit and ignores an empty query', () => {
      expect(rankCompletions('spark', MARKS, (m) => m, 2).map((r) => r.item)).to.deep.equal(['SPARK', 'SPARKLE']);
      expect(rankCompletions(' - ', MARKS, (m) => m, 10)).to.deep.equal([]);
    });
  });

  describe('rankTerms', () => {
    it('ranks fully covered terms first, shorter first on ties', () => {
      const ranked = rankTerms('T-shirts and hats', TERMS, 10);
      expect(ranked.map((r) => r.term.term)).to.deep.equal(['hats', 'shirts', 'tee-shirts']);
      // 0.7·1 + 0.3·1/3; the same; 0.7·1/2 + 0.3·1/3
      expect(ranked.map((r) => r.score)).to.deep.equal([0.8, 0.8, 0.45]);
      expect(ranked[2]?.matched_words).to.deep.equal(['shirt']);
    });

    it('tolerates one typo in words of five letters or more', () => {
      const ranked = rankTerms('computr softwares', TERMS, 10);
      expect(ranked.map((r) => r.term.term)).to.deep.equal(['computer software design', 'computer software, recorded']);
      // 0.7·(0.8 + 1)/3 + 0.3·1.8/2
      expect(ranked.map((r) => r.score)).to.deep.equal([0.69, 0.69]);
    });
  });

  describe('rankClasses', () => {
    it('adds 0.05 per further matching term of a class', () => {
      const ranked = rankClasses('shirts and hats', TERMS, HEADINGS, 10);
      expect(ranked.map((r) => [r.nice_class, r.score])).to.deep.equal([[25, 0.95]]);
      expect(ranked[0]?.matched_terms.map((t) => t.term.term)).to.deep.equal(['hats', 'shirts', 'tee-shirts']);
    });

    it('ranks by best term, weighing heading words', () => {
      const ranked = rankClasses('computer software design services', TERMS, HEADINGS, 10);
      expect(ranked.map((r) => [r.nice_class, r.score])).to.deep.equal([
        [42, 0.925],
        [9, 0.6167],
        [43, 0.425],
      ]);
      expect(ranked[0]?.matched_heading_words).to.deep.equal(['computer', 'software', 'design', 'service']);
    });

    it('counts heading words alone when no term matches', () => {
      const ranked = rankClasses('footwear', TERMS, HEADINGS, 10);
      expect(ranked.map((r) => [r.nice_class, r.score])).to.deep.equal([[25, 0.8]]);
      expect(ranked[0]?.matched_terms).to.deep.equal([]);
    });
  });

  describe('markTextSimilarity', () => {
    it('is similar from 0.7 edit similarity or when the shorter text is whole words of the longer', () => {
      // 1 − 1/7 ≈ 0.8571 (one substitution in seven letters)
      expect(markTextSimilarity('SPARKLY', 'sparkle')).to.deep.equal({ similar: true, similarity: 0.8571 });
      // 1 − 5/10 = 0.5, but SPARK is a whole word of SPARK TECH
      expect(markTextSimilarity('SPARK', 'Spark-Tech')).to.deep.equal({ similar: true, similarity: 0.5 });
      // three substitutions (r→c, l→e, e→r): 1 − 3/7 ≈ 0.5714, and no shared word
      expect(markTextSimilarity('SPARKLE', 'SPACKER')).to.deep.equal({ similar: false, similarity: 0.5714 });
      // two letters are too short to count as a contained word
      expect(markTextSimilarity('AB', 'AB HOLDINGS').similar).to.equal(false);
    });
  });
});
