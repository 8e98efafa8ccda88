/**
 * The CUDA side of native captures (format 1.3): captures written by the test writer and the CUDA
 * capture generator (testkit/gen/nativeCuda.ts), decoded through the real pipeline.
 */
import { describe, expect, it } from 'vitest';
import { rangeCudaStatistics } from '../../analysis/cuda/statistics.ts';
import { isGpuWorkRow, PROJECTION_ROW_LABEL, SYNC_ROW_LABEL } from '../../model/cudaRows.ts';
import { payloadJson } from '../../model/payload.ts';
import { correlatedRanges, rangeName } from '../../model/query.ts';
import type { Model, Track } from '../../model/types.ts';
import { nativeCudaCapture } from '../../../testkit/gen/nativeCuda.ts';
import { loadBytes } from '../../../testkit/load/nativeCapture.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { ActivityRecords, CaptureWriter, MetaRecords, StreamRecords } from '../../../testkit/writers/nvtxcWriter.ts';
import { CudaClockMap } from './cudaClockMap.ts';
import { CudaDomain, CudaRecord, CudaStatus, MetaOp } from './format.ts';

/** Ranges of the tracks that pass `test`, in track order. */
function rangesOf(model: Model, test: (t: Track) => boolean): number[] {
  const out: number[] = [];
  for (const t of model.tracks) {
    if (!test(t)) continue;
    for (let i = t.rangeBegin; i < t.rangeEnd; i++) out.push(i);
  }
  return out;
}

const names = (model: Model, ranges: number[]) => ranges.map((i) => rangeName(model, i));
const issueTexts = (model: Model) => model.issues.map((i) => `${i.severity}: ${i.message}`);

