/**
 * `nvtxview counters`: per counter row, the figures of the page's Counters tab (src/analysis/counterStats.ts):
 * min, max, time-weighted average, first, last, delta and rate over the whole capture or --from/--to.
 * On counters of changes ('delta' rows) the figures are over the changes: see counterStats.ts.
 */
import { counterStats, type CounterStatsRow } from '../analysis/index.ts';
import { formatCount, formatPercent, formatValue } from '../format/numbers.ts';
import { formatTimestamp } from '../format/time.ts';
import { runningTotalSource } from '../model/query.ts';
import { processLabel, threadLabel } from '../model/trackTree.ts';
import type { Model } from '../model/types.ts';
import { jsonNumber, renderCsv, renderTable, terminalSafe, type Column } from './textOutput.ts';

export interface CounterRecord {
  file: string;
  /** The counter row's track path and label, joined with " > " (as `nvtxview events` names it). */
  counter: string;
  /** Whose counter it is: the thread's label for thread-scoped counters, else the process's ('' if none). */
  owner: string;
  unit: string | null;
  /** absolute, delta (each value is a change) or deltaSinceStart. */
  valueType: string;
  /** For a row the viewer derived: the delta counter it is the running total of. */
  runningTotalOf: string | null;
  samples: number;
  unavailableSamples: number;
  min: number | null;
  max: number | null;
  average: number | null;
  first: number | null;
  last: number | null;
  delta: number | null;
  ratePerSecond: number | null;
  /** Time of the scope with a value, and without one (after the first sample), in ns. */
  coveredNs: number | null;
  noValueNs: number | null;
}

export const COUNTER_RECORD_KEYS: readonly (keyof CounterRecord)[] = [
  'file',
  'counter',
  'owner',
  'unit',
  'valueType',
  'runningTotalOf',
  'samples',
  'unavailableSamples',
  'min',
  'max',
  'average',
  'first',
  'last',
  'delta',
  'ratePerSecond',
  'coveredNs',
  'noValueNs',
];

export interface FileCounters {
  rows: CounterStatsRow[];
  records: CounterRecord[];
  scope: string;
}

/** Counter figures of one file; `fromNs`/`toNs` in ns from the capture start. */
export function fileCounterStats(file: string, model: Model, window: { fromNs?: number; toNs?: number }): FileCounters {
  const windowed = window.fromNs !== undefined || window.toNs !== undefined;
  const from = window.fromNs ?? 0;
  const to = window.toNs ?? model.durationNs;
  const rows = counterStats(model, windowed ? { spans: [{ startNs: from, endNs: to }] } : {});
  const pathOf = (track: number) => {
    const t = model.tracks[track];
    return [...t.path, t.label].join(' > ');
  };
  const ownerOf = (track: number) => {
    const t = model.tracks[track];
    return t.thread >= 0 ? threadLabel(model, t.thread) : t.process >= 0 ? processLabel(model, t.process) : '';
  };
  const sourcePath = (track: number): string | null => {
    if (model.tracks[track].counter?.derived !== 'runningTotal') return null;
    const source = runningTotalSource(model, track);
    return source >= 0 ? pathOf(source) : (model.tracks[track].counter?.source ?? null);
  };
  return {
    rows,
    scope: windowed ? `${formatTimestamp(from)} to ${formatTimestamp(to)}` : 'whole capture',
    records: rows.map((r) => ({
      file,
      counter: pathOf(r.track),
      owner: ownerOf(r.track),
      unit: r.unit ?? null,
      valueType: r.valueType ?? 'absolute',
      runningTotalOf: sourcePath(r.track),
      samples: r.samples,
      unavailableSamples: r.unavailable ?? 0,
      min: jsonNumber(r.min, 9),
      max: jsonNumber(r.max, 9),
      average: jsonNumber(r.average, 9),
      first: jsonNumber(r.first, 9),
      last: jsonNumber(r.last, 9),
      delta: jsonNumber(r.delta, 9),
      ratePerSecond: jsonNumber(r.ratePerSecond, 9),
      coveredNs: jsonNumber(r.coveredNs),
      noValueNs: jsonNumber(r.noValueNs ?? 0),
    })),
  };
}

const TABLE: Column<CounterRecord & { row: CounterStatsRow }>[] = [
  { title: 'Samples', value: (r) => formatCount(r.samples), right: true },
  { title: 'Min', value: (r) => formatValue(r.row.min, r.row.unit), right: true },
  { title: 'Max', value: (r) => formatValue(r.row.max, r.row.unit), right: true },
  { title: 'Avg', value: (r) => formatValue(r.row.average, r.row.unit), right: true },
  { title: 'First', value: (r) => formatValue(r.row.first, r.row.unit), right: true },
  { title: 'Last', value: (r) => formatValue(r.row.last, r.row.unit), right: true },
  { title: 'Delta', value: (r) => formatValue(r.row.delta, r.row.unit), right: true },
  { title: 'Rate/s', value: (r) => `${formatValue(r.row.ratePerSecond, r.row.unit)}/s`, right: true },
  { title: 'No value', value: (r) => (r.row.noValueNs ? formatPercent((100 * r.row.noValueNs) / (r.row.noValueNs + r.row.coveredNs)) : ''), right: true },
  { title: 'Values', value: (r) => (r.runningTotalOf ? 'running total' : r.valueType === 'delta' ? 'changes' : r.valueType) },
  { title: 'Owner', value: (r) => r.owner },
  { title: 'Counter', value: (r) => r.counter },
];

export function renderCounterTable(file: string, stats: FileCounters): string {
  const head = `${terminalSafe(file)}: ${formatCount(stats.rows.length)} counter rows, ${terminalSafe(stats.scope)}\n`;
  if (stats.rows.length === 0) return `${head}(no counter samples in scope)\n`;
  const note = stats.records.some((r) => r.valueType === 'delta')
    ? 'Rows of changes: Min/Max/First/Last are changes, Avg the mean change, Delta their sum.\n'
    : '';
  return head + renderTable(stats.records.map((r, k) => ({ ...r, row: stats.rows[k] })), TABLE) + note;
}

export function renderCounterCsv(records: readonly CounterRecord[]): string {
  return renderCsv(records as unknown as Record<string, unknown>[], COUNTER_RECORD_KEYS);
}
