/**
 * What a statistic looks at: the whole capture or a union of time spans, some tracks, some track
 * kinds, and optional include masks (the page's filters). `resolveScope` turns the caller's
 * options into a form the hot loops read without allocation, and answers per-range questions
 * ("is it in scope, how much of it counts") in O(1) for one span, O(log k) for k spans.
 */
import { upperBound } from '../model/query.ts';
import type { Model, Nanoseconds, Track, TrackKind } from '../model/types.ts';

export interface TimeSpan {
  startNs: Nanoseconds;
  endNs: Nanoseconds;
}

/**
 * How a range that meets the selected span(s) counts:
 * - 'clip' (default): only the part inside the span(s); what a "selected span" table wants.
 * - 'overlap': ranges that overlap the span(s) count with their whole duration (nsys style).
 * - 'contain': only ranges entirely inside one span count, with their whole duration.
 * In every mode a range meets the scope when its overlap with the spans has positive length, or
 * when it is instantaneous (start = end) and lies inside a span (ends included). A range that only
 * touches a span at one end does not meet it.
 */
export type SpanMode = 'clip' | 'overlap' | 'contain';

export interface ScopeOptions {
  /** Time spans (ns from the capture start); their union is the scope. Absent or empty: everything. */
  spans?: readonly TimeSpan[];
  /** Default 'clip'. Ignored without spans. */
  mode?: SpanMode;
  /** Track indices to look at; absent: all tracks (of `kinds`). */
  tracks?: readonly number[];
  /** Range track kinds to look at; default NVTX ranges: ['pushpop', 'category']. */
  kinds?: readonly TrackKind[];
  /** Per style (index into `Model.styles`): 0 hides the style's events. Absent: all shown. */
  includeStyles?: Uint8Array;
  /** Per thread (index into `Model.threads`): 0 hides the thread's events. Absent: all shown. */
  includeThreads?: Uint8Array;
}

export const NVTX_RANGE_KINDS: readonly TrackKind[] = ['pushpop', 'category'];

/** A scope ready for the hot loops. */
export class ResolvedScope {
  /** True when there are no spans: every range counts whole. */
  readonly whole: boolean;
  readonly mode: SpanMode;
  /** Merged, sorted, disjoint spans: starts, ends, and the covered length before each. */
  readonly from: Float64Array;
  readonly to: Float64Array;
  private readonly before: Float64Array;
  /** Extent of the union. */
  readonly minNs: number;
  readonly maxNs: number;
  readonly tracks: readonly Track[];
  readonly trackIndices: readonly number[];
  readonly includeStyles: Uint8Array | undefined;
  readonly includeThreads: Uint8Array | undefined;
  /** True when include masks are set (callers skip `shown` otherwise). */
  readonly filtered: boolean;
  /** Sum of the span lengths (the covered time). */
  readonly coveredNs: number;

  constructor(model: Model, options: ScopeOptions, defaultKinds: readonly TrackKind[] = NVTX_RANGE_KINDS) {
    const spans = mergeSpans(options.spans ?? []);
    this.whole = spans.length === 0;
    this.mode = options.mode ?? 'clip';
    this.from = Float64Array.from(spans, (s) => s.startNs);
    this.to = Float64Array.from(spans, (s) => s.endNs);
    this.before = new Float64Array(spans.length);
    let acc = 0;
    for (let k = 0; k < spans.length; k++) {
      this.before[k] = acc;
      acc += this.to[k] - this.from[k];
    }
    this.coveredNs = this.whole ? model.durationNs : acc;
    this.minNs = this.whole ? -Infinity : this.from[0];
    this.maxNs = this.whole ? Infinity : this.to[spans.length - 1];
    const kinds = new Set(options.kinds ?? defaultKinds);
    const indices = options.tracks ?? model.tracks.map((_, i) => i);
    this.trackIndices = indices.filter((t) => t >= 0 && t < model.tracks.length && kinds.has(model.tracks[t].kind));
    this.tracks = this.trackIndices.map((t) => model.tracks[t]);
    this.includeStyles = options.includeStyles;
    this.includeThreads = options.includeThreads;
    this.filtered = this.includeStyles !== undefined || this.includeThreads !== undefined;
  }

  /** Whether the filters let an event of this style and thread through. */
  shown(style: number, thread: number): boolean {
    if (this.includeStyles !== undefined && this.includeStyles[style] === 0) return false;
    if (this.includeThreads !== undefined && thread >= 0 && this.includeThreads[thread] === 0) return false;
    return true;
  }

  /** Index of the last span starting at or before t, or -1. */
  private spanAt(t: number): number {
    return upperBound(this.from, t, 0, this.from.length) - 1;
  }

  /** Covered time in (-inf, t]. */
  private coveredUpTo(t: number): number {
    const k = this.spanAt(t);
    if (k < 0) return 0;
    return this.before[k] + Math.min(t, this.to[k]) - this.from[k];
  }

  /** Length of [s, e] inside the union of spans. */
  clippedLength(s: number, e: number): number {
    if (this.whole) return e - s;
    if (this.from.length === 1) {
      const a = s > this.from[0] ? s : this.from[0];
      const b = e < this.to[0] ? e : this.to[0];
      return b > a ? b - a : 0;
    }
    return this.coveredUpTo(e) - this.coveredUpTo(s);
  }

  /** Whether instant t lies inside a span (ends included). */
  containsInstant(t: number): boolean {
    if (this.whole) return true;
    const k = this.spanAt(t);
    return k >= 0 && t <= this.to[k];
  }

  /**
   * The time of [s, e] that counts in this scope, or -1 when the range does not meet the scope
   * (see `SpanMode`).
   */
  measure(s: number, e: number): number {
    if (this.whole) return e - s;
    if (s === e) return this.containsInstant(s) ? 0 : -1;
    switch (this.mode) {
      case 'clip': {
        const c = this.clippedLength(s, e);
        return c > 0 ? c : -1;
      }
      case 'overlap':
        return this.clippedLength(s, e) > 0 ? e - s : -1;
      case 'contain': {
        const k = this.spanAt(s);
        return k >= 0 && e <= this.to[k] ? e - s : -1;
      }
    }
  }

  /**
   * The part of child [cs, ce] (clamped to its parent's end pe) that is subtracted from the
   * parent's counted time. The parent is known to be in scope.
   */
  childCover(cs: number, ce: number, pe: number): number {
    const e = ce < pe ? ce : pe;
    if (e <= cs) return 0;
    if (this.whole || this.mode !== 'clip') return e - cs;
    return this.clippedLength(cs, e);
  }
}

/** Spans sorted by start, overlapping or touching ones merged; inverted spans are swapped. */
export function mergeSpans(spans: readonly TimeSpan[]): TimeSpan[] {
  const sorted = spans
    .map((s) => (s.endNs < s.startNs ? { startNs: s.endNs, endNs: s.startNs } : { startNs: s.startNs, endNs: s.endNs }))
    .filter((s) => Number.isFinite(s.startNs) && Number.isFinite(s.endNs))
    .sort((a, b) => a.startNs - b.startNs || a.endNs - b.endNs);
  const out: TimeSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.startNs <= last.endNs) last.endNs = Math.max(last.endNs, s.endNs);
    else out.push({ ...s });
  }
  return out;
}
