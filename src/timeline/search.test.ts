import { describe, expect, it } from 'vitest';
import { lowerBound } from '../model/query.ts';
import { gallopLowerBound } from './search.ts';
import { seededRandom } from '../../testkit/gen/random.ts';

describe('gallopLowerBound', () => {
  it('agrees with a plain lower bound from any start (property)', () => {
    const random = seededRandom(9);
    for (let k = 0; k < 2000; k++) {
      const n = Math.floor(random() * 60);
      const values = new Float64Array(n);
      let v = 0;
      for (let i = 0; i < n; i++) values[i] = v += Math.floor(random() * 3);
      const lo = Math.floor(random() * (n + 1));
      const hi = lo + Math.floor(random() * (n - lo + 1));
      const x = random() * (v + 2) - 1;
      expect(gallopLowerBound(values, x, lo, hi)).toBe(lowerBound(values, x, lo, hi));
    }
  });
});
