/**
 * NVTX GPU projection, as Nsight Systems' `nvtx_gpu_proj_sum` / `nvtx_gpu_proj_trace` reports define
 * it: a range *contains* a GPU operation (kernel, memcpy, memset) when the CUDA API call that
 * launched it (linked by correlation id) was made on the range's own thread and lies entirely inside
 * the range (range start <= call start and call end <= range end). The projected range runs from the
 * start of the first contained GPU operation to the end of the last one, whatever the device or
 * stream. A range that contains no GPU operation has no projection.
 *
 * Pure functions over plain arrays, so the importer can make projection rows before the model exists;
 * the CUDA statistics (src/analysis/cuda/statistics.ts) apply the same rule to a finished model.
 */
import { lowerBound } from '../../model/query.ts';

/** The CUDA API calls of one thread that launched GPU work, ordered by start time. */
export interface LaunchTable {
  start: Float64Array;
  end: Float64Array;
  /** Earliest start and latest end of the GPU work each call launched. */
  gpuStart: Float64Array;
  gpuEnd: Float64Array;
  /** Number of GPU operations each call launched (>= 1). */
  gpuCount: Uint32Array;
}

export interface Projection {
  startNs: number;
  endNs: number;
  /** GPU operations contained in the range. */
  workCount: number;
  /** API calls inside the range that launched them. */
  callCount: number;
}

/** Builds a launch table from calls in any order; calls that launched nothing are left out. */
export function launchTable(
  start: ArrayLike<number>,
  end: ArrayLike<number>,
  gpuStart: ArrayLike<number>,
  gpuEnd: ArrayLike<number>,
  gpuCount: ArrayLike<number>,
): LaunchTable {
  let n = 0;
  for (let i = 0; i < start.length; i++) if (gpuCount[i] > 0) n++;
  const keep = new Uint32Array(n);
  // Calls mostly come in time order already (a thread's calls in its table's order): sort only if not.
  let sorted = true;
  for (let i = 0, k = 0; i < start.length; i++) {
    if (!(gpuCount[i] > 0)) continue;
    if (k > 0) {
      const p = keep[k - 1];
      if (start[p] > start[i] || (start[p] === start[i] && end[p] > end[i])) sorted = false;
    }
    keep[k++] = i;
  }
  if (!sorted) {
    const order = Array.from(keep);
    order.sort((a, b) => start[a] - start[b] || end[a] - end[b] || a - b);
    keep.set(order);
  }
  const table: LaunchTable = {
    start: new Float64Array(n),
    end: new Float64Array(n),
    gpuStart: new Float64Array(n),
    gpuEnd: new Float64Array(n),
    gpuCount: new Uint32Array(n),
  };
  for (let k = 0; k < n; k++) {
    const i = keep[k];
    table.start[k] = start[i];
    table.end[k] = end[i];
    table.gpuStart[k] = gpuStart[i];
    table.gpuEnd[k] = gpuEnd[i];
    table.gpuCount[k] = gpuCount[i];
  }
  return table;
}

/** The projection of the range [startNs, endNs] of the table's thread, or undefined if it has none. */
export function projectRange(table: LaunchTable, startNs: number, endNs: number): Projection | undefined {
  const { start, end } = table;
  const lo = lowerBound(start, startNs, 0, start.length);
  let first = Infinity;
  let last = -Infinity;
  let workCount = 0;
  let callCount = 0;
  for (let i = lo; i < start.length && start[i] <= endNs; i++) {
    if (end[i] > endNs) continue;
    if (table.gpuStart[i] < first) first = table.gpuStart[i];
    if (table.gpuEnd[i] > last) last = table.gpuEnd[i];
    workCount += table.gpuCount[i];
    callCount++;
  }
  return callCount === 0 ? undefined : { startNs: first, endNs: last, workCount, callCount };
}
