import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ModelBuilder } from '../../model/builder.ts';
import { payloadValue } from '../../model/payload.ts';
import { markName, rangeName } from '../../model/query.ts';
import { RangeFlag, type Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';
import { HEAD_BYTES } from '../importer.ts';
import { chromeImporter, decodeChromeTrace, sniffChromeJson } from './chrome.ts';

const encode = (s: string) => new TextEncoder().encode(s);

/** Decodes `chunks` with the Chrome importer directly (no sniffing), as the pipeline would. */
async function decodeChunks(chunks: Uint8Array[], name = 'trace.json', fastPath = true): Promise<Model> {
  const size = chunks.reduce((n, c) => n + c.length, 0);
  const builder = new ModelBuilder({ fileName: name, format: chromeImporter.id, byteSize: size });
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  await decodeChromeTrace(
    {
      name,
      size,
      head: all.subarray(0, HEAD_BYTES),
      chunks: async function* () {
        yield* chunks;
      },
    },
    { builder, options: {} },
    fastPath,
  );
  return builder.finish();
}

const decodeText = (text: string) => decodeChunks([encode(text)]);

/** Ranges as (name, start, end, depth) sorted, for comparisons. */
function ranges(m: Model): [string, number, number, number][] {
  const out: [string, number, number, number][] = [];
  for (let r = 0; r < m.ranges.startNs.length; r++) out.push([rangeName(m, r), m.ranges.startNs[r], m.ranges.endNs[r], m.ranges.depth[r]]);
  return out.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
}

function marks(m: Model): [string, number][] {
  const out: [string, number][] = [];
  for (let i = 0; i < m.marks.timeNs.length; i++) out.push([markName(m, i), m.marks.timeNs[i]]);
  return out.sort((a, b) => a[1] - b[1]);
}

/** Everything observable about a model, for comparing decodes of the same bytes. */
function summary(m: Model) {
  return {
    ranges: ranges(m),
    marks: marks(m),
    counters: Array.from(m.counters.value),
    tracks: m.tracks.map((t) => `${t.kind}:${t.label}`),
    processes: m.processes,
    threads: m.threads,
    issues: m.issues,
    origin: m.capture.originNs,
  };
}

function trackLabels(m: Model, kind: string): string[] {
  return m.tracks.filter((t) => t.kind === kind).map((t) => t.label);
}

describe('Chrome importer phases', () => {
  it('stacks B/E and X events per thread, unsorted input included', async () => {
    // X events written when they end (children before parents), B/E interleaved with them.
    const m = await decodeText(`[
      {"name":"child","ph":"X","ts":2,"dur":1,"pid":1,"tid":1},
      {"name":"parent","ph":"X","ts":1,"dur":5,"pid":1,"tid":1},
      {"name":"be","ph":"E","ts":11,"pid":1,"tid":1},
      {"name":"be","ph":"B","ts":10,"pid":1,"tid":1},
      {"name":"inner","ph":"B","ts":10.25,"pid":1,"tid":1},
      {"ph":"E","ts":10.75,"pid":1,"tid":1}
    ]`);
    expect(ranges(m)).toEqual([
      ['parent', 0, 5000, 0],
      ['child', 1000, 2000, 1],
      ['be', 9000, 10000, 0],
      ['inner', 9250, 9750, 1],
    ]);
    expect(m.issues).toEqual([]);
    expect(m.capture.originNs).toBe('1000');
  });

  it('converts fractional microseconds to exact integer nanoseconds', async () => {
    const m = await decodeText(`[
      {"name":"a","ph":"X","ts":1700000000000000.123,"dur":0.0015,"pid":1,"tid":1},
      {"name":"b","ph":"X","ts":1700000000000001.005,"dur":"2.5","pid":1,"tid":1}
    ]`);
    expect(ranges(m)).toEqual([
      ['a', 0, 2, 0],
      ['b', 882, 3382, 0],
    ]);
    expect(m.capture.originNs).toBe('1700000000000000123');
  });

  it('puts instants on their thread, process or global row', async () => {
    const m = await decodeText(`[
      {"name":"t","ph":"i","ts":1,"pid":1,"tid":2,"s":"t"},
      {"name":"old","ph":"I","ts":2,"pid":1,"tid":2},
      {"name":"p","ph":"i","ts":3,"pid":1,"tid":2,"s":"p"},
      {"name":"g","ph":"i","ts":4,"pid":"","tid":"","s":"g"}
    ]`);
    expect(marks(m)).toEqual([
      ['t', 0],
      ['old', 1000],
      ['p', 2000],
      ['g', 3000],
    ]);
    const threadOf = (name: string) => {
      const i = marks(m).findIndex(([n]) => n === name);
      const byTime = Array.from(m.marks.timeNs.keys()).sort((a, b) => m.marks.timeNs[a] - m.marks.timeNs[b]);
      return m.threads[m.marks.thread[byTime[i]]];
    };
    expect(threadOf('t').tid).toBe(2);
    expect(threadOf('old').tid).toBe(2);
    expect(threadOf('p').name).toBe('Process instants');
    expect(m.processes[threadOf('p').process].pid).toBe(1);
    expect(threadOf('g').name).toBe('Global instants');
    expect(m.processes[threadOf('g').process].name).toBe('Global');
  });

  it('makes one counter row per series, per process', async () => {
    const m = await decodeText(`[
      {"name":"mem","ph":"C","ts":1,"pid":1,"args":{"heap":10,"stack":"2"}},
      {"name":"mem","ph":"C","ts":2,"pid":1,"args":{"heap":12}},
      {"name":"mem","ph":"C","ts":2,"pid":2,"args":{"heap":5}},
      {"name":"q","ph":"C","ts":3,"pid":1,"id":7,"args":{"value":1.5}},
      {"name":"bad","ph":"C","ts":3,"pid":1,"args":{"v":"x"}}
    ]`);
    const rows = m.tracks.filter((t) => t.kind === 'counter').map((t) => [t.label, m.processes[t.process].pid, t.counterEnd - t.counterBegin]);
    expect(rows).toEqual([
      ['mem heap', 1, 2],
      ['mem stack', 1, 1],
      ['mem heap', 2, 1],
      ['q 7', 1, 1],
    ]);
    const heap = m.tracks[0];
    expect(Array.from(m.counters.value.subarray(heap.counterBegin, heap.counterEnd))).toEqual([10, 12]);
    expect(m.issues).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining('not a finite number'), offset: expect.any(Number) })]);
  });

  it('pairs nestable async events by category and id into lanes of the category row', async () => {
    const text = `[
      {"name":"req","cat":"net","ph":"b","id":"0x1","ts":0,"pid":1,"tid":1,"args":{"url":"a"}},
      {"name":"dns","cat":"net","ph":"b","id":"0x1","ts":1,"pid":1,"tid":1},
      {"name":"dns","cat":"net","ph":"e","id":"0x1","ts":2,"pid":1,"tid":2},
      {"name":"step","cat":"net","ph":"n","id":"0x1","ts":2.5,"pid":1,"tid":1},
      {"name":"req","cat":"net","ph":"e","id":"0x1","ts":5,"pid":1,"tid":2},
      {"name":"other","cat":"net","ph":"b","id2":{"local":"0x1"},"ts":1,"pid":1,"tid":1},
      {"name":"other","cat":"net","ph":"e","id2":{"local":"0x1"},"ts":3,"pid":1,"tid":1},
      {"name":"disk","cat":"io","ph":"e","id":9,"ts":4,"pid":1,"tid":1},
      {"name":"open","cat":"io","ph":"b","id":10,"ts":4,"pid":1,"tid":1},
      {"name":"old","cat":"io","ph":"S","id":3,"ts":1,"pid":1,"tid":1},
      {"name":"old","cat":"io","ph":"T","id":3,"ts":2,"pid":1,"tid":1},
      {"name":"old","cat":"io","ph":"F","id":3,"ts":3,"pid":1,"tid":1}
    ]`;
    const m = await decodeText(text);
    expect(trackLabels(m, 'category').sort()).toEqual(['io (2)', 'net (1)']);
    const net = m.tracks.find((t) => t.label === 'net (1)')!;
    expect(net.levelBegin.length - 1).toBe(3);
    expect(ranges(m)).toEqual([
      ['req', 0, 5000, 0],
      ['dns', 1000, 2000, 1],
      ['old', 1000, 3000, 0],
      ['other', 1000, 3000, 2],
      ['open', 4000, 5000, 0],
    ]);
    const req = ranges(m).findIndex(([n]) => n === 'req');
    const reqIndex = Array.from(m.ranges.startNs.keys()).find((r) => rangeName(m, r) === 'req')!;
    expect(req).toBe(0);
    expect(payloadValue(m, m.ranges.payload[reqIndex])).toEqual({ type: 8, value: '{"url":"a"}' });
    expect(m.ranges.flags[reqIndex] & RangeFlag.CrossThread).toBeTruthy();
    // The async instant shows as a mark (and on its category row).
    expect(marks(m)).toEqual([['step', 2500]]);
    expect(net.markRefEnd - net.markRefBegin).toBe(1);
    const messages = m.issues.map((i) => `${i.severity}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^warning: async end "disk" .*id 9.* has no open begin/),
        expect.stringMatching(/^warning: start\/end range .* never ended/),
        expect.stringMatching(/^info: 1 legacy async step events \(ph "T"\) not shown/),
      ]),
    );
    const open = Array.from(m.ranges.startNs.keys()).find((r) => rangeName(m, r) === 'open')!;
    expect(m.ranges.flags[open] & RangeFlag.Unterminated).toBeTruthy();
  });

  it('names and orders processes and threads from metadata events', async () => {
    const m = await decodeText(`[
      {"name":"process_name","ph":"M","pid":1,"args":{"name":"Renderer"}},
      {"name":"process_name","ph":"M","pid":2,"args":{"name":"Browser"}},
      {"name":"process_sort_index","ph":"M","pid":2,"args":{"sort_index":-1}},
      {"name":"thread_name","ph":"M","pid":1,"tid":5,"args":{"name":"Main"}},
      {"name":"thread_name","ph":"M","pid":1,"tid":3,"args":{"name":"IO"}},
      {"name":"thread_sort_index","ph":"M","pid":1,"tid":5,"args":{"sort_index":-5}},
      {"name":"process_labels","ph":"M","pid":1,"args":{"labels":"x"}},
      {"name":"a","ph":"X","ts":1,"dur":1,"pid":1,"tid":3},
      {"name":"a","ph":"X","ts":1,"dur":1,"pid":1,"tid":5},
      {"name":"a","ph":"X","ts":1,"dur":1,"pid":2,"tid":1}
    ]`);
    expect(m.trackTree.map((n) => n.label)).toEqual(['Browser (2)', 'Renderer (1)']);
    expect(m.trackTree[1].children.map((n) => n.label)).toEqual(['Main (5)', 'IO (3)']);
    expect(m.issues).toEqual([expect.objectContaining({ severity: 'info', message: expect.stringContaining('"process_labels" not used') })]);
  });

  it('maps string pids and tids to made-up numbers named after the strings', async () => {
    const m = await decodeText(`[
      {"name":"a","ph":"X","ts":1,"dur":1,"pid":"gpu","tid":"stream 7"},
      {"name":"b","ph":"X","ts":2,"dur":1,"pid":"gpu","tid":"stream 7"},
      {"name":"c","ph":"X","ts":3,"dur":1,"pid":"12","tid":"34"},
      {"name":"thread_name","ph":"M","pid":"gpu","tid":"stream 7","args":{"name":"Stream 7"}}
    ]`);
    expect(m.processes.map((p) => p.name).sort()).toEqual(['', 'gpu']);
    expect(m.processes.find((p) => p.name === '')!.pid).toBe(12);
    const gpuThread = m.threads.find((t) => m.processes[t.process].name === 'gpu')!;
    expect(gpuThread.name).toBe('Stream 7');
    expect(gpuThread.tid).toBeLessThan(0);
    expect(m.tracks.filter((t) => t.kind === 'pushpop').length).toBe(2);
  });

  it('keeps args as JSON payloads, escapes and all, and colors from cname', async () => {
    const text = `[
      {"name":"q\\"uote \\u00e9","ph":"X","ts":1,"dur":1,"pid":1,"tid":1,"args":{"k":"v","n":[1,2]},"cname":"terrible"},
      {"name":"plain","ph":"X","ts":2,"dur":1,"pid":1,"tid":1,"args":{}},
      {"name":"café","ph":"X","ts":3,"dur":1,"pid":1,"tid":1,"cname":"no-such-color"}
    ]`;
    const m = await decodeChunks([encode(text)]);
    expect(ranges(m).map((r) => r[0])).toEqual(['q"uote é', 'plain', 'café']);
    expect(payloadValue(m, m.ranges.payload[0])).toEqual({ type: 8, value: '{"k":"v","n":[1,2]}' });
    expect(m.ranges.payload[1]).toBe(-1);
    expect(m.styles.color[m.ranges.style[0]]).not.toBe(0);
    expect(m.issues).toEqual([
      expect.objectContaining({ severity: 'info', offset: text.indexOf('{"name":"café"'), message: expect.stringContaining('"no-such-color"') }),
    ]);
  });

  it('reports events with missing fields at their byte offset and loads the rest', async () => {
    const text = '[{"name":"ok","ph":"X","ts":1,"dur":1,"pid":1,"tid":1},\n{"name":"nots","ph":"X","dur":1,"pid":1,"tid":1},\n{"name":"nodur","ph":"X","ts":3,"pid":1,"tid":1},\n{"name":"noph","ts":4},\n{"name":"weird","ph":"Q","ts":4,"pid":1,"tid":1},\n{"name":"ok2","ph":"B","ts":5,"pid":1}]';
    const m = await decodeText(text);
    expect(ranges(m).map((r) => r[0])).toEqual(['ok', 'nodur', 'ok2']);
    const at = (s: string) => text.indexOf(`{"name":"${s}"`);
    expect(m.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ severity: 'warning', offset: at('nots'), message: expect.stringContaining('without "ts"') }),
        expect.objectContaining({ severity: 'warning', offset: at('nodur'), message: expect.stringContaining('without a numeric "dur"') }),
        expect.objectContaining({ severity: 'warning', offset: at('noph'), message: expect.stringContaining('without a string "ph"') }),
        expect.objectContaining({ severity: 'warning', offset: at('weird'), message: expect.stringContaining('unknown phase "Q"') }),
        expect.objectContaining({ severity: 'warning', offset: at('ok2'), message: expect.stringContaining('"tid"') }),
      ]),
    );
  });

  it('lists a flood of one problem a few times, then counts it', async () => {
    const events = Array.from({ length: 50 }, (_, i) => `{"name":"n${i}","ph":"X","pid":1,"tid":1}`);
    const m = await decodeText(`[${events.join(',')}]`);
    expect(m.issues.length).toBe(11);
    expect(m.issues[10].message).toMatch(/40 more .* \(50 in all\)/);
  });
});

describe('Chrome importer documents', () => {
  it('reads the object form and keeps its small top-level values as properties', async () => {
    const m = await decodeText(`{"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":1,"pid":1,"tid":1}],
      "displayTimeUnit":"ns","otherData":{"version":"My Chrome 1.0","n":3},"systemTraceEvents":"# tracer: nop\\n"}`);
    expect(ranges(m).length).toBe(1);
    expect(m.capture.properties).toMatchObject({
      displayTimeUnit: 'ns',
      'otherData.version': 'My Chrome 1.0',
      'otherData.n': '3',
      'chrome.form': 'JSON object (traceEvents)',
    });
    expect(m.issues).toEqual([expect.objectContaining({ severity: 'info', message: expect.stringContaining('"systemTraceEvents"') })]);
  });

  it('loads a PyTorch profiler trace, its ac2g flows noted once (their links come from the correlation args)', async () => {
    // Shape of torch.profiler's export_chrome_trace() output (PyTorch 2.x): object form with
    // schemaVersion/deviceProperties, X events with "args" for CPU ops and GPU kernels (pid = device,
    // tid = stream), "ac2g" flow events (ph s/f with bp "e"), M metadata and a global "Record Window
    // End" instant with empty pid/tid strings. Names and numbers invented.
    const text = `{
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85097971712}],
  "traceEvents": [
  {
    "ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 4242, "tid": 4242,
    "ts": 1718000000000100.250, "dur": 85.125,
    "args": {
      "External id": 12, "Record function id": 0, "Sequence number": 7, "Fwd thread id": 0, "Ev Idx": 11
    }
  },
  {
    "ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 4242, "tid": 4242,
    "ts": 1718000000000110.500, "dur": 60.000,
    "args": {"External id": 13, "Ev Idx": 12}
  },
  {
    "ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4242, "tid": 4242,
    "ts": 1718000000000150.750, "dur": 9.500,
    "args": {"External id": 14, "cbid": 211, "correlation": 77}
  },
  {
    "ph": "s", "id": 77, "pid": 4242, "tid": 4242, "ts": 1718000000000150.750,
    "cat": "ac2g", "name": "ac2g"
  },
  {
    "ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_tn", "pid": 0, "tid": 7,
    "ts": 1718000000000170.000, "dur": 42.000,
    "args": {"queued": 0, "device": 0, "stream": 7, "correlation": 77, "grid": [8, 4, 1]}
  },
  {
    "ph": "f", "id": 77, "pid": 0, "tid": 7, "ts": 1718000000000170.000,
    "cat": "ac2g", "name": "ac2g", "bp": "e"
  },
  {
    "name": "process_name", "ph": "M", "ts": 1718000000000100.250, "pid": 4242, "tid": 0,
    "args": {"name": "python3"}
  },
  {
    "name": "thread_name", "ph": "M", "ts": 1718000000000100.250, "pid": 0, "tid": 7,
    "args": {"name": "stream 7"}
  },
  {
    "name": "Record Window End", "ph": "i", "s": "g",
    "pid": "", "tid": "", "ts": 1718000000000300.000
  }
  ],
  "traceName": "/tmp/trace.json",
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1718000000000000000
}`;
    const m = await loadModel(memorySource('trace.pt.trace.json', encode(text)));
    expect(m.capture.format).toBe('chrome-json');
    expect(ranges(m)).toEqual([
      ['aten::linear', 0, 85125, 0],
      ['aten::addmm', 10250, 70250, 1],
      // On the thread's CUDA Runtime API row, not nested in the op.
      ['cudaLaunchKernel', 50500, 60000, 0],
      ['ampere_sgemm_128x64_tn', 69750, 111750, 0],
    ]);
    expect(marks(m)).toEqual([['Record Window End', 199750]]);
    expect(m.processes.find((p) => p.pid === 4242)!.name).toBe('python3');
    expect(m.capture.properties['deviceProperties']).toContain('A100');
    expect(m.capture.properties['baseTimeNanoseconds']).toBe('1718000000000000000');
    // Its ts are Unix times already (as older PyTorch versions wrote them): UTC, not base + ts.
    expect(m.capture.clock).toBe('UTC');
    expect(new Date(Number(BigInt(m.capture.originNs) / 1_000_000n)).toISOString().slice(0, 10)).toBe('2024-06-10');
    expect(m.categories.map((c) => c.name).sort()).toEqual(['cpu_op', 'cuda_runtime', 'kernel']);
    const linear = Array.from(m.ranges.startNs.keys()).find((r) => rangeName(m, r) === 'aten::linear')!;
    expect(JSON.parse(payloadValue(m, m.ranges.payload[linear])!.value as string)).toMatchObject({ 'External id': 12 });
    expect(m.issues.map((i) => `${i.severity}: ${i.message}`)).toEqual([
      `info: 2 PyTorch profiler "ac2g" flow events: the launch → GPU work links they draw are read from the events' "correlation" args (first at byte ${text.indexOf('{\n    "ph": "s"')})`,
    ]);
  });

  it('keeps events before and after malformed JSON in a large file, with byte offset and line', async () => {
    const rows: string[] = [];
    for (let i = 0; i < 5000; i++) {
      rows.push(i === 3000 ? `{"name":"broken","ph":"X","ts":${i},"dur":0.5,,"pid":1,"tid":1}` : `{"name":"e${i % 7}","ph":"X","ts":${i},"dur":0.5,"pid":1,"tid":1}`);
    }
    const text = `[\n${rows.join(',\n')}\n]`;
    const bytes = encode(text);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 16384) chunks.push(bytes.subarray(i, i + 16384));
    const m = await decodeChunks(chunks);
    expect(m.ranges.startNs.length).toBe(4999);
    const error = m.issues.find((i) => i.severity === 'error')!;
    expect(error.offset).toBe(text.indexOf(',,') + 1);
    expect(error.line).toBe(3002);
    expect(error.message).toMatch(/malformed JSON at byte \d+: .*where a key should start/);
  });

  it('keeps what came before the end of a truncated file', async () => {
    const text = '{"traceEvents":[{"name":"a","ph":"X","ts":1,"dur":1,"pid":1,"tid":1},{"name":"b","ph":"X","ts":2,"d';
    const m = await decodeText(text);
    expect(ranges(m).map((r) => r[0])).toEqual(['a']);
    expect(m.issues).toEqual([expect.objectContaining({ severity: 'error', offset: text.indexOf('{"name":"b"'), message: expect.stringContaining('truncated') })]);
  });

  const chunkSample = `\ufeff{"traceEvents":[
    {"name":"process_name","ph":"M","pid":1,"args":{"name":"p\\u00e9"}},
    {"name":"a","cat":"c","ph":"X","ts":10.125,"dur":5.5,"pid":1,"tid":1,"args":{"x":[1,{"y":"}"}]}},
    {"name":"b","ph":"B","ts":11,"pid":1,"tid":1},{"name":"b","ph":"E","ts":12,"pid":1,"tid":1},
    {"name":"i","ph":"i","s":"g","ts":12.5,"pid":1,"tid":1},
    {"name":"c","ph":"C","ts":13,"pid":1,"args":{"v":-1.5e2}},
    {"name":"as","cat":"net","ph":"b","id":"0x2","ts":10,"pid":1,"tid":2},
    {"name":"as","cat":"net","ph":"e","id":"0x2","ts":14,"pid":1,"tid":2},
    {"name":"bad" "ph":"X"},
    {"name":"after","ph":"X","ts":16,"dur":1,"pid":1,"tid":1}
  ],"displayTimeUnit":"ms","otherData":{"k":"v"}}`;

  it('decodes the same model for every chunk boundary and for 1-byte chunks', async () => {
    const bytes = encode(chunkSample);
    const whole = summary(await decodeChunks([bytes]));
    expect(whole.ranges.length).toBe(4);
    expect(whole.issues.length).toBe(2); // the malformed event and the resume note
    for (let k = 1; k < bytes.length; k++) {
      expect(summary(await decodeChunks([bytes.subarray(0, k), bytes.subarray(k)]))).toEqual(whole);
    }
    const ones = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
    expect(summary(await decodeChunks(ones))).toEqual(whole);
  });

  it('decodes random traces the same with and without the fast path', async () => {
    let seed = 99;
    const r = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 4294967296;
    };
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
    const event = (): string => {
      const ph = pick(['X', 'X', 'B', 'E', 'i', 'I', 'b', 'e', 'n', 'S', 'F', 'C', 'M', 's', 'Q']);
      const parts = [`"ph":"${ph}"`, `"pid":${pick(['1', '2', '"proc"'])}`, `"tid":${pick(['1', '7', '"t\\u0031"', '2.5'])}`];
      if (r() < 0.95) parts.push(`"ts":${pick(['1', '2.5', '3.0004', '4.0006', '"5.5"', '6e0', '7.25', '-1'])}`);
      if (ph === 'X' && r() < 0.9) parts.push(`"dur":${pick(['0.5', '1', '2.125', '1e1'])}`);
      if (ph === 'M') parts.push(`"name":"${pick(['thread_name', 'process_name', 'thread_sort_index'])}"`, `"args":${pick(['{"name":"n"}', '{"sort_index":2}', '{}'])}`);
      else parts.push(`"name":${pick(['"a"', '"b"', '"caf\\u00e9"', '"über"', '3'])}`);
      if (r() < 0.5) parts.push(`"cat":${pick(['"c1"', '"c2"', '""'])}`);
      if (r() < 0.4 && ph !== 'M') parts.push(`"args":${pick(['{}', '{"k":1}', '{"s":"x","n":[1,{"d":2}]}', '{"value":3}', '{ "v" : 4 }'])}`);
      if ('beSFn'.includes(ph)) parts.push(pick(['"id":"0x1"', '"id":2', '"id2":{"local":"0x3"}', '"id2":{"global":5}', '"scope":"s"']));
      if (ph === 'i' || ph === 'I') parts.push(`"s":"${pick(['t', 'p', 'g'])}"`);
      if (r() < 0.1) parts.push(`"cname":"${pick(['good', 'bad', 'nonsense'])}"`);
      if (r() < 0.1) parts.push('"tts":12,"tdur":3');
      const order = parts.sort(() => r() - 0.5);
      let text = `{${order.join(pick([',', ',', ',', ', ', ',\n  ', '\n,']))}}`;
      if (r() < 0.03) text = text.replace(':', ':,');
      return text;
    };
    for (let doc = 0; doc < 30; doc++) {
      const events = Array.from({ length: 60 }, event);
      const text = r() < 0.5 ? `[${events.join(',\n')}]` : `{"traceEvents":[${events.join(',')}],"otherData":{"v":1}}`;
      const bytes = encode(text);
      const cut = Math.floor(r() * bytes.length);
      const chunks = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const general = await decodeChunks(chunks, 'trace.json', false);
      const fast = await decodeChunks(chunks, 'trace.json', true);
      expect(summary(fast)).toEqual(summary(general));
      expect(fast.strings).toEqual(general.strings);
      expect(Array.from(fast.payloads.type)).toEqual(Array.from(general.payloads.type));
      const payloads = (m: Model) => Array.from(m.ranges.payload, (p) => payloadValue(m, p)?.value);
      expect(payloads(fast)).toEqual(payloads(general));
    }
  });

  it('loads gzip-compressed Chrome JSON through the pipeline', async () => {
    const bytes = encode(chunkSample);
    const plain = await loadModel(memorySource('t.json', bytes));
    // Same name: gzip is recognised from the bytes, not the name.
    const zipped = await loadModel(memorySource('t.json', gzipSync(bytes)));
    expect(zipped.capture.format).toBe('chrome-json');
    expect(zipped.capture.properties.compression).toBe('gzip');
    expect(summary(zipped)).toEqual(summary(plain));
    expect(zipped.ranges.startNs.length).toBe(4);
  });
});

