/**
 * The shared, format-independent event stream of generated captures. Every format writer
 * (testkit/gen/nvtxt.ts, and the native / Chrome JSON writers to come) and the direct model feed
 * (testkit/gen/model.ts) consume it, so one seed describes the same capture in every format.
 *
 * Shape: one process with `threads` threads. Each thread runs nested push/pop ranges (root ranges
 * of ~1-10 ms, children filling part of their parent, down to `maxDepth`), marks, and start/end
 * ranges in a few categories (a hierarchy of two levels) that overlap each other. About `names`
 * distinct names with a skewed (Zipf-like) popularity and per-name log-normal durations. Threads
 * are written in interleaved bursts, so the output is time-ordered per thread but not globally,
 * like a real emitter that buffers per thread.
 *
 * `events` counts ranges and marks (a push/pop pair is one range); ranges still open when the
 * count is reached are closed (their pops are not counted).
 */
import { Random } from './random.ts';

export interface GenOptions {
  /** Ranges + marks to generate. */
  events: number;
  seed?: number;
  threads?: number;
  names?: number;
  maxDepth?: number;
  /** Share of events that are marks / start-end ranges. */
  markShare?: number;
  startEndShare?: number;
  /**
   * 'split' (default): push and pop as separate events (NVTXT, native); 'complete': one 'range'
   * event per push/pop range, emitted when it ends (Chrome "X" events, `ModelBuilder.range`).
   */
  pushPop?: 'split' | 'complete';
}

export interface GenHeader {
  seed: number;
  displayName: string;
  /** Absolute time (ns) of the first event, on a CLOCK_MONOTONIC_RAW-like clock. */
  originNs: number;
  process: { pid: number; name: string };
  threads: { tid: number; name: string }[];
  /** Categories with their parent id (0 = top level). */
  categories: { id: number; name: string; parent: number }[];
  /** All names, index = name id in events. */
  names: string[];
  /** ARGB per name id; 0 = no color. */
  colors: number[];
}

interface Attrs {
  /** Thread index into header.threads. */
  thread: number;
  name: number;
  /** Category id, 0 = none. */
  category: number;
  /** Integer payload, or undefined. */
  payload?: number;
}

export type GenEvent =
  | ({ kind: 'push'; t: number } & Attrs)
  | { kind: 'pop'; t: number; thread: number }
  | ({ kind: 'range'; start: number; end: number } & Attrs)
  | ({ kind: 'mark'; t: number } & Attrs)
  | ({ kind: 'startEnd'; start: number; end: number } & Attrs);

/** A few System.Drawing.Color names with their ARGB values, so writers can name colors. */
export const NAMED_COLORS: Readonly<Record<string, number>> = {
  Blue: 0xff0000ff,
  Red: 0xffff0000,
  Green: 0xff008000,
  Orange: 0xffffa500,
  Purple: 0xff800080,
  SteelBlue: 0xff4682b4,
  Gold: 0xffffd700,
  Crimson: 0xffdc143c,
};

const VERBS = ['load', 'decode', 'forward', 'backward', 'optimize', 'gather', 'scatter', 'reduce', 'copy', 'launch',
  'sync', 'wait', 'encode', 'compress', 'send', 'recv', 'prefetch', 'compile', 'render', 'update'];
const NOUNS = ['batch', 'tile', 'layer', 'frame', 'kernel', 'buffer', 'tensor', 'chunk', 'block', 'step'];

function makeNames(count: number): string[] {
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const base = `${VERBS[i % VERBS.length]}_${NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]}`;
    const round = Math.floor(i / (VERBS.length * NOUNS.length));
    names.push(round === 0 ? base : `${base}_${round}`);
  }
  return names;
}

export function makeHeader(options: GenOptions): GenHeader {
  const seed = options.seed ?? 1;
  const rnd = new Random(seed ^ 0x5eed);
  const names = makeNames(options.names ?? 200);
  const threadCount = options.threads ?? 16;
  return {
    seed,
    displayName: `generated capture (seed ${seed}, ${options.events} events)`,
    originNs: 1_000_000_000_000 + rnd.int(0, 1_000_000) * 1000,
    process: { pid: 4000 + rnd.int(0, 999), name: 'trainer' },
    threads: Array.from({ length: threadCount }, (_, i) => ({
      tid: 10_000 + i * 7,
      name: i === 0 ? 'main' : `worker-${i}`,
    })),
    categories: [
      { id: 1, name: 'IO', parent: 0 },
      { id: 2, name: 'Disk', parent: 1 },
      { id: 3, name: 'Network', parent: 1 },
      { id: 4, name: 'Compute', parent: 0 },
      { id: 5, name: 'Memory', parent: 0 },
    ],
    names,
    // A third of the names without color, some with a named color, the rest with any opaque one.
    colors: names.map(() => {
      const r = rnd.next();
      if (r < 1 / 3) return 0;
      if (r < 1 / 2) return rnd.pick(Object.values(NAMED_COLORS));
      return (0xff000000 | rnd.uint32()) >>> 0;
    }),
  };
}

