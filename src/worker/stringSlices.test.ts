import { describe, expect, it } from 'vitest';
import { StringCollector, stringSlices } from './stringSlices.ts';

describe('stringSlices', () => {
  it('cuts by characters and by count, keeps order, and loses nothing', () => {
    const strings = Array.from({ length: 23 }, (_, i) => 'x'.repeat(i % 5) + String(i));
    for (const [chars, count] of [[1, 100], [10, 100], [1000, 4], [1e9, 1e9]]) {
      const slices = stringSlices(strings, chars, count);
      expect(slices.flat()).toEqual(strings);
      expect(slices.every((s) => s.length >= 1 && s.length <= count)).toBe(true);
      // A slice only passes the character bound by its last string.
      expect(slices.every((s) => s.slice(0, -1).reduce((n, x) => n + x.length, 0) < chars)).toBe(true);
    }
    expect(stringSlices(strings, 1e9, 1e9)).toHaveLength(1);
    expect(stringSlices([], 10, 10)).toEqual([]);
  });

  it('collects slices until taken', () => {
    const c = new StringCollector();
    expect(c.take()).toBeNull();
    c.add(['a', 'b']);
    c.add([]);
    c.add(['c']);
    expect(c.take()).toEqual(['a', 'b', 'c']);
    expect(c.take()).toBeNull();
  });
});
