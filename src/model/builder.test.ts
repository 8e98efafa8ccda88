import { describe, expect, it } from 'vitest';
import { ModelBuilder } from './builder.ts';
import { RangeFlag } from './types.ts';

const fresh = () => new ModelBuilder({ fileName: 't.nvtxt', format: 'test', byteSize: 0 });

describe('ModelBuilder push/pop', () => {
  it('rebuilds nesting from unsorted push/pop events', () => {
    const b = fresh();
    const t = b.thread(1, 10, 'main');
    // Written in the order a "write when it ends" emitter uses.
    b.push(t, 20, { name: 'inner' });
    b.pop(t, 30);
    b.push(t, 10, { name: 'outer' });
    b.pop(t, 50);
    const m = b.finish();
    expect(m.ranges.startNs.length).toBe(2);
    const track = m.tracks.find((x) => x.kind === 'pushpop')!;
    expect(track.levelBegin.length).toBe(3);
    const outer = track.levelBegin[0];
    const inner = track.levelBegin[1];
    expect(m.strings[m.styles.name[m.ranges.style[outer]]]).toBe('outer');
    expect(m.ranges.depth[inner]).toBe(1);
    expect(m.ranges.parent[inner]).toBe(outer);
    expect(m.ranges.startNs[outer]).toBe(0);
    expect(m.ranges.endNs[inner]).toBe(20);
    expect(m.durationNs).toBe(40);
  });

  it('reports a pop with nothing open and closes unterminated ranges at the end', () => {
    const b = fresh();
    const t = b.thread(1, 10);
    b.pop(t, 5, 0, { line: 3 });
    b.push(t, 10, { name: 'open' }, { line: 4 });
    b.mark(t, 100, { name: 'last' });
    const m = b.finish();
    expect(m.issues.some((i) => i.line === 3 && /pop with no open range/.test(i.message))).toBe(true);
    expect(m.issues.some((i) => i.line === 4 && /never popped/.test(i.message))).toBe(true);
    expect(m.ranges.flags[0] & RangeFlag.Unterminated).toBeTruthy();
    expect(m.ranges.endNs[0] - m.ranges.startNs[0]).toBe(90);
  });
});

describe('ModelBuilder start/end', () => {
  it('packs overlapping ranges into the fewest lanes per category row', () => {
    const b = fresh();
    const t = b.thread(1, 10);
    b.startEnd(t, 0, 10, { name: 'a', category: 1 });
    b.startEnd(t, 5, 15, { name: 'b', category: 1 });
    b.startEnd(t, 10, 20, { name: 'c', category: 1 });
    const m = b.finish();
    const row = m.tracks.find((x) => x.kind === 'category')!;
    expect(row.levelBegin.length - 1).toBe(2);
  });

  it('matches ids across threads and flags the crossing', () => {
    const b = fresh();
    const t1 = b.thread(1, 10);
    const t2 = b.thread(1, 11);
    b.rangeStart(7, t1, 0, { name: 'x' });
    b.rangeEnd(7, t2, 9);
    b.rangeEnd(7, t2, 12, { offset: 99 });
    const m = b.finish();
    expect(m.ranges.flags[0] & RangeFlag.CrossThread).toBeTruthy();
    expect(Array.from(m.crossThreadEnds.thread)).toEqual([t2]);
    expect(m.issues.some((i) => i.offset === 99)).toBe(true);
  });
});
