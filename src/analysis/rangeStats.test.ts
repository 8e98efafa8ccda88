import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { ModelBuilder } from '../model/builder.ts';
import { RangeFlag, type Model } from '../model/types.ts';
import { GROUP_BY_VALUES, type GroupBy, type SpanMode, type TimeSpan } from './index.ts';
import { rangeInstances, rangeStats, type RangeStatsOptions, type RangeStatsRow } from './rangeStats.ts';
import { randomModel } from '../../testkit/models/randomModel.ts';
import { referenceRangeStats, type ReferenceOptions, type ReferenceRow } from '../../testkit/models/referenceStats.ts';

const fresh = () => new ModelBuilder({ fileName: 't.test', format: 'test', byteSize: 0 });

/** A thread with outer [0,100] > a [10,30], a [40,50], b [60,90] > a [70,75]; and start/end ranges. */
function sample(): Model {
  const b = fresh();
  const t = b.thread(1, 10, 'main');
  const dom = b.domain(1, 'io');
  b.range(t, 0, 100, { name: 'outer' });
  b.range(t, 10, 30, { name: 'a' });
  b.range(t, 40, 50, { name: 'a' });
  b.range(t, 60, 90, { name: 'b' });
  b.range(t, 70, 75, { name: 'a' });
  b.startEnd(t, 0, 40, { name: 'a', category: 3 });
  b.startEnd(t, 20, 30, { name: 'a', category: 3, domain: dom });
  return b.finish();
}

function row(rows: RangeStatsRow[], label: string, style = 'PushPop'): RangeStatsRow {
  const r = rows.find((x) => x.label === label && x.style === style);
  if (!r) throw new Error(`no row ${style} ${label} in ${rows.map((x) => `${x.style} ${x.label}`).join(', ')}`);
  return r;
}