describe('sniffChromeJson', () => {
  const yes = [
    '[{"name":"a","ph":"X","ts":1}]',
    '\ufeff  \n[ {"pid":1,"ph":"B"',
    '{"traceEvents":[]}',
    '{"otherData":{},"traceEvents":[{"ph":"X"}]}',
    '{"ph":"X","ts":1,"pid":1,"name":"single event"}',
  ];
  const no = ['{"a":1}', '[1,2,3]', '[]', '[{"name":"x"}]', 'NVTXT text\n', '{"ph":"X"}', '', '\x1f\x8b'];
  for (const s of yes) it(`claims ${JSON.stringify(s.slice(0, 30))}`, () => expect(sniffChromeJson(encode(s))).toBe(true));
  for (const s of no) it(`does not claim ${JSON.stringify(s.slice(0, 30))}`, () => expect(sniffChromeJson(encode(s))).toBe(false));
});

describe('Chrome nestable async pairing (issue 11 §4)', () => {
  it("pairs ends by name as catapult does: an unmatched inner end closes nothing (nestable_async.json's REQUEST_FOO)", async () => {
    // The second request of catapult's tracing/test_data/nestable_async.json, as its importer and
    // Trace Compass read it: REQUEST_FOO 110-200 µs, an end named after no open begin at 130.
    const ev = (ph: string, name: string, ts: number) => `{"name":"${name}","cat":"foo","ph":"${ph}","id":"0x100","pid":26037,"tid":26066,"ts":${ts}}`;
    const m = await decodeText(
      `[${[
        ev('b', 'REQUEST_FOO', 110),
        ev('e', 'URL_REQUEST_DELEGATE_UNMATCHED_END', 130),
        ev('b', 'URL_REQUEST_START_JOB', 140),
        ev('e', 'URL_REQUEST_START_JOB', 170),
        ev('b', 'URL_REQUEST_DELEGATE', 180),
        ev('e', 'URL_REQUEST_DELEGATE', 190),
        ev('e', 'REQUEST_FOO', 200),
      ].join(',\n')}]`,
    );
    expect(ranges(m)).toEqual([
      ['REQUEST_FOO', 0, 90_000, 0],
      ['URL_REQUEST_START_JOB', 30_000, 60_000, 1],
      ['URL_REQUEST_DELEGATE', 70_000, 80_000, 1],
    ]);
    expect(m.issues).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: 'async end "URL_REQUEST_DELEGATE_UNMATCHED_END" (async id 0x100, cat "foo") has no open begin of its name (1 of other names open); ignored',
        offset: expect.any(Number),
      }),
    ]);
  });

  it('pairs by category and id too, and lets an end without a name close the innermost', async () => {
    const m = await decodeText(`[
      {"name":"a","cat":"x","ph":"b","id":1,"pid":1,"tid":1,"ts":0},
      {"name":"a","cat":"y","ph":"b","id":1,"pid":1,"tid":1,"ts":1},
      {"name":"a","cat":"x","ph":"b","id":2,"pid":1,"tid":1,"ts":2},
      {"name":"a","cat":"y","ph":"e","id":1,"pid":1,"tid":1,"ts":3},
      {"name":"inner","cat":"x","ph":"b","id":1,"pid":1,"tid":1,"ts":4},
      {"cat":"x","ph":"e","id":1,"pid":1,"tid":1,"ts":5},
      {"name":"a","cat":"x","ph":"e","id":2,"pid":1,"tid":1,"ts":6},
      {"name":"a","cat":"x","ph":"e","id":1,"pid":1,"tid":1,"ts":9}
    ]`);
    expect(ranges(m).map(([n, s, e]) => [n, s, e])).toEqual([
      ['a', 0, 9000],
      ['a', 1000, 3000],
      ['a', 2000, 6000],
      ['inner', 4000, 5000],
    ]);
    expect(m.issues).toEqual([]);
  });
});

