import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateKineto } from '../../../testkit/gen/kineto.ts';
import { rangeCudaStatistics } from '../../analysis/cuda/statistics.ts';
import { PROJECTION_ROW_LABEL, isGpuWorkRow } from '../../model/cudaRows.ts';
import { enclosingRanges } from '../../model/flows.ts';
import { correlatedRanges, correlationIdOf, markName, rangeName, trackOfRange } from '../../model/query.ts';
import { NVTX_RANGE_KINDS } from '../../analysis/scope.ts';
import { rangeStats } from '../../analysis/rangeStats.ts';
import type { Model } from '../../model/types.ts';
import { loadModel, memorySource } from '../pipeline.ts';

const FIXTURE = '../shared/fixtures/pytorch/cnn-h100-torch2.11.json';

const load = (name: string, text: string | Uint8Array) =>
  loadModel(memorySource(name, typeof text === 'string' ? new TextEncoder().encode(text) : text));

interface ModelCounts {
  byCategory: Map<string, number>;
  gpuWork: number;
  /** API calls linked to at least one GPU work range. */
  launches: number;
  /** Correlation ids tying an API call to GPU work (what the ac2g flows draw). */
  links: number;
}

/** What the model holds, counted from the model alone. */
function modelCounts(m: Model): ModelCounts {
  const byCategory = new Map<string, number>();
  let gpuWork = 0;
  let launches = 0;
  const linkIds = new Set<number>();
  m.tracks.forEach((track) => {
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
      const c = m.styles.category[m.ranges.style[i]];
      const cat = c >= 0 ? m.categories[c].name : '';
      if (track.label !== PROJECTION_ROW_LABEL) byCategory.set(`${track.kind}:${cat}`, (byCategory.get(`${track.kind}:${cat}`) ?? 0) + 1);
      if (isGpuWorkRow(track)) gpuWork++;
      if (track.kind === 'api') {
        const work = correlatedRanges(m, i).filter((p) => isGpuWorkRow(m.tracks[trackOfRange(m, p)]));
        if (work.length > 0) {
          launches++;
          const k = m.correlation!.range.indexOf(i);
          linkIds.add(m.correlation!.id[k]);
        }
      }
    }
  });
  return { byCategory, gpuWork, launches, links: linkIds.size };
}

interface JsonEvent {
  ph: string;
  cat?: string;
  id?: number;
  args?: { correlation?: number };
}

