import { describe, expect, it } from 'vitest';
import { chromeJsonPieces } from '../../testkit/gen/chromeJson.ts';
import { ModelBuilder } from '../model/builder.ts';
import { payloadValue } from '../model/payload.ts';
import { markName, rangeName } from '../model/query.ts';
import { PayloadType, type Model } from '../model/types.ts';
import { loadModel, memorySource } from '../import/pipeline.ts';
import { chromeTraceBytes, chromeTraceFileName, chromeTraceJson, formatMicros } from './chromeJson.ts';

const encode = (s: string) => new TextEncoder().encode(s);

/** A model as another importer would make it: every row kind, domains, payload types. */
function sampleModel(): Model {
  const b = new ModelBuilder({ fileName: 'capture.nvtxt', format: 'test', byteSize: 0 });
  b.setClock('CLOCK_MONOTONIC_RAW', 5_000_000_000n);
  b.process(100, 'trainer');
  b.processSortIndex(100, -2);
  const main = b.thread(100, 1, 'main');
  const worker = b.thread(100, 2, 'worker "2"');
  const other = b.thread(200, 9);
  b.push(main, 0, { name: 'step', category: 1, payload: { type: PayloadType.U64, value: 2n ** 63n + 5n } });
  b.push(main, 1_001, { name: 'forward', payload: { type: PayloadType.Json, value: '{"batch": 32, "ok": true}' } });
  b.pop(main, 2_000_500);
  b.pop(main, 3_000_000);
  const io = b.domain(100, 'IO');
  b.nameCategory(0, 1, 'Compute');
  b.range(main, 10, 20, { name: 'io read', domain: io, payload: { type: PayloadType.String, value: 'file.bin' } });
  b.mark(worker, 1_234, { name: 'ready', payload: { type: PayloadType.F64, value: 0.25 } });
  b.mark(other, 999, { name: 'json mark', payload: { type: PayloadType.Json, value: '[1,2]' } });
  b.rangeStart(1, main, 50, { name: 'async load', category: 1 });
  b.rangeEnd(1, worker, 4_000_000);
  b.startEnd(worker, 70, 80, { name: 'short', category: 2 });
  const mem = b.counterRow({ label: 'memory', process: b.process(100), unit: 'bytes' });
  b.counter(mem, 0, 1024);
  b.counter(mem, 500, 2048.5);
  b.counter(mem, 700, NaN); // unavailable: a gap
  b.counter(mem, 900, 4096);
  const qd = b.counterRow({ label: 'queue', process: b.process(100), thread: worker });
  b.counter(qd, 100, 3);
  const gpu = b.customRow({ kind: 'gpu', label: 'Stream 7', process: b.process(100), path: ['CUDA', 'GPU 0'] });
  b.rowRange(gpu, 100, 300, { name: 'kernelA' });
  b.rowRange(gpu, 200, 400, { name: 'kernelB' });
  b.rowRange(gpu, 350, 360, { name: 'kernelC' });
  const api = b.customRow({ kind: 'api', label: 'CUDA API', process: b.process(100), thread: main });
  b.rowRange(api, 1_100, 1_200, { name: 'cudaLaunchKernel' }, main);
  return b.finish();
}

function text(model: Model, pieceChars?: number): string {
  return [...chromeTraceJson(model, { pieceChars })].join('');
}

/** (name, start, duration) of every range, times from the first range. */
function rangeList(m: Model): [string, number, number][] {
  const out: [string, number, number][] = [];
  for (let i = 0; i < m.ranges.startNs.length; i++) out.push([rangeName(m, i), m.ranges.startNs[i], m.ranges.endNs[i] - m.ranges.startNs[i]]);
  out.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  const t0 = out.length ? out[0][1] : 0;
  return out.map(([n, s, d]) => [n, s - t0, d]);
}

describe('formatMicros', () => {
  it('writes integer nanoseconds as exact microseconds', () => {
    expect(formatMicros(0)).toBe('0');
    expect(formatMicros(1)).toBe('0.001');
    expect(formatMicros(1000)).toBe('1');
    expect(formatMicros(1_234_567)).toBe('1234.567');
    expect(formatMicros(1_000_050)).toBe('1000.050');
    expect(formatMicros(-2_500)).toBe('-2.500');
    expect(formatMicros(9_007_199_254_740_991)).toBe('9007199254740.991');
  });
});

