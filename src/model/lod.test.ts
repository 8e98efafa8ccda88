/** Range summaries: a run found block by block is the run found range by range. */
import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { ModelBuilder } from './builder.ts';
import { buildRangeLod, LOD_BASE_SHIFT, MIXED_STYLE, subPixelRunEnd } from './lod.ts';
import type { Model, RangeColumns } from './types.ts';

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

  it('builds the same finest level as the earlier one-loop build on random columns', () => {
    const rnd = new Random(15);
    for (let trial = 0; trial < 300; trial++) {
      const n = rnd.chance(0.2) ? rnd.int(0, 40) : rnd.int(0, 3000);
      const startNs = new Float64Array(n);
      const endNs = new Float64Array(n);
      const style = new Uint32Array(n);
      const styles = [0, 1, 2, 0x7fffffff, 0x80000000, MIXED_STYLE - 1, MIXED_STYLE];
      const stylesUsed = rnd.int(1, styles.length);
      let t = rnd.int(0, 1000);
      for (let i = 0; i < n; i++) {
        // Mostly forward, sometimes back (a new level or track), sometimes equal; odd values now and then.
        t += rnd.chance(0.05) ? -rnd.int(0, 5000) : rnd.chance(0.2) ? 0 : Math.floor(10 ** (rnd.next() * 5));
        startNs[i] = rnd.chance(0.01) ? NaN : rnd.chance(0.01) ? t + 0.5 : t;
        endNs[i] = rnd.chance(0.01) ? NaN : rnd.chance(0.01) ? Infinity : startNs[i] + Math.floor(10 ** (rnd.next() * 6));
        style[i] = rnd.chance(0.9) && i > 0 ? style[i - 1] : styles[rnd.int(0, stylesUsed - 1)];
      }
      const ranges = { startNs, endNs, style } as RangeColumns;
      const lod = buildRangeLod(ranges);
      const finest = earlierFinestLevel(ranges);
      const blocks = finest.maxDur.length;
      expect(lod.levelOffset[1] ?? 0).toBe(blocks);
      expect(lod.maxDur.subarray(0, blocks)).toEqual(finest.maxDur);
      expect(lod.maxStep.subarray(0, blocks)).toEqual(finest.maxStep);
      expect(lod.style.subarray(0, blocks)).toEqual(finest.style);
    }
  });

  it('builds the same coarser levels as the earlier build, which read the join of two blocks from the starts', () => {
    const rnd = new Random(16);
    for (let trial = 0; trial < 300; trial++) {
      const n = rnd.chance(0.2) ? rnd.int(0, 70) : rnd.int(0, 5000);
      const startNs = new Float64Array(n);
      const endNs = new Float64Array(n);
      const style = new Uint32Array(n);
      let t = rnd.int(0, 1000);
      for (let i = 0; i < n; i++) {
        // Joins that go back, tie, jump far (beyond float32's precision) or are NaN.
        t += rnd.chance(0.03) ? -rnd.int(0, 5000) : rnd.chance(0.2) ? 0 : Math.floor(10 ** (rnd.next() * 12));
        startNs[i] = rnd.chance(0.005) ? NaN : t;
        endNs[i] = startNs[i] + Math.floor(10 ** (rnd.next() * 6));
        style[i] = rnd.chance(0.95) && i > 0 ? style[i - 1] : rnd.int(0, 3);
      }
      const ranges = { startNs, endNs, style } as RangeColumns;
      const lod = buildRangeLod(ranges);
      const earlier = earlierLod(ranges);
      expect(lod.levelOffset).toEqual(earlier.levelOffset);
      expect(lod.maxDur).toEqual(earlier.maxDur);
      expect(lod.maxStep).toEqual(earlier.maxStep);
      expect(lod.style).toEqual(earlier.style);
    }
  });
});

/**
 * Every level as built before the joins were kept per finest block (kept to compare with): the
 * finest level as `earlierFinestLevel`, each coarser one reading the join from the starts.
 */
function earlierLod(ranges: RangeColumns): { levelOffset: number[]; maxDur: Float32Array; maxStep: Float32Array; style: Uint32Array } {
  const up = (x: number) => Math.fround(x * (1 + 2 ** -20));
  const { startNs } = ranges;
  const finest = earlierFinestLevel(ranges);
  const blocks = finest.maxDur.length;
  const levelOffset = [0];
  let total = 0;
  for (let size = blocks; size > 0; size = size > 1 ? (size + 1) >> 1 : 0) {
    total += size;
    levelOffset.push(total);
  }
  const maxDur = new Float32Array(total);
  const maxStep = new Float32Array(total);
  const blockStyle = new Uint32Array(total);
  maxDur.set(finest.maxDur);
  maxStep.set(finest.maxStep);
  blockStyle.set(finest.style);
  const base = 1 << LOD_BASE_SHIFT;
  for (let m = 1; m < levelOffset.length - 1; m++) {
    const child = levelOffset[m - 1];
    const childCount = levelOffset[m] - child;
    const at = levelOffset[m];
    const span = base << (m - 1);
    for (let b = 0; b < levelOffset[m + 1] - at; b++) {
      const left = child + 2 * b;
      if (2 * b + 1 >= childCount) {
        maxDur[at + b] = maxDur[left];
        maxStep[at + b] = maxStep[left];
        blockStyle[at + b] = blockStyle[left];
        continue;
      }
      const right = left + 1;
      const firstOfRight = (2 * b + 1) * span;
      const join = startNs[firstOfRight] - startNs[firstOfRight - 1];
      maxDur[at + b] = Math.max(maxDur[left], maxDur[right]);
      maxStep[at + b] = Math.max(maxStep[left], maxStep[right], join < 0 ? Infinity : up(join));
      blockStyle[at + b] = blockStyle[left] === blockStyle[right] ? blockStyle[left] : MIXED_STYLE;
    }
  }
  return { levelOffset, maxDur, maxStep, style: blockStyle };
}

/**
 * The finest level as built before summarizeBlocks (kept to compare with): one loop, the style
 * compared as a double. The coarser levels are made from it by code that did not change.
 */
function earlierFinestLevel(ranges: RangeColumns): { maxDur: Float32Array; maxStep: Float32Array; style: Uint32Array } {
  const up = (x: number) => Math.fround(x * (1 + 2 ** -20));
  const { startNs, endNs, style } = ranges;
  const n = startNs.length;
  const base = 1 << LOD_BASE_SHIFT;
  const blocks = Math.ceil(n / base);
  const maxDur = new Float32Array(blocks);
  const maxStep = new Float32Array(blocks);
  const blockStyle = new Uint32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    const lo = b * base;
    const hi = Math.min(n, lo + base);
    let dur = endNs[lo] - startNs[lo];
    let step = 0;
    let s = style[lo];
    for (let k = lo + 1; k < hi; k++) {
      const d = endNs[k] - startNs[k];
      if (d > dur) dur = d;
      const st = startNs[k] - startNs[k - 1];
      if (st > step || st < 0) step = st < 0 ? Infinity : st;
      if (style[k] !== s) s = MIXED_STYLE;
    }
    maxDur[b] = up(dur);
    maxStep[b] = up(step);
    blockStyle[b] = s;
  }
  return { maxDur, maxStep, style: blockStyle };
}
