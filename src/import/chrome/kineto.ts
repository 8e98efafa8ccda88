/**
 * PyTorch profiler (Kineto) events of a Chrome trace, fed into the CUDA model every importer shares
 * (src/import/cuda/cudaModel.ts): `cuda_runtime` / `cuda_driver` calls as 'api'
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
import { CUDA_GROUP, gpuAnnotationRowLabel } from '../../model/cudaRows.ts';
import { API_ROW_LABEL as CUDA_API_ROW_LABEL, CudaModel, type CudaLabels } from '../cuda/cudaModel.ts';
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
const API_ROW_LABEL = { [KinetoRole.RuntimeApi]: CUDA_API_ROW_LABEL.runtime, [KinetoRole.DriverApi]: CUDA_API_ROW_LABEL.driver } as const;

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

/**
 * Correlation ids are used as Kineto writes them (one process per trace, see above): the model id
 * is the CUPTI id, not (process, id) as in captures that hold several processes.
 */
export class KinetoEvents {
  private readonly annotationRows = new Map<string, number>();
  /** Device index -> GPU name from the top-level `deviceProperties`. */
  private readonly deviceNames = new Map<number, string>();
  private readonly cuda: CudaModel;
  ac2gFlows = 0;

  constructor(private readonly builder: ModelBuilder) {
    const labels: CudaLabels = {
      device: ({ device }) => this.deviceLabel(device),
      stream: ({ stream }) => `Stream ${stream}`,
    };
    this.cuda = new CudaModel(builder, labels);
  }

  get apiCalls(): number {
    return this.cuda.apiCalls;
  }

  get gpuOps(): number {
    return this.cuda.gpuOps;
  }

  private deviceLabel(device: number): string {
    const name = this.deviceNames.get(device);
    return name ? `GPU ${device} (${name})` : `GPU ${device}`;
  }
  /**
   * The top-level `deviceProperties` array: names for the GPU rows, and a "GPUs" property in words
   * (as Nsight exports have one): "0: NVIDIA H100 80GB HBM3 (79.2 GiB, 132 SMs, compute 9.0)".
   */
  deviceProperties(value: unknown): void {
    if (!Array.isArray(value)) return;
    const described: string[] = [];
    for (const d of value) {
      if (!d || typeof d !== 'object') continue;
      const { id, name, totalGlobalMem, numSms, computeMajor, computeMinor } = d as Record<string, unknown>;
      if (typeof id !== 'number' || typeof name !== 'string') continue;
      this.deviceNames.set(id, name);
      const facts = [
        typeof totalGlobalMem === 'number' && totalGlobalMem > 0 ? `${(totalGlobalMem / 2 ** 30).toFixed(1)} GiB` : '',
        typeof numSms === 'number' && numSms > 0 ? `${numSms} SMs` : '',
        typeof computeMajor === 'number' && typeof computeMinor === 'number' ? `compute ${computeMajor}.${computeMinor}` : '',
      ].filter(Boolean);
      described.push(`${id}: ${name}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`);
    }
    if (described.length > 0) this.builder.setProperty('GPUs', described.join('; '));
  }

  /** An `ac2g` flow event: the link it makes is read from the correlation args; counted only. */
  noteAc2gFlow(): void {
    this.ac2gFlows++;
  }

  /** A `user_annotation` range of a thread, remembered for its GPU projection. */
  annotation(thread: number, process: number, startNs: number, endNs: number, nameId: number, style: number): void {
    this.cuda.nvtxRange(thread, process, startNs, endNs, { nameId, style });
  }

  /** A complete event of a routed role. */
  complete(e: KinetoEvent): void {
    // 0 is "none" in CUPTI.
    const corr = e.args.correlation !== undefined && e.args.correlation > 0 ? e.args.correlation : undefined;
    switch (e.role) {
      case KinetoRole.RuntimeApi:
      case KinetoRole.DriverApi:
        this.cuda.apiCall(e.thread, e.process, API_ROW_LABEL[e.role], e.startNs, e.endNs, e.attrs, corr);
        return;
      case KinetoRole.Kernel:
      case KinetoRole.Memcpy:
      case KinetoRole.Memset:
        this.cuda.gpuWork({ process: e.process, pid: e.pid, device: e.args.device ?? e.pid, stream: e.args.stream ?? e.tid }, e.startNs, e.endNs, e.attrs, corr);
        return;
      case KinetoRole.GpuAnnotation:
        this.builder.rowRange(this.annotationRow(e.process, e.args.device ?? e.pid, e.args.stream ?? e.tid), e.startNs, e.endNs, e.attrs, -1);
        return;
    }
  }

  /** The per-stream row of GPU-side annotations, beside the stream's work (never GPU work itself). */
  private annotationRow(process: number, device: number, stream: number): number {
    const key = `${process}:${device}:${stream}`;
    let row = this.annotationRows.get(key);
    if (row === undefined) {
      row = this.builder.customRow({ kind: 'gpu', label: gpuAnnotationRowLabel(`Stream ${stream}`), process, path: [CUDA_GROUP, this.deviceLabel(device)] });
      this.annotationRows.set(key, row);
    }
    return row;
  }

  /**
   * After the last event: one "NVTX (GPU projection)" row per thread with the `user_annotation`
   * ranges that launched GPU work, over that work's time span (the CUDA model's rule,
   * src/import/cuda/projection.ts).
   */
  finish(): void {
    this.cuda.finish();
  }
}
