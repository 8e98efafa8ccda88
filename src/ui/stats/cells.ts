/** Cell text of the statistics tables: three-digit durations, grouped counts, one-decimal shares. */
import { formatCount, formatDurationShort } from '../format.ts';
import { column, type ColumnId, type StatsRow } from './tableModel.ts';

export function percentText(p: number): string {
  return p >= 99.95 ? '100%' : `${p.toFixed(1)}%`;
}

export function cellText(row: StatsRow, id: ColumnId): string {
  switch (column(id).kind) {
    case 'percent':
      return percentText(row.timePercent);
    case 'count':
      return formatCount(row.count);
    case 'text':
      return String(row[id]);
    default:
      return formatDurationShort(row[id] as number);
  }
}
