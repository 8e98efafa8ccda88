import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../model/builder.ts';
import { PayloadType } from '../model/types.ts';
import { counterStats } from './counterStats.ts';
import { durationBand, durationHistogram, summarizeSorted } from './histogram.ts';
import { markStats } from './markStats.ts';
import { rangeDetails } from './rangeDetails.ts';
import { parseDuration } from './units.ts';

const fresh = () => new ModelBuilder({ fileName: 't.test', format: 'test', byteSize: 0 });

describe('rangeDetails', () => {
  it('describes a nested push/pop range with its children by name', () => {
    const b = fresh();
    b.process(1, 'app');
    const t = b.thread(1, 10, 'main');
    b.nameCategory(0, 7, 'net');
    b.range(t, 0, 1000, { name: 'root' });
    b.range(t, 100, 900, { name: 'step', color: 0xff112233, category: 7, payload: { type: PayloadType.I64, value: 42 } });
    b.range(t, 100, 200, { name: 'io' });
    b.range(t, 150, 160, { name: 'syscall' });
    b.range(t, 300, 350, { name: 'io' });
    b.range(t, 400, 700, { name: 'compute' });
    const m = b.finish();
    const step = Array.from(m.ranges.startNs).findIndex((s, i) => s === 100 && m.ranges.endNs[i] === 900);
    const d = rangeDetails(m, step);
    expect(d.name).toBe('step');
    expect(d.style).toBe('PushPop');
    expect(d.category).toMatchObject({ id: 7, name: 'net', label: 'net (7)' });
    expect(d.thread).toMatchObject({ tid: 10, label: 'main (10)' });
    expect(d.process).toMatchObject({ pid: 1, label: 'app (1)' });
    expect([d.startNs, d.endNs, d.durationNs]).toEqual([100, 900, 800]);
    expect(d.selfNs).toBe(800 - 100 - 50 - 300);
    expect(d.depth).toBe(1);
    expect(d.parentChain.map((p) => p.label)).toEqual(['root']);
    expect(d.childCount).toBe(3);
    expect(d.children).toEqual([
      { label: 'compute', count: 1, unended: 0, totalNs: 300, selfNs: 300, percent: 37.5 },
      { label: 'io', count: 2, unended: 0, totalNs: 150, selfNs: 140, percent: 18.75 },
    ]);
    expect(d.color).toBe(0xff112233);
    expect(d.payload).toBe(42);
    expect(d.payloadText).toBe('42');
    expect(d.unterminated || d.crossThread || d.badNesting).toBe(false);
  });

  it('names the end thread of a start/end range that ended elsewhere', () => {
    const b = fresh();
    const t1 = b.thread(1, 10, 'a');
    const t2 = b.thread(1, 11, 'b');
    b.rangeStart(1, t1, 0, { name: 'job' });
    b.rangeEnd(1, t2, 50);
    const m = b.finish();
    const d = rangeDetails(m, 0);
    expect(d.style).toBe('StartEnd');
    expect(d.crossThread).toBe(true);
    expect(d.endThread?.tid).toBe(11);
    expect(d.parentChain).toEqual([]);
  });
});

describe('markStats', () => {
  it('counts marks per name in a span and on selected tracks only once', () => {
    const b = fresh();
    const t1 = b.thread(1, 10);
    const t2 = b.thread(1, 11);
    for (const [t, time, name] of [[t1, 0, 'tick'], [t1, 10, 'tick'], [t2, 20, 'tock'], [t2, 30, 'tick']] as const) {
      b.mark(t, time, { name, category: name === 'tock' ? 5 : 0 });
    }
    const m = b.finish();
    expect(markStats(m).rows.map((r) => [r.label, r.count])).toEqual([['tick', 3], ['tock', 1]]);
    const span = markStats(m, { spans: [{ startNs: 10, endNs: 20 }] });
    expect(span.rows.map((r) => [r.label, r.count, r.firstNs, r.lastNs])).toEqual([['tick', 1, 10, 10], ['tock', 1, 20, 20]]);
    const marksT2 = m.tracks.findIndex((t) => t.kind === 'marks' && t.thread === t2);
    const category = m.tracks.findIndex((t) => t.kind === 'category');
    const both = markStats(m, { tracks: [marksT2, category] });
    expect(both.markCount).toBe(2);
    expect(markStats(m, { tracks: [category] }).rows.map((r) => r.label)).toEqual(['tock']);
    expect(markStats(m, { groupBy: 'thread' }).rows.map((r) => r.count)).toEqual([2, 2]);
  });
});

