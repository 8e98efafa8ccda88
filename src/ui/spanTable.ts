/**
 * Rows of the side panel's per-name table for the selected time span: the statistics engine's
 * per-name rows for each loaded capture (the span moved onto each capture's own time axis), and
 * their sort order.
 */
import { rangeStats, type RangeStatsRow } from '../analysis/rangeStats.ts';
import type { LoadedCapture, ViewerState } from '../state/viewerStore.ts';

export interface SpanRow {
  /** Unique across captures. */
  key: string;
  capture: number;
  /** Capture display name, shown when several captures are loaded. */
  file: string;
  label: string;
  /** "PushPop" / "StartEnd": tells apart same-named ranges of the two kinds. */
  style: string;
  count: number;
  totalNs: number;
  selfNs: number;
  avgNs: number;
  minNs: number;
  maxNs: number;
  medianNs: number;
  /** The longest instance, for "select the slowest". */
  maxRange: number;
}

export type SpanSortKey = 'label' | 'count' | 'totalNs' | 'selfNs' | 'avgNs' | 'minNs' | 'maxNs' | 'medianNs';

export interface SpanSort {
  key: SpanSortKey;
  descending: boolean;
}

export const DEFAULT_SPAN_SORT: SpanSort = { key: 'totalNs', descending: true };

/**
 * Per-name statistics of the ranges inside `span` (shared-axis ns), counting only the part of each
 * range inside the span (the engine's 'clip' mode), for every capture.
 */
export function spanRows(captures: readonly LoadedCapture[], span: NonNullable<ViewerState['span']>): SpanRow[] {
  const rows: SpanRow[] = [];
  for (const c of captures) {
    const local = { startNs: span.startNs - c.offsetNs, endNs: span.endNs - c.offsetNs };
    if (local.endNs <= 0 || local.startNs >= c.model.durationNs) continue;
    const result = rangeStats(c.model, { spans: [local], mode: 'clip', groupBy: 'name' });
    for (const r of result.rows) rows.push(toSpanRow(c, r));
  }
  return rows;
}

function toSpanRow(c: LoadedCapture, r: RangeStatsRow): SpanRow {
  return {
    key: `${c.id}|${r.key}`,
    capture: c.id,
    file: c.model.capture.displayName,
    label: r.label,
    style: r.style,
    count: r.count,
    totalNs: r.totalNs,
    selfNs: r.selfNs,
    avgNs: r.avgNs,
    minNs: r.minNs,
    maxNs: r.maxNs,
    medianNs: r.medianNs,
    maxRange: r.maxRange,
  };
}

/** A sorted copy; ties fall back to the label, then the key, so the order is stable. */
export function sortSpanRows(rows: readonly SpanRow[], sort: SpanSort): SpanRow[] {
  const dir = sort.descending ? -1 : 1;
  const byLabel = (a: SpanRow, b: SpanRow) => a.label.localeCompare(b.label) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const key = sort.key;
  if (key === 'label') return [...rows].sort((a, b) => dir * byLabel(a, b));
  return [...rows].sort((a, b) => dir * (a[key] - b[key]) || byLabel(a, b));
}

/** Clicking a column header: the same column flips direction; a new one starts in its natural order. */
export function nextSort(current: SpanSort, key: SpanSortKey): SpanSort {
  if (current.key === key) return { key, descending: !current.descending };
  return { key, descending: key !== 'label' };
}
