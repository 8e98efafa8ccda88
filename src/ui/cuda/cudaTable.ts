/**
 * The rows of the "CUDA statistics" panel section (pure): the range statistics of
 * src/analysis/cuda/statistics.ts as labelled rows with their kind of value, so that the component
 * only formats and lays them out.
 */
import type { RangeCudaStatistics, StatValue } from '../../analysis/cuda/statistics.ts';
import { trackOfRange } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';

export interface CudaStatRow {
  /** Stable key, also exposed to tests: `api:<domain>:calls`, `gpu:<label>:activity`... */
  key: string;
  /** Group the row belongs to (API domain or GPU label), shown once above its rows. */
  group: string;
  label: string;
  unit: 'count' | 'ns';
  value: StatValue;
  /** What the percentages are of, for the row's tooltip. */
  reference: string;
}

export function cudaStatRows(stats: RangeCudaStatistics): CudaStatRow[] {
  const rows: CudaStatRow[] = [];
  for (const d of stats.api) {
    rows.push({
      key: `api:${d.domain}:calls`,
      group: d.domain,
      label: 'API calls',
      unit: 'count',
      value: d.callCount,
      reference: 'Total %: of all API calls in the range; Self %: of all self calls',
    });
    rows.push({
      key: `api:${d.domain}:duration`,
      group: d.domain,
      label: 'API call duration',
      unit: 'ns',
      value: d.callDurationNs,
      reference: "Total %: of the range's duration; Self %: of its self time",
    });
  }
  // Per device only when there are several: with one device it repeats "All GPUs".
  const gpus = stats.gpuByDevice.length > 1 ? [stats.gpu, ...stats.gpuByDevice] : [stats.gpu];
  for (const g of gpus) {
    const group = g === stats.gpu && stats.gpuByDevice.length === 1 ? stats.gpuByDevice[0].label : g.label;
    rows.push({
      key: `gpu:${g.label}:work`,
      group,
      label: 'GPU work',
      unit: 'count',
      value: g.workCount,
      reference: 'Total %: of all GPU work of the range; Self %: of the work launched by self calls',
    });
    rows.push({
      key: `gpu:${g.label}:activity`,
      group,
      label: 'GPU activity',
      unit: 'ns',
      value: g.activityNs,
      reference: 'Time at least one operation ran. Total %: of the GPU projection span; Self %: of the span of the self work',
    });
    rows.push({
      key: `gpu:${g.label}:overlap`,
      group,
      label: 'GPU overlap',
      unit: 'ns',
      value: g.overlapNs,
      reference: 'Time two or more operations ran at once. Total %: of the GPU projection span; Self %: of the span of the self work',
    });
  }
  return rows;
}

/** Whether a capture has CUDA rows at all (the section is left out for other captures). */
export function hasCudaRows(model: Model): boolean {
  return model.tracks.some((t) => t.kind === 'api' || t.kind === 'gpu');
}

/** Whether a range sits on an API or GPU row (its correlated partners are listed instead of statistics). */
export function isCudaActivity(model: Model, range: number): boolean {
  const kind = model.tracks[trackOfRange(model, range)]?.kind;
  return kind === 'api' || kind === 'gpu';
}
