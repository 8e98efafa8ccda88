/**
 * Lane packing: valid (no two ranges of a lane conflict) and optimal (as few lanes as the largest
 * set of pairwise conflicting ranges), checked against brute force on random inputs.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { ModelBuilder } from './builder.ts';
import { packLanes, packLanesWithHeaps } from './lanes.ts';
import { orderByStart } from './orderByStart.ts';

/**
 * Whether two ranges may not share a lane. Ranges are half-open: one ending at t and one starting
 * at t fit in a lane. A zero-length range at t only conflicts with a range strictly around t.
 */
function conflict(s1: number, e1: number, s2: number, e2: number): boolean {
  if (s1 === e1 && s2 === e2) return false;
  if (s1 === e1) return s2 < s1 && s1 < e2;
  if (s2 === e2) return s1 < s2 && s2 < e1;
  return Math.max(s1, s2) < Math.min(e1, e2);
}

/** Largest number of positive-length ranges open at one instant (the optimum for such inputs). */
function maxOverlap(start: number[], end: number[]): number {
  let best = 0;
  for (let i = 0; i < start.length; i++) {
    let open = 0;
    for (let j = 0; j < start.length; j++) if (start[j] <= start[i] && start[i] < end[j]) open++;
    best = Math.max(best, open);
  }
  return best;
}

/** Fewest colours of the conflict graph, by exhaustive search (small inputs only). */
function chromatic(start: number[], end: number[]): number {
  const n = start.length;
  if (n === 0) return 0;
  const colour = new Array<number>(n).fill(-1);
  const fits = (i: number, c: number) => {
    for (let j = 0; j < i; j++) if (colour[j] === c && conflict(start[i], end[i], start[j], end[j])) return false;
    return true;
  };
  const solve = (i: number, k: number): boolean => {
    if (i === n) return true;
    for (let c = 0; c < k; c++) {
      if (!fits(i, c)) continue;
      colour[i] = c;
      if (solve(i + 1, k)) return true;
    }
    colour[i] = -1;
    return false;
  };
  for (let k = 1; k <= n; k++) if (solve(0, k)) return k;
  return n;
}

function randomRanges(rnd: Random, n: number, span: number, zeroLength: boolean): { start: number[]; end: number[] } {
  const start: number[] = [];
  const end: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = rnd.int(0, span);
    start.push(s);
    end.push(s + (zeroLength && rnd.chance(0.25) ? 0 : rnd.int(1, span / 2)));
  }
  return { start, end };
}

function expectValid(start: number[], end: number[], lane: Uint16Array): void {
  for (let i = 0; i < start.length; i++) {
    for (let j = i + 1; j < start.length; j++) {
      if (lane[i] === lane[j]) expect(conflict(start[i], end[i], start[j], end[j]), `ranges ${i} and ${j} share lane ${lane[i]}`).toBe(false);
    }
  }
}

describe('packLanes', () => {
  it('uses as many lanes as the maximum overlap of positive-length ranges', () => {
    const rnd = new Random(99);
    for (let trial = 0; trial < 300; trial++) {
      const { start, end } = randomRanges(rnd, rnd.int(0, 40), rnd.int(4, 200), false);
      const { lane, laneCount, order } = packLanes(start, end);
      expect(laneCount, `trial ${trial}`).toBe(maxOverlap(start, end));
      expectValid(start, end, lane);
      expect(Array.from(order).sort((a, b) => a - b)).toEqual(start.map((_, i) => i));
    }
  });

  it('is optimal with zero-length ranges too (exhaustive colouring)', () => {
    const rnd = new Random(5);
    for (let trial = 0; trial < 300; trial++) {
      const { start, end } = randomRanges(rnd, rnd.int(0, 9), rnd.int(2, 12), true);
      const { lane, laneCount } = packLanes(start, end);
      expectValid(start, end, lane);
      expect(laneCount, `trial ${trial}: ${start.map((s, i) => `[${s},${end[i]}]`).join(' ')}`).toBe(chromatic(start, end));
    }
  });

  it('gives each range the lowest-numbered lane free at its start (the lanes drawn stay where they were)', () => {
    const rnd = new Random(23);
    for (let trial = 0; trial < 300; trial++) {
      const { start, end } = randomRanges(rnd, rnd.int(0, 300), rnd.int(2, 400), true);
      const { lane, order } = packLanes(start, end);
      // Reference: the lanes' last ends, searched from lane 0 for each range taken by start.
      const laneEnd: number[] = [];
      const want = new Uint16Array(start.length);
      for (const i of order) {
        let l = 0;
        while (l < laneEnd.length && laneEnd[l] > start[i]) l++;
        laneEnd[l] = end[i];
        want[i] = l;
      }
      expect(Array.from(lane), `trial ${trial}`).toEqual(Array.from(want));
    }
  });

  it('gives the same lanes as the two-heap packing, with few lanes, many lanes and NaN times', () => {
    const rnd = new Random(41);
    for (let trial = 0; trial < 400; trial++) {
      // Overlap from none to far beyond the scan's 128 lanes (then the heaps take over).
      const n = rnd.int(0, 1500);
      const { start, end } = randomRanges(rnd, n, rnd.int(2, 20 + 20 * n), rnd.chance(0.5));
      if (rnd.chance(0.1) && n > 0) (rnd.chance(0.5) ? start : end)[rnd.int(0, n - 1)] = NaN;
      const got = packLanes(start, end);
      const lane = new Uint16Array(n);
      const laneCount = packLanesWithHeaps(start, end, orderByStart(start, end, false), lane);
      expect(got.laneCount, `trial ${trial}`).toBe(laneCount);
      expect(Array.from(got.lane), `trial ${trial}`).toEqual(Array.from(lane));
    }
  });

  it('packs category rows of the model into the fewest lanes, each lane time-ordered', () => {
    const rnd = new Random(17);
    for (let trial = 0; trial < 50; trial++) {
      const b = new ModelBuilder({ fileName: 'lanes.test', format: 'test', byteSize: 0 });
      const t = b.thread(1, 1);
      const { start, end } = randomRanges(rnd, rnd.int(1, 30), 100, false);
      start.forEach((s, i) => b.startEnd(t, s, end[i], { name: `r${i}`, category: 1 }));
      const m = b.finish();
      const row = m.tracks.find((x) => x.kind === 'category')!;
      expect(row.levelBegin.length - 1).toBe(maxOverlap(start, end));
      for (let d = 0; d + 1 < row.levelBegin.length; d++) {
        for (let i = row.levelBegin[d] + 1; i < row.levelBegin[d + 1]; i++) {
          expect(m.ranges.endNs[i - 1]).toBeLessThanOrEqual(m.ranges.startNs[i]);
          expect(m.ranges.depth[i]).toBe(d);
        }
      }
    }
  });
});
