/**
 * The range table of the statistics panel, as data: rows of every capture in scope, the columns
 * of nsys `nvtx_sum` plus self time and tail percentiles, their sort order and which are shown.
 */
import { GROUP_BY_TITLE } from '../../analysis/groups.ts';
import type { RangeStatsResult, RangeStatsRow } from '../../analysis/rangeStats.ts';
import type { Grouping } from './compute.ts';

export interface StatsRow extends RangeStatsRow {
  /** Unique across captures: `${capture}|${key}`. */
  id: string;
  capture: number;
  /** Capture display name (a column when several captures are loaded). */
  file: string;
}

export type ColumnId =
  | 'timePercent'
  | 'totalNs'
  | 'count'
  | 'unended'
  | 'avgNs'
  | 'medianNs'
  | 'minNs'
  | 'maxNs'
  | 'stdDevNs'
  | 'style'
  | 'label'
  | 'selfNs'
  | 'p90Ns'
  | 'p99Ns';

export interface ColumnDef {
  id: ColumnId;
  /** Header in the panel. */
  header: string;
  /** Header tooltip: the definition. */
  title: string;
  /** Header in CSV exports (nsys `nvtx_sum` wording; durations in ns). */
  csvHeader: string;
  kind: 'percent' | 'duration' | 'count' | 'text';
  /** Least width in px where the header is wider than the kind's figures. */
  minPx?: number;
}

/** In nsys `nvtx_sum` order, then the additions. */
export const COLUMNS: readonly ColumnDef[] = [
  { id: 'timePercent', header: 'Time', title: 'Share of the sum of the listed rows’ totals (per capture)', csvHeader: 'Time (%)', kind: 'percent' },
  { id: 'totalNs', header: 'Total', title: 'Sum of the durations in scope', csvHeader: 'Total Time (ns)', kind: 'duration' },
  { id: 'count', header: 'Inst.', title: 'Instances that ended (the ones every duration column describes)', csvHeader: 'Instances', kind: 'count' },
  {
    id: 'unended',
    header: 'Unended',
    title: 'Instances still open at the end of the capture: they have no real end, so they are in no other column',
    csvHeader: 'Unended',
    kind: 'count',
    minPx: 76,
  },
  { id: 'avgNs', header: 'Avg', title: 'Mean duration', csvHeader: 'Avg (ns)', kind: 'duration' },
  { id: 'medianNs', header: 'Med', title: 'Median duration (mean of the middle two for an even count)', csvHeader: 'Med (ns)', kind: 'duration' },
  { id: 'minNs', header: 'Min', title: 'Shortest', csvHeader: 'Min (ns)', kind: 'duration' },
  { id: 'maxNs', header: 'Max', title: 'Longest', csvHeader: 'Max (ns)', kind: 'duration' },
  { id: 'stdDevNs', header: 'StdDev', title: 'Sample standard deviation (n − 1); 0 for one instance', csvHeader: 'StdDev (ns)', kind: 'duration' },
  { id: 'style', header: 'Style', title: 'PushPop or StartEnd', csvHeader: 'Style', kind: 'text' },
  { id: 'label', header: 'Range', title: 'domain:name (the default domain without prefix)', csvHeader: 'Range', kind: 'text' },
  { id: 'selfNs', header: 'Self', title: 'Total minus the time covered by direct children on the same row', csvHeader: 'Self Time (ns)', kind: 'duration' },
  { id: 'p90Ns', header: 'P90', title: '90th percentile of the durations', csvHeader: 'P90 (ns)', kind: 'duration' },
  { id: 'p99Ns', header: 'P99', title: '99th percentile of the durations', csvHeader: 'P99 (ns)', kind: 'duration' },
];

export function column(id: ColumnId): ColumnDef {
  return COLUMNS.find((c) => c.id === id)!;
}

/** Figure columns a narrow panel shows by default (the name is always shown; the rest via the column menu). */
export const DEFAULT_FIGURES: readonly ColumnId[] = ['timePercent', 'totalNs', 'count', 'avgNs', 'medianNs', 'p99Ns', 'maxNs'];

/** Columns that can be shown as figures (everything but the name). */
export const FIGURE_COLUMNS: readonly ColumnId[] = COLUMNS.map((c) => c.id).filter((id) => id !== 'label');

/**
 * The figure columns to draw: the chosen ones, plus "Unended" (after the instances) whenever some
 * listed range never ended, so open ranges are never silently missing from the counts.
 */
export function shownFigures(figures: readonly ColumnId[], rows: readonly Pick<StatsRow, 'unended'>[]): readonly ColumnId[] {
  if (figures.includes('unended') || !rows.some((r) => r.unended > 0)) return figures;
  return FIGURE_COLUMNS.filter((id) => id === 'unended' || figures.includes(id));
}

