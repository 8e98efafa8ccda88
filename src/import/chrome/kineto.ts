/**
 * PyTorch profiler (Kineto) events of a Chrome trace, fed into the same CUDA model the Nsight
 * Systems importer makes (src/import/nsys/cuda.ts): `cuda_runtime` / `cuda_driver` calls as 'api'
 * rows under their thread, `kernel` / `gpu_memcpy` / `gpu_memset` as GPU work on 'gpu' rows
 * (CUDA > GPU n > Stream m, under the trace's GPU pseudo-process), linked by their `correlation`
 * arg (the id the `ac2g` flows carry too); `gpu_user_annotation` (the GPU shadow of a
 * `record_function` range) on a per-stream annotation row beside the work, never counted as GPU
 * work nor as a CPU range. `cpu_op` and `user_annotation` stay the thread's ranges (the caller draws
 * them); `user_annotation` ranges also get a GPU projection row, as NVTX ranges do in nsys exports.
 *
 * Correlation ids are CUPTI's, unique per process; a Kineto trace is one process, so the id is
 * used as is (traces merged from several processes may link wrongly: the GPU events do not say
 * which process launched them).
 */
import type { EventAttrs, ModelBuilder } from '../../model/builder.ts';
import { CUDA_GROUP, PROJECTION_ROW_LABEL, gpuAnnotationRowLabel } from '../../model/cudaRows.ts';
import { f64, u32 } from '../../model/growable.ts';
import { PayloadType } from '../../model/types.ts';
import { launchTable, projectRange } from '../nsys/projection.ts';
import type { KinetoArgs } from './kinetoArgs.ts';

/** What a Kineto category means to the importer. */
export const enum KinetoRole {
  /** Not a Kineto category the importer treats specially: a range on the thread's stack. */
  None = 0,
  RuntimeApi = 1,
  DriverApi = 2,
  Kernel = 3,
  Memcpy = 4,
  Memset = 5,
  GpuAnnotation = 6,
  /** `user_annotation` (record_function): a thread range that also gets a GPU projection. */
  UserAnnotation = 7,
}

const ROLE_OF_CATEGORY: Record<string, KinetoRole> = {
  cuda_runtime: KinetoRole.RuntimeApi,
  cuda_driver: KinetoRole.DriverApi,
  kernel: KinetoRole.Kernel,
  gpu_memcpy: KinetoRole.Memcpy,
  gpu_memset: KinetoRole.Memset,
  gpu_user_annotation: KinetoRole.GpuAnnotation,
  user_annotation: KinetoRole.UserAnnotation,
  // Older Kineto spellings.
  Runtime: KinetoRole.RuntimeApi,
  Kernel: KinetoRole.Kernel,
  Memcpy: KinetoRole.Memcpy,
  Memset: KinetoRole.Memset,
};

export function kinetoRole(category: string): KinetoRole {
  return ROLE_OF_CATEGORY[category] ?? KinetoRole.None;
}

/** The same labels the nsys importer gives its API rows. */
const API_ROW_LABEL = { [KinetoRole.RuntimeApi]: 'CUDA Runtime API', [KinetoRole.DriverApi]: 'CUDA Driver API' } as const;

/** Roles that go to this module (the others stay ranges on the thread's stack). */
export function isRoutedRole(role: KinetoRole): boolean {
  return role !== KinetoRole.None && role !== KinetoRole.UserAnnotation;
}

/** What the caller knows of one complete event. */
export interface KinetoEvent {
  role: KinetoRole;
  startNs: number;
  endNs: number;
  /** Builder thread and process of the event's pid/tid. */
  thread: number;
  process: number;
  /** The event's `pid` (Kineto writes the device there for GPU events). */
  pid: number;
  /** The event's `tid` (Kineto writes the stream there for GPU events). */
  tid: number;
  /** Name, category, color and the args payload, as for any range. */
  attrs: EventAttrs;
  /** `correlation`, `device` and `stream` from the args (src/import/chrome/kinetoArgs.ts). */
  args: KinetoArgs;
}

/** The thread's ranges of one thread that may get a GPU projection. */
class Annotations {
  constructor(readonly process: number) {}
  readonly start = f64();
  readonly end = f64();
  readonly name = u32();
  readonly style = u32();
}

/** API calls of one thread that carry a correlation id. */
class Calls {
  readonly start = f64();
  readonly end = f64();
  readonly key = f64();
}

export class KinetoEvents {
  private readonly apiRows = new Map<number, number>();
  private readonly gpuRows = new Map<string, number>();
  /** Device index -> GPU name from the top-level `deviceProperties`. */
  private readonly deviceNames = new Map<number, string>();
  private readonly calls = new Map<number, Calls>();
  private readonly annotations = new Map<number, Annotations>();
  /** GPU work span and count per correlation id (for the projection). */
  private readonly work = new Map<number, { start: number; end: number; count: number }>();
  apiCalls = 0;
  gpuOps = 0;
  ac2gFlows = 0;

  constructor(private readonly builder: ModelBuilder) {}