describe('rangeStats: nsys columns', () => {
  it('computes per-name rows of the whole capture', () => {
    const s = rangeStats(sample());
    const a = row(s.rows, 'a');
    expect(a.count).toBe(3);
    expect(a.totalNs).toBe(35);
    expect(a.minNs).toBe(5);
    expect(a.maxNs).toBe(20);
    expect(a.medianNs).toBe(10);
    expect(a.avgNs).toBeCloseTo(35 / 3, 12);
    // Sample standard deviation of 20, 10, 5.
    expect(a.stdDevNs).toBeCloseTo(Math.sqrt(((20 - 35 / 3) ** 2 + (10 - 35 / 3) ** 2 + (5 - 35 / 3) ** 2) / 2), 9);
    const outer = row(s.rows, 'outer');
    expect(outer.stdDevNs).toBe(0);
    expect(outer.selfNs).toBe(100 - 20 - 10 - 30);
    expect(row(s.rows, 'b').selfNs).toBe(25);
    // StartEnd rows are separate from PushPop rows of the same name; other domains are prefixed.
    expect(row(s.rows, 'a', 'StartEnd').totalNs).toBe(40);
    expect(row(s.rows, 'io:a', 'StartEnd').totalNs).toBe(10);
    expect(s.totalNs).toBe(35 + 100 + 30 + 40 + 10);
    const percentSum = s.rows.reduce((acc, r) => acc + r.timePercent, 0);
    expect(percentSum).toBeCloseTo(100, 9);
    expect(row(s.rows, 'outer').timePercent).toBeCloseTo((100 * 100) / 215, 9);
    // Sorted by total, descending.
    expect(s.rows.map((r) => r.totalNs)).toEqual([...s.rows.map((r) => r.totalNs)].sort((x, y) => y - x));
    expect(s.rows[0].maxRange).toBeGreaterThanOrEqual(0);
  });

  it('takes the mean of the middle two as the median of an even count', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    for (const [s, e] of [[0, 1], [2, 4], [5, 11], [20, 30]]) b.range(t, s, e, { name: 'x' });
    expect(rangeStats(b.finish()).rows[0].medianNs).toBe(4);
  });

  it('clips ranges to a span by default, and counts whole ranges in overlap mode', () => {
    const m = sample();
    const span = [{ startNs: 25, endNs: 65 }];
    const clipped = rangeStats(m, { spans: span });
    expect(row(clipped.rows, 'outer').totalNs).toBe(40);
    expect(row(clipped.rows, 'a').totalNs).toBe(5 + 10);
    expect(row(clipped.rows, 'a').count).toBe(2);
    expect(row(clipped.rows, 'b').totalNs).toBe(5);
    // Self within the span: 40 minus the clipped children 5 + 10 + 5.
    expect(row(clipped.rows, 'outer').selfNs).toBe(20);
    expect(clipped.scopeNs).toBe(40);
    const whole = rangeStats(m, { spans: span, mode: 'overlap' });
    expect(row(whole.rows, 'outer').totalNs).toBe(100);
    expect(row(whole.rows, 'outer').selfNs).toBe(40);
    expect(row(whole.rows, 'b').totalNs).toBe(30);
    const contained = rangeStats(m, { spans: span, mode: 'contain' });
    expect(contained.rows.map((r) => `${r.style} ${r.label}`)).toEqual(['PushPop a']);
    expect(contained.rows[0].count).toBe(1);
  });

  it('does not count a range that only touches the span, but counts an instant inside it', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    b.range(t, 0, 10, { name: 'before' });
    b.range(t, 10, 10, { name: 'instant' });
    b.range(t, 20, 30, { name: 'after' });
    const s = rangeStats(b.finish(), { spans: [{ startNs: 10, endNs: 20 }] });
    expect(s.rows.map((r) => r.label)).toEqual(['instant']);
    expect(s.rows[0].totalNs).toBe(0);
  });

  it('restricts to tracks and honours include masks', () => {
    const m = sample();
    const pushpop = m.tracks.findIndex((t) => t.kind === 'pushpop');
    expect(rangeStats(m, { tracks: [pushpop] }).rows.every((r) => r.style === 'PushPop')).toBe(true);
    const includeStyles = new Uint8Array(m.styles.name.length).fill(1);
    for (let s = 0; s < includeStyles.length; s++) if (m.strings[m.styles.name[s]] === 'outer') includeStyles[s] = 0;
    const filtered = rangeStats(m, { includeStyles });
    expect(filtered.rows.some((r) => r.label === 'outer')).toBe(false);
    expect(row(filtered.rows, 'b').selfNs).toBe(25);
  });

  it('groups by thread, domain and parent', () => {
    const m = sample();
    const byThread = rangeStats(m, { groupBy: 'thread' });
    expect(byThread.rows).toHaveLength(1);
    expect(byThread.rows[0].label).toBe('main (10)');
    expect(byThread.rows[0].style).toBe('PushPop+StartEnd');
    const byDomain = rangeStats(m, { groupBy: 'domain' });
    expect(byDomain.rows.map((r) => r.label).sort()).toEqual(['default domain', 'io']);
    const byParent = rangeStats(m, { groupBy: 'parent' });
    expect(row(byParent.rows, 'outer', 'PushPop').count).toBe(3);
    expect(row(byParent.rows, 'b', 'PushPop').count).toBe(1);
    expect(row(byParent.rows, '(top level)', 'PushPop+StartEnd').count).toBe(3);
  });
});

/** Every column of the engine against the reference, rows matched by (label, style). */
function compare(model: Model, options: RangeStatsOptions, ref: ReferenceOptions, context: string): void {
  const got = rangeStats(model, options).rows;
  const want = referenceRangeStats(model, ref);
  const key = (r: { label: string; style: string }) => `${r.style}|${r.label}`;
  expect(got.map(key).sort(), context).toEqual(want.map(key).sort());
  const byKey = new Map(want.map((r) => [key(r), r]));
  for (const g of got) {
    const w = byKey.get(key(g)) as ReferenceRow;
    const where = `${context} ${key(g)}`;
    expect(g.count, where).toBe(w.count);
    expect(g.unended, `${where} unended`).toBe(w.unended);
    for (const col of ['totalNs', 'selfNs', 'minNs', 'maxNs', 'medianNs', 'p90Ns', 'p99Ns'] as const) {
      expect(g[col], `${where} ${col}`).toBe(w[col]);
    }
    if (g.count === 0) {
      // Only unended instances: no mean or deviation to give.
      expect(g.avgNs, `${where} avg`).toBeNaN();
      expect(g.stdDevNs, `${where} stddev`).toBeNaN();
    } else {
      expect(g.avgNs, `${where} avg`).toBeCloseTo(w.avgNs, 9);
      expect(g.stdDevNs, `${where} stddev`).toBeCloseTo(w.stdDevNs, 6);
    }
    expect(g.timePercent, `${where} time%`).toBeCloseTo(w.timePercent, 9);
  }
}

