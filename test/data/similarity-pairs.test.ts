import { expect } from 'chai';
import pairsJson from '../../data/similarity-pairs.json';

// The shape bench/similarity.ts relies on, and the promises of data/SOURCES-similarity.md: enough
// pairs of each outcome, every one traceable to a source, none counted twice.
interface Pair {
  earlier: unknown;
  later: unknown;
  similar: unknown;
  classes?: unknown;
  laterClasses?: unknown;
  decision: unknown;
  source: unknown;
}

const pairs: Pair[] = pairsJson.pairs;
const fold = (text: unknown): string => String(text).normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
const isClassList = (value: unknown): boolean =>
  Array.isArray(value) && value.length > 0 && value.every((n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 45);

describe('data/similarity-pairs.json', () => {
  it('has at least 200 pairs, at least 70 of each outcome', () => {
    expect(pairs.length).to.be.at.least(200);
    expect(pairs.filter((p) => p.similar === true).length).to.be.at.least(70);
    expect(pairs.filter((p) => p.similar === false).length).to.be.at.least(70);
  });

  it('labels every pair with a boolean outcome and names both marks', () => {
    for (const p of pairs) {
      expect(p.similar, JSON.stringify(p)).to.be.a('boolean');
      expect(p.earlier, JSON.stringify(p)).to.be.a('string').and.not.match(/^\s*$/);
      expect(p.later, JSON.stringify(p)).to.be.a('string').and.not.match(/^\s*$/);
      expect(fold(p.earlier), JSON.stringify(p)).to.not.equal(fold(p.later));
    }
  });

  it('gives every pair a decision and a source address', () => {
    for (const p of pairs) {
      expect(p.decision, JSON.stringify(p)).to.be.a('string').and.not.match(/^\s*$/);
      expect(p.source, JSON.stringify(p)).to.be.a('string').and.match(/^https?:\/\/\S+$/);
    }
  });

  it('has Nice classes 1 to 45 where classes are given', () => {
    for (const p of pairs) {
      if (p.classes !== undefined) expect(isClassList(p.classes), JSON.stringify(p)).to.equal(true);
      if (p.laterClasses !== undefined) {
        expect(p.classes, `laterClasses without classes: ${JSON.stringify(p)}`).to.not.equal(undefined);
        expect(isClassList(p.laterClasses), JSON.stringify(p)).to.equal(true);
      }
    }
  });

  it('has no pair twice, in either order', () => {
    const seen = new Set<string>();
    for (const p of pairs) {
      const key = [fold(p.earlier), fold(p.later)].sort().join('\u0000');
      expect(seen.has(key), `duplicate: ${String(p.earlier)} / ${String(p.later)}`).to.equal(false);
      seen.add(key);
    }
  });
});
