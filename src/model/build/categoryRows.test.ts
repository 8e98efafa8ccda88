/**
 * `RowTable.categoryRow` finds small (process, domain, category) in arrays and others in a keyed
 * map: on random mixes of both, each triple must give one row, the same on every call, and rows
 * must be made in first-use order (what the keyed lookup alone gives).
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { IssueLog } from './issues.ts';
import { ProcessTree } from './processTree.ts';
import { RowTable } from './rows.ts';

describe('RowTable.categoryRow', () => {
  it('gives one row per (process, domain, category), made in first-use order, small or large indices', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const rnd = new Random(seed);
      const rows = new RowTable(new ProcessTree(new IssueLog('f')));
      const made = new Map<string, number>();
      const pick = (small: number, large: number) => (rnd.chance(0.8) ? rnd.int(0, small) : rnd.pick([large, large + 1, 1023, 1024, 70_000]));
      for (let k = 0; k < 5000; k++) {
        const process = pick(4, 1500);
        const domain = pick(3, 2000);
        const category = rnd.chance(0.1) ? -1 : pick(40, 65_535);
        const key = `${process}:${domain}:${category}`;
        const before = rows.rows.length;
        const row = rows.categoryRow(process, domain, category);
        expect([row.process, row.domain, row.category]).toEqual([process, domain, category]);
        const index = rows.rows.indexOf(row);
        if (made.has(key)) {
          expect(index).toBe(made.get(key));
          expect(rows.rows.length).toBe(before);
        } else {
          expect(index).toBe(before);
          made.set(key, index);
        }
      }
      expect(made.size).toBeGreaterThan(500);
    }
  });
});