function randomSpans(rnd: Random, model: Model): TimeSpan[] {
  const n = rnd.int(1, 3);
  return Array.from({ length: n }, () => {
    const a = rnd.int(-5, model.durationNs + 5);
    return { startNs: a, endNs: a + rnd.int(0, model.durationNs / 2) };
  });
}

describe('rangeStats against a reference implementation', () => {
  it('agrees on every column for random models, scopes and groupings', () => {
    const rnd = new Random(2024);
    const modes: SpanMode[] = ['clip', 'overlap', 'contain'];
    for (let trial = 0; trial < 40; trial++) {
      const model = randomModel({ seed: trial + 1 });
      const groupBy = GROUP_BY_VALUES[trial % GROUP_BY_VALUES.length] as GroupBy;
      compare(model, { groupBy }, { groupBy }, `seed ${trial + 1} whole by ${groupBy}`);
      for (const mode of modes) {
        const spans = randomSpans(rnd, model);
        compare(model, { groupBy, spans, mode }, { groupBy, spans, mode }, `seed ${trial + 1} ${mode} ${JSON.stringify(spans)} by ${groupBy}`);
      }
      const tracks = model.tracks.map((_, i) => i).filter(() => rnd.chance(0.5));
      const spans = randomSpans(rnd, model);
      compare(model, { groupBy, tracks, spans }, { groupBy, tracks, spans }, `seed ${trial + 1} tracks ${tracks}`);
      const hiddenThreads = [rnd.int(0, model.threads.length - 1)];
      const includeThreads = new Uint8Array(model.threads.length).fill(1);
      includeThreads[hiddenThreads[0]] = 0;
      const includeStyles = new Uint8Array(model.styles.name.length).fill(1);
      for (let s = 0; s < includeStyles.length; s++) if (model.strings[model.styles.name[s]] === 'beta') includeStyles[s] = 0;
      compare(
        model,
        { groupBy, includeThreads, includeStyles, spans },
        { groupBy, hiddenThreads, hiddenNames: ['beta'], spans },
        `seed ${trial + 1} filtered`,
      );
    }
  });
});

