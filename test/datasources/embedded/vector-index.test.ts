/**
 * The USearch-backed ANN index. Image search asks the visual index (five vectors per image: the
 * whole image and four cropped views) for the `k` nearest images and re-scores those exactly, so
 * an image whose views all lie near the query must take one of the `k` places, not several.
 */
import { expect } from 'chai';
import { VectorIndex } from '../../../datasources/embedded/vector-index';

/** A unit vector at `degrees` from (1, 0) in the first two of four dimensions. */
const at = (degrees: number): Float32Array => {
  const radians = (degrees * Math.PI) / 180;
  return new Float32Array([Math.cos(radians), Math.sin(radians), 0, 0]);
};

describe('datasources: embedded vector index', () => {
  it('with several vectors per key, answers k distinct keys, nearest first, each at its nearest vector', () => {
    const index = new VectorIndex({ metric: 'cos', dimensions: 4, multi: true });
    // Key 1's five vectors are the five nearest to the query; keys 2..6 follow, one vector each.
    index.upsert(1n, [at(0), at(0.5), at(1), at(1.5), at(2)]);
    for (let key = 2; key <= 6; key++) index.upsert(BigInt(key), [at(10 * key)]);
    const found = index.search(at(0), 3);
    expect(found.map(({ key }) => key)).to.deep.equal([1n, 2n, 3n]);
    expect(found[0]!.distance).to.be.closeTo(0, 1e-6);
    // 1 − cos 20° for key 2, by hand: 0.0603.
    expect(found[1]!.distance).to.be.closeTo(1 - Math.cos((20 * Math.PI) / 180), 1e-4);
  });

  it('keeps asking while one key holds more vectors than the first ask returns', () => {
    const index = new VectorIndex({ metric: 'cos', dimensions: 4, multi: true });
    // 1,000 vectors of key 1 within a degree of the query, more than the search beam of 512.
    index.upsert(
      1n,
      Array.from({ length: 1000 }, (_, i) => at(i / 1000)),
    );
    index.upsert(2n, [at(30)]);
    index.upsert(3n, [at(60)]);
    expect(index.search(at(0), 3).map(({ key }) => key)).to.deep.equal([1n, 2n, 3n]);
  });

  it('answers every key when k is more than the index holds', () => {
    const index = new VectorIndex({ metric: 'hamming', dimensions: 8 });
    index.upsert(7n, [new Float32Array([1, 0, 0, 0, 0, 0, 0, 0])]);
    index.upsert(8n, [new Float32Array([1, 1, 1, 0, 0, 0, 0, 0])]);
    const found = index.search(new Float32Array(8), 10);
    expect(found).to.deep.equal([
      { key: 7n, distance: 1 },
      { key: 8n, distance: 3 },
    ]);
  });
});