describe('native CUDA records: the generated capture', async () => {
  const { bytes, expected } = nativeCudaCapture({ threads: 2, steps: 3, kernelsPerStep: 3 });
  const model = await loadBytes(bytes);

  it('loads without problems and keeps the model invariants', () => {
    expect(issueTexts(model)).toEqual([]);
    expect(modelViolations(model)).toEqual([]);
    expect(model.capture.properties['format version']).toBe('1.3');
  });

  it('has every API call on its thread\'s "CUDA Runtime API" row, named without version suffix', () => {
    const apiTracks = model.tracks.filter((t) => t.kind === 'api');
    expect(apiTracks.map((t) => [t.label, model.threads[t.thread!].tid])).toEqual([
      ['CUDA Runtime API', 9001],
      ['CUDA Runtime API', 9002],
    ]);
    const calls = rangesOf(model, (t) => t.kind === 'api');
    expect(calls.length).toBe(expected.apiCalls);
    expect(new Set(names(model, calls))).toEqual(new Set(['cudaLaunchKernel', 'cudaMemcpyAsync', 'cudaMemset', 'cudaStreamSynchronize', 'cudaDeviceSynchronize']));
  });

  it('has every kernel, copy and set on a GPU row per device and named stream', () => {
    const work = rangesOf(model, isGpuWorkRow);
    const n = names(model, work);
    expect(n.filter((x) => x === '[CUDA memcpy Host-to-Device]').length).toBe(expected.memcpys);
    expect(n.filter((x) => x === '[CUDA memset]').length).toBe(expected.memsets);
    const shown = new Set(expected.kernelNames.map((k) => k.shown));
    expect(n.filter((x) => shown.has(x)).length).toBe(expected.kernels);
    expect(work.length).toBe(expected.kernels + expected.memcpys + expected.memsets);
    const gpuTracks = model.tracks.filter(isGpuWorkRow);
    expect(gpuTracks.every((t) => t.path.join(' > ') === `CUDA > ${expected.deviceLabel}`)).toBe(true);
    expect(gpuTracks.map((t) => t.label)).toEqual(
      expect.arrayContaining([expected.computeStreamLabel, expected.copyStreamLabel, expected.defaultStreamLabel, 'Stream 15 · compute 2', 'Stream 16 · copies 2']),
    );
    const syncs = rangesOf(model, (t) => t.kind === 'gpu' && t.label === SYNC_ROW_LABEL);
    expect(syncs.length).toBe(expected.syncs);
    expect(new Set(names(model, syncs))).toEqual(new Set(['[CUDA Stream sync]', '[CUDA Context sync]']));
  });

  it('places kernels on the capture clock through the CUDA_CLOCK pairs (offset and drift)', () => {
    const kernelNames = new Set(expected.kernelNames.map((k) => k.shown));
    const kernels = rangesOf(model, isGpuWorkRow).filter((i) => kernelNames.has(rangeName(model, i)));
    const starts = kernels.map((i) => model.ranges.startNs[i]).sort((a, b) => a - b);
    const want = [...expected.kernelStartNs].sort((a, b) => a - b);
    expect(starts.length).toBe(want.length);
    // Model times count from the capture start, which is the generator's tick 0.
    for (let k = 0; k < want.length; k++) expect(Math.abs(starts[k] - want[k])).toBeLessThanOrEqual(1);
  });

  it('links each launch to its kernel by correlation id, and never shows a kernel before its launch', () => {
    const launches = rangesOf(model, (t) => t.kind === 'api').filter((i) => rangeName(model, i) === 'cudaLaunchKernel');
    expect(launches.length).toBe(expected.kernels);
    for (const call of launches) {
      const partners = correlatedRanges(model, call);
      expect(partners.length).toBe(1);
      expect(model.ranges.startNs[partners[0]]).toBeGreaterThanOrEqual(model.ranges.startNs[call]);
    }
  });

  it('projects each NVTX range that launched GPU work onto the GPU', () => {
    const projected = rangesOf(model, (t) => t.kind === 'gpu' && t.label === PROJECTION_ROW_LABEL);
    expect(projected.length).toBe(expected.ranges);
    const train = projected.find((i) => rangeName(model, i) === 'train');
    expect(payloadJson(model, model.ranges.payload[train!])).toEqual({
      gpuOperations: (expected.kernels + expected.memcpys + expected.memsets) / 2,
      apiCalls: (expected.kernels + expected.memcpys + expected.memsets) / 2,
    });
  });

  it('gives a range its CUDA statistics (NVTX guide section 3.2.6)', () => {
    const step = rangesOf(model, (t) => t.kind === 'pushpop').find((i) => rangeName(model, i) === 'step 0')!;
    const stats = rangeCudaStatistics(model, step)!;
    expect(stats.api.map((d) => [d.domain, d.callCount.total])).toEqual([['CUDA Runtime API', 3 + 2 + 1]]);
    // Kernels, the copy and the set; the stream synchronisation is a host wait, not GPU work.
    expect(stats.gpu.workCount.total).toBe(3 + 1 + 1);
    expect(stats.gpu.workCount.self).toBe(0);
    expect(stats.projection?.workCount).toBe(5);
    expect(stats.gpuByDevice.map((g) => g.label)).toEqual([expected.deviceLabel]);
  });

  it('says what was recorded in the capture properties', () => {
    expect(model.capture.properties['CUDA']).toBe(
      `${expected.apiCalls} API calls, ${expected.kernels + expected.memcpys + expected.memsets} GPU operations (${expected.kernels} kernels, ${expected.memcpys} copies, ${expected.memsets} sets), ${expected.syncs} synchronizations; CUPTI from /usr/local/cuda/lib64/libcupti.so.13`,
    );
    expect(model.capture.properties['CUDA driver version']).toBe('13.0');
  });
});