describe('PyTorch profiler (Kineto) traces: the real PyTorch 2.11 fixture', async () => {
  const text = readFileSync(FIXTURE, 'utf8');
  const m = await load('cnn-h100-torch2.11.json', text);
  // The independent count: straight from the JSON.
  const events = (JSON.parse(text) as { traceEvents: JsonEvent[] }).traceEvents;
  const ofCat = (cat: string) => events.filter((e) => e.ph === 'X' && e.cat === cat);
  const gpuCorr = new Set([...ofCat('kernel'), ...ofCat('gpu_memcpy'), ...ofCat('gpu_memset')].map((e) => e.args!.correlation));
  const api = [...ofCat('cuda_runtime'), ...ofCat('cuda_driver')];
  const flowStarts = new Set(events.filter((e) => e.ph === 's' && e.cat === 'ac2g').map((e) => e.id));
  const flowEnds = new Set(events.filter((e) => e.ph === 'f' && e.cat === 'ac2g').map((e) => e.id));
  const counts = modelCounts(m);

  it('puts kernels, copies and sets on GPU rows per device and stream, as GPU work', () => {
    expect(counts.byCategory.get('gpu:kernel')).toBe(ofCat('kernel').length);
    expect(counts.byCategory.get('gpu:gpu_memcpy')).toBe(ofCat('gpu_memcpy').length);
    expect(counts.byCategory.get('gpu:gpu_memset')).toBe(ofCat('gpu_memset').length);
    expect(counts.gpuWork).toBe(ofCat('kernel').length + ofCat('gpu_memcpy').length + ofCat('gpu_memset').length);
    // None of them left on a thread's stack.
    expect(counts.byCategory.get('pushpop:kernel')).toBeUndefined();
    const rows = m.tracks.filter(isGpuWorkRow).map((t) => [...t.path, t.label].join(' > '));
    expect(rows.sort()).toEqual([
      'CUDA > GPU 0 (NVIDIA H100 80GB HBM3) > Stream 13',
      'CUDA > GPU 0 (NVIDIA H100 80GB HBM3) > Stream 158',
      'CUDA > GPU 0 (NVIDIA H100 80GB HBM3) > Stream 7',
    ]);
  });

  it('puts runtime and driver calls on API rows under their thread, CPU ops and annotations on the thread', () => {
    expect(counts.byCategory.get('api:cuda_runtime')).toBe(ofCat('cuda_runtime').length);
    expect(counts.byCategory.get('api:cuda_driver')).toBe(ofCat('cuda_driver').length);
    expect(counts.byCategory.get('pushpop:cpu_op')).toBe(ofCat('cpu_op').length);
    expect(counts.byCategory.get('pushpop:user_annotation')).toBe(ofCat('user_annotation').length);
    const labels = new Set(m.tracks.filter((t) => t.kind === 'api').map((t) => `${m.threads[t.thread].tid} ${t.label}`));
    expect(labels).toEqual(new Set(['502 CUDA Runtime API', '544 CUDA Runtime API', '544 CUDA Driver API']));
  });

  it('links launches to their GPU work as many times as the JSON does (correlation args and ac2g flows agree)', () => {
    const launches = api.filter((e) => gpuCorr.has(e.args!.correlation)).length;
    const pairs = [...flowStarts].filter((id) => flowEnds.has(id) && gpuCorr.has(id)).length;
    expect(counts.launches).toBe(launches);
    expect(counts.links).toBe(pairs);
    expect(pairs).toBe(gpuCorr.size);
  });

  it('keeps gpu_user_annotation on GPU rows, out of the CPU range statistics', () => {
    expect(counts.byCategory.get('gpu:gpu_user_annotation')).toBe(ofCat('gpu_user_annotation').length);
    const stats = rangeStats(m, { kinds: NVTX_RANGE_KINDS });
    const backward = stats.rows.find((r) => r.label === 'backward');
    expect(backward?.count).toBe(events.filter((e) => e.ph === 'X' && e.cat === 'user_annotation' && (e as { name?: string }).name === 'backward').length);
  });

  it('puts the trace on the UTC clock of its baseTimeNanoseconds, as Nsight exports are', () => {
    const first = Math.min(...events.filter((e) => typeof (e as { ts?: number }).ts === 'number').map((e) => (e as unknown as { ts: number }).ts));
    expect(m.capture.clock).toBe('UTC');
    // Unix time of the first event: baseTimeNanoseconds + ts × 1000 (µs to ns), to the nanosecond.
    expect(Number(BigInt(m.capture.originNs) - 1790857026000000000n) / 1000).toBeCloseTo(first, 3);
    expect(new Date(Number(BigInt(m.capture.originNs) / 1_000_000n)).toISOString().slice(0, 10)).toBe('2026-11-24');
  });

  it("keeps the profiler's facts about the run as capture properties", () => {
    for (const [key, value] of [['cuda_driver_version', '13000'], ['cuda_runtime_version', '13000'], ['cupti_version', '130001'], ['profile_memory', '1']]) {
      expect(m.capture.properties[key], key).toBe(value);
    }
    expect(m.issues.filter((i) => /is not shown/.test(i.message))).toEqual([]);
    // deviceProperties in words, as an Nsight export's "GPUs" (85,017,493,504 bytes = 79.2 GiB).
    expect(m.capture.properties['GPUs']).toBe('0: NVIDIA H100 80GB HBM3 (79.2 GiB, 132 SMs, compute 9.0)');
  });

  it('gives a record_function range its CUDA statistics and GPU projection', () => {
    let forward = -1;
    for (let i = 0; i < m.ranges.startNs.length && forward < 0; i++) if (rangeName(m, i) === 'forward' && m.tracks[trackOfRange(m, i)].kind === 'pushpop') forward = i;
    const s = rangeCudaStatistics(m, forward)!;
    expect(s.api[0].domain).toBe('CUDA Runtime API');
    expect(s.gpu.workCount.total).toBeGreaterThan(0);
    expect(s.projection!.workCount).toBe(s.gpu.workCount.total);
    const projection = m.tracks.find((t) => t.label === PROJECTION_ROW_LABEL)!;
    expect(projection.rangeEnd - projection.rangeBegin).toBeGreaterThan(0);
  });
});

