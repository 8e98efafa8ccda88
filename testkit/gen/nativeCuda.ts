/**
 * A native capture (`.nvtxc`, format 1.3) of a program that uses CUDA, shaped like the collector's
 * output, with every count known: `threads` threads, each running `steps` training steps inside an
 * outer "train" push/pop range inside an "epoch" start/end range; a step is a "step N" range holding a "forward" range (kernel launches on the
 * thread's named compute stream), a "copy" range (an async host-to-device copy on its named copy
 * stream, a synchronous memset on the legacy default stream) and a stream synchronisation; each
 * thread ends with a device synchronisation outside any range. GPU work runs in order per stream
 * after its launch call; CUPTI's clock is the capture clock plus `offsetNs` with a `driftPpm`
 * drift, read in CUDA_CLOCK pairs at attach, before each activity chunk and at the end.
 * `earlyKernels` kernels are written as starting `earlyByNs` before their launch call (the reader
 * must move them); `droppedRecords` is a CUPTI drop count.
 *
 * Chunk order follows the collector: metadata first, each thread's EVENTS chunk when it ends, an
 * activity chunk of each thread's GPU work after it (kernel names defined per chunk), END last.
 */
import { CudaDomain, CudaDropCause, CudaResourceEvent, CudaStatus, CudaStreamFlag, EndReason } from '../../src/import/native/format.ts';
import { ActivityRecords, CaptureWriter, MetaRecords, StreamRecords, type GpuWorkSpec } from '../writers/nvtxcWriter.ts';
import { Random } from './random.ts';

export interface NativeCudaOptions {
  seed?: number;
  threads?: number;
  steps?: number;
  kernelsPerStep?: number;
  /** CUPTI time minus capture time at the capture start, in ns (default 1.7e18: CUPTI's epoch-based clock). */
  offsetNs?: bigint;
  /** CUPTI ns per capture ns, minus 1, in millionths (default 50). */
  driftPpm?: number;
  earlyKernels?: number;
  earlyByNs?: number;
  droppedRecords?: number;
  /** Leave the END chunk out (a killed process). */
  noEnd?: boolean;
}

/** What the capture holds, for tests to compare with what a reader makes of it. */
export interface NativeCudaExpected {
  apiCalls: number;
  kernels: number;
  memcpys: number;
  memsets: number;
  syncs: number;
  /** NVTX ranges, push/pop and start/end (all contain CUDA calls that launched GPU work, so each gets a projection). */
  ranges: number;
  dropped: number;
  earlyKernels: number;
  /** Capture-clock times (ns from the capture start) of every kernel, in launch order per thread. */
  kernelStartNs: number[];
  kernelEndNs: number[];
  /** Kernel names, mangled and as shown. */
  kernelNames: { mangled: string; shown: string }[];
  /** GPU row labels of thread 1's streams. */
  computeStreamLabel: string;
  copyStreamLabel: string;
  defaultStreamLabel: string;
  deviceLabel: string;
  /** File offsets of the CUDA_ACTIVITY chunks. */
  activityChunkOffsets: number[];
}

export interface NativeCudaCapture {
  bytes: Uint8Array;
  expected: NativeCudaExpected;
}

const T0 = 5_000_000_000n;
const PID = 4242;
const DEVICE = 0;
const CONTEXT = 1;
const CONTEXT_HANDLE = 0x7f00_0000_1000n;
const DEFAULT_STREAM = 7;
const GPU_NAME = 'NVIDIA Test GPU';

/** CUPTI runtime callback ids and names (cupti_runtime_cbid.h), with their version suffixes. */
const API = {
  launch: { cbid: 211, name: 'cudaLaunchKernel_v7000' },
  memcpyAsync: { cbid: 41, name: 'cudaMemcpyAsync_v3020' },
  memset: { cbid: 47, name: 'cudaMemset_v3020' },
  streamSync: { cbid: 131, name: 'cudaStreamSynchronize_v3020' },
  deviceSync: { cbid: 165, name: 'cudaDeviceSynchronize_v3020' },
} as const;

const KERNELS = [
  { mangled: '_Z6matmulPKfS0_Pfi', shown: 'matmul(float const*, float const*, float*, int)' },
  { mangled: '_Z4reluPfi', shown: 'relu(float*, int)' },
  { mangled: 'softmax_kernel', shown: 'softmax_kernel' },
];

