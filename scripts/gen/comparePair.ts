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

function buildSide(specs: readonly { name: string; side: SideSpec }[], seed: number, threadCount: number, unended: readonly string[], label: string): Model {
  const rnd = new Random(seed);
  const b = new ModelBuilder({ fileName: `${label}-${seed}.generated`, format: 'generated', byteSize: 0 });
  b.process(1, label);
  const threads = Array.from({ length: threadCount }, (_, t) => b.thread(1, 100 + t, `worker ${t}`));
  const clock = new Float64Array(threadCount);
  const remaining = specs.map((s) => s.side.count);
  let left = remaining.reduce((a, c) => a + c, 0);
  const nameIds = specs.map((s) => b.intern(s.name));
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
    b.range(threads[t], start, start + duration, { nameId: nameIds[s] });
    clock[t] = start + duration;
  }
  for (const name of unended) {
    const t = 0;
    b.push(threads[t], clock[t] + 10, { nameId: b.intern(name) });
    clock[t] += 20;
  }
  return b.finish();
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
