/**
 * `--fail-if` thresholds of a comparison: `NAME:COLUMN OP VALUE`, for a CI job to gate on.
 *   NAME    a regular expression that must match a row's whole label (e.g. `step`, `net:.*`)
 *   COLUMN  count, total, mean, median, p90, p99
 *   OP      >, >=, <, <=
 *   VALUE   `+5%` / `-10%`: relative change; `+2ms` / `-500us` / `+3` (signed): absolute change;
 *           `10ms` / `100` (unsigned): the candidate's own figure.
 * A change the noise test calls noise never breaches a threshold (a duration column of a row
 * whose durations did not shift; the total of a row marked within noise); counts are exact.
 * Rows with too few instances to test are judged on their figures alone.
 */
import { parseDuration } from '../units.ts';
import { COMPARE_COLUMNS, figureOf, type CompareColumn, type CompareResult, type CompareRow } from './compareCaptures.ts';

export type ThresholdOp = '>' | '>=' | '<' | '<=';

export interface Threshold {
  /** As the user wrote it. */
  text: string;
  name: RegExp;
  column: CompareColumn;
  op: ThresholdOp;
  /** What is compared: the relative change (a fraction: +5% is 0.05), the absolute change, or the candidate's value. */
  kind: 'relative' | 'absolute' | 'value';
  value: number;
}

const PATTERN = /^(.*):\s*([a-z0-9]+)\s*(>=|<=|>|<)\s*(.+)$/i;

/** Throws a message naming the threshold text when it cannot be read. */
export function parseThreshold(text: string): Threshold {
  const m = PATTERN.exec(text.trim());
  if (!m) throw new Error(`"${text}" is not a threshold (expected NAME:COLUMN>VALUE, e.g. 'step:total>+5%')`);
  const [, namePattern, columnText, op, valueText] = m;
  const column = columnText.toLowerCase() as CompareColumn;
  if (!COMPARE_COLUMNS.includes(column)) throw new Error(`"${text}": column "${columnText}" is not one of ${COMPARE_COLUMNS.join(', ')}`);
  let name: RegExp;
  try {
    name = new RegExp(`^(?:${namePattern})$`);
  } catch (e) {
    throw new Error(`"${text}": the name is not a regular expression: ${(e as Error).message}`);
  }
  const v = valueText.trim();
  const signed = v.startsWith('+') || v.startsWith('-');
  if (v.endsWith('%')) {
    const percent = Number(v.slice(0, -1));
    if (!Number.isFinite(percent) || v.length === 1) throw new Error(`"${text}": "${v}" is not a percentage`);
    return { text, name, column, op: op as ThresholdOp, kind: 'relative', value: percent / 100 };
  }
  let value: number;
  if (column === 'count') {
    value = Number(v);
    if (!Number.isFinite(value) || v === '') throw new Error(`"${text}": "${v}" is not a number of instances`);
  } else {
    try {
      value = parseDuration(v);
    } catch (e) {
      throw new Error(`"${text}": ${(e as Error).message}`);
    }
  }
  return { text, name, column, op: op as ThresholdOp, kind: signed ? 'absolute' : 'value', value };
}

/** Whether the change of `column` in `row` is within the runs' noise (see the module comment). */
export function changeIsNoise(row: CompareRow, column: CompareColumn): boolean {
  if (column === 'count') return false;
  if (column === 'total') return row.status === 'within-noise';
  return row.test !== null && row.test.verdict === 'same';
}

function passes(x: number, op: ThresholdOp, limit: number): boolean {
  if (Number.isNaN(x)) return false;
  switch (op) {
    case '>':
      return x > limit;
    case '>=':
      return x >= limit;
    case '<':
      return x < limit;
    default:
      return x <= limit;
  }
}

export interface Breach {
  threshold: Threshold;
  row: CompareRow;
  /** The compared quantity (relative change as a fraction, absolute change, or value). */
  actual: number;
}

/** The thresholds' breaches, and the thresholds that matched no row (probably a typo). */
export function thresholdBreaches(result: CompareResult, thresholds: readonly Threshold[]): { breaches: Breach[]; unmatched: Threshold[] } {
  const breaches: Breach[] = [];
  const unmatched: Threshold[] = [];
  for (const threshold of thresholds) {
    let matched = false;
    for (const row of result.rows) {
      if (!threshold.name.test(row.label)) continue;
      matched = true;
      if (changeIsNoise(row, threshold.column)) continue;
      const change = row.change[threshold.column];
      const actual = threshold.kind === 'relative' ? change.rel : threshold.kind === 'absolute' ? change.abs : row.candidate ? figureOf(row.candidate, threshold.column) : NaN;
      if (passes(actual, threshold.op, threshold.value)) breaches.push({ threshold, row, actual });
    }
    if (!matched) unmatched.push(threshold);
  }
  return { breaches, unmatched };
}