describe('rangeStats properties', () => {
  it('totals over a span equal the sum of the clipped parts, and adjacent spans add up', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const model = randomModel({ seed, ops: 120 });
      const rnd = new Random(seed);
      const a = rnd.int(0, model.durationNs / 2);
      const b = rnd.int(a, model.durationNs);
      const mid = rnd.int(a, b);
      let clippedSum = 0;
      for (const track of model.tracks) {
        if (track.kind !== 'pushpop' && track.kind !== 'category') continue;
        for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
          if (model.ranges.flags[i] & RangeFlag.Unterminated) continue;
          clippedSum += Math.max(0, Math.min(b, model.ranges.endNs[i]) - Math.max(a, model.ranges.startNs[i]));
        }
      }
      const whole = rangeStats(model, { spans: [{ startNs: a, endNs: b }] });
      expect(whole.totalNs).toBe(clippedSum);
      const left = rangeStats(model, { spans: [{ startNs: a, endNs: mid }] });
      const right = rangeStats(model, { spans: [{ startNs: mid, endNs: b }] });
      const totals = new Map<string, number>();
      for (const r of [...left.rows, ...right.rows]) totals.set(r.key, (totals.get(r.key) ?? 0) + r.totalNs);
      for (const r of whole.rows) expect(totals.get(r.key) ?? 0, r.label).toBe(r.totalNs);
      // Self totals split the same way.
      const selves = new Map<string, number>();
      for (const r of [...left.rows, ...right.rows]) selves.set(r.key, (selves.get(r.key) ?? 0) + r.selfNs);
      for (const r of whole.rows) expect(selves.get(r.key) ?? 0, r.label).toBe(r.selfNs);
    }
  });

  it('self total = total - direct children, per range', () => {
    for (let seed = 30; seed < 40; seed++) {
      const model = randomModel({ seed });
      const r = model.ranges;
      const self = new Map<string, number>();
      const stats = rangeStats(model, { kinds: ['pushpop'] });
      for (const track of model.tracks) {
        if (track.kind !== 'pushpop') continue;
        for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
          if (r.flags[i] & RangeFlag.Unterminated) continue;
          let children = 0;
          for (let c = track.rangeBegin; c < track.rangeEnd; c++) {
            if (r.parent[c] === i) children += Math.min(r.endNs[c], r.endNs[i]) - r.startNs[c];
          }
          const label = model.strings[model.styles.name[r.style[i]]];
          const domain = model.domains[model.styles.domain[r.style[i]]].name;
          const key = domain ? `${domain}:${label}` : label;
          self.set(key, (self.get(key) ?? 0) + r.endNs[i] - r.startNs[i] - children);
        }
      }
      for (const row of stats.rows) expect(row.selfNs, row.label).toBe(self.get(row.label) ?? 0);
    }
  });

  it('lists the instances of a row sorted by duration', () => {
    const model = randomModel({ seed: 5, ops: 200 });
    const spans = [{ startNs: 10, endNs: model.durationNs - 10 }];
    const stats = rangeStats(model, { spans });
    for (const row of stats.rows) {
      const inst = rangeInstances(model, { spans }, row.key);
      expect(inst.ranges.length).toBe(row.count);
      expect(inst.durations.reduce((a, b) => a + b, 0)).toBe(row.totalNs);
      for (let k = 1; k < inst.durations.length; k++) expect(inst.durations[k]).toBeGreaterThanOrEqual(inst.durations[k - 1]);
      if (row.count > 0) expect(inst.durations[inst.durations.length - 1]).toBe(row.maxNs);
    }
    expect(rangeInstances(model, {}, 'no such key').ranges.length).toBe(0);
  });
});

describe('rangeStats: ranges that never ended', () => {
  /** Three closed "InputLatency" start/end ranges and two never ended; a push never popped. */
  function withOpenRanges(): Model {
    const b = fresh();
    const t = b.thread(1, 1);
    b.rangeStart(1, t, 0, { name: 'InputLatency' });
    b.rangeEnd(1, t, 10);
    b.rangeStart(2, t, 20, { name: 'InputLatency' });
    b.rangeEnd(2, t, 40);
    b.rangeStart(3, t, 50, { name: 'InputLatency' });
    b.rangeEnd(3, t, 80);
    b.rangeStart(4, t, 90, { name: 'InputLatency' });
    b.rangeStart(5, t, 95, { name: 'InputLatency' });
    b.push(t, 5, { name: 'main' });
    b.range(t, 6, 8, { name: 'inner' });
    b.range(t, 1000, 1000, { name: 'last' });
    return b.finish();
  }

  it('keeps totals, means and percentiles to ranges that ended and counts the rest apart', () => {
    const s = rangeStats(withOpenRanges());
    const latency = row(s.rows, 'InputLatency', 'StartEnd');
    expect(latency.count).toBe(3);
    expect(latency.unended).toBe(2);
    expect(latency.totalNs).toBe(10 + 20 + 30);
    expect(latency.maxNs).toBe(30);
    expect(latency.avgNs).toBe(20);
    expect(latency.p99Ns).toBeLessThanOrEqual(30);
    // A name whose only instance never ended keeps its row, with no duration figures.
    const main = row(s.rows, 'main');
    expect(main.count).toBe(0);
    expect(main.unended).toBe(1);
    expect(main.totalNs).toBe(0);
    expect(main.avgNs).toBeNaN();
    expect(main.maxNs).toBeNaN();
    expect(main.maxRange).toBe(-1);
    expect(row(s.rows, 'inner').count).toBe(1);
    expect(s.rangeCount).toBe(3 + 1 + 1);
    expect(s.unendedCount).toBe(3);
    expect(s.totalNs).toBe(60 + 2);
  });

  it('leaves unended ranges out of the instances, and counts them in spans they meet', () => {
    const m = withOpenRanges();
    const s = rangeStats(m, { spans: [{ startNs: 85, endNs: 200 }] });
    expect(row(s.rows, 'InputLatency', 'StartEnd').unended).toBe(2);
    expect(row(s.rows, 'InputLatency', 'StartEnd').count).toBe(0);
    const key = row(rangeStats(m).rows, 'InputLatency', 'StartEnd').key;
    expect(Array.from(rangeInstances(m, {}, key).durations)).toEqual([10, 20, 30]);
  });
});

