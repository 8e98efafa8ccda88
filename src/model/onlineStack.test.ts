/**
 * Push/pop rows resolved on arrival (events in time order) give exactly the model that the general
 * path (collect events, sort, replay at finish) gives, including pops with nothing open (kept on the
 * fast path) and after a row falls back to the general path in the middle: an event out of time
 * order, a pop with a payload, a complete range on the same row, pushes never popped.
 */
import { describe, expect, it } from 'vitest';
import { Random } from '../../testkit/gen/random.ts';
import { ModelBuilder } from './builder.ts';
import { PayloadType, type Model } from './types.ts';

type Ev =
  | { kind: 'push'; t: number; name: string; domain: number; loc: number }
  | { kind: 'pop'; t: number; domain: number; loc: number; payload?: number }
  | { kind: 'range'; t: number; end: number; name: string; loc: number };

function build(events: Ev[]): Model {
  const b = new ModelBuilder({ fileName: 'online.test', format: 'test', byteSize: 0 });
  const thread = b.thread(1, 7, 'main');
  const domains = [0, b.domain(1, 'other')];
  for (const e of events) {
    if (e.kind === 'push') b.push(thread, e.t, { name: e.name, domain: domains[e.domain] }, { line: e.loc });
    else if (e.kind === 'pop') {
      const payload = e.payload === undefined ? undefined : { type: PayloadType.I64, value: e.payload };
      b.pop(thread, e.t, domains[e.domain], { line: e.loc }, payload);
    } else b.range(thread, e.t, e.end, { name: e.name }, { line: e.loc });
  }
  return b.finish();
}

/**
 * Everything the builder decides about ranges, and every message. Style and payload rows are
 * numbered in arrival order, so ranges show their name and payload value instead.
 */
function dump(m: Model) {
  const { style, payload, ...columns } = m.ranges;
  return {
    ranges: Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)])),
    names: Array.from(style, (s) => m.strings[m.styles.name[s]]),
    payloads: Array.from(payload, (p) => (p < 0 ? null : m.payloads.bits[p])),
    levels: m.tracks.map((t) => [t.label, t.rangeBegin, t.rangeEnd, t.levelBegin]),
    issues: m.issues.map((i) => `${i.line}: ${i.message} (${i.kind} at ${i.timeNs} on ${i.thread})`),
    durationNs: m.durationNs,
  };
}

interface StreamOptions {
  strayPops?: number;
  popPayloads?: number;
  completeRanges?: number;
  maxStep?: number;
}

/** A time-ordered stream on two domains, with ties, and the odd mistakes asked for. */
function stream(rnd: Random, n: number, o: StreamOptions = {}): Ev[] {
  const events: Ev[] = [];
  const open = [0, 0];
  let t = 1000;
  for (let k = 0; k < n; k++) {
    t += rnd.int(0, o.maxStep ?? 3);
    const domain = rnd.chance(0.2) ? 1 : 0;
    if (rnd.chance(o.completeRanges ?? 0)) {
      events.push({ kind: 'range', t, end: t + rnd.int(0, 20), name: `c${k}`, loc: k });
    } else if ((open[domain] > 0 && rnd.chance(0.45)) || rnd.chance(o.strayPops ?? 0)) {
      const payload = rnd.chance(o.popPayloads ?? 0) ? k : undefined;
      events.push({ kind: 'pop', t, domain, loc: k, payload });
      open[domain] = Math.max(0, open[domain] - 1);
    } else {
      events.push({ kind: 'push', t, name: `r${k % 17}`, domain, loc: k });
      open[domain]++;
    }
  }
  return events;
}

/** The row an event lands on: its domain's push/pop row (complete ranges: the default domain's). */
const rowOf = (e: Ev) => (e.kind === 'range' ? 0 : e.domain);

/**
 * The same events in an arrival order that sorts to the same sequence but leaves the fast path at
 * once: the last event (strictly later than the one before it) comes right after the first event
 * of its row, so rows are still created in the same order.
 */
function lastFirst(events: Ev[]): Ev[] {
  const last = events[events.length - 1];
  const before = events[events.length - 2];
  if (!(last.t > before.t)) throw new Error('the stream must end with a strictly later event');
  const rest = events.slice(0, -1);
  const first = rest.findIndex((e) => rowOf(e) === rowOf(last));
  if (first < 0 || first === rest.length - 1) throw new Error('the last event needs two events of its row before it');
  return [...rest.slice(0, first + 1), last, ...rest.slice(first + 1)];
}

/** Pops everything still open, at strictly later times: rows stay resolved on arrival to the end. */
function closeAll(events: Ev[]): Ev[] {
  const open = [0, 0];
  for (const e of events) {
    if (e.kind === 'push') open[e.domain]++;
    else if (e.kind === 'pop') open[e.domain] = Math.max(0, open[e.domain] - 1);
  }
  let t = events[events.length - 1].t;
  const out = [...events];
  for (const domain of [1, 0]) {
    for (let k = 0; k < open[domain]; k++) out.push({ kind: 'pop', t: ++t, domain, loc: 500_000 + out.length });
  }
  return out;
}

