/**
 * Seeded pseudo-random numbers for the catalog generator. sfc32 (Chris Doty-Humphrey's "small fast
 * counting" generator) seeded through splitmix32: fast, 128-bit state, no dependency, and the same
 * seed gives the same sequence on every platform (only 32-bit integer arithmetic is used).
 */

/** splitmix32 step: scrambles a 32-bit value; used to expand seeds and to derive sub-seeds. */
export function mix32(value: number): number {
  let z = (value + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A weighted choice: `weight` is relative (need not sum to 1). */
export interface Weighted<T> {
  value: T;
  weight: number;
}

/** Precomputed cumulative weights, so repeated weighted picks are a binary search. */
export class WeightedTable<T> {
  private readonly values: T[];
  private readonly cumulative: number[];
  private readonly total: number;

  constructor(entries: ReadonlyArray<Weighted<T>>) {
    this.values = [];
    this.cumulative = [];
    let sum = 0;
    for (const entry of entries) {
      if (entry.weight <= 0) continue;
      sum += entry.weight;
      this.values.push(entry.value);
      this.cumulative.push(sum);
    }
    if (this.values.length === 0) throw new Error('WeightedTable needs at least one positive weight');
    this.total = sum;
  }

  pick(random: Random): T {
    const target = random.next() * this.total;
    let low = 0;
    let high = this.cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cumulative[middle] as number) > target) high = middle;
      else low = middle + 1;
    }
    return this.values[low] as T;
  }
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const s = seed >>> 0;
    this.a = mix32(s);
    this.b = mix32(this.a ^ 0x6a09e667);
    this.c = mix32(this.b ^ 0xbb67ae85);
    this.d = 1;
    // The first outputs of sfc32 are poorly mixed; discard them as its author recommends.
    for (let i = 0; i < 12; i++) this.nextUint32();
  }

  /** An independent stream for a named purpose, so adding draws in one place does not shift another. */
  fork(label: number): Random {
    return new Random(mix32(this.nextUint32() ^ mix32(label)));
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('cannot pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` distinct items in random order (all of them when count ≥ length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = items.slice();
    const wanted = Math.min(count, pool.length);
    for (let i = 0; i < wanted; i++) {
      const j = i + Math.floor(this.next() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
    }
    return pool.slice(0, wanted);
  }

  /**
   * Heavy-tailed index in [0, size): small indexes are much more likely (power-law with the given
   * exponent; 1 is uniform). Used for "a few owners file most marks" and firm sizes.
   */
  skewedIndex(size: number, exponent: number): number {
    return Math.min(size - 1, Math.floor(size * Math.pow(this.next(), exponent)));
  }

  /** Decimal digits, zero-padded to `length` (leading zeros allowed). */
  digits(length: number): string {
    let out = '';
    while (out.length < length) out += String(this.nextUint32() % 1000000000).padStart(9, '0');
    return out.slice(0, length);
  }
}

/** `items[index]`, for indexes the generator computed itself: a miss is a bug, reported as such. */
export function itemAt<T>(items: readonly T[], index: number): T {
  if (index < 0 || index >= items.length) throw new RangeError(`index ${index} outside a list of ${items.length}`);
  return items[index] as T;
}
