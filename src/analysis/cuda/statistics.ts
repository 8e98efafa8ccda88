/**
 * CUDA range statistics of one NVTX range (NVTX guide, section 3.2.6 "Range Statistics"): the API
 * calls made during the range per API domain, the GPU work they launched, and the range's GPU
 * projection. Pure functions of a finished model (as the nsys importer lays it out: 'api' rows under
 * threads, 'gpu' rows under Process > CUDA > GPU n, calls and work linked by `Model.correlation`).
 *
 * Definitions used throughout:
 * - An API call is made *during* the range when it was made on the thread that opened the range and
 *   lies entirely inside it: range start <= call start and call end <= range end. (This is the rule
 *   Nsight Systems uses for its GPU projection; on one thread a call cannot straddle a push or pop.)
 * - The range's *children* are the ranges one level deeper on its push/pop row (same thread, same
 *   NVTX domain) that lie inside it; start/end ranges have none. The range's *self time* is its
 *   duration minus the time its children cover.
 * - A call during the range is *self* when it overlaps none of the children.
 * - The range's *GPU work* is every kernel, memcpy and memset whose launching API call (same
 *   correlation id) was made during the range; *self* GPU work was launched by self calls.
 *   Synchronization records are host waits, not GPU work, and are left out.
 * - *GPU Activity* is the time at least one of the GPU work items was in flight (the length of the
 *   union of their intervals), *GPU Work Overlap* the time two or more were in flight at once.
 * - Percentages ("Total %", "Self %"), in % (0-100):
 *   - counts: the share of all calls (all API domains) resp. all GPU work of the range, and for
 *     Self % the share of all self calls resp. all self GPU work;
 *   - API call duration: of the range's duration (Total %) and of its self time (Self %);
 *   - GPU Activity and Overlap: of the range's GPU projection span (Total %) and of the span of its
 *     self GPU work (Self %). GPU work runs after the calls that launch it, so the CPU duration of
 *     the range is not a meaningful reference for GPU time.
 *   A percentage whose reference is 0 is 0.
 */
import { isGpuWorkRow } from '../../model/cudaRows.ts';
import { childrenOf, correlatedRanges, levelCount, levelWindow, trackOfRange } from '../../model/query.ts';
import type { Model, Track } from '../../model/types.ts';
import { coverage } from './intervals.ts';

export interface StatValue {
  total: number;
  /** Percent (0-100) of the range's total reference value; see the module comment. */
  totalPct: number;
  self: number;
  /** Percent (0-100) of the range's self reference value. */
  selfPct: number;
}

export interface ApiDomainStatistics {
  /** API domain: the label of the thread's API row, e.g. "CUDA Runtime API". */
  domain: string;
  callCount: StatValue;
  /** Summed duration of the calls, in ns. */
  callDurationNs: StatValue;
}

export interface GpuStatistics {
  /** "All GPUs", or the device row label, e.g. "GPU 0 (NVIDIA H200)". */
  label: string;
  workCount: StatValue;
  activityNs: StatValue;
  overlapNs: StatValue;
}

export interface GpuProjection {
  startNs: number;
  endNs: number;
  durationNs: number;
  /** GPU operations launched during the range. */
  workCount: number;
  /** API calls during the range that launched them. */
  callCount: number;
}

export interface RangeCudaStatistics {
  range: number;
  /** Index into `Model.threads` of the range's thread. */
  thread: number;
  durationNs: number;
  /** Duration minus the time covered by the direct children. */
  selfNs: number;
  /** Per API domain that has a row on the thread (also those with no call during the range). */
  api: ApiDomainStatistics[];
  /** All GPU work of the range. */
  gpu: GpuStatistics;
  /** The same per device, in label order. */
  gpuByDevice: GpuStatistics[];
  /** The GPU projection (nvtx_gpu_proj_sum), or undefined when the range launched no GPU work. */
  projection?: GpuProjection;
}

const ALL_GPUS = 'All GPUs';

/**
 * Statistics of `range`, or undefined when the range has no thread (e.g. a GPU row's range) or lies
 * on an API or GPU row itself.
 */