describe('chromeTraceJson', () => {
  it('writes valid Chrome trace JSON with every kind of row', () => {
    const model = sampleModel();
    const doc = JSON.parse(text(model)) as { traceEvents: Record<string, unknown>[]; otherData: Record<string, unknown>; displayTimeUnit: string };
    const phases = doc.traceEvents.map((e) => e.ph);
    const count = (ph: string) => phases.filter((p) => p === ph).length;
    expect(count('X')).toBe(7);
    expect(count('b')).toBe(2);
    expect(count('e')).toBe(2);
    expect(count('i')).toBe(2);
    expect(count('C')).toBe(5);
    expect(doc.otherData).toMatchObject({ exportedBy: 'nvtxview', sourceFile: 'capture.nvtxt', clock: 'CLOCK_MONOTONIC_RAW', originNs: model.capture.originNs });
    expect(doc.displayTimeUnit).toBe('ns');
    const step = doc.traceEvents.find((e) => e.name === 'step')!;
    expect(step).toMatchObject({ ph: 'X', pid: 100, tid: 1, ts: 0, dur: 3000, cat: 'Compute', args: { payload: '9223372036854775813' } });
    expect(doc.traceEvents.find((e) => e.name === 'forward')!.args).toEqual({ batch: 32, ok: true });
    expect(doc.traceEvents.find((e) => e.name === 'json mark')!.args).toEqual({ payload: [1, 2] });
    expect(doc.traceEvents.find((e) => e.name === 'process_sort_index')).toMatchObject({ pid: 100, args: { sort_index: -2 } });
    // The cross-thread range ends on the worker.
    const asyncEnd = doc.traceEvents.find((e) => e.ph === 'e' && e.name === 'async load')!;
    expect(asyncEnd.tid).toBe(2);
    // Overlapping GPU work is split over one made-up thread per lane, named after the row.
    const kernels = doc.traceEvents.filter((e) => String(e.name).startsWith('kernel'));
    expect(new Set(kernels.map((k) => k.tid)).size).toBe(2);
    const names = doc.traceEvents.filter((e) => e.name === 'thread_name').map((e) => (e.args as { name: string }).name);
    expect(names).toEqual(expect.arrayContaining(['CUDA / GPU 0 / Stream 7', 'CUDA / GPU 0 / Stream 7 #2', 'main / CUDA API', 'main / IO']));
  });

  it('round-trips through the Chrome importer with the same events', async () => {
    const model = sampleModel();
    const back = await loadModel(memorySource(chromeTraceFileName(model), encode(text(model))));
    expect(back.capture.format).toBe('chrome-json');
    expect(back.ranges.startNs.length).toBe(model.ranges.startNs.length);
    expect(back.marks.timeNs.length).toBe(model.marks.timeNs.length);
    expect(back.counters.timeNs.length).toBe(model.counters.timeNs.length);
    const memory = back.tracks.find((t) => t.label === 'memory')!;
    expect(Array.from(back.counters.value.subarray(memory.counterBegin, memory.counterEnd))).toEqual([1024, 2048.5, NaN, 4096]);
    expect(rangeList(back)).toEqual(rangeList(model));
    expect(back.issues.filter((i) => i.severity !== 'info')).toEqual([]);
    const marks = Array.from(back.marks.timeNs.keys()).map((i) => markName(back, i)).sort();
    expect(marks).toEqual(['json mark', 'ready']);
    const forward = Array.from(back.ranges.startNs.keys()).find((i) => rangeName(back, i) === 'forward')!;
    expect(payloadValue(back, back.ranges.payload[forward])).toEqual({ type: PayloadType.Json, value: '{"batch": 32, "ok": true}' });
    expect(back.processes.find((p) => p.pid === 100)).toMatchObject({ name: 'trainer', sortIndex: -2 });
  });

  it('round-trips a generated Chrome trace: same ranges, marks, counter samples and args', async () => {
    const source = [...chromeJsonPieces({ events: 5_000, seed: 3 })].join('');
    const first = await loadModel(memorySource('gen.json', encode(source)));
    const exported = text(first, 64 * 1024);
    const second = await loadModel(memorySource('gen.trace.json', encode(exported)));
    expect(first.ranges.startNs.length).toBeGreaterThan(3_500);
    expect(second.ranges.startNs.length).toBe(first.ranges.startNs.length);
    expect(second.marks.timeNs.length).toBe(first.marks.timeNs.length);
    expect(second.counters.timeNs.length).toBe(first.counters.timeNs.length);
    expect(rangeList(second)).toEqual(rangeList(first));
    const payloads = (m: Model) =>
      Array.from(m.ranges.payload)
        .filter((p) => p >= 0)
        .map((p) => payloadValue(m, p)!.value)
        .sort();
    expect(payloads(second)).toEqual(payloads(first));
  });

  it('splits into pieces that concatenate to the same document, also as bytes', () => {
    const model = sampleModel();
    const pieces = [...chromeTraceJson(model, { pieceChars: 200 })];
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(text(model));
    const bytes = [...chromeTraceBytes(model)];
    const total = bytes.reduce((n, b) => n + b.length, 0);
    const joined = new Uint8Array(total);
    let at = 0;
    for (const b of bytes) {
      joined.set(b, at);
      at += b.length;
    }
    expect(new TextDecoder().decode(joined)).toBe(text(model));
  });

  it('suggests a file name from the capture', () => {
    const model = sampleModel();
    expect(chromeTraceFileName(model)).toBe('capture.trace.json');
    model.capture.fileName = 'run.qdrep.sqlite.gz';
    expect(chromeTraceFileName(model)).toBe('run.qdrep.trace.json');
  });
});
