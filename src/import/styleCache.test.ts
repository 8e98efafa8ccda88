import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import { StyleCache } from './styleCache.ts';

describe('StyleCache', () => {
  it('gives the builder style of every combination, cached or not', () => {
    const b = new ModelBuilder({ fileName: 't', format: 'test', byteSize: 0 });
    const cache = new StyleCache(b);
    const a = b.intern('a');
    const c = b.intern('c');
    const combos: Array<[number, number, number]> = [
      [a, 0, 0],
      [a, 0, 0],
      [a, 0xff00ff00, 0],
      [a, 0, 7],
      [c, 0, 7],
      [a, 0, 0],
      [c, 0, 7],
    ];
    for (const [nameId, color, category] of combos) {
      expect(cache.styleOf(nameId, color, category)).toBe(b.style({ nameId, color, category }));
    }
    // Four distinct combinations, four styles.
    expect(new Set(combos.map(([n, col, cat]) => cache.styleOf(n, col, cat))).size).toBe(4);
  });
});
