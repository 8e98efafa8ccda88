/**
 * Push/pop stacks: the builder's ranges, depths and parents against a plain stack simulation of
 * the same events (sorted by time, arrival order breaking ties), on random unsorted input.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { ModelBuilder } from './builder.ts';
import { RangeFlag, type Model } from './types.ts';

const fresh = () => new ModelBuilder({ fileName: 'stacks.test', format: 'test', byteSize: 0 });

interface Ev {
  t: number;
  push: boolean;
  name: string;
}

interface RefRange {
  name: string;
  start: number;
  end: number;
  depth: number;
  parent: string | null;
  unterminated: boolean;
}

/** A plain stack over the events in (time, arrival) order. */
function simulate(events: Ev[], captureEnd: number): { ranges: RefRange[]; strayPops: number } {
  const order = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.t - b.e.t || a.i - b.i);
  const stack: { name: string; start: number; parent: string | null }[] = [];
  const ranges: RefRange[] = [];
  let strayPops = 0;
  for (const { e } of order) {
    if (e.push) {
      stack.push({ name: e.name, start: e.t, parent: stack.length > 0 ? stack[stack.length - 1].name : null });
      continue;
    }
    const open = stack.pop();
    if (!open) {
      strayPops++;
      continue;
    }
    ranges.push({ ...open, end: e.t, depth: stack.length, unterminated: false });
  }
  while (stack.length > 0) {
    const open = stack.pop()!;
    ranges.push({ ...open, end: Math.max(captureEnd, open.start), depth: stack.length, unterminated: true });
  }
  return { ranges, strayPops };
}

function modelRanges(model: Model, zero: number): RefRange[] {
  const r = model.ranges;
  const name = (i: number) => model.strings[model.styles.name[r.style[i]]];
  return Array.from(r.startNs, (_, i) => ({
    name: name(i),
    start: r.startNs[i] + zero,
    end: r.endNs[i] + zero,
    depth: r.depth[i],
    parent: r.parent[i] < 0 ? null : name(r.parent[i]),
    unterminated: (r.flags[i] & RangeFlag.Unterminated) !== 0,
  }));
}

const byName = (a: RefRange, b: RefRange) => (a.name < b.name ? -1 : 1);

function randomStream(rnd: Random, n: number, maxStep: number): Ev[] {
  const events: Ev[] = [];
  let t = 100;
  let open = 0;
  for (let k = 0; k < n; k++) {
    t += rnd.int(0, maxStep);
    // Sometimes pop with nothing open (reported and ignored).
    if ((open > 0 && rnd.chance(0.45)) || rnd.chance(0.03)) {
      events.push({ t, push: false, name: '' });
      open = Math.max(0, open - 1);
    } else {
      events.push({ t, push: true, name: `r${k}` });
      open++;
    }
  }
  return events;
}

/** Issues matching `pattern`, counting a grouped "and N more of this kind" line as its N. */
function countIssues(m: Model, pattern: RegExp): number {
  let n = 0;
  for (const i of m.issues) {
    if (!pattern.test(i.message)) continue;
    const more = /^and ([\d,]+) more of this kind/.exec(i.message);
    n += more ? Number(more[1].replace(/,/g, '')) : 1;
  }
  return n;
}

describe('push/pop stacks', () => {
  it('match a plain stack simulation on random unsorted input', () => {
    const rnd = new Random(11);
    for (let trial = 0; trial < 200; trial++) {
      // Coarse clocks make equal timestamps (and zero-length ranges) common.
      const events = randomStream(rnd, rnd.int(1, 60), trial % 2 === 0 ? 2 : 50);
      const arrival = [...events];
      for (let i = arrival.length - 1; i > 0; i--) {
        const j = rnd.int(0, i);
        [arrival[i], arrival[j]] = [arrival[j], arrival[i]];
      }
      const b = fresh();
      const t = b.thread(1, 1);
      for (const e of arrival) {
        if (e.push) b.push(t, e.t, { name: e.name });
        else b.pop(t, e.t);
      }
      // A later mark on another thread extends the capture: unterminated ranges end there.
      const last = Math.max(...events.map((e) => e.t)) + 7;
      b.mark(b.thread(1, 2), last, { name: 'end' });
      const m = b.finish();
      const zero = Math.min(...events.map((e) => e.t));
      const want = simulate(arrival, last);
      const context = `trial ${trial}: ${arrival.map((e) => (e.push ? `+${e.name}@${e.t}` : `-@${e.t}`)).join(' ')}`;
      expect(modelRanges(m, zero).sort(byName), context).toEqual(want.ranges.sort(byName));
      expect(countIssues(m, /pop with no open range/), context).toBe(want.strayPops);
      expect(countIssues(m, /never popped/), context).toBe(
        want.ranges.filter((r) => r.unterminated).length,
      );
    }
  });

  it('keeps per-domain stacks apart', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    const d = b.domain(1, 'lib');
    b.push(t, 0, { name: 'app' });
    b.push(t, 1, { name: 'lib', domain: d });
    b.pop(t, 2); // closes "app": the default domain's stack
    b.pop(t, 3, d);
    const m = b.finish();
    const rows = m.tracks.filter((x) => x.kind === 'pushpop');
    expect(rows).toHaveLength(2);
    expect(Array.from(m.ranges.depth)).toEqual([0, 0]);
    expect(m.issues).toEqual([]);
  });

  it('nests identical ranges in push order', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    b.push(t, 5, { name: 'outer' });
    b.push(t, 5, { name: 'inner' });
    b.pop(t, 10);
    b.pop(t, 10);
    const got = modelRanges(b.finish(), 5).sort(byName);
    expect(got.map((r) => [r.name, r.depth, r.parent])).toEqual([
      ['inner', 1, 'outer'],
      ['outer', 0, null],
    ]);
  });

  it('keeps a zero-length range at the end of its parent inside it', () => {
    const b = fresh();
    const t = b.thread(1, 1);
    b.push(t, 3, { name: 'parent' });
    b.push(t, 5, { name: 'child' });
    b.pop(t, 5);
    b.pop(t, 5);
    b.push(t, 5, { name: 'next' });
    b.pop(t, 6);
    const got = modelRanges(b.finish(), 3).sort(byName);
    expect(got.map((r) => [r.name, r.depth, r.parent])).toEqual([
      ['child', 1, 'parent'],
      ['next', 0, null],
      ['parent', 0, null],
    ]);
  });
});
