/**
 * domain/similarity: hand-ordered cases. The expectations are the judgments of the cases named
 * (or plain reading of the marks), and orderings between pairs, never the code's own figures.
 */
import { expect } from 'chai';
import { DEFAULT_SCORE_THRESHOLD, scoreSimilarity, similarityKeys, visualForm, type SimilaritySignalType } from '../../domain/similarity';

const score = (a: string, b: string, classesA?: number[], classesB?: number[]) =>
  scoreSimilarity({ text: a, ...(classesA ? { niceClasses: classesA } : {}) }, { text: b, ...(classesB ? { niceClasses: classesB } : {}) });
const signalsOf = (a: string, b: string): SimilaritySignalType[] => score(a, b).signals.map((signal) => signal.type);

describe('domain/similarity', () => {
  it('the same mark, whatever its case, accents, spacing or punctuation, is exact with score 1', () => {
    expect(score('Café Nova', 'CAFE-NOVA')).to.deep.include({ score: 1 });
    expect(signalsOf('Café Nova', 'CAFE-NOVA')).to.deep.equal(['exact']);
  });

  it('a mark written with Latin letters that have no decomposition is exact to its plain spelling: ØRSTED / ORSTED, STRAßE / STRASSE', () => {
    expect(score('ØRSTED', 'ORSTED')).to.deep.include({ score: 1 });
    expect(signalsOf('ØRSTED', 'ORSTED')).to.deep.equal(['exact']);
    expect(signalsOf('STRAßE', 'STRASSE')).to.deep.equal(['exact']);
  });

  it('LEXUS / LEXIS differ by one vowel and sound alike, and pass the threshold', () => {
    const result = score('LEXUS', 'LEXIS');
    expect(result.score).to.be.at.least(DEFAULT_SCORE_THRESHOLD);
    expect(signalsOf('LEXUS', 'LEXIS')).to.include('phonetic');
  });

  it('phonetic equivalents: KWIK / QUICK, FONE / PHONE, KODAK / KODAC', () => {
    for (const [a, b] of [
      ['QUICK', 'KWIK'],
      ['PHONE', 'FONE'],
      ['KODAK', 'KODAC'],
    ] as const) {
      expect(signalsOf(a, b), `${a}/${b}`).to.include('phonetic');
      expect(score(a, b).score, `${a}/${b}`).to.be.at.least(DEFAULT_SCORE_THRESHOLD);
    }
  });

  it('look-alike characters: 0/O and 1/l are visual matches', () => {
    expect(signalsOf('GOOGLE', 'G00GLE')).to.include('visual');
    expect(signalsOf('PAYPAL', 'PAYPA1')).to.include('visual');
    expect(visualForm('G00GLE')).to.equal(visualForm('google'));
    expect(visualForm('PAYPA1')).to.equal(visualForm('PayPal'));
    expect(visualForm('MODERN')).to.equal(visualForm('MODEM'));
  });

  it('word order: SUN RISE / RISE SUN', () => {
    expect(signalsOf('SUN RISE', 'RISE SUN')).to.include('word_order');
    expect(score('SUN RISE', 'RISE SUN').score).to.be.at.least(DEFAULT_SCORE_THRESHOLD);
  });

  it('containment: APPLE inside APPLE MUSIC, NOVA inside NOVATEC', () => {
    expect(signalsOf('APPLE', 'APPLE MUSIC')).to.include('containment');
    expect(signalsOf('NOVA', 'NOVATEC')).to.include('containment');
    expect(score('APPLE', 'APPLE MUSIC').score).to.be.at.least(DEFAULT_SCORE_THRESHOLD);
  });

  it('a typo of one letter in a long mark is a typo match; in a two-letter mark it is not', () => {
    expect(signalsOf('LUMINARA', 'LUMINARQ')).to.include('typo');
    expect(signalsOf('AB', 'AC')).not.to.include('typo');
  });

  it('clearly different marks stay below the threshold with no signal', () => {
    for (const [a, b] of [
      ['VERDANT ORIOLE', 'BRIGHT WALRUS'],
      ['SABEL', 'PUMA'],
      ['NIKE', 'NIKON'],
    ] as const) {
      expect(score(a, b).score, `${a}/${b}`).to.be.below(DEFAULT_SCORE_THRESHOLD);
    }
    expect(score('VERDANT ORIOLE', 'BRIGHT WALRUS').signals).to.deep.equal([]);
  });

  it('orders pairs as a reader would: identical > look-alike > one letter off > unrelated', () => {
    const identical = score('NOVALUX', 'NOVALUX').score;
    const lookalike = score('NOVALUX', 'N0VALUX').score;
    const oneOff = score('NOVALUX', 'NOVALAX').score;
    const unrelated = score('NOVALUX', 'TIMBERWOLF').score;
    expect(identical).to.be.above(lookalike);
    expect(lookalike).to.be.above(oneOff);
    expect(oneOff).to.be.above(unrelated);
  });

  it('shared Nice classes raise the score and say so; classes with nothing shared lower it', () => {
    const none = score('LUMINARA', 'LUMINARAS').score;
    const shared = score('LUMINARA', 'LUMINARAS', [9, 42], [9]);
    const apart = score('LUMINARA', 'LUMINARAS', [9], [25]).score;
    expect(shared.score).to.be.above(none);
    expect(shared.signals.map((signal) => signal.type)).to.include('class_overlap');
    expect(apart).to.be.below(none);
  });

  it('shared classes add nothing to a pair with no resemblance in the text (OPTIROC / OPTITEC, held not similar: data/similarity-pairs.json)', () => {
    const texts = score('OPTIROC', 'OPTITEC');
    expect(texts.signals).to.deep.equal([]);
    const shared = score('OPTIROC', 'OPTITEC', [19], [19]);
    expect(shared.score).to.equal(texts.score);
    expect(shared.score).to.be.below(DEFAULT_SCORE_THRESHOLD);
    expect(shared.signals.map((signal) => signal.type)).not.to.include('class_overlap');
  });

  it('keys: marks that sound or look alike share a key; scores stay within 0..1', () => {
    const share = (a: string, b: string) => {
      const [x, y] = [similarityKeys(a), similarityKeys(b)];
      return x.phonetic.some((key) => y.phonetic.includes(key)) || x.visual.some((key) => y.visual.includes(key));
    };
    expect(share('LEXUS', 'LEXIS')).to.equal(true);
    expect(share('GOOGLE', 'G00GLE')).to.equal(true);
    expect(share('APPLE', 'APPLE MUSIC')).to.equal(true);
    expect(share('VERDANT', 'WALRUS')).to.equal(false);
    expect(similarityKeys('  ')).to.deep.equal({ phonetic: [], visual: [] });
    for (const [a, b] of [
      ['', 'X'],
      ['A', 'A'],
      ['!!!', '???'],
    ]) {
      const result = score(a as string, b as string);
      expect(result.score).to.be.within(0, 1);
    }
  });
});
