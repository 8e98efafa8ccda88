import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import type { LoadedCapture } from '../state/viewerStore.ts';
import { nextSort, sortSpanRows, spanRows, type SpanRow } from './spanTable.ts';

/** main: outer [0, 100] with inner [10, 30] and inner [50, 60]; a mark pins the capture end at 200. */
function capture(id: number, offsetNs: number): LoadedCapture {
  const b = new ModelBuilder({ fileName: `c${id}.nvtxt`, format: 'test', byteSize: 0 });
  const t = b.thread(1, 1, 'main');
  b.push(t, 0, { name: 'outer' });
  b.push(t, 10, { name: 'inner' });
  b.pop(t, 30);
  b.push(t, 50, { name: 'inner' });
  b.pop(t, 60);
  b.pop(t, 100);
  b.mark(t, 200, { name: 'end' });
  return { id, model: b.finish(), offsetNs, decodeMs: 0 };
}

describe('spanRows', () => {
  it('counts the part of each range inside the span, per name', () => {
    const rows = spanRows([capture(1, 0)], { startNs: 20, endNs: 80 });
    const outer = rows.find((r) => r.label === 'outer')!;
    const inner = rows.find((r) => r.label === 'inner')!;
    expect(outer).toMatchObject({ count: 1, totalNs: 60, selfNs: 40 });
    expect(inner).toMatchObject({ count: 2, totalNs: 20, minNs: 10, maxNs: 10, medianNs: 10 });
  });

  it('moves the span onto each capture axis and skips captures it misses', () => {
    const rows = spanRows([capture(1, 0), capture(2, 1000)], { startNs: 1000, endNs: 1015 });
    expect(rows.map((r) => [r.capture, r.label, r.totalNs])).toEqual([
      [2, 'outer', 15],
      [2, 'inner', 5],
    ]);
  });
});

describe('sortSpanRows', () => {
  const row = (label: string, count: number, totalNs: number): SpanRow => ({
    key: label,
    capture: 1,
    file: 'f',
    label,
    style: 'PushPop',
    count,
    totalNs,
    selfNs: totalNs,
    avgNs: totalNs / count,
    minNs: 0,
    maxNs: totalNs,
    medianNs: 0,
    maxRange: 0,
  });
  const rows = [row('b', 3, 10), row('a', 1, 30), row('c', 3, 20)];

  it('sorts by any column in either direction, ties by label', () => {
    expect(sortSpanRows(rows, { key: 'totalNs', descending: true }).map((r) => r.label)).toEqual(['a', 'c', 'b']);
    expect(sortSpanRows(rows, { key: 'count', descending: true }).map((r) => r.label)).toEqual(['b', 'c', 'a']);
    expect(sortSpanRows(rows, { key: 'label', descending: false }).map((r) => r.label)).toEqual(['a', 'b', 'c']);
    expect(sortSpanRows(rows, { key: 'label', descending: true }).map((r) => r.label)).toEqual(['c', 'b', 'a']);
  });

  it('flips the direction on the same column, starts numbers descending and names ascending', () => {
    expect(nextSort({ key: 'totalNs', descending: true }, 'totalNs')).toEqual({ key: 'totalNs', descending: false });
    expect(nextSort({ key: 'totalNs', descending: true }, 'minNs')).toEqual({ key: 'minNs', descending: true });
    expect(nextSort({ key: 'totalNs', descending: true }, 'label')).toEqual({ key: 'label', descending: false });
  });
});