export function nativeCudaCapture(options: NativeCudaOptions = {}): NativeCudaCapture {
  const rnd = new Random(options.seed ?? 1);
  const threads = options.threads ?? 2;
  const steps = options.steps ?? 3;
  const kernelsPerStep = options.kernelsPerStep ?? 3;
  const offset = options.offsetNs ?? 1_700_000_000_000_000_000n;
  const drift = (options.driftPpm ?? 50) / 1e6;
  const earlyBy = options.earlyByNs ?? 20_000;
  let earlyLeft = options.earlyKernels ?? 0;
  /** CUPTI time of capture time `t` (ns from the start). */
  const cupti = (t: number): bigint => offset + BigInt(Math.round(t * (1 + drift)));

  const w = new CaptureWriter();
  w.process({ pid: PID, name: 'train.py', t0: T0, n0: T0, clockKind: 3, tickRate: 1_000_000_000 });
  const expected: NativeCudaExpected = {
    apiCalls: 0,
    kernels: 0,
    memcpys: 0,
    memsets: 0,
    syncs: 0,
    ranges: 0,
    dropped: options.droppedRecords ?? 0,
    earlyKernels: 0,
    kernelStartNs: [],
    kernelEndNs: [],
    kernelNames: KERNELS,
    computeStreamLabel: 'Stream 13 · compute 1',
    copyStreamLabel: 'Stream 14 · copies 1',
    defaultStreamLabel: `Default stream ${DEFAULT_STREAM}`,
    deviceLabel: `GPU ${DEVICE} (${GPU_NAME})`,
    activityChunkOffsets: [],
  };

  // Attach: status, device, context with its default stream, API names, a first clock pair.
  const attach = new MetaRecords()
    .cudaStatus(CudaStatus.Recording, 'CUPTI from /usr/local/cuda/lib64/libcupti.so.13', { cupti: 130001, driver: 13000 }, 100)
    .cudaDevice(DEVICE, GPU_NAME, { major: 9, minor: 0, memory: 80 * 2 ** 30, multiprocessors: 132 }, 100)
    .cudaResource(CudaResourceEvent.ContextCreated, { device: DEVICE, context: CONTEXT, contextHandle: CONTEXT_HANDLE }, 100)
    .cudaResource(CudaResourceEvent.StreamCreated, { device: DEVICE, context: CONTEXT, stream: DEFAULT_STREAM, contextHandle: CONTEXT_HANDLE, streamHandle: 0, flags: CudaStreamFlag.LegacyDefault }, 100);
  for (const { cbid, name } of Object.values(API)) attach.cudaApiName(CudaDomain.Runtime, cbid, name, 100);
  attach.cudaClock(110, cupti(130), 40);
  let clockTick = 200;
  w.meta([T0 + BigInt(clockTick), T0 + BigInt(clockTick)], attach);

  /** When each GPU stream is free again (streams run their work in order, whichever thread launched it). */
  const streamFree = new Map<number, number>();
  let correlation = 1;
  let apiCount = 0;
  let activityCount = 0;
  const threadStart = 1_000;
  for (let th = 1; th <= threads; th++) {
    const computeId = 12 + 2 * th - 1;
    const copyId = computeId + 1;
    const computeHandle = 0x5500_0000n + BigInt(th) * 0x100n;
    const copyHandle = computeHandle + 0x10n;
    // Streams are created (and named, as nvtxNameCudaStreamA would) when the thread starts.
    const streams = new MetaRecords()
      .cudaResource(CudaResourceEvent.StreamCreated, { device: DEVICE, context: CONTEXT, stream: computeId, contextHandle: CONTEXT_HANDLE, streamHandle: computeHandle }, threadStart)
      .cudaResource(CudaResourceEvent.StreamCreated, { device: DEVICE, context: CONTEXT, stream: copyId, contextHandle: CONTEXT_HANDLE, streamHandle: copyHandle }, threadStart)
      .record(7, (x) => x.varint(0x50001).varint(computeHandle).str(`compute ${th}`), threadStart)
      .record(7, (x) => x.varint(0x50001).varint(copyHandle).str(`copies ${th}`), threadStart);
    w.meta([T0 + BigInt(threadStart), T0 + BigInt(threadStart)], streams);

    const s = new StreamRecords().thread(9000 + th, `worker-${th}`);
    const gpu = new ActivityRecords(cupti(threadStart));
    const nameIds = new Map<string, number>();
    const kernelName = (k: (typeof KERNELS)[number]) => {
      let id = nameIds.get(k.mangled);
      if (id === undefined) {
        id = nameIds.size + 1;
        nameIds.set(k.mangled, id);
        gpu.kernelName(id, k.mangled, k.shown === k.mangled ? '' : k.shown);
      }
      return id;
    };
    let t = threadStart + 1_000 * th;
    /** A call from `t` lasting `d`; its GPU work (if any) runs on `stream` after the call returns. */
    const call = (api: (typeof API)[keyof typeof API], d: number, streamHandle: bigint | undefined) => {
      const corr = correlation++;
      s.cudaApi(t, { domain: CudaDomain.Runtime, callback: api.cbid, duration: d, correlation: corr, stream: streamHandle });
      apiCount++;
      expected.apiCalls++;
      const enter = t;
      t += d;
      return { corr, enter, exit: t };
    };
    const work = (streamId: number, after: number, duration: number, corr: number): { g: GpuWorkSpec; start: number; end: number } => {
      const start = Math.max(after + 2_000, streamFree.get(streamId) ?? 0);
      const end = start + duration;
      streamFree.set(streamId, end);
      return { g: { start: cupti(start), end: cupti(end), device: DEVICE, context: CONTEXT, stream: streamId, correlation: corr }, start, end };
    };

    // A start/end range (nvtxRangeStartA/End on this thread) around everything: projected too.
    s.start(t - 100, th, 'epoch');
    s.push(t, 'train');
    expected.ranges += 2;
    t += 500;
    for (let step = 0; step < steps; step++) {
      s.push(t, `step ${step}`);
      t += 300;
      s.push(t, 'forward');
      expected.ranges += 2;
      t += 200;
      for (let k = 0; k < kernelsPerStep; k++) {
        const c = call(API.launch, rnd.int(3_000, 6_000), computeHandle);
        const kernel = KERNELS[k % KERNELS.length];
        const x = work(computeId, c.exit, rnd.int(5_000, 40_000), c.corr);
        let { start, end } = x;
        if (earlyLeft > 0) {
          // Written as if it started before its launch call (clock error): the reader moves it to the call's start.
          earlyLeft--;
          expected.earlyKernels++;
          x.g.start = cupti(c.enter - earlyBy);
          x.g.end = cupti(c.enter - earlyBy + (end - start));
          end = c.enter + (end - start);
          start = c.enter;
        }
        gpu.kernel(x.g, { name: kernelName(kernel), grid: [128, 1, 1], block: [256, 1, 1], registers: 32, staticShared: 1024, dynamicShared: 0 });
        activityCount++;
        expected.kernels++;
        expected.kernelStartNs.push(start);
        expected.kernelEndNs.push(end);
        t += 500;
      }
      s.pop(t);
      t += 200;
      s.push(t, 'copy');
      expected.ranges++;
      t += 200;
      const cp = call(API.memcpyAsync, 4_000, copyHandle);
      gpu.memcpy(work(copyId, cp.exit, 25_000, cp.corr).g, { copyKind: 1, srcKind: 2, dstKind: 3, bytes: 1 << 20, flags: 1 });
      const ms = call(API.memset, 3_000, undefined);
      gpu.memset(work(DEFAULT_STREAM, ms.exit, 4_000, ms.corr).g, { bytes: 4096, value: 0, memoryKind: 3 });
      activityCount += 2;
      expected.memcpys++;
      expected.memsets++;
      s.pop(t);
      t += 200;
      // The host waits for the compute stream: a synchronisation record over the wait.
      const waitUntil = streamFree.get(computeId) ?? t;
      const sync = call(API.streamSync, Math.max(1_000, waitUntil - t + 500), computeHandle);
      gpu.sync({ start: cupti(sync.enter + 200), end: cupti(sync.exit - 100), device: DEVICE, context: CONTEXT, stream: computeId, correlation: sync.corr }, { type: 3 });
      activityCount++;
      expected.syncs++;
      t += 300;
      s.pop(t);
      t += 1_000;
    }
    s.pop(t);
    t += 500;
    s.end(t, th);
    t += 100;
    const all = call(API.deviceSync, 2_000, undefined);
    gpu.sync({ start: cupti(all.enter + 100), end: cupti(all.exit - 100), device: DEVICE, context: CONTEXT, stream: 0xffffffff, correlation: all.corr }, { type: 4 });
    activityCount++;
    expected.syncs++;
    t += 1_000;

    // The thread ends: its stream is flushed, then CUPTI's buffer with a clock pair before it.
    w.events(th, [T0 + BigInt(t), T0 + BigInt(t)], s.bytes(), 0, undefined, s.events);
    clockTick = t + 100;
    const pair = new MetaRecords().cudaClock(clockTick, cupti(clockTick + 10), 20);
    w.meta([T0 + BigInt(clockTick + 50), T0 + BigInt(clockTick + 50)], pair);
    w.cudaActivity([T0 + BigInt(clockTick + 60), T0 + BigInt(clockTick + 60)], gpu);
    expected.activityChunkOffsets.push(w.chunkOffsets[w.chunkOffsets.length - 1]);
  }

  const endTick = clockTick + 10_000;
  const last = new MetaRecords().cudaClock(endTick - 100, cupti(endTick - 100 + 15), 30);
  if (expected.dropped > 0) last.cudaDropped(CudaDropCause.Cupti, expected.dropped, CONTEXT, 0xffffffff, endTick - 100);
  w.meta([T0 + BigInt(endTick - 50), T0 + BigInt(endTick - 50)], last);
  if (!options.noEnd) w.end({ pair: [T0 + BigInt(endTick), T0 + BigInt(endTick)], reason: [EndReason.Exit, 0], cuda: [apiCount, activityCount] });
  return { bytes: w.bytes(), expected };
}