interface Open {
  name: number;
  start: number;
  end: number;
  category: number;
}

interface ThreadState {
  t: number;
  stack: Open[];
}

/** Popularity-skewed name id. */
function pickName(rnd: Random, count: number): number {
  const u = rnd.next();
  return Math.floor(count * u * u * u);
}

export function* generateEvents(header: GenHeader, options: GenOptions): Generator<GenEvent> {
  const rnd = new Random(header.seed);
  const total = options.events;
  const maxDepth = options.maxDepth ?? 6;
  const markShare = options.markShare ?? 0.1;
  const startEndShare = options.startEndShare ?? 0.05;
  const complete = options.pushPop === 'complete';
  const nameCount = header.names.length;
  // Per-name median duration: 2 µs .. 2 ms, log-uniform.
  const median = header.names.map(() => 2000 * Math.pow(1000, rnd.next()));
  const threads: ThreadState[] = header.threads.map(() => ({ t: header.originNs + rnd.int(0, 50_000), stack: [] }));
  let emitted = 0;
  let payload = 0;

  while (emitted < total) {
    const thread = rnd.int(0, threads.length - 1);
    const state = threads[thread];
    const burst = rnd.int(1, 32);
    for (let step = 0; step < burst && emitted < total; step++) {
      const top = state.stack[state.stack.length - 1];
      const gap = Math.round(rnd.exponential(top ? Math.max(50, (top.end - top.start) / 20) : 20_000)) + 10;
      // Close the innermost range when time runs past its planned end (or sometimes early).
      if (top && (state.t + gap >= top.end || rnd.chance(0.15))) {
        // At least 1 ns after the thread's last event: a range never ends at the same time as the
        // child it encloses (viewers that replay complete events as begin/end pairs, e.g.
        // speedscope, cannot order such ties and mis-nest the rest of the thread).
        const end = Math.max(state.t + 1, Math.min(top.end, state.t + gap));
        state.stack.pop();
        state.t = end;
        yield* closeRange(top, end, thread, complete);
        continue;
      }
      state.t += gap;
      const r = rnd.next();
      if (r < markShare) {
        yield { kind: 'mark', t: state.t, thread, name: pickName(rnd, nameCount), category: rnd.chance(0.2) ? rnd.int(1, 5) : 0, payload: payload++ };
      } else if (r < markShare + startEndShare) {
        const name = pickName(rnd, nameCount);
        const start = state.t - rnd.int(0, 100_000);
        const end = start + Math.round(rnd.logNormal(median[name] * 2, 1));
        yield { kind: 'startEnd', start, end, thread, name, category: rnd.int(1, 5), payload: payload++ };
      } else if (state.stack.length < maxDepth) {
        const name = pickName(rnd, nameCount);
        let duration = Math.round(state.stack.length === 0 ? rnd.logNormal(3_000_000, 0.7) : rnd.logNormal(median[name], 0.8)) + 1;
        if (top) duration = Math.min(duration, Math.max(1, top.end - state.t));
        const open: Open = { name, start: state.t, end: state.t + duration, category: rnd.chance(0.05) ? 4 : 0 };
        state.stack.push(open);
        if (!complete) yield { kind: 'push', t: state.t, thread, name, category: open.category };
      } else {
        continue;
      }
      emitted++;
    }
  }
  // Close what is still open, innermost first, at its planned end.
  for (let thread = 0; thread < threads.length; thread++) {
    const state = threads[thread];
    while (state.stack.length > 0) {
      const top = state.stack.pop()!;
      const end = Math.max(state.t + 1, top.end);
      state.t = end;
      yield* closeRange(top, end, thread, complete);
    }
  }
}

function* closeRange(open: Open, end: number, thread: number, complete: boolean): Generator<GenEvent> {
  if (complete) yield { kind: 'range', start: open.start, end, thread, name: open.name, category: open.category };
  else yield { kind: 'pop', t: end, thread };
}
