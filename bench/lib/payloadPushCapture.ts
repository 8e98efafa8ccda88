/**
 * A native capture whose every push carries a number payload (PUSH_EX with a message and a u64),
 * four threads, pops in threes: the shape the decoder's PUSH/POP loop (`NativeDecoder.plainRun`)
 * does not read, entered and left at nearly every record. A `load-cpu` file for checking that the
 * loop costs nothing where it does not help (docs/performance.md, "After the merge of nativeloop,
 * ..."). Deterministic.
 *
 *   node scripts/run-ts.mjs bench/lib/payloadPushCapture.ts OUT [pushes per thread, default 500000]
 */
import { writeFileSync } from 'node:fs';
import { Op } from '../../src/import/native/format.ts';
import { CaptureWriter, StreamRecords } from '../../testkit/writers/nvtxcWriter.ts';

const T0 = 1_000n;
const THREADS = 4;
/** Pushes per EVENTS chunk. */
const PUSHES_PER_CHUNK = 2000;

export function payloadPushCapture(pushesPerThread: number): Uint8Array {
  const capture = new CaptureWriter().process({ pid: 1, t0: T0, n0: T0, clockKind: 3 });
  const bits = new Uint8Array(8);
  for (let s = 1; s <= THREADS; s++) {
    const stream = new StreamRecords();
    stream.thread(100 + s, `t${s}`);
    const names = Array.from({ length: 50 }, (_, i) => stream.sid(`range ${i}`));
    const bounds = [0];
    let tick = 0;
    for (let i = 0; i < pushesPerThread; i++) {
      tick += 7;
      bits[0] = i & 255;
      bits[1] = (i >> 8) & 255;
      stream.ex(Op.PushEx, tick, 0, { message: { type: 1, id: names[i % names.length] }, payload: { type: 1, bits } });
      tick += 5;
      if (i % 3 === 2) {
        stream.pop(tick);
        stream.pop(++tick);
        stream.pop(++tick);
      }
      if (i % PUSHES_PER_CHUNK === PUSHES_PER_CHUNK - 1) bounds.push(stream.w.view().length);
    }
    const bytes = stream.w.done();
    bounds.push(bytes.length);
    // Sealed well after the thread's last tick (1 ns per tick).
    const seal = T0 + BigInt(tick + 10_000_000);
    for (let i = 1; i < bounds.length; i++) capture.events(s, [seal, seal], bytes, bounds[i - 1], bounds[i]);
  }
  return capture.exitNormally().bytes();
}

if (process.argv[1]?.endsWith('payloadPushCapture.ts')) {
  const [out, pushes = '500000'] = process.argv.slice(2);
  if (!out) throw new Error('usage: payloadPushCapture.ts OUT [pushes per thread]');
  writeFileSync(out, payloadPushCapture(Number(pushes)));
}
