import { describe, expect, it } from 'vitest';
import { identityOrder, naturalCompare, sortOrder, textRanks } from './sortOrder.ts';
import { seededRandom } from '../../testkit/gen/random.ts';

/** The same order by a comparator sort (Array.prototype.sort is stable). */
function reference(order: Uint32Array, keys: ArrayLike<number>, descending: boolean): number[] {
  const rank = (v: number) => (Number.isNaN(v) ? Infinity : v === 0 ? 0 : v);
  const nanLast = (a: number, b: number) => {
    const an = Number.isNaN(a);
    const bn = Number.isNaN(b);
    if (an || bn) return an === bn ? 0 : an ? 1 : -1;
    return rank(a) - rank(b);
  };
  return Array.from(order).sort((a, b) => (descending ? nanLast(keys[b], keys[a]) : nanLast(keys[a], keys[b])));
}

describe('sortOrder', () => {
  it('sorts integer nanosecond keys stably, both directions, on random subsets (property)', () => {
    const random = seededRandom(3);
    for (let round = 0; round < 60; round++) {
      // Small tables take the comparator path, large ones the radix passes.
      const n = 1 + Math.floor(random() * (round % 2 ? 300 : 6000));
      // Few distinct values (many ties) in some rounds, values past 2^32 in others.
      const spread = [5, 1e6, 2 ** 40, 2 ** 52][round % 4];
      const keys = Float64Array.from({ length: n }, () => Math.floor(random() * spread));
      const order = identityOrder(n).filter(() => random() < 0.7);
      for (const descending of [false, true]) {
        expect(Array.from(sortOrder(order, keys, descending))).toEqual(reference(order, keys, descending));
      }
    }
  });

  it('sorts fractional, negative, infinite, NaN and signed-zero keys', () => {
    const random = seededRandom(8);
    const specials = [-0, 0, -Infinity, Infinity, NaN, -1e-300, 1e-300, -2.5, 2.5];
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(random() * (round % 2 ? 100 : 4000));
      const keys = Float64Array.from({ length: n }, () =>
        random() < 0.2 ? specials[Math.floor(random() * specials.length)] : (random() - 0.5) * 10 ** Math.floor(random() * 12),
      );
      const order = identityOrder(n);
      for (const descending of [false, true]) {
        expect(Array.from(sortOrder(order, keys, descending))).toEqual(reference(order, keys, descending));
      }
    }
  });

  it('leaves its input alone and keeps ties in input order (multi-key sort)', () => {
    const name = [2, 1, 2, 1, 0];
    const start = [10, 40, 5, 20, 30];
    const byStart = sortOrder(identityOrder(5), start);
    expect(Array.from(byStart)).toEqual([2, 0, 3, 4, 1]);
    const byNameThenStart = sortOrder(byStart, name);
    expect(Array.from(byNameThenStart)).toEqual([4, 3, 1, 2, 0]);
    expect(Array.from(byStart)).toEqual([2, 0, 3, 4, 1]);
  });
});

describe('textRanks', () => {
  it('gives equal texts one rank and orders numbers inside texts naturally', () => {
    const texts = ['thread 10', 'Thread 2', 'alpha', 'thread 10', 'beta'];
    const ranks = textRanks(texts);
    expect(ranks[0]).toBe(ranks[3]);
    const sorted = Array.from(sortOrder(identityOrder(texts.length), ranks), (i) => texts[i]);
    expect(sorted).toEqual(['alpha', 'beta', 'Thread 2', 'thread 10', 'thread 10']);
    expect(naturalCompare('a', 'A')).not.toBe(0);
  });
});

describe('sortOrder with a key function', () => {
  it('orders like the same keys given as a column', () => {
    const random = seededRandom(11);
    const keys = Float64Array.from({ length: 3000 }, () => Math.floor(random() * 50));
    const order = identityOrder(keys.length).filter((i) => i % 3 !== 0);
    expect(Array.from(sortOrder(order, (id) => keys[id], true))).toEqual(Array.from(sortOrder(order, keys, true)));
  });
});
