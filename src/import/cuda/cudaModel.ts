/**
 * The one CUDA model path of every importer (Nsight Systems exports, native `.nvtxc` captures,
 * PyTorch/Kineto traces): CUDA runtime and driver API calls as 'api' rows under their threads, GPU
 * work (kernels, copies, sets) as 'gpu' rows per process, device and stream
 * (Process > CUDA > GPU n > Stream m), synchronization records on a per-device row, an API call and
 * the GPU work it launched sharing one model correlation id, and at `finish()` the NVTX GPU
 * projection rows (projection.ts) of the ranges the importer handed in.
 *
 * Importers read their own format and say what they found; the row layout, labels, correlation ids
 * and the projection are decided here once, so the statistics, the arrows and the panels see the same
 * shapes whatever format a capture came from.
 */
import type { EventAttrs, ModelBuilder, PayloadValue } from '../../model/builder.ts';
import { CUDA_CONTEXT, CUDA_CORRELATION_SPAN, CUDA_DEVICE, CUDA_GROUP, CUDA_STREAM, PROJECTION_ROW_LABEL, SYNC_ROW_LABEL } from '../../model/cudaRows.ts';
import { f64, i32, u32 } from '../../model/growable.ts';
import { PayloadType, type ObjectRef } from '../../model/types.ts';
import { launchTable, projectRange } from './projection.ts';

/** CUPTI's "no stream" id (a context-wide synchronization), as CUPTI and Nsight Systems write it. */
export const CUPTI_NO_STREAM = 0xffffffff;

/** Labels of the API rows, per CUPTI callback domain, as Nsight Systems names them. */
export const API_ROW_LABEL = { runtime: 'CUDA Runtime API', driver: 'CUDA Driver API' } as const;

/** Where GPU work ran. `pid` is what the importer's labels need (the process's own id); undefined ids are unknown. */
export interface GpuPlace {
  process: number;
  pid: number;
  device?: number;
  context?: number;
  stream?: number;
}

/**
 * Labels and names of the GPU rows, from what each format knows (device names from the export or
 * the trace, default-stream flags, the names the program gave with nvtxNameCuda*).
 */
export interface CudaLabels {
  /** Group label of a device, e.g. "GPU 0 (NVIDIA H100)". */
  device(place: GpuPlace & { device: number }): string;
  /** Row label of a stream, e.g. "Stream 7 · copies" ("No stream" when it has none). */
  stream(place: GpuPlace): string;
  /** The names the program gave the objects (listed in Model.resources and on the row's objects). */
  deviceName?(place: GpuPlace & { device: number }): string | undefined;
  contextName?(place: GpuPlace & { context: number }): string | undefined;
  streamName?(place: GpuPlace & { stream: number }): string | undefined;
}

/** The model correlation id of CUPTI correlation id `cupti` in process `process` (undefined when it cannot be one). */
export function cudaCorrelation(process: number, cupti: number | undefined): number | undefined {
  if (cupti === undefined || process < 0 || !(cupti >= 0 && cupti < CUDA_CORRELATION_SPAN)) return undefined;
  return process * CUDA_CORRELATION_SPAN + cupti;
}

/** The JSON payload of a call or an operation, undefined when it has no field. */
export function jsonPayload(info: Record<string, unknown>): PayloadValue | undefined {
  const entries = Object.entries(info).filter(([, v]) => v !== undefined);
  return entries.length === 0 ? undefined : { type: PayloadType.Json, value: JSON.stringify(Object.fromEntries(entries)) };
}

/** API calls of one thread that carry a correlation id, for the projection. */
class ThreadCalls {
  readonly start = f64();
  readonly end = f64();
  readonly key = f64();
}

/** NVTX ranges of one thread that may get a projection (they start and end on it). */
class ThreadRanges {
  constructor(readonly process: number) {}
  readonly start = f64();
  readonly end = f64();
  readonly name = u32();
  /** ARGB, NaN when the range has none (the builder's "absent"). */
  readonly color = f64();
  readonly domain = i32();
  /** A style the importer already has for the range, -1 when none. */
  readonly style = i32();
}

