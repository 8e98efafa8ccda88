/**
 * Pairs of generated captures with known differences, for the comparison's tests and benchmark.
 * Each range spec gives a median duration and a log-normal spread per side; a side with no
 * instances leaves the name out of that capture (added / removed). Instances of all specs are
 * interleaved in a seeded random order on a few threads, one after another (no nesting).
 */
import { ModelBuilder } from '../../src/model/builder.ts';
import type { Model } from '../../src/model/types.ts';
import { Random } from './random.ts';

export interface SideSpec {
  /** Instances in this capture (0: the name is absent). */
  count: number;
  /** Median duration, ns. */
  medianNs: number;
  /** Log-space standard deviation (0.3 is about a 30% spread). */
  sigma: number;
}

export interface PairRangeSpec {
  name: string;
  base: SideSpec;
  candidate: SideSpec;
}

export interface PairOptions {
  ranges: readonly PairRangeSpec[];
  seed?: number;
  threads?: number;
  /** Push ranges left open at the end of the candidate (flagged unterminated by the builder). */
  unendedInCandidate?: readonly string[];
}

interface PairEvent {
  thread: number;
  name: number;
  startNs: number;
  /** NaN: left open (pushed, never popped). */
  endNs: number;
}

/** The instances of one capture, in emission order (per thread in time order). */
function sideEvents(specs: readonly { name: string; side: SideSpec }[], seed: number, threadCount: number, unended: readonly string[]): { names: string[]; events: PairEvent[] } {
  const rnd = new Random(seed);
  const clock = new Float64Array(threadCount);
  const remaining = specs.map((s) => s.side.count);
  let left = remaining.reduce((a, c) => a + c, 0);
  const names = specs.map((s) => s.name);
  const events: PairEvent[] = [];
  while (left > 0) {
    // Pick an instance uniformly among those left, so names interleave.
    let k = Math.floor(rnd.next() * left);
    let s = 0;
    while (k >= remaining[s]) k -= remaining[s++];
    remaining[s]--;
    left--;
    const t = rnd.int(0, threadCount - 1);
    const { medianNs, sigma } = specs[s].side;
    const duration = Math.max(1, Math.round(sigma > 0 ? rnd.logNormal(medianNs, sigma) : medianNs));
    const start = clock[t] + 10 + rnd.int(0, 1000);
    events.push({ thread: t, name: s, startNs: start, endNs: start + duration });
    clock[t] = start + duration;
  }
  for (const name of unended) {
    if (!names.includes(name)) names.push(name);
    events.push({ thread: 0, name: names.indexOf(name), startNs: clock[0] + 10, endNs: NaN });
    clock[0] += 20;
  }
  return { names, events };
}

function buildSide(specs: readonly { name: string; side: SideSpec }[], seed: number, threadCount: number, unended: readonly string[], label: string): Model {
  const { names, events } = sideEvents(specs, seed, threadCount, unended);
  const b = new ModelBuilder({ fileName: `${label}-${seed}.generated`, format: 'generated', byteSize: 0 });
  b.process(1, label);
  const threads = Array.from({ length: threadCount }, (_, t) => b.thread(1, 100 + t, `worker ${t}`));
  const nameIds = names.map((n) => b.intern(n));
  for (const e of events) {
    if (Number.isNaN(e.endNs)) b.push(threads[e.thread], e.startNs, { nameId: nameIds[e.name] });
    else b.range(threads[e.thread], e.startNs, e.endNs, { nameId: nameIds[e.name] });
  }
  return b.finish();
}

/** The same capture as NVTXT text (push/pop ranges), for command-line and page tests. */
function sideNvtxt(specs: readonly { name: string; side: SideSpec }[], seed: number, threadCount: number, unended: readonly string[], label: string): string {
  const { names, events } = sideEvents(specs, seed, threadCount, unended);
  const lines = ['TimeBase = ClockMonotonicRaw', 'ProcessId = 1', `NameProcess, 1, "${label}"`];
  for (let t = 0; t < threadCount; t++) lines.push(`NameOsThread, 1, ${100 + t}, "worker ${t}"`);
  lines.push('@RangePush, Time, ThreadId, Message', '@RangePop, Time, ThreadId');
  // Instances of a thread never overlap, so a push and its pop are adjacent in time order.
  const timed: [number, string][] = [];
  for (const e of events) {
    timed.push([e.startNs, `RangePush, ${e.startNs}, ${100 + e.thread}, "${names[e.name]}"`]);
    if (!Number.isNaN(e.endNs)) timed.push([e.endNs, `RangePop, ${e.endNs}, ${100 + e.thread}`]);
  }
  timed.sort((a, b) => a[0] - b[0]);
  for (const [, line] of timed) lines.push(line);
  return lines.join('\n') + '\n';
}

/** The baseline and candidate captures of `options` (different seeds: independent noise). */
export function buildCapturePair(options: PairOptions): { base: Model; candidate: Model } {
  const seed = options.seed ?? 1;
  const threads = options.threads ?? 4;
  const side = (pick: 'base' | 'candidate') => options.ranges.filter((r) => r[pick].count > 0).map((r) => ({ name: r.name, side: r[pick] }));
  return {
    base: buildSide(side('base'), seed, threads, [], 'base'),
    candidate: buildSide(side('candidate'), seed + 7919, threads, options.unendedInCandidate ?? [], 'candidate'),
  };
}

/** The same pair as NVTXT files' text. */
export function capturePairNvtxt(options: PairOptions): { base: string; candidate: string } {
  const seed = options.seed ?? 1;
  const threads = options.threads ?? 4;
  const side = (pick: 'base' | 'candidate') => options.ranges.filter((r) => r[pick].count > 0).map((r) => ({ name: r.name, side: r[pick] }));
  return {
    base: sideNvtxt(side('base'), seed, threads, [], 'base'),
    candidate: sideNvtxt(side('candidate'), seed + 7919, threads, options.unendedInCandidate ?? [], 'candidate'),
  };
}
