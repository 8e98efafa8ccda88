/** `nvtxview stats`: the per-name (or per-group) range table of `nsys stats nvtx_sum`, and more. */
import { GROUP_BY_TITLE, mergeSpans, rangeStats, type GroupBy, type RangeStatsRow, type SpanMode, type TimeSpan } from '../analysis/index.ts';
import { NVTX_RANGE_KINDS } from '../analysis/scope.ts';
import { STATS_KIND_NOUN, isGpuKind, statsKindScope, type StatsKind } from '../analysis/cuda/statsKinds.ts';
import { rangeCudaStatistics } from '../analysis/cuda/statistics.ts';
import type { Model } from '../model/types.ts';
import { formatCount, formatPercent } from '../format/numbers.ts';
import { formatDuration, formatTimestamp } from '../format/time.ts';
import { jsonNumber, renderCsv, renderTable, terminalSafe, type Column } from './textOutput.ts';

export type OutputFormat = 'table' | 'csv' | 'json';

export interface StatsRequest {
  groupBy: GroupBy;
  mode: SpanMode;
  /** ns from the capture start. */
  fromNs?: number;
  toNs?: number;
  /** `--range NAME[@DOMAIN]`: the scope is the time of this range's instances. */
  range?: { name: string; domain?: string };
  /** What is counted (default 'ranges'): never CPU ranges and GPU work in one table. */
  kind?: StatsKind;
}

/** A row as JSON and CSV give it: durations in ns (integers stay integers). */
export interface StatsRecord {
  file: string;
  groupBy: GroupBy;
  /** The row label: `domain:name` for name rows (default domain without prefix), else the group. */
  name: string;
  /** Domain of a name row ('' = default domain); null for other groupings. */
  domain: string | null;
  style: string;
  /** Instances that ended; every duration column describes these. */
  count: number;
  /** Instances still open at the end of the capture: in no duration column. */
  unended: number;
  totalNs: number | null;
  selfNs: number | null;
  avgNs: number | null;
  medianNs: number | null;
  minNs: number | null;
  maxNs: number | null;
  stdDevNs: number | null;
  p90Ns: number | null;
  p99Ns: number | null;
  timePercent: number | null;
}

export const RECORD_KEYS: readonly (keyof StatsRecord)[] = [
  'file',
  'groupBy',
  'name',
  'domain',
  'style',
  'count',
  'unended',
  'totalNs',
  'selfNs',
  'avgNs',
  'medianNs',
  'minNs',
  'maxNs',
  'stdDevNs',
  'p90Ns',
  'p99Ns',
  'timePercent',
];

/** `NAME@DOMAIN` (split at the last @); `NAME@` means the default domain, plain `NAME` any domain. */
export function parseRangeFilter(text: string): { name: string; domain?: string } {
  const at = text.lastIndexOf('@');
  return at < 0 ? { name: text } : { name: text.slice(0, at), domain: text.slice(at + 1) };
}

/**
 * The time spans of every instance of a range name (nsys --filter-nvtx style scope). `gpu`: each
 * instance's GPU projection instead (the GPU time of the work it launched; GPU work runs after the
 * calls that launch it), instances that launched nothing left out.
 */
export function rangeInstanceSpans(model: Model, name: string, domain?: string, gpu = false): TimeSpan[] {
  const styles = new Uint8Array(model.styles.name.length);
  let any = false;
  for (let s = 0; s < styles.length; s++) {
    if (model.strings[model.styles.name[s]] !== name) continue;
    if (domain !== undefined && (model.domains[model.styles.domain[s]]?.name ?? '') !== domain) continue;
    styles[s] = 1;
    any = true;
  }
  const spans: TimeSpan[] = [];
  if (!any) return spans;
  const { startNs, endNs, style } = model.ranges;
  for (const track of model.tracks) {
    if (!NVTX_RANGE_KINDS.includes(track.kind)) continue;
    for (let i = track.rangeBegin; i < track.rangeEnd; i++) {
      if (styles[style[i]] !== 1) continue;
      if (!gpu) spans.push({ startNs: startNs[i], endNs: endNs[i] });
      else {
        const p = rangeCudaStatistics(model, i)?.projection;
        if (p) spans.push({ startNs: p.startNs, endNs: p.endNs });
      }
    }
  }
  return spans;
}

export interface FileStats {
  rows: RangeStatsRow[];
  records: StatsRecord[];
  /** Human description of the scope. */
  scope: string;
  /** What the rows count. */
  kind: StatsKind;
  rangeCount: number;
  /** Ranges in scope that never ended (not in `rangeCount`). */
  unendedCount: number;
}

/**
 * The time spans of `--from/--to/--range` in one file (undefined: the whole capture) and a human
 * description of them; throws a message naming the file when --range matches nothing.
 */