/** Relative width of a figure column in a narrow panel, where the columns share the room. */
const WIDTH: Record<ColumnDef['kind'], number> = { percent: 0.8, count: 1.1, duration: 1, text: 1.25 };
/**
 * Least width of a figure column, padding included, measured in Chromium at the panel's 12 px:
 * "100.0%", "1,234,567", "99.9 ms" and "StdDev ▼" fit unclipped.
 */
const LEAST_PX: Record<ColumnDef['kind'], number> = { percent: 54, count: 68, duration: 62, text: 76 };

function leastPx(id: ColumnId): number {
  const c = column(id);
  return c.minPx ?? LEAST_PX[c.kind];
}

/**
 * CSS grid columns of the figure columns: `wide` in pixels (one line per row, the name first),
 * `narrow` as shares of the panel (the name on a line of its own). Never below the least widths:
 * a panel narrower than their sum scrolls sideways instead of clipping every figure to "…".
 */
export function figureTemplate(figures: readonly ColumnId[]): { wide: string; narrow: string; widePx: number; narrowMinPx: number } {
  const least = figures.map(leastPx);
  const total = least.reduce((a, b) => a + b, 0);
  return {
    wide: least.map((w) => `${w}px`).join(' '),
    narrow: figures.map((id, k) => `minmax(${least[k]}px, ${WIDTH[column(id).kind]}fr)`).join(' '),
    widePx: total,
    narrowMinPx: total,
  };
}

/**
 * What the name column holds for a grouping ("Range", "Thread"...); `subject` names what the
 * table lists when it is not NVTX ranges ("GPU work", "API call"), for the groupings by name.
 */
export function groupHeader(grouping: Grouping, subject?: string): string {
  if (grouping.by === 'payloadField') return grouping.path;
  if (subject !== undefined && grouping.by === 'name') return subject;
  if (subject !== undefined && grouping.by === 'family') return `${subject} (numbers folded)`;
  return GROUP_BY_TITLE[grouping.by];
}

/** One capture's engine result as table rows. */
export function tableRows(capture: { id: number; file: string }, result: RangeStatsResult): StatsRow[] {
  // Fields named one by one: V8 builds a spread object this size far slower, on the main thread,
  // for tables of 100k names (docs/performance.md "Statistics tables with many distinct names").
  return result.rows.map((r) => ({
    key: r.key,
    label: r.label,
    name: r.name,
    domain: r.domain,
    style: r.style,
    count: r.count,
    unended: r.unended,
    totalNs: r.totalNs,
    selfNs: r.selfNs,
    avgNs: r.avgNs,
    medianNs: r.medianNs,
    minNs: r.minNs,
    maxNs: r.maxNs,
    stdDevNs: r.stdDevNs,
    p90Ns: r.p90Ns,
    p99Ns: r.p99Ns,
    timePercent: r.timePercent,
    maxRange: r.maxRange,
    id: `${capture.id}|${r.key}`,
    capture: capture.id,
    file: capture.file,
  }));
}

export interface TableSort {
  column: ColumnId;
  descending: boolean;
}

export const DEFAULT_SORT: TableSort = { column: 'totalNs', descending: true };

/** Names sort the way people number things: "batch 2" before "batch 10". */
export const NATURAL: Intl.CollatorOptions = { numeric: true };

function byLabel(a: StatsRow, b: StatsRow): number {
  return a.label.localeCompare(b.label, undefined, NATURAL) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** A sorted copy; ties fall back to the name, then the row id, so the order is stable. */
export function sortRows(rows: readonly StatsRow[], sort: TableSort): StatsRow[] {
  const dir = sort.descending ? -1 : 1;
  const id = sort.column;
  if (id === 'label' || id === 'style') {
    return [...rows].sort((a, b) => dir * (a[id].localeCompare(b[id], undefined, NATURAL) || byLabel(a, b)));
  }
  // Rows without a figure (only unended instances: NaN) go last either way.
  return [...rows].sort((a, b) => {
    const x = a[id];
    const y = b[id];
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? byLabel(a, b) : Number.isNaN(x) ? 1 : -1;
    return dir * (x - y) || byLabel(a, b);
  });
}

/** A header click: the same column flips; a new one starts descending for figures, ascending for text. */
export function nextSort(current: TableSort, id: ColumnId): TableSort {
  if (current.column === id) return { column: id, descending: !current.descending };
  return { column: id, descending: column(id).kind !== 'text' };
}

/** Totals over the listed rows, for the table's footer line. */
export function tableTotals(rows: readonly StatsRow[]): { instances: number; unended: number; totalNs: number } {
  let instances = 0;
  let unended = 0;
  let totalNs = 0;
  for (const r of rows) {
    instances += r.count;
    unended += r.unended;
    totalNs += r.totalNs;
  }
  return { instances, unended, totalNs };
}