describe('PyTorch profiler (Kineto) traces: memory events', async () => {
  const text = readFileSync(FIXTURE, 'utf8');
  const m = await load('cnn-h100-torch2.11.json', text);
  interface MemoryEvent {
    name?: string;
    ts: number;
    args: Record<string, number>;
  }
  const memory = (JSON.parse(text) as { traceEvents: MemoryEvent[] }).traceEvents.filter((e) => e.name === '[memory]');
  const row = (label: string) => {
    const tracks = m.tracks.filter((t) => t.kind === 'counter' && t.label === label);
    expect(tracks, label).toHaveLength(1);
    const t = tracks[0];
    return { track: t, values: Array.from(m.counters.value.subarray(t.counterBegin, t.counterEnd)), times: Array.from(m.counters.timeNs.subarray(t.counterBegin, t.counterEnd)) };
  };

  it('draws the allocator totals of the "[memory]" events as counter rows per device, beside the marks', () => {
    const cuda = memory.filter((e) => e.args['Device Type'] === 1 && e.args['Device Id'] === 0).sort((a, b) => a.ts - b.ts);
    const cpu = memory.filter((e) => e.args['Device Type'] === 0).sort((a, b) => a.ts - b.ts);
    expect(cuda.length).toBe(312);
    expect(cpu.length).toBe(24);
    const allocated = row('CUDA 0 allocated');
    expect(allocated.values).toEqual(cuda.map((e) => e.args['Total Allocated']));
    expect(allocated.track.unit).toBe('bytes');
    expect(allocated.track.path).toEqual(['Memory']);
    expect(m.processes[allocated.track.process].pid).toBe(502);
    // The peak a user looks for: the largest total of the JSON.
    expect(Math.max(...allocated.values)).toBe(Math.max(...cuda.map((e) => e.args['Total Allocated'])));
    expect(row('CUDA 0 reserved').values).toEqual(cuda.map((e) => e.args['Total Reserved']));
    expect(row('CPU allocated').values).toEqual(cpu.map((e) => e.args['Total Allocated']));
    // The CPU allocator reserves nothing: no row of zeros.
    expect(m.tracks.some((t) => t.label === 'CPU reserved')).toBe(false);
    // Times: the events' own (microseconds in the JSON, whose doubles hold ~1 ns at this size).
    allocated.times.forEach((t, k) => expect(Math.abs(t - allocated.times[0] - (cuda[k].ts - cuda[0].ts) * 1000)).toBeLessThanOrEqual(2));
    // The instants stay marks, with their args.
    let marks = 0;
    for (let i = 0; i < m.marks.timeNs.length; i++) if (markName(m, i) === '[memory]') marks++;
    expect(marks).toBe(memory.length);
    expect(m.issues.some((i) => i.severity === 'info' && /PyTorch memory events/.test(i.message))).toBe(true);
  });
});