export function requestSpans(file: string, model: Model, request: Omit<StatsRequest, 'groupBy'>): { spans: TimeSpan[] | undefined; scope: string } {
  let spans: TimeSpan[] | undefined;
  let scope = 'whole capture';
  const window = request.fromNs !== undefined || request.toNs !== undefined;
  const from = request.fromNs ?? 0;
  const to = request.toNs ?? model.durationNs;
  if (window) {
    spans = [{ startNs: from, endNs: to }];
    scope = `${formatTimestamp(from)} to ${formatTimestamp(to)}`;
  }
  if (request.range) {
    const { name, domain } = request.range;
    const label = domain === undefined ? name : `${name}@${domain}`;
    const instances = rangeInstanceSpans(model, name, domain);
    if (instances.length === 0) throw new Error(`${file}: no range named "${label}"`);
    const gpu = isGpuKind(request.kind ?? 'ranges');
    const projected = gpu ? rangeInstanceSpans(model, name, domain, true) : instances;
    spans = mergeSpans(projected)
      .map((s) => ({ startNs: Math.max(s.startNs, from), endNs: Math.min(s.endNs, to) }))
      .filter((s) => s.endNs >= s.startNs);
    scope = `inside ${gpu ? `the GPU projections of ${formatCount(projected.length)} of the ` : ''}${formatCount(instances.length)} instance(s) of "${label}"${window ? ` between ${formatTimestamp(from)} and ${formatTimestamp(to)}` : ''}`;
  }
  if (spans) scope += ` (${request.mode === 'clip' ? 'ranges clipped to it' : request.mode === 'overlap' ? 'whole ranges overlapping it' : 'whole ranges inside it'})`;
  return { spans, scope };
}

/** Statistics of one loaded file; throws a message naming the file when --range matches nothing. */
export function fileStats(file: string, model: Model, request: StatsRequest): FileStats {
  const { spans, scope } = requestSpans(file, model, request);
  const kind = request.kind ?? 'ranges';
  const result = rangeStats(model, { spans, mode: request.mode, groupBy: request.groupBy, ...statsKindScope(model, kind) });
  const empty = spans !== undefined && spans.length === 0;
  const rows = empty ? [] : result.rows;
  return {
    rows,
    kind,
    rangeCount: empty ? 0 : result.rangeCount,
    unendedCount: empty ? 0 : result.unendedCount,
    scope,
    records: rows.map((r) => ({
      file,
      groupBy: request.groupBy,
      name: r.label,
      domain: request.groupBy === 'name' ? (r.domain ?? '') : null,
      style: r.style,
      count: r.count,
      unended: r.unended,
      totalNs: jsonNumber(r.totalNs),
      selfNs: jsonNumber(r.selfNs),
      avgNs: jsonNumber(r.avgNs),
      medianNs: jsonNumber(r.medianNs),
      minNs: jsonNumber(r.minNs),
      maxNs: jsonNumber(r.maxNs),
      stdDevNs: jsonNumber(r.stdDevNs),
      p90Ns: jsonNumber(r.p90Ns),
      p99Ns: jsonNumber(r.p99Ns),
      timePercent: jsonNumber(r.timePercent, 4),
    })),
  };
}

/** Longest name shown in a table (a demangled kernel name runs to thousands of characters); CSV and JSON keep it whole. */
export const TABLE_NAME_CHARS = 100;

/** The table's columns; "Unended" only when some range in scope never ended. */
function tableColumns(groupBy: GroupBy, kind: StatsKind, withUnended: boolean): Column<RangeStatsRow>[] {
  // Trailing zeros kept so that the figures of a column line up.
  // A row of only unended instances has no time to show: "-" rather than a measured-looking 0.
  const d = (pick: (r: RangeStatsRow) => number) => (r: RangeStatsRow) => (r.count === 0 ? '-' : formatDuration(pick(r), { fixedPoint: true }));
  const unended: Column<RangeStatsRow>[] = withUnended ? [{ title: 'Unended', value: (r) => formatCount(r.unended), right: true }] : [];
  return [
    { title: 'Time (%)', value: (r) => (r.count === 0 ? '-' : formatPercent(r.timePercent)), right: true },
    { title: 'Total Time', value: d((r) => r.totalNs), right: true },
    { title: 'Instances', value: (r) => formatCount(r.count), right: true },
    ...unended,
    { title: 'Avg', value: d((r) => r.avgNs), right: true },
    { title: 'Med', value: d((r) => r.medianNs), right: true },
    { title: 'Min', value: d((r) => r.minNs), right: true },
    { title: 'Max', value: d((r) => r.maxNs), right: true },
    { title: 'StdDev', value: d((r) => r.stdDevNs), right: true },
    ...(kind === 'ranges' ? rangeOnlyColumns(d) : []),
    { title: kind !== 'ranges' && groupBy === 'name' ? 'Name' : GROUP_BY_TITLE[groupBy], value: (r) => r.label, maxChars: TABLE_NAME_CHARS },
  ];
}

/** Columns of range tables only; API and GPU tables have nsys `cuda_*_sum` columns. */
function rangeOnlyColumns(d: (pick: (r: RangeStatsRow) => number) => (r: RangeStatsRow) => string): Column<RangeStatsRow>[] {
  return [
    { title: 'P90', value: d((r) => r.p90Ns), right: true },
    { title: 'P99', value: d((r) => r.p99Ns), right: true },
    { title: 'Self', value: d((r) => r.selfNs), right: true },
    { title: 'Style', value: (r) => r.style },
  ];
}

export function renderStatsTable(file: string, stats: FileStats, groupBy: GroupBy): string {
  const noun = STATS_KIND_NOUN[stats.kind];
  const open = stats.unendedCount > 0 ? ` (and ${formatCount(stats.unendedCount)} never ended, counted apart and in no figure)` : '';
  const head = `${terminalSafe(file)}: ${formatCount(stats.rangeCount)} ${noun}${open}, ${terminalSafe(stats.scope)}\n`;
  if (stats.rows.length === 0) return `${head}(no ${noun} in scope)\n`;
  return head + renderTable(stats.rows, tableColumns(groupBy, stats.kind, stats.unendedCount > 0));
}

export function renderStatsCsv(records: readonly StatsRecord[]): string {
  return renderCsv(records as unknown as Record<string, unknown>[], RECORD_KEYS);
}