describe('native CUDA records: what went wrong is reported', () => {
  it('moves GPU work that would start before its launch call, and says how many and by how much', async () => {
    const { bytes, expected } = nativeCudaCapture({ earlyKernels: 2, earlyByNs: 20_000 });
    const model = await loadBytes(bytes);
    expect(issueTexts(model)).toEqual([
      'warning: 2 GPU operation(s) would start before the API call that launched them (by up to 20.0 µs: the CUDA clock pairs are off by that much); each was moved to start with its call, its duration kept',
    ]);
    // The offset of the first moved record: inside the first activity chunk.
    expect(model.issues[0].offset).toBeGreaterThan(expected.activityChunkOffsets[0]);
    expect(model.issues[0].offset).toBeLessThan(expected.activityChunkOffsets[1]);
    const launches = rangesOf(model, (t) => t.kind === 'api').filter((i) => rangeName(model, i) === 'cudaLaunchKernel');
    const [first] = launches.map((call) => [model.ranges.startNs[call], model.ranges.startNs[correlatedRanges(model, call)[0]]]);
    expect(first[1]).toBe(first[0]);
  });

  it('reports dropped records in the load report and the properties', async () => {
    const model = await loadBytes(nativeCudaCapture({ droppedRecords: 17 }).bytes);
    expect(issueTexts(model)).toEqual(['warning: CUPTI dropped 17 GPU activity record(s) (its buffers were full): the GPU rows miss that work']);
    expect(model.capture.properties['CUDA records dropped by CUPTI']).toBe('17');
  });

  it('resynchronises after a damaged CUDA_ACTIVITY chunk, reports its byte range and what the END chunk says is missing', async () => {
    const { bytes, expected } = nativeCudaCapture({ threads: 2 });
    const [first, second] = expected.activityChunkOffsets;
    const damaged = bytes.slice();
    damaged[first + 40] ^= 0xff;
    const model = await loadBytes(damaged);
    const texts = issueTexts(model);
    expect(texts.some((t) => t.startsWith(`error: bytes ${first}–`) && t.includes('of test.nvtxc') && t.includes('checksum mismatch'))).toBe(true);
    expect(texts.some((t) => /the collector wrote \d+ of \d+ GPU activity records that are not in the file/.test(t))).toBe(true);
    // Thread 2's GPU work, in the next activity chunk, is all there; thread 1's API calls too.
    expect(second).toBeGreaterThan(first);
    const work = rangesOf(model, isGpuWorkRow);
    expect(work.length).toBe((expected.kernels + expected.memcpys + expected.memsets) / 2);
    expect(rangesOf(model, (t) => t.kind === 'api').length).toBe(expected.apiCalls);
  });

  it('says "CUDA not recorded" with the collector\'s reason, and loads the NVTX events', async () => {
    const T0 = 1_000n;
    const s = new StreamRecords().thread(7, 'main');
    s.push(100, 'work').pop(200);
    const bytes = new CaptureWriter()
      .process({ pid: 1, t0: T0, n0: T0, clockKind: 3 })
      .meta([T0 + 50n, T0 + 50n], new MetaRecords().cudaStatus(CudaStatus.NotRecorded, 'no CUDA driver (libcuda.so.1 not found)', {}, 10))
      .events(1, [T0 + 300n, T0 + 300n], s.bytes())
      .exitNormally()
      .bytes();
    const model = await loadBytes(bytes);
    expect(issueTexts(model)).toEqual(['warning: CUDA not recorded: no CUDA driver (libcuda.so.1 not found)']);
    expect(model.capture.properties['CUDA']).toBe('not recorded: no CUDA driver (libcuda.so.1 not found)');
    expect(model.ranges.startNs.length).toBe(1);
  });

  it('skips activity records of unknown kinds and damaged records, keeping the others of the chunk', async () => {
    const T0 = 1_000n;
    const s = new StreamRecords().thread(7, 'main');
    s.cudaApi(100, { domain: CudaDomain.Runtime, callback: 211, duration: 50, correlation: 1, stream: 0 });
    s.cudaApi(200, { domain: CudaDomain.Runtime, callback: 211, duration: 50, correlation: 2, stream: 0 });
    const gpu = new ActivityRecords(10_000n)
      .kernelName(1, 'k')
      .kernel({ start: 10_200n, end: 10_300n, device: 0, context: 1, stream: 7, correlation: 1 }, { name: 1 })
      .unknown(42, new Uint8Array([1, 2, 3]))
      .unknown(CudaRecord.Kernel, new Uint8Array([0x80])) // a kernel record cut short
      .kernel({ start: 10_300n, end: 10_400n, device: 0, context: 1, stream: 7, correlation: 2 }, { name: 1 });
    const bytes = new CaptureWriter()
      .process({ pid: 1, t0: T0, n0: T0, clockKind: 3 })
      .meta([T0 + 50n, T0 + 50n], new MetaRecords().cudaApiName(CudaDomain.Runtime, 211, 'cudaLaunchKernel_v7000').cudaClock(10, 10_000n))
      .events(1, [T0 + 300n, T0 + 300n], s.bytes())
      .cudaActivity([T0 + 400n, T0 + 400n], gpu)
      .exitNormally()
      .bytes();
    const model = await loadBytes(bytes);
    const texts = issueTexts(model);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^warning: skipped CUDA activity records of unknown kind 42/);
    expect(texts[1]).toMatch(/^error: .*\(CUDA activity record of kind 2\); the record is skipped$/);
    const kernels = rangesOf(model, isGpuWorkRow);
    // CUPTI time 10,000 is capture time 10: a kernel at CUPTI 10,200 is at 210 ns.
    expect(kernels.map((i) => [rangeName(model, i), model.ranges.startNs[i], model.ranges.endNs[i]])).toEqual([
      ['k', 210, 310],
      ['k', 310, 410],
    ]);
  });

  it('reads a 1.2 capture (no CUDA records) as before', async () => {
    const T0 = 1_000n;
    const s = new StreamRecords().thread(7, 'main');
    s.push(100, 'work').pop(200);
    const bytes = new CaptureWriter(1, 2).process({ pid: 1, t0: T0, n0: T0, clockKind: 3 }).events(1, [T0 + 300n, T0 + 300n], s.bytes()).exitNormally().bytes();
    const model = await loadBytes(bytes);
    expect(issueTexts(model)).toEqual([]);
    expect(model.capture.properties['format version']).toBe('1.2');
    expect(model.tracks.some((t) => t.kind === 'api' || t.kind === 'gpu')).toBe(false);
    expect(model.capture.properties['CUDA']).toBeUndefined();
  });

  it('names the API calls it has no name for by their number', async () => {
    const T0 = 1_000n;
    const s = new StreamRecords().thread(7, 'main');
    s.cudaApi(100, { domain: CudaDomain.Driver, callback: 307, duration: 50, correlation: 5 });
    const bytes = new CaptureWriter().process({ pid: 1, t0: T0, n0: T0, clockKind: 3 }).events(1, [T0 + 300n, T0 + 300n], s.bytes()).exitNormally().bytes();
    const model = await loadBytes(bytes);
    expect(issueTexts(model)).toEqual([expect.stringMatching(/^warning: CUDA API 1:307 has no CUDA_API_NAME record/)]);
    const calls = rangesOf(model, (t) => t.kind === 'api');
    expect(names(model, calls)).toEqual(['[CUDA driver API 307]']);
    expect(model.tracks.find((t) => t.kind === 'api')?.label).toBe('CUDA Driver API');
  });

  it('keeps MetaOp numbers of the CUDA records stable', () => {
    expect([MetaOp.CudaApiName, MetaOp.CudaResource, MetaOp.CudaClock, MetaOp.CudaDropped, MetaOp.CudaStatus, MetaOp.CudaDevice]).toEqual([23, 24, 25, 26, 27, 28]);
  });
});

describe('CudaClockMap', () => {
  it('is linear between pairs, extrapolates with the nearest segment, slope 1 with one pair', () => {
    const one = new CudaClockMap();
    one.add(1_000, 10, 0);
    expect(one.toNs(1_500)).toBe(510);
    const m = new CudaClockMap();
    m.add(0, 0, 0);
    m.add(1_000, 2_000, 1);
    m.add(2_000, 3_000, 2);
    expect(m.toNs(500)).toBe(1_000);
    expect(m.toNs(1_500)).toBe(2_500);
    expect(m.toNs(-100)).toBe(-200);
    expect(m.toNs(3_000)).toBe(4_000);
    expect(new CudaClockMap().toNs(5)).toBeNaN();
  });

  it('drops pairs whose CUPTI time goes back, and counts them', () => {
    const m = new CudaClockMap();
    m.add(0, 0, 10);
    m.add(1_000, 1_000, 20);
    m.add(900, 2_000, 30);
    m.add(3_000, 3_000, 40);
    expect(m.toNs(2_000)).toBe(2_000);
    expect(m.dropped).toBe(1);
    expect(m.firstDropped).toBe(30);
  });
});