describe('Chrome JSON that is no trace (issue 11 §4)', () => {
  for (const [what, text, message] of [
    ['a cloud tracing export', '{"traceId":"abc","spans":[{"spanId":"1","name":"GET /","startTime":"2026-01-01T00:00:00Z"}]}', /^not a Chrome trace: a JSON object without a "traceEvents" array \(keys "traceId", "spans"\)$/],
    ['an execution trace', '{"schema":"1.1.1-chakra.0.0.4","pid":1234,"time":"2026-11-01","start_ts":1,"nodes":[{"name":"[pytorch|profiler|execution_trace|process]","id":1,"ctrl_deps":1}],"finish_ts":9}', /^not a Chrome trace: a JSON object without a "traceEvents" array \(keys "schema", "pid", "time", "start_ts", "nodes", "finish_ts"\)$/],
    ['an array of records', '[{"name":"a","pid":1,"ts":1},{"name":"b","pid":1,"ts":2}]', /^not a Chrome trace: none of the 2 objects of the events array has a "ph"/],
    ['an array of numbers', '[1,2,3]', /^not a Chrome trace: the events array holds 3 values that are not event objects$/],
  ] as const) {
    it(`fails ${what} with a clear message and no events`, async () => {
      const m = await decodeText(text);
      expect(m.ranges.startNs.length + m.marks.timeNs.length + m.counters.timeNs.length).toBe(0);
      const error = m.issues.find((i) => i.severity === 'error');
      expect(error?.message).toMatch(message);
      expect(error?.line).toBe(1);
    });
  }

  it('still loads an empty trace as one (a warning, no error)', async () => {
    for (const text of ['[]', '{"traceEvents":[]}']) {
      const m = await decodeText(text);
      expect(m.issues.map((i) => `${i.severity}: ${i.message}`)).toEqual(['warning: the trace holds no events']);
    }
  });
});
