/** Range summaries: a run found block by block is the run found range by range. */
import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { ModelBuilder } from './builder.ts';
import { subPixelRunEnd } from './lod.ts';
import type { Model } from './types.ts';

/** One thread of top-level ranges with widths and gaps spread over six orders of magnitude, 3 names. */
function model(seed: number, n: number): Model {
  const rnd = new Random(seed);
  const b = new ModelBuilder({ fileName: 'lod.test', format: 'test', byteSize: 0 });
  const t = b.thread(1, 1);
  const names = ['a', 'b', 'c'].map((s) => b.intern(s));
  let time = 0;
  for (let i = 0; i < n; i++) {
    const width = Math.floor(10 ** rnd.next() * 6);
    const start = time + Math.floor(10 ** (rnd.next() * 5));
    // Long stretches of one name, so that uniform blocks occur.
    b.range(t, start, start + width, { nameId: names[Math.floor(i / 300) % 3] });
    time = start + width;
  }
  return b.finish();
}

/** The run from `at`, range by range. */
function naive(m: Model, at: number, last: number, px: number, runStyle: number): { to: number; mixed: boolean } {
  const { startNs, endNs, style } = m.ranges;
  let mixed = false;
  let k = at;
  while (k < last) {
    if (!(endNs[k] - startNs[k] < px)) break;
    if (style[k] !== runStyle) mixed = true;
    k++;
    if (k < last && !(startNs[k] - startNs[k - 1] < px)) break;
  }
  return { to: k, mixed };
}

describe('subPixelRunEnd', () => {
  it('agrees with a range-by-range walk for any window and pixel size', () => {
    for (let seed = 1; seed <= 4; seed++) {
      const m = model(seed, 5000);
      const rnd = new Random(seed * 77);
      const n = m.ranges.startNs.length;
      expect(m.rangeLod!.startNs).toBe(m.ranges.startNs);
      for (let trial = 0; trial < 400; trial++) {
        const at = rnd.int(0, n - 1);
        const last = rnd.chance(0.5) ? n : rnd.int(at + 1, n);
        const px = 10 ** (rnd.next() * 6);
        const runStyle = rnd.chance(0.5) ? m.ranges.style[at] : rnd.int(0, 3);
        const out = { mixed: false };
        const to = subPixelRunEnd(m.rangeLod!, m.ranges, at, last, px, runStyle, out);
        expect({ to, mixed: out.mixed }).toEqual(naive(m, at, last, px, runStyle));
      }
    }
  });

  it('jumps over long uniform stretches in few steps and stops at the first wide range', () => {
    const b = new ModelBuilder({ fileName: 'lod.test', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1);
    for (let i = 0; i < 100_000; i++) b.range(t, i * 10, i * 10 + 5, { name: 'x' });
    b.range(t, 1_000_000, 2_000_000, { name: 'x' });
    const m = b.finish();
    const out = { mixed: false };
    expect(subPixelRunEnd(m.rangeLod!, m.ranges, 0, m.ranges.startNs.length, 100, m.ranges.style[0], out)).toBe(100_000);
    expect(out.mixed).toBe(false);
    // 1.6 bytes per range at most for the summaries.
    const lod = m.rangeLod!;
    expect(lod.maxDur.byteLength + lod.maxStep.byteLength + lod.style.byteLength).toBeLessThan(1.6 * m.ranges.startNs.length);
  });
});