function endWithLaterPush(events: Ev[]): Ev[] {
  const t = events[events.length - 1].t + 5;
  return [...events, { kind: 'push', t, name: 'tail', domain: 0, loc: 999_999 }];
}

describe('push/pop resolved on arrival', () => {
  it('time-ordered stream, every range closed: same model as the general path', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const events = closeAll(stream(new Random(seed), 400));
      const m = build(events);
      expect(m.issues).toEqual([]);
      expect(dump(m)).toEqual(dump(build(lastFirst(events))));
    }
  });

  it('time-ordered stream ending with open ranges: same model as the general path', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const events = endWithLaterPush(stream(new Random(seed), 400));
      expect(dump(build(events))).toEqual(dump(build(lastFirst(events))));
    }
  });

  it('all ranges closed, nothing reported: no fallback needed, same model', () => {
    const events: Ev[] = [];
    let t = 0;
    for (let k = 0; k < 50; k++) {
      events.push({ kind: 'push', t: (t += 2), name: 'outer', domain: 0, loc: 4 * k });
      events.push({ kind: 'push', t, name: 'inner', domain: 0, loc: 4 * k + 1 });
      events.push({ kind: 'pop', t: (t += 1), domain: 0, loc: 4 * k + 2 });
      events.push({ kind: 'pop', t: (t += 1), domain: 0, loc: 4 * k + 3 });
    }
    const m = build(events);
    expect(m.issues).toEqual([]);
    expect(m.tracks[0].levelBegin).toEqual([0, 50, 100]);
    expect(Array.from(m.ranges.parent.subarray(50, 53))).toEqual([0, 1, 2]);
    expect(dump(m)).toEqual(dump(build(lastFirst(events))));
  });

  it('pops with nothing open, pop payloads and complete ranges on the row fall back mid-stream', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const rnd = new Random(100 + seed);
      const events = endWithLaterPush(stream(rnd, 300, { strayPops: 0.05, popPayloads: 0.05, completeRanges: 0.03 }));
      expect(dump(build(events))).toEqual(dump(build(lastFirst(events))));
    }
  });

  it('pops with nothing open stay on the fast path and are reported as the general path reports them', () => {
    let withStrays = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const events = endWithLaterPush(stream(new Random(300 + seed), 300, { strayPops: 0.08 }));
      const m = build(events);
      if (m.issues.some((i) => i.kind === 'pop-without-push')) withStrays++;
      expect(dump(m)).toEqual(dump(build(lastFirst(events))));
    }
    expect(withStrays).toBeGreaterThan(10);
  });

  it('pops with nothing open, then a fallback: the replay puts them back where they came', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const events = endWithLaterPush(stream(new Random(400 + seed), 300, { strayPops: 0.08, maxStep: 10 }));
      // The next-to-last event moved back in arrival, keeping its time: the row falls back near the end.
      const moved = [...events];
      const [e] = moved.splice(moved.length - 2, 1);
      moved.splice(moved.length - 6, 0, e);
      const sorted = [...moved].map((x, i) => ({ x, i })).sort((a, b) => a.x.t - b.x.t || a.i - b.i).map((p) => p.x);
      expect(dump(build(moved))).toEqual(dump(build(lastFirst(sorted))));
    }
  });

  it('an event out of time order in the middle falls back and still sorts', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const events = endWithLaterPush(stream(new Random(200 + seed), 300, { maxStep: 10 }));
      // Move one event earlier in arrival, keeping its time: the stream is no longer time-ordered.
      const from = 150 + seed;
      const moved = [...events];
      const [e] = moved.splice(from, 1);
      moved.splice(from - 40, 0, e);
      const sorted = [...moved].map((x, i) => ({ x, i })).sort((a, b) => a.x.t - b.x.t || a.i - b.i).map((p) => p.x);
      expect(dump(build(moved))).toEqual(dump(build(lastFirst(sorted))));
    }
  });

  it('pushes never popped are closed at the capture end and reported, as by the general path', () => {
    const events: Ev[] = [
      { kind: 'push', t: 10, name: 'a', domain: 0, loc: 1 },
      { kind: 'push', t: 11, name: 'b', domain: 0, loc: 2 },
      { kind: 'pop', t: 12, domain: 0, loc: 3 },
      { kind: 'push', t: 13, name: 'c', domain: 0, loc: 4 },
      { kind: 'push', t: 15, name: 'd', domain: 1, loc: 5 },
      { kind: 'push', t: 20, name: 'e', domain: 0, loc: 6 },
    ];
    const m = build(events);
    expect(dump(m)).toEqual(dump(build(lastFirst(events))));
    expect(m.issues.map((i) => i.line)).toEqual([6, 4, 1, 5]);
  });
});
