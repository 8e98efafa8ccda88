import { describe, expect, it } from 'vitest';
import type { GroupInstances } from '../../analysis/rangeStats.ts';
import { columnOfStart, columnX, durationY, mergeColumns, pointNear, reduceToColumns, startExtent } from './durationOverTime.ts';

/** Instances as a detail has them: positions ordered by duration ascending; `startNs` indexed by range. */
function instancesOf(items: { start: number; dur: number }[]): { instances: GroupInstances; startNs: Float64Array } {
  const order = items.map((it, range) => ({ ...it, range })).sort((a, b) => a.dur - b.dur || a.range - b.range);
  return {
    instances: { ranges: Int32Array.from(order.map((o) => o.range)), durations: Float64Array.from(order.map((o) => o.dur)) },
    startNs: Float64Array.from(items.map((it) => it.start)),
  };
}

describe('startExtent', () => {
  it('is the earliest and latest start, whatever the duration order', () => {
    const { instances, startNs } = instancesOf([
      { start: 500, dur: 1 },
      { start: 100, dur: 9 },
      { start: 900, dur: 5 },
    ]);
    expect(startExtent(instances, startNs)).toEqual({ fromNs: 100, toNs: 900 });
  });
  it('is 0..0 with no instances', () => {
    expect(startExtent({ ranges: new Int32Array(), durations: new Float64Array() }, new Float64Array())).toEqual({ fromNs: 0, toNs: 0 });
  });
});

describe('reduceToColumns', () => {
  it('keeps each column’s shortest and longest instance', () => {
    // Starts 0..999 over 10 columns: column c holds starts 100c..100c+99.
    const items = Array.from({ length: 1000 }, (_, i) => ({ start: i, dur: ((i * 7919) % 1000) + 1 }));
    items.push({ start: 999, dur: 0 });
    const { instances, startNs } = instancesOf(items);
    const cols = reduceToColumns(instances, startNs, 10);
    expect(cols.columns).toBe(10);
    for (let c = 0; c < 10; c++) {
      const inColumn = items.filter((it) => columnOfStart(it.start, 0, 999, 10) === c).map((it) => it.dur);
      expect(instances.durations[cols.minAt[c]]).toBe(Math.min(...inColumn));
      expect(instances.durations[cols.maxAt[c]]).toBe(Math.max(...inColumn));
      // The positions name instances that start in the column.
      expect(columnOfStart(startNs[instances.ranges[cols.maxAt[c]]], 0, 999, 10)).toBe(c);
    }
  });
  it('leaves empty columns at -1 and puts the last start in the last column', () => {
    const { instances, startNs } = instancesOf([
      { start: 0, dur: 5 },
      { start: 1000, dur: 7 },
    ]);
    const cols = reduceToColumns(instances, startNs, 4);
    expect(Array.from(cols.minAt)).toEqual([0, -1, -1, 1]);
    expect(Array.from(cols.maxAt)).toEqual([0, -1, -1, 1]);
  });
  it('puts instances that all start at once in the middle column', () => {
    const { instances, startNs } = instancesOf([
      { start: 42, dur: 5 },
      { start: 42, dur: 3 },
    ]);
    const cols = reduceToColumns(instances, startNs, 5);
    expect(cols.minAt[2]).toBe(0);
    expect(cols.maxAt[2]).toBe(1);
    expect(Array.from(cols.minAt).filter((k) => k >= 0)).toHaveLength(1);
  });
  it('is one pass: a million instances reduce to the width, not to a million points', () => {
    const n = 1_000_000;
    const ranges = new Int32Array(n);
    const durations = new Float64Array(n);
    const startNs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      ranges[i] = i;
      durations[i] = i;
      startNs[i] = (i * 2654435761) % n;
    }
    const cols = reduceToColumns({ ranges, durations }, startNs, 300);
    expect(cols.minAt.length).toBe(300);
    expect(Array.from(cols.minAt).every((k) => k >= 0)).toBe(true);
    expect(cols.maxAt[cols.maxAt.length - 1]).toBeGreaterThan(cols.minAt[cols.minAt.length - 1]);
  });
});

describe('scales', () => {
  it('durationY runs from the base (0) to the top (the longest), clamped', () => {
    expect(durationY(0, 100, 10, 70)).toBe(70);
    expect(durationY(100, 100, 10, 70)).toBe(10);
    expect(durationY(50, 100, 10, 70)).toBe(40);
    expect(durationY(500, 100, 10, 70)).toBe(10);
    expect(durationY(5, 0, 10, 70)).toBe(70);
  });
  it('columnX is the middle of the column', () => {
    expect(columnX(0, 10, 100)).toBe(5);
    expect(columnX(9, 10, 100)).toBe(95);
  });
  it('columnOfStart clamps to the columns', () => {
    expect(columnOfStart(-5, 0, 100, 10)).toBe(0);
    expect(columnOfStart(100, 0, 100, 10)).toBe(9);
    expect(columnOfStart(55, 0, 100, 10)).toBe(5);
  });
});

describe('pointNear', () => {
  const { instances, startNs } = instancesOf([
    { start: 0, dur: 10 },
    { start: 500, dur: 100 },
    { start: 500, dur: 20 },
    { start: 1000, dur: 50 },
  ]);
  const cols = reduceToColumns(instances, startNs, 100);
  const yOf = (k: number) => durationY(instances.durations[k], 100, 0, 100);
  const rangeAt = (x: number, y: number) => {
    const k = pointNear(cols, x, y, 100, yOf, 4);
    return k < 0 ? -1 : instances.ranges[k];
  };
  it('picks the instance under the pointer, the nearer end of a crowded column', () => {
    expect(rangeAt(0.5, 90)).toBe(0);
    expect(rangeAt(99.5, 50)).toBe(3);
    expect(rangeAt(50.5, 0)).toBe(1);
    expect(rangeAt(50.5, 80)).toBe(2);
  });
  it('picks nothing away from every point', () => {
    expect(rangeAt(25, 50)).toBe(-1);
  });
});

describe('mergeColumns', () => {
  it('folds fine columns into the same min/max a direct reduction gives', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({ start: (i * 7919) % 10007, dur: (i * 104729) % 997 }));
    const { instances, startNs } = instancesOf(items);
    const fine = reduceToColumns(instances, startNs, 4096);
    for (const n of [1, 7, 300, 1024]) {
      const merged = mergeColumns(fine, n);
      expect(merged.columns).toBe(n);
      for (let c = 0; c < n; c++) {
        const inColumn = items.filter((_item, range) => {
          const f = columnOfStart(startNs[range], fine.fromNs, fine.toNs, 4096);
          return Math.floor((f * n) / 4096) === c;
        });
        if (inColumn.length === 0) {
          expect(merged.minAt[c]).toBe(-1);
          continue;
        }
        expect(instances.durations[merged.minAt[c]]).toBe(Math.min(...inColumn.map((it) => it.dur)));
        expect(instances.durations[merged.maxAt[c]]).toBe(Math.max(...inColumn.map((it) => it.dur)));
      }
    }
  });
  it('never makes more columns than the fine ones', () => {
    const { instances, startNs } = instancesOf([{ start: 0, dur: 1 }]);
    expect(mergeColumns(reduceToColumns(instances, startNs, 16), 100).columns).toBe(16);
  });
});
