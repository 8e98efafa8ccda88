/**
 * `OpenBegins` against the matching it replaced (an array searched from the innermost, and
 * shifted), on random streams of begins and named and unnamed ends per key, small keys and keys
 * with hundreds open at once: the same begin for every end, the same count of open begins when an
 * end matches nothing, the same begins left open in the same order.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../../../testkit/gen/random.ts';
import { OpenBegins } from './openBegins.ts';


/** What happened to each event of a key: a begin opened (-2), an end took a begin (its index), or took none (-1 - open count). */
type Outcome = { steps: number[]; left: number[] };

/** The earlier matching (AsyncRangeMatcher.finish before OpenBegins), as it was. */
function reference(isEnd: Uint8Array, names: Int32Array, from: number, to: number): Outcome {
  const open: number[] = [];
  let openCount = 0;
  const steps: number[] = [];
  for (let i = from; i < to; i++) {
    if (!isEnd[i]) {
      open[openCount++] = i;
      steps.push(-2);
      continue;
    }
    let at = openCount - 1;
    const name = names[i];
    if (name >= 0) while (at >= 0 && names[open[at]] !== name) at--;
    if (at < 0) {
      steps.push(-1 - openCount);
      continue;
    }
    const b = open[at];
    for (let q = at + 1; q < openCount; q++) open[q - 1] = open[q];
    openCount--;
    steps.push(b);
  }
  return { steps, left: open.slice(0, openCount) };
}

function withOpenBegins(open: OpenBegins, isEnd: Uint8Array, names: Int32Array, from: number, to: number): Outcome {
  open.clear();
  const steps: number[] = [];
  for (let i = from; i < to; i++) {
    if (!isEnd[i]) {
      open.open(i);
      steps.push(-2);
      continue;
    }
    const b = open.take(names[i]);
    steps.push(b < 0 ? -1 - open.count : b);
  }
  const left: number[] = [];
  open.forEach((b) => left.push(b));
  return { steps, left };
}

describe('OpenBegins', () => {
  it('matches as the array it replaced did, on random keys small and large', () => {
    const next = random(7);
    for (let trial = 0; trial < 40; trial++) {
      // Keys one after another over one set of event indices, as AsyncRangeMatcher.finish runs them.
      const n = 20_000;
      const isEnd = new Uint8Array(n);
      const names = new Int32Array(n);
      const nameCount = 1 + Math.floor(next() * (trial % 2 === 0 ? 3 : 40));
      for (let i = 0; i < n; i++) {
        // Phases of mostly begins and mostly ends, so that keys grow past the array's size and shrink.
        const phase = Math.floor(i / (50 + Math.floor(next() * 400))) % 2;
        isEnd[i] = next() < (phase === 0 ? 0.3 : 0.7) ? 1 : 0;
        names[i] = isEnd[i] && next() < 0.15 ? -1 : Math.floor(next() * nameCount);
      }
      const open = new OpenBegins(names, n);
      let large = 0;
      for (let from = 0; from < n; ) {
        const to = Math.min(n, from + (next() < 0.7 ? 1 + Math.floor(next() * 6) : 1 + Math.floor(next() * 3000)));
        const got = withOpenBegins(open, isEnd, names, from, to);
        const want = reference(isEnd, names, from, to);
        if (want.left.length > 32 || want.steps.some((s) => s < -33)) large++;
        expect(got, `trial ${trial}, events ${from}-${to}`).toEqual(want);
        from = to;
      }
      expect(large, `trial ${trial}`).toBeGreaterThan(0);
    }
  });

  it('takes each end in constant time: 50,000 begins of one key ended in begin order', () => {
    const n = 100_000;
    const isEnd = new Uint8Array(n);
    const names = new Int32Array(n);
    for (let i = 0; i < n / 2; i++) {
      names[i] = i;
      isEnd[n / 2 + i] = 1;
      names[n / 2 + i] = i;
    }
    const open = new OpenBegins(names, n);
    const t = performance.now();
    const got = withOpenBegins(open, isEnd, names, 0, n);
    // The array took seconds here (50,000 searches and shifts of up to 50,000).
    expect(performance.now() - t).toBeLessThan(2000);
    expect(got.steps.slice(n / 2)).toEqual(Array.from({ length: n / 2 }, (_, i) => i));
    expect(got.left).toEqual([]);
  });
});
