/**
 * What a statistics table counts, so that GPU work and CPU ranges are never mixed in one table:
 * 'ranges' the threads' ranges (NVTX push/pop and start/end, Chrome slices, PyTorch ops), 'api'
 * CUDA runtime and driver calls, 'gpu' kernels and memory operations (`nsys stats cuda_gpu_sum`),
 * 'kernels' kernels only (`cuda_gpu_kern_sum`), 'memops' copies and sets only.
 */
import { isGpuWorkRow, isMemoryOperationName } from '../../model/cudaRows.ts';
import type { Model } from '../../model/types.ts';
import { NVTX_RANGE_KINDS, type ScopeOptions } from '../scope.ts';

export const STATS_KINDS = ['ranges', 'api', 'gpu', 'kernels', 'memops'] as const;
export type StatsKind = (typeof STATS_KINDS)[number];

/** Noun of one row of each kind, for headings ("12 kernels"). */
export const STATS_KIND_NOUN: Record<StatsKind, string> = {
  ranges: 'ranges',
  api: 'API calls',
  gpu: 'GPU operations',
  kernels: 'kernels',
  memops: 'memory operations',
};

/** The scope options that select one kind (merge them into the caller's options). */
export function statsKindScope(model: Model, kind: StatsKind): Pick<ScopeOptions, 'kinds' | 'tracks' | 'includeStyles'> {
  if (kind === 'ranges') return { kinds: NVTX_RANGE_KINDS };
  if (kind === 'api') return { kinds: ['api'] };
  const tracks: number[] = [];
  model.tracks.forEach((t, i) => {
    if (isGpuWorkRow(t)) tracks.push(i);
  });
  if (kind === 'gpu') return { kinds: ['gpu'], tracks };
  const wantMemops = kind === 'memops';
  const includeStyles = new Uint8Array(model.styles.name.length);
  for (let s = 0; s < includeStyles.length; s++) {
    includeStyles[s] = isMemoryOperationName(model.strings[model.styles.name[s]]) === wantMemops ? 1 : 0;
  }
  return { kinds: ['gpu'], tracks, includeStyles };
}

/** Whether the model has anything of this kind (a capture without CUDA rows has only ranges). */
export function hasStatsKind(model: Model, kind: StatsKind): boolean {
  if (kind === 'ranges') return true;
  if (kind === 'api') return model.tracks.some((t) => t.kind === 'api');
  return model.tracks.some(isGpuWorkRow);
}

/** Kinds that count GPU work (scoped by GPU projections rather than CPU time). */
export function isGpuKind(kind: StatsKind): boolean {
  return kind === 'gpu' || kind === 'kernels' || kind === 'memops';
}