export class CudaModel {
  /** API rows by thread, then row label. */
  private readonly apiRows = new Map<number, Map<string, number>>();
  /** GPU rows by process, device, context, then stream ('sync' for the synchronization row): no key string per operation. */
  private readonly gpuRows = new Map<number, Map<number | undefined, Map<number | undefined, Map<number | 'sync' | undefined, number>>>>();
  private readonly namedObjects = new Set<string>();
  /** GPU work span and count per model correlation id. */
  private readonly workIndex = new Map<number, number>();
  private readonly workStart = f64();
  private readonly workEnd = f64();
  private readonly workCount = u32();
  private readonly calls = new Map<number, ThreadCalls>();
  private readonly ranges = new Map<number, ThreadRanges>();
  /** API calls, GPU operations (kernels, copies, sets) and synchronization records added. */
  apiCalls = 0;
  gpuOps = 0;
  syncs = 0;
  /** Projected ranges made by `finish()`. */
  projected = 0;

  constructor(
    private readonly b: ModelBuilder,
    private readonly labels: CudaLabels,
  ) {}

  /**
   * One API call of `thread`, on the thread's API row `rowLabel` (API_ROW_LABEL, or another
   * domain's label). `correlation` is a model correlation id (`cudaCorrelation`).
   */
  apiCall(thread: number, process: number, rowLabel: string, startNs: number, endNs: number, attrs: EventAttrs, correlation?: number): void {
    let rows = this.apiRows.get(thread);
    if (rows === undefined) this.apiRows.set(thread, (rows = new Map()));
    let row = rows.get(rowLabel);
    if (row === undefined) {
      row = this.b.customRow({ kind: 'api', label: rowLabel, process, thread });
      rows.set(rowLabel, row);
    }
    this.b.rowRange(row, startNs, endNs, attrs, thread, correlation);
    this.apiCalls++;
    if (correlation === undefined) return;
    let c = this.calls.get(thread);
    if (!c) this.calls.set(thread, (c = new ThreadCalls()));
    c.start.push(startNs);
    c.end.push(endNs);
    c.key.push(correlation);
  }

  /** A kernel, copy or set on its stream's row. */
  gpuWork(place: GpuPlace, startNs: number, endNs: number, attrs: EventAttrs, correlation?: number): void {
    this.b.rowRange(this.gpuRow(place, false), startNs, endNs, attrs, -1, correlation);
    this.gpuOps++;
    if (correlation === undefined) return;
    const k = this.workIndex.get(correlation);
    if (k === undefined) {
      this.workIndex.set(correlation, this.workStart.length);
      this.workStart.push(startNs);
      this.workEnd.push(endNs);
      this.workCount.push(1);
    } else {
      if (startNs < this.workStart.get(k)) this.workStart.set(k, startNs);
      if (endNs > this.workEnd.get(k)) this.workEnd.set(k, endNs);
      this.workCount.set(k, this.workCount.get(k) + 1);
    }
  }

  /** A synchronization record (a host wait, not GPU work) on its device's synchronization row. */
  gpuSync(place: GpuPlace, startNs: number, endNs: number, attrs: EventAttrs, correlation?: number): void {
    this.b.rowRange(this.gpuRow(place, true), startNs, endNs, attrs, -1, correlation);
    this.syncs++;
  }

  /**
   * An NVTX range that starts and ends on `thread`: at `finish()` it gets a projection when API
   * calls made inside it launched GPU work. Give `style` when the importer has one, else the name,
   * color and domain.
   */
  nvtxRange(thread: number, process: number, startNs: number, endNs: number, attrs: { nameId: number; color?: number; domain?: number; style?: number }): void {
    let r = this.ranges.get(thread);
    if (!r) this.ranges.set(thread, (r = new ThreadRanges(process)));
    r.start.push(startNs);
    r.end.push(endNs);
    r.name.push(attrs.nameId);
    r.color.push(attrs.color ?? NaN);
    r.domain.push(attrs.domain ?? 0);
    r.style.push(attrs.style ?? -1);
  }