describe('rangeStats: groups across processes', () => {
  /** Two processes that each create a domain "pipeline" (per-process handles) and one named "1". */
  function twoProcesses(): Model {
    const b = fresh();
    for (const pid of [100, 200]) {
      const t = b.thread(pid, pid + 1);
      const pipeline = b.domain(pid, 'pipeline');
      const unnamed = b.domain(pid, '1');
      b.range(t, pid, pid + 10, { name: 'stage', domain: pipeline, category: 2 });
      b.range(t, pid + 20, pid + 25, { name: 'ncclSend', domain: unnamed });
    }
    return b.finish();
  }

  it('merges a name across processes and separates it by process', () => {
    const m = twoProcesses();
    expect(m.domains.filter((d) => d.name === 'pipeline')).toHaveLength(2);
    const byName = rangeStats(m);
    expect(byName.rows.map((r) => r.label).sort()).toEqual(['1:ncclSend', 'pipeline:stage']);
    expect(row(byName.rows, 'pipeline:stage').count).toBe(2);
    expect(row(byName.rows, 'pipeline:stage').totalNs).toBe(20);
    expect(row(byName.rows, '1:ncclSend').count).toBe(2);
    // The key still finds every instance.
    expect(rangeInstances(m, {}, row(byName.rows, 'pipeline:stage').key).ranges).toHaveLength(2);
    const byProcess = rangeStats(m, { groupBy: 'process' });
    expect(byProcess.rows).toHaveLength(2);
    expect(byProcess.rows.every((r) => r.count === 2)).toBe(true);
    expect(rangeStats(m, { groupBy: 'domain' }).rows.map((r) => `${r.label} ${r.count}`).sort()).toEqual(['1 2', 'pipeline 2']);
    expect(rangeStats(m, { groupBy: 'category' }).rows.map((r) => r.count).sort()).toEqual([2, 2]);
    expect(rangeStats(m, { groupBy: 'parent' }).rows.map((r) => `${r.label} ${r.count}`)).toEqual(['(top level) 4']);
  });
});

describe('rangeStats samples (the comparison noise test)', () => {
  it('keeps every counted duration of a small group and an evenly spaced subset of a large one', () => {
    const b = new ModelBuilder({ fileName: 'samples', format: 'test', byteSize: 0 });
    const t = b.thread(1, 1, 'main');
    for (let k = 0; k < 500; k++) b.range(t, k * 100, k * 100 + 10 + (k % 7), { name: 'small' });
    for (let k = 0; k < 5000; k++) b.range(t, 100_000 + k * 100, 100_000 + k * 100 + 20 + (k % 11), { name: 'large' });
    b.push(t, 700_000, { name: 'open' });
    const model = b.finish();
    const result = rangeStats(model, {}, 1000);
    const row = (label: string) => result.rows.find((r) => r.label === label)!;
    const sorted = (a: Float64Array) => Array.from(a).sort((x, y) => x - y);
    const instances = (label: string) => sorted(rangeInstances(model, {}, row(label).key).durations);
    expect(sorted(result.samples!.get(row('small').key)!)).toEqual(instances('small'));
    const large = result.samples!.get(row('large').key)!;
    expect(large.length).toBe(1000);
    // Every 5th of 5,000 in walk order: the durations cycle with period 11, so each value shows up about equally often.
    const counts = new Map<number, number>();
    for (const d of large) counts.set(d, (counts.get(d) ?? 0) + 1);
    expect(counts.size).toBe(11);
    for (const c of counts.values()) expect(Math.abs(c - 1000 / 11)).toBeLessThan(3);
    // A group of only unended instances has an empty sample; without the argument, no samples.
    expect(result.samples!.get(row('open').key)!.length).toBe(0);
    expect(rangeStats(model, {}).samples).toBeUndefined();
  });
});
