/**
 * Test support: small random models with everything the statistics must handle (nesting,
 * zero-length and unterminated ranges, ties, bad nesting, two domains, two processes, start/end
 * ranges in categories, payloads, marks, counters). Deterministic for a seed.
 */
import { Random } from '../gen/random.ts';
import { ModelBuilder } from '../../src/model/builder.ts';
import { PayloadType, type Model } from '../../src/model/types.ts';

export interface RandomModelOptions {
  seed: number;
  /** Push/pop operations per thread stack. */
  ops?: number;
  startEnds?: number;
  /** Time grid: small values make ties and zero-length ranges common. */
  maxStep?: number;
}

const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'eps'];

export function randomModel(options: RandomModelOptions): Model {
  const rnd = new Random(options.seed);
  const ops = options.ops ?? 60;
  const maxStep = options.maxStep ?? 5;
  const b = new ModelBuilder({ fileName: `random-${options.seed}.test`, format: 'test', byteSize: 0 });
  const threads = [b.thread(1, 11, 'main'), b.thread(1, 12, 'worker'), b.thread(2, 21)];
  const domains = [0, b.domain(1, 'dom')];
  const attrs = () => ({
    name: rnd.pick(NAMES),
    domain: rnd.chance(0.2) ? domains[1] : 0,
    color: rnd.chance(0.5) ? 0xff000000 + rnd.int(0, 0xffffff) : 0,
    payload: rnd.chance(0.3) ? { type: PayloadType.I64, value: rnd.int(0, 3) } : undefined,
  });
  for (const thread of threads) {
    for (const domain of domains) {
      let t = rnd.int(0, 20);
      let depth = 0;
      for (let k = 0; k < ops; k++) {
        t += rnd.int(0, maxStep);
        if (depth > 0 && rnd.chance(0.45)) {
          b.pop(thread, t, domain);
          depth--;
        } else {
          b.push(thread, t, { ...attrs(), domain });
          depth++;
        }
      }
      // Leave some ranges open (closed at the capture end, flagged unterminated).
      while (depth > 0 && rnd.chance(0.7)) {
        t += rnd.int(0, maxStep);
        b.pop(thread, t, domain);
        depth--;
      }
    }
    // A few complete ranges that may overlap their parent's end (bad nesting).
    for (let k = 0; k < 3; k++) {
      const s = rnd.int(0, ops * maxStep);
      b.range(thread, s, s + rnd.int(0, 40), attrs());
    }
    b.mark(thread, rnd.int(0, ops * maxStep), attrs());
    b.mark(thread, rnd.int(0, ops * maxStep), { ...attrs(), category: rnd.int(0, 2) });
  }
  for (let k = 0; k < (options.startEnds ?? 25); k++) {
    const s = rnd.int(0, ops * maxStep);
    const thread = rnd.pick(threads);
    b.startEnd(thread, s, s + rnd.int(0, 60), { ...attrs(), category: rnd.int(0, 3) }, rnd.chance(0.1) ? rnd.pick(threads) : undefined);
  }
  b.nameCategory(0, 1, 'io');
  const counter = b.counterRow({ label: 'queue', process: 0, unit: 'items' });
  let t = 0;
  for (let k = 0; k < 20; k++) {
    t += rnd.int(1, 30);
    b.counter(counter, t, rnd.int(-5, 50));
  }
  return b.finish();
}