describe('PyTorch profiler (Kineto) traces: generated', () => {
  it('counts what the generator wrote, over two streams', async () => {
    const { json, counts } = generateKineto({ steps: 4, opsPerStep: 6, streams: 2, seed: 3 });
    const m = await load('gen.json', json);
    const c = modelCounts(m);
    expect(c.byCategory.get('gpu:kernel')).toBe(counts.kernels);
    expect(c.byCategory.get('gpu:gpu_memcpy')).toBe(counts.memcpys);
    expect(c.byCategory.get('gpu:gpu_memset')).toBe(counts.memsets);
    expect(c.byCategory.get('api:cuda_runtime')).toBe(counts.runtimeCalls);
    expect(c.byCategory.get('api:cuda_driver')).toBe(counts.driverCalls);
    expect(c.byCategory.get('gpu:gpu_user_annotation')).toBe(counts.gpuAnnotations);
    expect(c.launches).toBe(counts.launches);
    expect(c.links).toBe(counts.ac2gPairs);
    expect(m.tracks.filter(isGpuWorkRow).map((t) => t.label).sort()).toEqual(['Stream 7', 'Stream 8']);
    expect(m.issues.filter((i) => i.severity !== 'info')).toEqual([]);
  });

  it('links both ways: a kernel to its launching call, the call to its kernel', async () => {
    const { json } = generateKineto({ steps: 1, opsPerStep: 2 });
    const m = await load('gen.json', json);
    const kernel = [...Array(m.ranges.startNs.length).keys()].find((i) => rangeName(m, i).startsWith('void kernel_1'))!;
    const [call] = correlatedRanges(m, kernel);
    expect(rangeName(m, call)).toBe('cudaLaunchKernel');
    expect(m.tracks[trackOfRange(m, call)].kind).toBe('api');
    expect(correlatedRanges(m, call)).toEqual([kernel]);
  });
});

describe('PyTorch profiler (Kineto) traces: steps', () => {
  it('compare in one group with numbers folded, the slowest step one click away', async () => {
    const { json, counts } = generateKineto({ steps: 6, opsPerStep: 3, seed: 9 });
    const m = await load('steps.json', json);
    const { rows } = rangeStats(m, { groupBy: 'family' });
    const steps = rows.find((r) => r.label === 'ProfilerStep#*')!;
    expect(steps.count).toBe(6);
    expect(steps.maxNs).toBe(Math.max(...counts.stepNs));
    expect(rangeName(m, steps.maxRange)).toBe(`ProfilerStep#${counts.stepNs.indexOf(Math.max(...counts.stepNs))}`);
    // By name, each step is its own row.
    expect(rangeStats(m, { groupBy: 'name' }).rows.filter((r) => r.label.startsWith('ProfilerStep#'))).toHaveLength(6);
  });
});

describe('PyTorch profiler (Kineto) traces: the CPU op stack above a launch', () => {
  it('is the thread ranges around the call, as the JSON has them', async () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const m = await load('cnn.json', text);
    interface Ev { ph: string; cat?: string; name: string; tid: number; ts: number; dur: number; args?: { correlation?: number } }
    const events = (JSON.parse(text) as { traceEvents: Ev[] }).traceEvents;
    const call = events.find((e) => e.cat === 'cuda_runtime' && e.name === 'cudaLaunchKernel')!;
    const expected = events
      .filter((e) => e.ph === 'X' && (e.cat === 'cpu_op' || e.cat === 'user_annotation') && e.tid === call.tid && e.ts <= call.ts && call.ts <= e.ts + e.dur)
      .sort((a, b) => a.ts - b.ts || b.dur - a.dur)
      .map((e) => e.name);
    expect(expected.length).toBeGreaterThan(0);
    // The kernel of that call (same correlation id), and from it, its launching call.
    const kernel = [...Array(m.ranges.startNs.length).keys()].find((i) => m.tracks[trackOfRange(m, i)].kind === 'gpu' && correlationIdOf(m, i) === call.args!.correlation)!;
    const launch = correlatedRanges(m, kernel)[0];
    expect(rangeName(m, launch)).toBe('cudaLaunchKernel');
    expect(enclosingRanges(m, m.ranges.thread[launch], m.ranges.startNs[launch]).map((r) => rangeName(m, r))).toEqual(expected);
  });
});
