import { describe, expect, it } from 'vitest';
import { nthByStart } from './nthInstance.ts';

/** The definition: sort by start, ties by index, take the n-th. */
function reference(startNs: Float64Array, ranges: Int32Array, n: number): number {
  const order = Array.from(ranges).sort((a, b) => startNs[a] - startNs[b] || a - b);
  return n >= 1 && n <= order.length ? order[n - 1] : -1;
}

describe('nthByStart', () => {
  it('agrees with a full sort, ties included', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let round = 0; round < 50; round++) {
      const size = 1 + Math.floor(rand() * 200);
      // Few distinct starts, so that many instances tie.
      const startNs = Float64Array.from({ length: size }, () => Math.floor(rand() * (round % 2 ? 10 : 1000)));
      const ranges = Int32Array.from({ length: Math.floor(rand() * size) + 1 }, () => Math.floor(rand() * size));
      const unique = Int32Array.from(new Set(ranges));
      for (let n = 0; n <= unique.length + 1; n++) expect(nthByStart(startNs, unique, n)).toBe(reference(startNs, unique, n));
    }
  });

  it('is -1 for an empty group or an n out of range', () => {
    expect(nthByStart(new Float64Array([1, 2]), new Int32Array(0), 1)).toBe(-1);
    expect(nthByStart(new Float64Array([1, 2]), new Int32Array([1, 0]), 3)).toBe(-1);
    expect(nthByStart(new Float64Array([1, 2]), new Int32Array([1, 0]), 1.5)).toBe(-1);
    expect(nthByStart(new Float64Array([5, 2]), new Int32Array([0, 1]), 1)).toBe(1);
  });
});
