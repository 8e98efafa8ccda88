/**
 * Layout invariants every consumer relies on (renderer, statistics, panels; the checker is
 * `invariants.ts`), checked on random models, and the query helpers against brute force.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { buildGeneratedModel } from '../../testkit/gen/model.ts';
import { randomModel } from '../../testkit/models/randomModel.ts';
import { ModelBuilder } from './builder.ts';
import { modelViolations } from '../../testkit/models/invariants.ts';
import { childrenOf, levelWindow, selfTime, trackOfRange } from './query.ts';
import { RangeFlag, type Model } from './types.ts';

function models(): [string, Model][] {
  const out: [string, Model][] = [];
  for (let seed = 1; seed <= 12; seed++) out.push([`random ${seed}`, randomModel({ seed, ops: 80 })]);
  out.push(['generated', buildGeneratedModel({ events: 3000, seed: 4, threads: 4 })]);
  return out;
}

describe('model layout invariants', () => {
  it('hold on random and generated models', () => {
    for (const [name, m] of models()) expect(modelViolations(m), name).toEqual([]);
  });

  it('are reported when broken', () => {
    const m = buildGeneratedModel({ events: 200, seed: 2, threads: 2 });
    const track = m.tracks.find((t) => t.levelBegin.length > 2 && t.levelBegin[1] - t.levelBegin[0] > 2)!;
    const first = track.levelBegin[0];
    m.ranges.endNs[track.levelBegin[1]] = NaN;
    m.ranges.startNs[first + 1] = m.ranges.startNs[first] + 1;
    m.ranges.style[first] = 1e6;
    const found = modelViolations(m).join('\n');
    expect(found).toContain(`range ${track.levelBegin[1]}: non-finite time`);
    expect(found).toContain(`range ${first}: style 1000000`);
    expect(found).toContain(`level 0: range ${first} [`);
  });
});

describe('query helpers', () => {
  it('find tracks, level windows, children and self time like brute force', () => {
    const rnd = new Random(8);
    for (const [name, m] of models()) {
      const r = m.ranges;
      m.tracks.forEach((track, t) => {
        for (let i = track.rangeBegin; i < track.rangeEnd; i++) expect(trackOfRange(m, i), `${name} range ${i}`).toBe(t);
        for (let d = 0; d + 1 < track.levelBegin.length; d++) {
          for (let q = 0; q < 5; q++) {
            const t0 = rnd.int(-10, m.durationNs + 10);
            const t1 = t0 + rnd.int(0, m.durationNs / 3);
            const [first, last] = levelWindow(m, track, d, t0, t1);
            const want: number[] = [];
            for (let i = track.levelBegin[d]; i < track.levelBegin[d + 1]; i++) if (r.endNs[i] >= t0 && r.startNs[i] <= t1) want.push(i);
            const got = Array.from({ length: last - first }, (_, k) => first + k);
            expect(got, `${name} track ${t} level ${d} [${t0}, ${t1}]`).toEqual(want);
          }
        }
      });
      for (let q = 0; q < 200 && r.startNs.length > 0; q++) {
        const i = rnd.int(0, r.startNs.length - 1);
        const want: number[] = [];
        for (let c = 0; c < r.startNs.length; c++) if (r.parent[c] === i) want.push(c);
        expect(childrenOf(m, i), `${name} children of ${i}`).toEqual(want);
        const covered = want.reduce((acc, c) => acc + Math.min(r.endNs[c], r.endNs[i]) - r.startNs[c], 0);
        expect(selfTime(m, i), `${name} self of ${i}`).toBe(r.endNs[i] - r.startNs[i] - covered);
        expect(selfTime(m, i)).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('start/end ranges', () => {
  it('match ids across threads, report stray and double ends, close what never ends', () => {
    const b = new ModelBuilder({ fileName: 'se.test', format: 'test', byteSize: 0 });
    const t1 = b.thread(1, 10);
    const t2 = b.thread(1, 11);
    // Unsorted on purpose: the end of "late" arrives before its start would in time order.
    b.rangeStart('a', t1, 10, { name: 'cross', category: 2 }, { line: 1 });
    b.rangeEnd('a', t2, 30, { line: 2 });
    b.rangeStart('b', t2, 5, { name: 'same', category: 2 }, { line: 3 });
    b.rangeEnd('b', t2, 8, { line: 4 });
    b.rangeEnd('b', t2, 9, { line: 5 });
    b.rangeEnd('zzz', t1, 12, { line: 6 });
    b.rangeStart('c', t1, 20, { name: 'open', category: 2 }, { line: 7 });
    b.mark(t1, 50, { name: 'last' });
    const m = b.finish();
    const r = m.ranges;
    const byName = (n: string) => Array.from(r.style).findIndex((s) => m.strings[m.styles.name[s]] === n);
    const cross = byName('cross');
    expect(r.flags[cross] & RangeFlag.CrossThread).toBeTruthy();
    expect(r.thread[cross]).toBe(t1);
    expect(Array.from(m.crossThreadEnds.range)).toEqual([cross]);
    expect(Array.from(m.crossThreadEnds.thread)).toEqual([t2]);
    expect(r.flags[byName('same')]).toBe(0);
    const open = byName('open');
    expect(r.flags[open] & RangeFlag.Unterminated).toBeTruthy();
    expect(r.endNs[open]).toBe(m.durationNs);
    const lines = m.issues.map((i) => i.line).sort();
    expect(lines).toEqual([5, 6, 7]);
    // All three overlap at 20..30 only pairwise: "cross" and "open" need two lanes.
    const row = m.tracks.find((t) => t.kind === 'category')!;
    expect(row.levelBegin.length - 1).toBe(2);
  });
});
