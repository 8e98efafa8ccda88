/**
 * The panel's tables as CSV (nsys `nvtx_sum` headers, durations in ns) and JSON (the records of
 * `nvtxview stats --format json`: the same keys, so page exports and CLI output read alike).
 */
import { csvLines } from '../../format/csv.ts';
import type { CounterStatsRow } from '../../analysis/counterStats.ts';
import type { MarkStatsRow } from '../../analysis/markStats.ts';
import type { Grouping } from './compute.ts';
import { COLUMNS, groupHeader, type ColumnDef, type StatsRow } from './tableModel.ts';

/** Integers as they are, fractions to 0.1 (nsys precision), non-finite values empty. */
export function csvNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Number.isInteger(value)) return String(value);
  return String(Math.round(value * 10) / 10);
}

/** Counter values keep their precision (they can be small fractions); 12 significant digits drop float noise. */
function counterNumber(value: number): string {
  return Number.isFinite(value) ? String(Number(value.toPrecision(12))) : '';
}

function csv(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const text = (v: string | number) => (typeof v === 'number' ? csvNumber(v) : v);
  return csvLines([header, ...rows.map((r) => r.map(text))], '\r\n');
}

function rangeCell(row: StatsRow, c: ColumnDef): string | number {
  const v = row[c.id];
  return c.id === 'timePercent' ? Math.round((v as number) * 10) / 10 : v;
}

/** The range table as CSV: every column in nsys order, a leading Capture column for several captures. */
export function rangeTableCsv(rows: readonly StatsRow[], grouping: Grouping, multiCapture: boolean, subject?: string): string {
  const header = COLUMNS.map((c) => (c.id === 'label' ? groupHeader(grouping, subject) : c.csvHeader));
  return csv(
    multiCapture ? ['Capture', ...header] : header,
    rows.map((r) => {
      const cells = COLUMNS.map((c) => rangeCell(r, c));
      return multiCapture ? [r.file, ...cells] : cells;
    }),
  );
}

/** What the exported table covered. */
export interface ExportScope {
  /** 'capture': everything; 'span': a time span on the shared axis (ns). */
  kind: 'capture' | 'span';
  startNs?: number;
  endNs?: number;
  mode?: string;
  /** Number of tracks selected, or 'all'. */
  tracks: number | 'all';
}

/** The record keys of `nvtxview stats --format json`. */
export function rangeRecord(row: StatsRow, grouping: Grouping): Record<string, unknown> {
  const groupBy = grouping.by === 'payloadField' ? `payload:${grouping.path}` : grouping.by;
  const named = grouping.by === 'name' || grouping.by === 'parent';
  return {
    file: row.file,
    groupBy,
    name: row.label,
    domain: named && row.domain !== undefined ? row.domain : null,
    style: row.style,
    count: row.count,
    unended: row.unended,
    totalNs: row.totalNs,
    selfNs: row.selfNs,
    avgNs: row.avgNs,
    medianNs: row.medianNs,
    minNs: row.minNs,
    maxNs: row.maxNs,
    stdDevNs: row.stdDevNs,
    p90Ns: row.p90Ns,
    p99Ns: row.p99Ns,
    timePercent: row.timePercent,
  };
}

export function rangeTableJson(rows: readonly StatsRow[], grouping: Grouping, scope: ExportScope): string {
  return JSON.stringify({ table: 'ranges', scope, rows: rows.map((r) => rangeRecord(r, grouping)) }, null, 2) + '\n';
}

export interface MarkExportRow extends MarkStatsRow {
  file: string;
}

export function markTableCsv(rows: readonly MarkExportRow[], multiCapture: boolean): string {
  const header = ['Count', 'First (ns)', 'Last (ns)', 'Mark'];
  return csv(
    multiCapture ? ['Capture', ...header] : header,
    rows.map((r) => {
      const cells = [r.count, r.firstNs, r.lastNs, r.label];
      return multiCapture ? [r.file, ...cells] : cells;
    }),
  );
}

export function markTableJson(rows: readonly MarkExportRow[], scope: ExportScope): string {
  const records = rows.map((r) => ({ file: r.file, name: r.label, count: r.count, firstNs: r.firstNs, lastNs: r.lastNs }));
  return JSON.stringify({ table: 'marks', scope, rows: records }, null, 2) + '\n';
}

export interface CounterExportRow extends CounterStatsRow {
  file: string;
  /** Label of the delta counter row whose running total this row is (a row the viewer derived). */
  derivedFrom?: string;
}

/**
 * Counter table as CSV. 'Values' says what the figures mean (src/analysis/counterStats.ts): on
 * 'delta' rows (counters of changes) Average is the mean change and Delta the sum of the changes.
 */
export function counterTableCsv(rows: readonly CounterExportRow[], multiCapture: boolean): string {
  const header = ['Counter', 'Unit', 'Samples', 'Min', 'Max', 'Average', 'First', 'Last', 'Delta', 'Rate (/s)'];
  header.push('Values', 'Unavailable samples', 'Time with a value (ns)', 'Time without a value (ns)', 'Running total of');
  return csv(
    multiCapture ? ['Capture', ...header] : header,
    rows.map((r) => {
      const values = [r.min, r.max, r.average, r.first, r.last, r.delta, r.ratePerSecond].map(counterNumber);
      const cells = [r.label, r.unit ?? '', r.samples, ...values, r.valueType ?? 'absolute', r.unavailable ?? 0, r.coveredNs, r.noValueNs ?? 0, r.derivedFrom ?? ''];
      return multiCapture ? [r.file, ...cells] : cells;
    }),
  );
}

export function counterTableJson(rows: readonly CounterExportRow[], scope: ExportScope): string {
  const records = rows.map((r) => ({
    file: r.file,
    name: r.label,
    unit: r.unit ?? null,
    samples: r.samples,
    min: r.min,
    max: r.max,
    average: r.average,
    first: r.first,
    last: r.last,
    delta: r.delta,
    ratePerSecond: r.ratePerSecond,
    valueType: r.valueType ?? 'absolute',
    unavailableSamples: r.unavailable ?? 0,
    coveredNs: r.coveredNs,
    noValueNs: r.noValueNs ?? 0,
    runningTotalOf: r.derivedFrom ?? null,
  }));
  return JSON.stringify({ table: 'counters', scope, rows: records }, null, 2) + '\n';
}