export function rangeCudaStatistics(model: Model, range: number): RangeCudaStatistics | undefined {
  const r = model.ranges;
  const thread = r.thread[range];
  const trackIndex = trackOfRange(model, range);
  if (thread < 0 || trackIndex < 0) return undefined;
  const kind = model.tracks[trackIndex].kind;
  if (kind !== 'pushpop' && kind !== 'category') return undefined;
  const start = r.startNs[range];
  const end = r.endNs[range];

  // Direct children, ordered by start and not overlapping each other.
  const children = kind === 'pushpop' ? childrenOf(model, range) : [];
  let covered = 0;
  for (const c of children) covered += r.endNs[c] - r.startNs[c];
  const overlapsChild = (s: number, e: number): boolean => {
    let lo = 0;
    let hi = children.length;
    // First child ending after s; the call overlaps it if that child starts before e.
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (r.endNs[children[mid]] <= s) lo = mid + 1;
      else hi = mid;
    }
    return lo < children.length && (r.startNs[children[lo]] < e || (s === e && r.startNs[children[lo]] <= s));
  };

  interface Domain {
    count: number;
    selfCount: number;
    duration: number;
    selfDuration: number;
  }
  const domains = new Map<string, Domain>();
  const work = new Map<number, boolean>(); // GPU work range -> launched by a self call
  for (const track of model.tracks) {
    if (track.kind !== 'api' || track.thread !== thread) continue;
    let d = domains.get(track.label);
    if (!d) domains.set(track.label, (d = { count: 0, selfCount: 0, duration: 0, selfDuration: 0 }));
    forEachCallInside(model, track, start, end, (call) => {
      const cs = r.startNs[call];
      const ce = r.endNs[call];
      const self = !overlapsChild(cs, ce);
      d.count++;
      d.duration += ce - cs;
      if (self) {
        d.selfCount++;
        d.selfDuration += ce - cs;
      }
      for (const partner of correlatedRanges(model, call)) {
        if (!isGpuWork(model, partner)) continue;
        work.set(partner, (work.get(partner) ?? false) || self);
      }
    });
  }

  const durationNs = end - start;
  const selfNs = durationNs - covered;
  let allCalls = 0;
  let allSelfCalls = 0;
  for (const d of domains.values()) {
    allCalls += d.count;
    allSelfCalls += d.selfCount;
  }
  const api: ApiDomainStatistics[] = [...domains]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([domain, d]) => ({
      domain,
      callCount: stat(d.count, allCalls, d.selfCount, allSelfCalls),
      callDurationNs: stat(d.duration, durationNs, d.selfDuration, selfNs),
    }));

  // GPU work, all devices and per device.
  const items = [...work.keys()];
  const device = new Map<number, string>();
  for (const w of items) device.set(w, deviceLabel(model.tracks[trackOfRange(model, w)]));
  const reference = workSpan(model, items, work);
  const selfItems = items.filter((w) => work.get(w)).length;
  const group = (label: string, members: number[]) => gpuGroup(model, label, members, work, reference, items.length, selfItems);
  const labels = [...new Set(device.values())].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const gpuByDevice = labels.map((label) => group(label, items.filter((w) => device.get(w) === label)));
  const projection: GpuProjection | undefined =
    items.length === 0
      ? undefined
      : {
          startNs: reference.start,
          endNs: reference.end,
          durationNs: reference.end - reference.start,
          workCount: items.length,
          callCount: launchingCalls(model, items),
        };
  return { range, thread, durationNs, selfNs, api, gpu: group(ALL_GPUS, items), gpuByDevice, projection };
}

/** Calls of an API row lying entirely inside [start, end]. */
function forEachCallInside(model: Model, track: Track, start: number, end: number, visit: (call: number) => void): void {
  const r = model.ranges;
  for (let level = 0; level < levelCount(track); level++) {
    const [first, last] = levelWindow(model, track, level, start, end);
    for (let i = first; i < last; i++) if (r.startNs[i] >= start && r.endNs[i] <= end) visit(i);
  }
}

function isGpuWork(model: Model, range: number): boolean {
  const t = model.tracks[trackOfRange(model, range)];
  return t !== undefined && isGpuWorkRow(t);
}

function deviceLabel(track: Track): string {
  return track.path[1] ?? track.label;
}

/** Number of distinct API calls that launched the given work. */
function launchingCalls(model: Model, items: number[]): number {
  const calls = new Set<number>();
  for (const w of items) for (const c of correlatedRanges(model, w)) if (!isGpuWork(model, c)) calls.add(c);
  return calls.size;
}

/** First start and last end of all GPU work, and of the self work. */
interface Span {
  start: number;
  end: number;
  selfStart: number;
  selfEnd: number;
}

function workSpan(model: Model, items: number[], self: Map<number, boolean>): Span {
  const r = model.ranges;
  const span: Span = { start: Infinity, end: -Infinity, selfStart: Infinity, selfEnd: -Infinity };
  for (const w of items) {
    span.start = Math.min(span.start, r.startNs[w]);
    span.end = Math.max(span.end, r.endNs[w]);
    if (self.get(w)) {
      span.selfStart = Math.min(span.selfStart, r.startNs[w]);
      span.selfEnd = Math.max(span.selfEnd, r.endNs[w]);
    }
  }
  if (span.start === Infinity) span.start = span.end = 0;
  if (span.selfStart === Infinity) span.selfStart = span.selfEnd = 0;
  return span;
}

function gpuGroup(
  model: Model,
  label: string,
  members: number[],
  self: Map<number, boolean>,
  reference: Span,
  allCount: number,
  allSelfCount: number,
): GpuStatistics {
  const r = model.ranges;
  const totalStart: number[] = [];
  const totalEnd: number[] = [];
  const selfStart: number[] = [];
  const selfEnd: number[] = [];
  for (const w of members) {
    totalStart.push(r.startNs[w]);
    totalEnd.push(r.endNs[w]);
    if (self.get(w)) {
      selfStart.push(r.startNs[w]);
      selfEnd.push(r.endNs[w]);
    }
  }
  const total = coverage(totalStart, totalEnd);
  const own = coverage(selfStart, selfEnd);
  const span = reference.end - reference.start;
  const selfSpan = reference.selfEnd - reference.selfStart;
  return {
    label,
    workCount: stat(members.length, allCount, selfStart.length, allSelfCount),
    activityNs: stat(total.busyNs, span, own.busyNs, selfSpan),
    overlapNs: stat(total.overlapNs, span, own.overlapNs, selfSpan),
  };
}

function pct(value: number, reference: number): number {
  return reference > 0 ? (100 * value) / reference : 0;
}

function stat(total: number, totalRef: number, self: number, selfRef: number): StatValue {
  return { total, totalPct: pct(total, totalRef), self, selfPct: pct(self, selfRef) };
}
