/**
 * An approximate-nearest-neighbour index of fixed-length vectors under 64-bit keys: USearch's HNSW
 * graph (the `usearch` package; its native addon ships inside the npm package), in memory, saved to
 * and loaded from one file. Image search keeps three (datasources/image-index.ts).
 *
 * Metrics: `cos` (cosine distance, 1 − cosine similarity, of float vectors) and `hamming` (bits that
 * differ, of bit vectors given as 0/1 floats, stored one bit each). Upserting a key replaces its
 * vectors (several with `multi`). Saving writes a temporary file and renames it, so a reader never loads half a file.
 */
import { renameSync, rmSync } from 'node:fs';
import { Index, MetricKind, ScalarKind } from 'usearch';

export interface VectorIndexOptions {
  metric: 'cos' | 'hamming';
  dimensions: number;
  /** Several vectors per key (a search still answers each key once). */
  multi?: boolean;
}

export interface Neighbour {
  key: bigint;
  /** cos: 1 − cosine similarity (0 to 2); hamming: differing bits. */
  distance: number;
}

/**
 * Graph degree and beam widths. The search beam is wide because a missed near-duplicate costs more
 * than a few milliseconds: among random descriptors with a planted near-duplicate (cosine 0.93), a
 * beam of 128 put it in the top 10 for 87 % of queries at 100,000 vectors, 512 for 97 %, at about
 * 10 to 20 ms a query on a loaded two-core machine (bench:image, BENCHMARKS-IMAGES.md).
 */
const CONNECTIVITY = 16;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 512;

export class VectorIndex {
  private index: Index;

  constructor(private readonly options: VectorIndexOptions) {
    this.index = this.empty();
  }

  private empty(): Index {
    const { metric, dimensions, multi = false } = this.options;
    return new Index({
      dimensions,
      metric: metric === 'cos' ? MetricKind.Cos : MetricKind.Hamming,
      quantization: metric === 'cos' ? ScalarKind.F32 : ScalarKind.B1,
      connectivity: CONNECTIVITY,
      expansion_add: EXPANSION_ADD,
      expansion_search: EXPANSION_SEARCH,
      multi,
    });
  }

  /** Vectors held (with `multi`, more than keys). */
  get size(): number {
    return this.index.size();
  }

  /** Adds or replaces the vectors of `key` (one unless `multi`). */
  upsert(key: bigint, vectors: readonly Float32Array[]): void {
    if (vectors.length === 0 || (vectors.length > 1 && !this.options.multi)) throw new RangeError(`one vector per key${this.options.multi ? ' at least' : ''}`);
    for (const vector of vectors)
      if (vector.length !== this.options.dimensions) throw new RangeError(`expected ${this.options.dimensions} dimensions, got ${vector.length}`);
    if (this.index.contains(key)) this.index.remove(key);
    for (const vector of vectors) this.index.add(key, vector, 1);
  }

  has(key: bigint): boolean {
    return this.index.contains(key) === true;
  }

  remove(key: bigint): void {
    if (this.index.contains(key)) this.index.remove(key);
  }

  /**
   * The `k` nearest keys to `vector`, nearest first, each once at its nearest vector's distance
   * (fewer when the index holds fewer keys). USearch answers vectors, so with `multi` one key can
   * take several places: the search asks for more vectors until it has `k` keys. The first ask is
   * the beam width, which the graph walk fills anyway, so it costs little more than `k`.
   */
  search(vector: Float32Array, k: number): Neighbour[] {
    if (k <= 0 || this.size === 0) return [];
    const out: Neighbour[] = [];
    for (let count = Math.min(this.options.multi ? Math.max(k, EXPANSION_SEARCH) : k, this.size); ; count = Math.min(count * 2, this.size)) {
      const matches = this.index.search(vector, count, 1);
      const seen = new Set<bigint>();
      out.length = 0;
      for (let i = 0; i < matches.keys.length && out.length < k; i++) {
        const key = matches.keys[i]!;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push({ key, distance: matches.distances[i]! });
      }
      if (out.length >= k || count >= this.size) return out;
    }
  }

  save(path: string): void {
    const temporary = `${path}.tmp`;
    try {
      this.index.save(temporary);
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  /** Replaces the contents with the file's. */
  load(path: string): void {
    const index = this.empty();
    index.load(path);
    this.index = index;
  }

  clear(): void {
    this.index = this.empty();
  }
}
