/**
 * PyTorch profiler (Kineto) shaped Chrome traces with known counts, for unit tests: the event
 * shapes `torch.profiler` 2.x writes (see ../shared/fixtures/pytorch/cnn-h100-torch2.11.json):
 * `ProfilerStep#N` user annotations on the main thread, `cpu_op` ranges inside them, one
 * `cudaLaunchKernel` (cuda_runtime) per op with its `kernel` on GPU 0 (pid 0, tid = stream), a
 * `cudaMemcpyAsync` + `gpu_memcpy` and a `cudaMemsetAsync` + `gpu_memset` per step, a
 * `cudaStreamWaitEvent` that launches nothing, one `cuLaunchKernel` (cuda_driver), `ac2g` flow
 * pairs from each launch to its work, the stray `ac2g` flow ends Kineto writes on CPU calls, a
 * `gpu_user_annotation` per step, and `fwdbwd` flows between ops.
 */
import { seededRandom } from './random.ts';

export interface KinetoOptions {
  steps: number;
  /** cpu_ops (each launching one kernel) per step. */
  opsPerStep: number;
  /** Kernels alternate over this many streams (7, 8, ...). */
  streams?: number;
  seed?: number;
}

export interface KinetoCounts {
  kernels: number;
  memcpys: number;
  memsets: number;
  runtimeCalls: number;
  driverCalls: number;
  /** API calls whose correlation id has GPU work. */
  launches: number;
  /** ac2g flow pairs (s and f) from a call to its GPU work. */
  ac2gPairs: number;
  gpuAnnotations: number;
  /** fwdbwd flow pairs. */
  genericFlows: number;
  /** Duration of each ProfilerStep#N, in ns, in step order. */
  stepNs: number[];
}

const PID = 4242;
const MAIN = 4242;

/** Microseconds with three decimals from integer nanoseconds. */
function us(ns: number): string {
  const whole = Math.floor(ns / 1000);
  return `${whole}.${String(ns - whole * 1000).padStart(3, '0')}`;
}

