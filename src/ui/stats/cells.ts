/** Cell text of the statistics tables: three-digit durations, grouped counts, one-decimal shares. */
import { byteScale, formatCount, formatPercent, isByteUnit } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import type { CounterExportRow } from './exportTable.ts';
import { column, type ColumnId, type StatsRow } from './tableModel.ts';

export function cellText(row: StatsRow, id: ColumnId): string {
  const kind = column(id).kind;
  // Only instances that never ended: no time to show (a total of "0 ns" would read as measured).
  if (row.count === 0 && (kind === 'duration' || kind === 'percent')) return '-';
  switch (kind) {
    case 'percent':
      return formatPercent(row.timePercent);
    case 'count':
      return formatCount(row[id] as number);
    case 'text':
      return String(row[id]);
    default:
      return formatDurationShort(row[id] as number);
  }
}

/**
 * The binary unit a row of byte counts is shown in (the largest of its figures decides: "MiB"), as
 * [size, name]; undefined for other rows, whose figures take SI prefixes one by one.
 */
export function rowByteScale(r: Pick<CounterExportRow, 'unit' | 'min' | 'max' | 'average' | 'first' | 'last' | 'delta'>): [number, string] | undefined {
  if (!isByteUnit(r.unit)) return undefined;
  let largest = 0;
  for (const v of [r.min, r.max, r.average, r.first, r.last, r.delta]) if (Number.isFinite(v)) largest = Math.max(largest, Math.abs(v));
  return byteScale(largest);
}

/** The name column's second line: unit, samples, what the values are, and the time without a value. */
export function counterRowDetail(r: CounterExportRow, file: string | undefined): string {
  const unit = rowByteScale(r)?.[1] ?? r.unit ?? '';
  const parts = [file ?? '', unit, `${formatCount(r.samples)} samples`];
  if (r.valueType === 'delta') parts.push('changes');
  if (r.derivedFrom) parts.push(`running total of ${r.derivedFrom}`);
  if (r.unavailable) parts.push(`${formatCount(r.unavailable)} unavailable`);
  const noValue = r.noValueNs ?? 0;
  if (noValue > 0) parts.push(`no value ${formatPercent((100 * noValue) / (noValue + r.coveredNs))} of the time`);
  return parts.filter(Boolean).join(' · ');
}
