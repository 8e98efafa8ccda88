/**
 * A small built-in Chrome trace for warming up a fresh load worker's JIT (src/worker/warmUp.ts):
 * the event shapes real traces are made of (complete events with flat and nested `args`, B/E pairs,
 * instants, counters, nestable async pairs, metadata, a category and a `cname` now and then), one
 * event per line as most writers put them, with times that grow and nest as a profiler's do. Run
 * through the ordinary load path, it makes V8 optimise the decoder and builder code a real load
 * runs, so the first real file does not run its first hundreds of thousands of events unoptimised.
 * Deterministic: the same bytes every time.
 */

const NAMES = ['forward', 'backward', 'optimizer_step', 'copy_batch', 'aten::matmul', 'aten::add_', 'render_frame', 'wait'];
const CATS = ['cpu_op', 'user_annotation', 'python_function', 'gpu'];
const THREADS = 4;
/** The gap halfway through the sample, in µs: 3 s, more than 2^31 ns. */
const GAP_US = 3_000_000;

/** `events` events (at least 16) of a trace, as UTF-8 bytes. */
export function chromeWarmUpSample(events: number): Uint8Array {
  const lines: string[] = ['{"traceEvents":['];
  lines.push('{"name":"process_name","ph":"M","pid":7,"tid":0,"args":{"name":"warm-up"}},');
  for (let t = 0; t < THREADS; t++) lines.push(`{"name":"thread_name","ph":"M","pid":7,"tid":${100 + t},"args":{"name":"thread ${t}"}},`);
  // Each thread's clock: its events follow one another (nested where a B/E pair wraps an X).
  const clocks = new Float64Array(THREADS).fill(1_000_000.125);
  // A small linear congruential sequence: the shapes mix as in a real trace, the same each time.
  let r = 12345;
  const next = (n: number): number => {
    r = (Math.imul(r, 1103515245) + 12345) >>> 0;
    return (r >>> 8) % n;
  };
  for (let e = 0; e < events; e++) {
    // Halfway, a gap of 3 s (a capture's pause between two steps): the second half's times lie
    // past 2^31 ns from the first event, as a real trace's do after a second or two. V8's small
    // integers end at 2^30 (2^31 without pointer compression); code optimised on small times only
    // is deoptimised by the real file's first later event (the decoder's `complete` at `t + dur`).
    if (e === events >> 1) for (let t = 0; t < THREADS; t++) clocks[t] += GAP_US;
    const thread = e % THREADS;
    const tid = 100 + thread;
    const name = NAMES[next(NAMES.length)];
    const cat = CATS[next(CATS.length)];
    const ts = clocks[thread] + 0.5 + next(2000) / 1000;
    const dur = 0.2 + next(5000) / 1000;
    const at = ts.toFixed(3);
    const id = `"0x${(e & 63).toString(16)}"`;
    let line: string;
    switch (next(10)) {
      case 0:
        line = `{"ph":"i","s":"t","name":"${name}","pid":7,"tid":${tid},"ts":${at},"args":{"payload":${e}}}`;
        break;
      case 1:
        line = `{"ph":"C","name":"memory","pid":7,"tid":${tid},"ts":${at},"args":{"allocated":${next(1 << 20)},"reserved":${next(1 << 22)}}}`;
        break;
      case 2:
        line =
          `{"ph":"B","cat":"${cat}","name":"${name}","pid":7,"tid":${tid},"ts":${at},"args":{"step":${e}}},\n` +
          `{"ph":"X","cat":"${cat}","name":"${NAMES[e % NAMES.length]}","pid":7,"tid":${tid},"ts":${(ts + 0.1).toFixed(3)},"dur":${(dur / 2).toFixed(3)}},\n` +
          `{"ph":"E","pid":7,"tid":${tid},"ts":${(ts + dur).toFixed(3)}}`;
        break;
      case 3:
        line =
          `{"ph":"b","cat":"${cat}","name":"${name}","id":${id},"pid":7,"tid":${tid},"ts":${at}},\n` +
          `{"ph":"e","cat":"${cat}","name":"${name}","id":${id},"pid":7,"tid":${tid},"ts":${(ts + dur).toFixed(3)}}`;
        break;
      case 4:
        line = `{"ph":"X","cat":"${cat}","name":"${name}","pid":7,"tid":${tid},"ts":${at},"dur":${dur.toFixed(3)},"args":{"External id":${e},"Input Dims":[[8,${next(64)}],[]],"Input type":["float",""],"Stack":{"depth":${next(9)}}}}`;
        break;
      case 5:
        line = `{"ph":"X","name":"${name}","pid":7,"tid":${tid},"ts":${at},"dur":${dur.toFixed(3)},"cname":"good"}`;
        break;
      default:
        line = `{"ph":"X","cat":"${cat}","name":"${name}","pid":7,"tid":${tid},"ts":${at},"dur":${dur.toFixed(3)},"args":{"seq":${e},"input":"tensor"}}`;
    }
    clocks[thread] = ts + dur + 0.001;
    lines.push(line + ',');
  }
  const end = Math.max(...clocks) + 10;
  lines.push(`{"ph":"i","s":"g","name":"end","pid":7,"tid":100,"ts":${end.toFixed(3)}}`);
  lines.push('],"displayTimeUnit":"ns"}');
  return new TextEncoder().encode(lines.join('\n'));
}