export function generateKineto(options: KinetoOptions): { json: string; counts: KinetoCounts } {
  const rand = seededRandom(options.seed ?? 1);
  const streams = options.streams ?? 1;
  const cpu: string[] = [];
  const gpu: string[] = [];
  const flows: string[] = [];
  const counts: KinetoCounts = {
    kernels: 0,
    memcpys: 0,
    memsets: 0,
    runtimeCalls: 0,
    driverCalls: 0,
    launches: 0,
    ac2gPairs: 0,
    gpuAnnotations: 0,
    genericFlows: 0,
    stepNs: [],
  };
  const base = 1_000_000_000_000; // ns, large like a real monotonic clock
  let t = base;
  let gpuT = base;
  let corr = 1;
  let ext = 1;
  const x = (cat: string, name: string, pid: number, tid: number, start: number, dur: number, args: Record<string, unknown>) =>
    `{"ph":"X","cat":"${cat}","name":${JSON.stringify(name)},"pid":${pid},"tid":${tid},"ts":${us(start)},"dur":${us(dur)},"args":${JSON.stringify(args)}}`;
  const flow = (ph: string, cat: string, id: number, pid: number, tid: number, at: number) =>
    `{"ph":"${ph}","id":${id},"pid":${pid},"tid":${tid},"ts":${us(at)},"cat":"${cat}","name":"${cat}"${ph === 'f' ? ',"bp":"e"' : ''}}`;

  /** An API call at `t` launching GPU work of `dur` ns on `stream` (or nothing when `work` is undefined). */
  const launch = (cat: 'cuda_runtime' | 'cuda_driver', name: string, work?: { cat: string; name: string; stream: number; dur: number; args: Record<string, unknown> }) => {
    const id = corr++;
    const callDur = 3000 + Math.floor(rand() * 2000);
    cpu.push(x(cat, name, PID, MAIN, t, callDur, { 'External id': ext, cbid: 211, correlation: id }));
    if (cat === 'cuda_runtime') counts.runtimeCalls++;
    else counts.driverCalls++;
    flows.push(flow('s', 'ac2g', id, PID, MAIN, t));
    if (work) {
      gpuT = Math.max(gpuT, t + callDur) + 1000;
      gpu.push(x(work.cat, work.name, 0, work.stream, gpuT, work.dur, { 'External id': ext, device: 0, context: 1, stream: work.stream, correlation: id, ...work.args }));
      flows.push(flow('f', 'ac2g', id, 0, work.stream, gpuT));
      gpuT += work.dur;
      counts.launches++;
      counts.ac2gPairs++;
    }
    t += callDur + 500;
  };

  let lastOp = -1;
  for (let step = 0; step < options.steps; step++) {
    const stepStart = t;
    t += 1000;
    const gpuStepStart = Math.max(gpuT, t) + 500;
    // A host -> device copy and a memset first.
    launch('cuda_runtime', 'cudaMemcpyAsync', { cat: 'gpu_memcpy', name: 'Memcpy HtoD (Pinned -> Device)', stream: 7, dur: 20_000, args: { bytes: 786432, 'memory bandwidth (GB/s)': 39.3216 } });
    counts.memcpys++;
    launch('cuda_runtime', 'cudaMemsetAsync', { cat: 'gpu_memset', name: 'Memset (Device)', stream: 7, dur: 1280, args: { bytes: 3456, 'memory bandwidth (GB/s)': 2.7 } });
    counts.memsets++;
    launch('cuda_runtime', 'cudaStreamWaitEvent');
    for (let op = 0; op < options.opsPerStep; op++) {
      const opStart = t;
      const opId = ext;
      t += 800;
      const stream = 7 + (op % streams);
      const kernelDur = 2000 + Math.floor(rand() * 8000);
      const name = `void kernel_${op % 5}<float, 128>(float*, float const*, int)`;
      launch('cuda_runtime', 'cudaLaunchKernel', {
        cat: 'kernel',
        name,
        stream,
        dur: kernelDur,
        args: { 'registers per thread': 32, 'shared memory': 4096, grid: [64, 1, 1], block: [128, 1, 1], 'blocks per SM': 0.48 },
      });
      counts.kernels++;
      // Kineto also writes flow ends on CPU-only calls (no start): a trace quirk the importer ignores.
      const strayCall = corr++;
      cpu.push(x('cuda_runtime', 'cudaGetErrorString', PID, MAIN, t, 400, { 'External id': ext, cbid: 12, correlation: strayCall }));
      flows.push(flow('f', 'ac2g', strayCall, PID, MAIN, t));
      counts.runtimeCalls++;
      t += 600;
      cpu.push(x('cpu_op', `aten::op_${op % 5}`, PID, MAIN, opStart, t - opStart, { 'External id': opId, 'Sequence number': op }));
      if (lastOp >= 0) {
        flows.push(flow('s', 'fwdbwd', lastOp, PID, MAIN, opStart - 100));
        flows.push(flow('f', 'fwdbwd', lastOp, PID, MAIN, opStart));
        counts.genericFlows++;
      }
      lastOp = opId;
      ext++;
      t += 200;
    }
    if (step === 0) {
      launch('cuda_driver', 'cuLaunchKernel', { cat: 'kernel', name: 'triton_poi_fused_0', stream: 7, dur: 3000, args: { 'registers per thread': 16, 'shared memory': 0, grid: [1, 1, 1], block: [256, 1, 1] } });
      counts.kernels++;
    }
    t += 1000 + Math.floor(rand() * 5000) * step;
    cpu.push(x('user_annotation', `ProfilerStep#${step}`, PID, MAIN, stepStart, t - stepStart, { 'External id': ext++ }));
    counts.stepNs.push(t - stepStart);
    gpu.push(x('gpu_user_annotation', `ProfilerStep#${step}`, 0, 7, gpuStepStart, Math.max(1, gpuT - gpuStepStart), { 'External id': ext }));
    counts.gpuAnnotations++;
    t += 2000;
  }
  const meta = [
    `{"name":"process_name","ph":"M","ts":${us(base)},"pid":${PID},"tid":0,"args":{"name":"python3"}}`,
    `{"name":"process_name","ph":"M","ts":${us(base)},"pid":0,"tid":0,"args":{"name":"python3"}}`,
    `{"name":"process_labels","ph":"M","ts":${us(base)},"pid":0,"tid":0,"args":{"labels":"GPU 0"}}`,
    `{"name":"thread_name","ph":"M","ts":${us(base)},"pid":0,"tid":7,"args":{"name":"stream 7 "}}`,
    `{"name":"thread_name","ph":"M","ts":${us(base)},"pid":${PID},"tid":${MAIN},"args":{"name":"thread ${MAIN} (python3)"}}`,
  ];
  const events = [...cpu, ...flows, ...gpu, ...meta];
  const json = `{"schemaVersion":1,"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","numSms":132}],"traceEvents":[\n${events.join(',\n')}\n],"traceName":"generated"}`;
  return { json, counts };
}
