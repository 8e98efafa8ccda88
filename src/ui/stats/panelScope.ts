/**
 * What the statistics look at, as the panel holds it (on the shared time axis, tracks of every
 * capture), and its translation into one capture's `StatsScope`.
 */
import type { SpanMode } from '../../analysis/scope.ts';
import type { StatsKind } from '../../analysis/cuda/statsKinds.ts';
import { captureFilter, encodeFilters, type EventFilters } from '../../analysis/eventFilters.ts';
import type { LoadedCapture } from '../../state/viewerStore.ts';
import type { StatsScope } from './compute.ts';

/** Selected tracks as `${captureId}:${trackIndex}` keys; null = every track. */
export type TrackSelection = ReadonlySet<string> | null;

export interface PanelScope {
  kind: 'capture' | 'span';
  /** The store's selected span (shared axis), used when kind is 'span'. */
  span: { startNs: number; endNs: number } | null;
  mode: SpanMode;
  tracks: TrackSelection;
  /** The store's event filters: hidden events leave every statistic. */
  filters?: EventFilters;
  /** What the range table counts (default 'ranges'). */
  rangeKind?: StatsKind;
}

export function trackKey(captureId: number, track: number): string {
  return `${captureId}:${track}`;
}

/** The scope of one capture: the span moved onto its own axis, its selected tracks. */
export function captureScope(scope: PanelScope, capture: LoadedCapture): StatsScope {
  const span = scope.kind === 'span' && scope.span ? { startNs: scope.span.startNs - capture.offsetNs, endNs: scope.span.endNs - capture.offsetNs } : null;
  let tracks: number[] | null = null;
  if (scope.tracks) {
    tracks = [];
    for (let t = 0; t < capture.model.tracks.length; t++) if (scope.tracks.has(trackKey(capture.id, t))) tracks.push(t);
  }
  const filter = scope.filters ? captureFilter(capture.model, scope.filters) : null;
  const rangeKind = scope.rangeKind;
  if (!filter) return { span, mode: scope.mode, tracks, rangeKind };
  // Rows the filters hide leave the scope; events hidden on shown rows go through the masks.
  const shown = tracks ? tracks.filter((t) => filter.hiddenTracks[t] === 0) : filter.shownTracks;
  return { span, mode: scope.mode, tracks: shown, includeStyles: filter.includeStyles, includeThreads: filter.includeThreads, rangeKind };
}

/** A key that changes whenever the scope of any capture does (for effects). */
export function scopeKey(scope: PanelScope): string {
  const span = scope.kind === 'span' && scope.span ? `${scope.span.startNs}:${scope.span.endNs}` : 'all';
  const tracks = scope.tracks ? [...scope.tracks].sort().join(',') : '*';
  return `${span}|${scope.mode}|${tracks}|${scope.filters ? encodeFilters(scope.filters) : ''}|${scope.rangeKind ?? 'ranges'}`;
}

/** Every track of a thread (its push/pop rows, marks, and the category rows of its ranges are process-wide). */
export function threadTracks(capture: LoadedCapture, thread: number): string[] {
  const keys: string[] = [];
  capture.model.tracks.forEach((t, i) => {
    if (t.thread === thread) keys.push(trackKey(capture.id, i));
  });
  return keys;
}

/** Number of selected tracks among the captures, or 'all'. */
export function selectedTrackCount(selection: TrackSelection, captures: readonly LoadedCapture[]): number | 'all' {
  if (!selection) return 'all';
  let n = 0;
  for (const c of captures) for (let t = 0; t < c.model.tracks.length; t++) if (selection.has(trackKey(c.id, t))) n++;
  return n;
}
