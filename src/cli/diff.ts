/**
 * `nvtxview diff BASE CANDIDATE`: the comparison table of two captures (src/analysis/compare/)
 * as text, CSV or JSON, and the `--fail-if` gate.
 */
import { GROUP_BY_TITLE, type GroupBy } from '../analysis/index.ts';
import {
  COMPARE_COLUMNS,
  compareCaptures,
  figureOf,
  type Breach,
  type CompareColumn,
  type CompareResult,
  type CompareRow,
  type SideFigures,
} from '../analysis/compare/index.ts';
import { formatCountChange, formatDurationChange, formatRelativeChange } from '../format/change.ts';
import { formatCount } from '../format/numbers.ts';
import { formatDuration } from '../format/time.ts';
import type { Model } from '../model/types.ts';
import { jsonNumber, renderCsv, renderTable, type Column } from './textOutput.ts';
import { requestSpans, type StatsRequest } from './stats.ts';

/** Status words as the table prints them. */
export const STATUS_TEXT: Readonly<Record<CompareRow['status'], string>> = {
  added: 'added',
  removed: 'removed',
  slower: 'slower',
  faster: 'faster',
  count: 'count changed',
  'within-noise': 'within noise',
  'too-few': 'too few to tell',
};

export interface FileComparison {
  result: CompareResult;
  /** Scope description of each side. */
  baseScope: string;
  candidateScope: string;
}

/** The comparison of two loaded files under the same --from/--to/--range/--mode scope. */
export function fileComparison(basePath: string, base: Model, candidatePath: string, candidate: Model, request: StatsRequest): FileComparison {
  const a = requestSpans(basePath, base, request);
  const b = requestSpans(candidatePath, candidate, request);
  // A --range whose instances all lie outside --from/--to leaves nothing in scope.
  const options = (spans: typeof a.spans) => ({ spans, mode: request.mode, groupBy: request.groupBy, ...(spans && spans.length === 0 ? { tracks: [] } : {}) });
  return { result: compareCaptures(base, candidate, options(a.spans), options(b.spans)), baseScope: a.scope, candidateScope: b.scope };
}

function figureText(side: SideFigures | null, column: CompareColumn): string {
  if (!side || (column !== 'count' && column !== 'total' && side.count === 0)) return '-';
  const v = figureOf(side, column);
  return column === 'count' ? formatCount(v) : formatDuration(v, { fixedPoint: true });
}

function changeText(row: CompareRow, column: CompareColumn): string {
  return column === 'count' ? formatCountChange(row.change.count.abs) : formatDurationChange(row.change[column].abs, true);
}

const TITLE: Readonly<Record<CompareColumn, string>> = { count: 'Count', total: 'Total', mean: 'Mean', median: 'Med', p90: 'P90', p99: 'P99' };

function tableColumns(groupBy: GroupBy): Column<CompareRow>[] {
  const columns: Column<CompareRow>[] = [];
  for (const column of COMPARE_COLUMNS) {
    // Count and total in full; the distribution columns as base, candidate and relative change.
    columns.push({ title: `${TITLE[column]} A`, value: (r) => figureText(r.base, column), right: true });
    columns.push({ title: `${TITLE[column]} B`, value: (r) => figureText(r.candidate, column), right: true });
    if (column === 'count' || column === 'total') columns.push({ title: `Δ ${TITLE[column]}`, value: (r) => changeText(r, column), right: true });
    columns.push({ title: `Δ% ${TITLE[column]}`, value: (r) => formatRelativeChange(r.change[column].rel), right: true });
  }
  columns.push({ title: 'Status', value: (r) => STATUS_TEXT[r.status] + (r.base?.unendedCount || r.candidate?.unendedCount ? ` (unended ${r.base?.unendedCount ?? 0}/${r.candidate?.unendedCount ?? 0})` : '') });
  columns.push({ title: 'Style', value: (r) => r.style });
  columns.push({ title: GROUP_BY_TITLE[groupBy], value: (r) => r.label });
  return columns;
}

export function renderDiffTable(basePath: string, candidatePath: string, comparison: FileComparison): string {
  const { result } = comparison;
  const head =
    `A (baseline):  ${basePath}, ${comparison.baseScope}\n` +
    `B (candidate): ${candidatePath}, ${comparison.candidateScope}\n` +
    `Sorted by change of total time. "within noise": the durations did not shift beyond the runs' spread (Mann-Whitney U, p >= 0.01 or negligible effect).\n`;
  if (result.rows.length === 0) return `${head}(no ranges in scope)\n`;
  return head + renderTable(result.rows, tableColumns(result.groupBy));
}

/** A row as JSON and CSV give it: durations in ns, relative changes as fractions (null: undefined or infinite). */
export interface DiffRecord {
  groupBy: GroupBy;
  name: string;
  domain: string | null;
  style: string;
  status: CompareRow['status'];
  pValue: number | null;
  effect: number | null;
  [figure: string]: unknown;
}

export function diffRecords(result: CompareResult): DiffRecord[] {
  return result.rows.map((r) => {
    const record: DiffRecord = {
      groupBy: result.groupBy,
      name: r.label,
      domain: result.groupBy === 'name' ? (r.domain ?? '') : null,
      style: r.style,
      status: r.status,
      pValue: r.test ? jsonNumber(r.test.pValue, 9) : null,
      effect: r.test ? jsonNumber(r.test.effect, 4) : null,
    };
    for (const column of COMPARE_COLUMNS) {
      const unit = column === 'count' ? '' : 'Ns';
      const has = (side: SideFigures | null) => side !== null && (column === 'count' || column === 'total' || side.count > 0);
      record[`${column}${unit}A`] = has(r.base) ? jsonNumber(figureOf(r.base, column)) : null;
      record[`${column}${unit}B`] = has(r.candidate) ? jsonNumber(figureOf(r.candidate, column)) : null;
      record[`${column}${unit}Change`] = jsonNumber(r.change[column].abs);
      record[`${column}RelChange`] = jsonNumber(r.change[column].rel, 6);
    }
    record.unendedA = r.base?.unendedCount ?? 0;
    record.unendedB = r.candidate?.unendedCount ?? 0;
    return record;
  });
}

export function diffRecordKeys(): string[] {
  const keys = ['groupBy', 'name', 'domain', 'style', 'status', 'pValue', 'effect'];
  for (const column of COMPARE_COLUMNS) {
    const unit = column === 'count' ? '' : 'Ns';
    keys.push(`${column}${unit}A`, `${column}${unit}B`, `${column}${unit}Change`, `${column}RelChange`);
  }
  keys.push('unendedA', 'unendedB');
  return keys;
}

export function renderDiffCsv(result: CompareResult): string {
  return renderCsv(diffRecords(result) as unknown as Record<string, unknown>[], diffRecordKeys());
}

/** "step": total +21.3% (12.1 ms -> 14.7 ms, +2.6 ms) passes 'step:total>+5%' (durations slower, p = 3e-9) */
export function breachText(breach: Breach): string {
  const { row, threshold } = breach;
  const column = threshold.column;
  const figures = `${figureText(row.base, column)} -> ${figureText(row.candidate, column)}, ${changeText(row, column)}`;
  const test = row.test && row.test.verdict !== 'too-few' ? `; durations ${row.test.verdict === 'same' ? 'within noise' : row.test.verdict}, p = ${row.test.pValue.toPrecision(2)}` : '';
  return `"${row.label}": ${column} ${formatRelativeChange(row.change[column].rel)} (${figures}) passes '${threshold.text}' (${STATUS_TEXT[row.status]}${test})`;
}