  /**
   * After the last call, operation and range: one "NVTX (GPU projection)" row per thread with the
   * ranges that launched GPU work, each over the time span of that work (projection.ts).
   */
  finish(): void {
    const b = this.b;
    const payloads = new Map<number | string, string>();
    const payloadOf = (work: number, calls: number) => {
      // A number while both counts are below 2^26 (exact), else a string: no string per range.
      const key = work < 67108864 && calls < 67108864 ? work * 67108864 + calls : `${work}:${calls}`;
      let json = payloads.get(key);
      if (json === undefined) payloads.set(key, (json = JSON.stringify({ gpuOperations: work, apiCalls: calls })));
      return json;
    };
    for (const [thread, ranges] of this.ranges) {
      const c = this.calls.get(thread);
      if (!c) continue;
      const n = c.start.length;
      const gpuStart = new Float64Array(n);
      const gpuEnd = new Float64Array(n);
      const gpuCount = new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const k = this.workIndex.get(c.key.get(i));
        if (k === undefined) continue;
        gpuStart[i] = this.workStart.get(k);
        gpuEnd[i] = this.workEnd.get(k);
        gpuCount[i] = this.workCount.get(k);
      }
      const table = launchTable(c.start.view(), c.end.view(), gpuStart, gpuEnd, gpuCount);
      if (table.start.length === 0) continue;
      let row = -1;
      for (let i = 0; i < ranges.start.length; i++) {
        const p = projectRange(table, ranges.start.get(i), ranges.end.get(i));
        if (!p) continue;
        if (row < 0) row = b.customRow({ kind: 'gpu', label: PROJECTION_ROW_LABEL, process: ranges.process, thread });
        const style = ranges.style.get(i);
        const color = ranges.color.get(i);
        const payload: PayloadValue = { type: PayloadType.Json, value: payloadOf(p.workCount, p.callCount) };
        const attrs: EventAttrs =
          style >= 0
            ? { nameId: ranges.name.get(i), style, payload }
            : { nameId: ranges.name.get(i), color: Number.isNaN(color) ? undefined : color, domain: ranges.domain.get(i), payload };
        b.rowRange(row, p.startNs, p.endNs, attrs, thread);
        this.projected++;
      }
    }
  }

  private gpuRow(place: GpuPlace, sync: boolean): number {
    const { process, device, context, stream } = place;
    let byDevice = this.gpuRows.get(process);
    if (byDevice === undefined) this.gpuRows.set(process, (byDevice = new Map()));
    let byContext = byDevice.get(device);
    if (byContext === undefined) byDevice.set(device, (byContext = new Map()));
    let byStream = byContext.get(context);
    if (byStream === undefined) byContext.set(context, (byStream = new Map()));
    let row = byStream.get(sync ? 'sync' : stream);
    if (row !== undefined) return row;
    const objects: ObjectRef[] = [];
    const object = (kind: string, id: number, name: string | undefined) => {
      objects.push({ kind, handle: String(id) });
      if (name !== undefined) this.nameResource(kind, id, name, process);
    };
    const l = this.labels;
    if (device !== undefined) object(CUDA_DEVICE, device, l.deviceName?.({ ...place, device }));
    if (context !== undefined) object(CUDA_CONTEXT, context, l.contextName?.({ ...place, context }));
    if (!sync && stream !== undefined && stream !== CUPTI_NO_STREAM) object(CUDA_STREAM, stream, l.streamName?.({ ...place, stream }));
    row = this.b.customRow({
      kind: 'gpu',
      label: sync ? SYNC_ROW_LABEL : l.stream(place),
      process,
      path: device === undefined ? [CUDA_GROUP] : [CUDA_GROUP, l.device({ ...place, device })],
      objects,
    });
    byStream.set(sync ? 'sync' : stream, row);
    return row;
  }

  /** Each named object once per process, in Model.resources (details, tooltips, `nvtxview events`). */
  private nameResource(kind: string, id: number, name: string, process: number): void {
    const k = `${kind}:${process}:${id}`;
    if (this.namedObjects.has(k)) return;
    this.namedObjects.add(k);
    this.b.nameResource({ kind, handle: String(id), name, process, domain: 0 });
  }
}
