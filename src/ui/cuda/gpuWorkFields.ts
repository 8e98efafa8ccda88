/**
 * A kernel, copy or set as labelled fields (device, stream, grid, block, registers, shared memory,
 * bytes, bandwidth...) instead of its payload's JSON text. One reading for both importers: the
 * nsys importer writes `grid`, `block`, `registersPerThread`, `staticSharedMemory`,
 * `dynamicSharedMemory`, `bytes`, `value`; PyTorch's profiler (Kineto) writes `grid`, `block`,
 * `registers per thread`, `shared memory`, `bytes`, `memory bandwidth (GB/s)`, occupancy figures,
 * `correlation` and `External id`. Device and stream come from the row the work sits on.
 */
import { isGpuWorkRow } from '../../model/cudaRows.ts';
import { payloadJson } from '../../model/payload.ts';
import { correlationIdOf, trackOfRange } from '../../model/query.ts';
import type { Model } from '../../model/types.ts';
import { formatBytes, formatCount } from '../../format/numbers.ts';

export interface DetailField {
  label: string;
  value: string;
}

/** Kineto keys shown with their own label, in this order, after the common fields. */
const KINETO_EXTRA: [key: string, label: string][] = [
  ['blocks per SM', 'Blocks per SM'],
  ['warps per SM', 'Warps per SM'],
  ['est. achieved occupancy %', 'Est. achieved occupancy (%)'],
  ['queued', 'Queued'],
  ['context', 'Context'],
  ['External id', 'External id (PyTorch op)'],
];

/** Keys read into the common fields (left out of "other"). */
const READ = new Set([
  'grid',
  'block',
  'registersPerThread',
  'registers per thread',
  'staticSharedMemory',
  'dynamicSharedMemory',
  'shared memory',
  'bytes',
  'memory bandwidth (GB/s)',
  'value',
  'device',
  'stream',
  'correlation',
  ...KINETO_EXTRA.map(([k]) => k),
]);

function dims(v: unknown): string | undefined {
  return Array.isArray(v) && v.every((x) => typeof x === 'number') ? `(${v.join(', ')})` : undefined;
}

function count(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Fields of a GPU work range, or undefined when the range is not GPU work. */
export function gpuWorkFields(model: Model, range: number): DetailField[] | undefined {
  const track = model.tracks[trackOfRange(model, range)];
  if (!track || !isGpuWorkRow(track)) return undefined;
  const out: DetailField[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) out.push({ label, value });
  };
  const args = model.ranges.payload[range] >= 0 ? payloadJson(model, model.ranges.payload[range]) : null;
  const a: Record<string, unknown> = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  add('Device', track.path[1]);
  add('Stream', track.label);
  add('Grid', dims(a.grid));
  add('Block', dims(a.block));
  const regs = count(a.registersPerThread ?? a['registers per thread']);
  if (regs !== undefined) add('Registers per thread', formatCount(regs));
  const shared = count(a['shared memory']);
  if (shared !== undefined) add('Shared memory', formatBytes(shared));
  const staticShared = count(a.staticSharedMemory);
  const dynamicShared = count(a.dynamicSharedMemory);
  if (staticShared !== undefined || dynamicShared !== undefined) {
    add('Shared memory', `${formatBytes((staticShared ?? 0) + (dynamicShared ?? 0))} (static ${formatBytes(staticShared ?? 0)}, dynamic ${formatBytes(dynamicShared ?? 0)})`);
  }
  const bytes = count(a.bytes);
  if (bytes !== undefined) {
    add('Bytes', `${formatBytes(bytes)} (${formatCount(bytes)} B)`);
    const durationNs = model.ranges.endNs[range] - model.ranges.startNs[range];
    // Bytes per ns is GB/s; the profiler's own figure when it gives one.
    const given = count(a['memory bandwidth (GB/s)']);
    const gbPerS = given ?? (durationNs > 0 ? bytes / durationNs : undefined);
    if (gbPerS !== undefined) add('Bandwidth', `${gbPerS.toPrecision(4)} GB/s`);
  }
  const value = count(a.value);
  if (value !== undefined) add('Value set', String(value));
  for (const [key, label] of KINETO_EXTRA) if (a[key] !== undefined) add(label, String(a[key]));
  const corr = correlationIdOf(model, range);
  const givenCorr = count(a.correlation);
  if (givenCorr !== undefined) add('Correlation id', String(givenCorr));
  else if (corr !== undefined) add('Correlation id', String(corr % 2 ** 32));
  for (const [k, v] of Object.entries(a)) if (!READ.has(k)) add(k, typeof v === 'string' ? v : JSON.stringify(v));
  return out;
}
