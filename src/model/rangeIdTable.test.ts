import { describe, expect, it } from 'vitest';
import { RangeIdTable } from './rangeIdTable.ts';
import { seededRandom as random } from '../../testkit/gen/random.ts';

describe('RangeIdTable', () => {
  it('behaves as a Map under random sets, gets and deletes of ids of every size', () => {
    for (const [seed, idSpace] of [
      [1, 50],
      [2, 5000],
      [3, 2 ** 53],
    ] as const) {
      const next = random(seed);
      const table = new RangeIdTable(4);
      const map = new Map<number, number>();
      // Ids like the collector's: a thread in the high 32 bits and a counter below, plus random ones.
      const id = () => (next() < 0.5 ? Math.floor(next() * 16) * 2 ** 32 + Math.floor(next() * idSpace) : Math.floor(next() * idSpace));
      for (let step = 0; step < 15_000; step++) {
        const k = step % 5 === 0 && map.size > 0 ? [...map.keys()][Math.floor(next() * map.size)] : id();
        const op = next();
        if (op < 0.45) {
          const v = Math.floor(next() * 1e6);
          table.set(k, v);
          map.set(k, v);
        } else if (op < 0.9) {
          const want = map.get(k) ?? -1;
          map.delete(k);
          expect(table.delete(k)).toBe(want);
        } else {
          expect(table.get(k)).toBe(map.get(k) ?? -1);
          expect(table.has(k)).toBe(map.has(k));
        }
        expect(table.size).toBe(map.size);
      }
      for (const [k, v] of map) expect(table.get(k)).toBe(v);
    }
  });

  it('takes 0 and -0 as one id, as a Map does', () => {
    const table = new RangeIdTable();
    table.set(0, 7);
    expect(table.get(-0)).toBe(7);
    expect(table.delete(-0)).toBe(7);
    expect(table.size).toBe(0);
  });
});
