import { describe, expect, it } from 'vitest';
import { orderByKeyAndTime } from './asyncRanges.ts';

describe('orderByKeyAndTime', () => {
  it('orders as a comparator sort by key, time and arrival', () => {
    let seed = 3;
    const r = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    for (const [n, keys, disorder] of [
      [0, 1, 0],
      [1, 1, 0],
      [500, 7, 0],
      [500, 7, 0.3],
      [2000, 300, 0.05],
      [300, 1, 1],
    ]) {
      const key = new Uint32Array(n);
      const time = new Float64Array(n);
      let t = 0;
      for (let i = 0; i < n; i++) {
        key[i] = Math.floor(r() * keys);
        // Mostly rising times, some out of order, some ties.
        t += r() < 0.2 ? 0 : Math.floor(r() * 10);
        time[i] = r() < disorder ? Math.floor(r() * t) : t;
      }
      const want = Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a] - key[b] || time[a] - time[b] || a - b);
      expect(Array.from(orderByKeyAndTime(key, time, keys))).toEqual(want);
    }
  });
});