describe('counterStats', () => {
  it('treats a counter as a step function over the scope', () => {
    const b = fresh();
    b.thread(1, 1);
    const row = b.counterRow({ label: 'mem', process: 0, unit: 'B' });
    // 10 on [0,10), 30 on [10,20), 0 on [20,40] (capture end 40).
    b.counter(row, 0, 10);
    b.counter(row, 10, 30);
    b.counter(row, 20, 0);
    b.setCaptureSpan(0, 40);
    const m = b.finish();
    const [all] = counterStats(m);
    expect(all).toMatchObject({ label: 'mem', unit: 'B', samples: 3, min: 0, max: 30, first: 10, last: 0, delta: -10 });
    expect(all.average).toBeCloseTo((10 * 10 + 30 * 10) / 40, 12);
    expect(all.ratePerSecond).toBeCloseTo((-10 * 1e9) / 40, 6);
    const [part] = counterStats(m, { spans: [{ startNs: 5, endNs: 15 }] });
    expect(part).toMatchObject({ samples: 1, min: 10, max: 30, first: 10, last: 30, delta: 20, coveredNs: 10 });
    expect(part.average).toBe(20);
    const [late] = counterStats(m, { spans: [{ startNs: 25, endNs: 35 }] });
    expect(late).toMatchObject({ samples: 0, min: 0, max: 0, first: 0, last: 0, average: 0 });
  });
});

describe('histograms and summaries', () => {
  it('bins durations linearly or logarithmically, by count or time', () => {
    const d = [1, 2, 3, 10, 100, 1000];
    const lin = durationHistogram(d, { bins: 10 });
    expect(lin.edges[0]).toBe(1);
    expect(lin.edges[10]).toBe(1000);
    expect(Array.from(lin.values).reduce((a, b) => a + b)).toBe(6);
    expect(lin.values[0]).toBe(5);
    expect(lin.values[9]).toBe(1);
    const log = durationHistogram(d, { bins: 3, scale: 'log', weight: 'time' });
    [1, 10, 100, 1000].forEach((x, i) => expect(log.edges[i]).toBeCloseTo(x, 9));
    expect(Array.from(log.values)).toEqual([6, 10, 1100]);
    // Log bins start at the smallest positive duration; zeros fall into the first bin.
    const zeros = durationHistogram([0, 0, 5, 500], { bins: 2, scale: 'log' });
    expect(Array.from(zeros.edges)).toEqual([5, expect.closeTo(50, 9), 500]);
    expect(Array.from(zeros.values)).toEqual([3, 1]);
  });

  it('summarizes sorted durations and finds duration bands', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    const s = summarizeSorted(sorted);
    expect(s.p50Ns).toBe(50.5);
    expect(s.p99Ns).toBeCloseTo(99.01, 9);
    expect(s.meanNs).toBe(50.5);
    expect([s.slowestIndex, s.medianIndex, s.p99Index]).toEqual([99, 49, 98]);
    expect(durationBand(sorted, 10, 20)).toEqual([9, 20]);
    expect(durationBand(sorted, 20, 10)).toEqual([9, 20]);
    expect(summarizeSorted([]).count).toBe(0);
  });
});

describe('rangeDetails: children that never ended', () => {
  it('counts them apart from the timed children', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    b.push(t, 0, { name: 'run' });
    b.range(t, 10, 30, { name: 'step' });
    b.range(t, 40, 50, { name: 'step' });
    b.push(t, 60, { name: 'step' });
    b.range(t, 200, 1000, { name: 'end' });
    const m = b.finish();
    const run = Array.from(m.ranges.startNs).findIndex((s, i) => s === 0 && m.strings[m.styles.name[m.ranges.style[i]]] === 'run');
    const d = rangeDetails(m, run);
    expect(d.unterminated).toBe(true);
    expect(d.childCount).toBe(3);
    expect(d.children).toEqual([{ label: 'step', count: 2, unended: 1, totalNs: 30, selfNs: 30, percent: (100 * 30) / d.durationNs }]);
  });
});

describe('parseDuration', () => {
  it('reads numbers with units', () => {
    expect(parseDuration('1.5ms')).toBe(1_500_000);
    expect(parseDuration('200us')).toBe(200_000);
    expect(parseDuration('200µs')).toBe(200_000);
    expect(parseDuration('3s')).toBe(3e9);
    expect(parseDuration('42')).toBe(42);
    expect(parseDuration(' 7 ns ')).toBe(7);
    expect(parseDuration('1e3us')).toBe(1e6);
    expect(() => parseDuration('fast')).toThrow(/"fast" is not a duration/);
    expect(() => parseDuration('3 parsecs')).toThrow(/not a duration/);
  });
});