  /** The top-level `deviceProperties` array: names for the GPU rows. */
  deviceProperties(value: unknown): void {
    if (!Array.isArray(value)) return;
    for (const d of value) {
      if (d && typeof d === 'object' && typeof (d as { id?: unknown }).id === 'number' && typeof (d as { name?: unknown }).name === 'string') {
        this.deviceNames.set((d as { id: number }).id, (d as { name: string }).name);
      }
    }
  }

  /** An `ac2g` flow event: the link it makes is read from the correlation args; counted only. */
  noteAc2gFlow(): void {
    this.ac2gFlows++;
  }

  /** A `user_annotation` range of a thread, remembered for its GPU projection. */
  annotation(thread: number, process: number, startNs: number, endNs: number, nameId: number, style: number): void {
    let a = this.annotations.get(thread);
    if (!a) this.annotations.set(thread, (a = new Annotations(process)));
    a.start.push(startNs);
    a.end.push(endNs);
    a.name.push(nameId);
    a.style.push(style);
  }

  /** A complete event of a routed role. */
  complete(e: KinetoEvent): void {
    // 0 is "none" in CUPTI.
    const corr = e.args.correlation !== undefined && e.args.correlation > 0 ? e.args.correlation : undefined;
    switch (e.role) {
      case KinetoRole.RuntimeApi:
      case KinetoRole.DriverApi: {
        this.apiCalls++;
        const key = e.thread * 8 + e.role;
        let row = this.apiRows.get(key);
        if (row === undefined) {
          row = this.builder.customRow({ kind: 'api', label: API_ROW_LABEL[e.role], process: e.process, thread: e.thread });
          this.apiRows.set(key, row);
        }
        this.builder.rowRange(row, e.startNs, e.endNs, e.attrs, e.thread, corr);
        if (corr !== undefined) {
          let c = this.calls.get(e.thread);
          if (!c) this.calls.set(e.thread, (c = new Calls()));
          c.start.push(e.startNs);
          c.end.push(e.endNs);
          c.key.push(corr);
        }
        return;
      }
      case KinetoRole.Kernel:
      case KinetoRole.Memcpy:
      case KinetoRole.Memset:
      case KinetoRole.GpuAnnotation: {
        const device = e.args.device ?? e.pid;
        const stream = e.args.stream ?? e.tid;
        const annotation = e.role === KinetoRole.GpuAnnotation;
        const row = this.gpuRow(e.process, device, stream, annotation);
        if (annotation) {
          this.builder.rowRange(row, e.startNs, e.endNs, e.attrs, -1);
          return;
        }
        this.gpuOps++;
        this.builder.rowRange(row, e.startNs, e.endNs, e.attrs, -1, corr);
        if (corr !== undefined) {
          const w = this.work.get(corr);
          if (!w) this.work.set(corr, { start: e.startNs, end: e.endNs, count: 1 });
          else {
            w.start = Math.min(w.start, e.startNs);
            w.end = Math.max(w.end, e.endNs);
            w.count++;
          }
        }
        return;
      }
    }
  }

  private gpuRow(process: number, device: number, stream: number, annotation: boolean): number {
    const key = `${process}:${device}:${stream}:${annotation ? 'a' : 'w'}`;
    let row = this.gpuRows.get(key);
    if (row === undefined) {
      const name = this.deviceNames.get(device);
      const streamLabel = `Stream ${stream}`;
      row = this.builder.customRow({
        kind: 'gpu',
        label: annotation ? gpuAnnotationRowLabel(streamLabel) : streamLabel,
        process,
        path: [CUDA_GROUP, name ? `GPU ${device} (${name})` : `GPU ${device}`],
      });
      this.gpuRows.set(key, row);
    }
    return row;
  }

  /**
   * After the last event: one "NVTX (GPU projection)" row per thread with the `user_annotation`
   * ranges that launched GPU work, over that work's time span (the nsys importer's rule, shared
   * through src/import/nsys/projection.ts).
   */
  finish(): void {
    const b = this.builder;
    for (const [thread, ranges] of this.annotations) {
      const c = this.calls.get(thread);
      if (!c) continue;
      const n = c.start.length;
      const gpuStart = new Float64Array(n);
      const gpuEnd = new Float64Array(n);
      const gpuCount = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const w = this.work.get(c.key.get(i));
        if (!w) continue;
        gpuStart[i] = w.start;
        gpuEnd[i] = w.end;
        gpuCount[i] = w.count;
      }
      const table = launchTable(c.start.view(), c.end.view(), gpuStart, gpuEnd, gpuCount);
      if (table.start.length === 0) continue;
      let row = -1;
      for (let i = 0; i < ranges.start.length; i++) {
        const p = projectRange(table, ranges.start.get(i), ranges.end.get(i));
        if (!p) continue;
        if (row < 0) row = b.customRow({ kind: 'gpu', label: PROJECTION_ROW_LABEL, process: ranges.process, thread });
        b.rowRange(
          row,
          p.startNs,
          p.endNs,
          {
            nameId: ranges.name.get(i),
            style: ranges.style.get(i),
            payload: { type: PayloadType.Json, value: JSON.stringify({ gpuOperations: p.workCount, apiCalls: p.callCount }) },
          },
          thread,
        );
      }
    }
  }
}
