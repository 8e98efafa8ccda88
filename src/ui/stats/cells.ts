/** Cell text of the statistics tables: three-digit durations, grouped counts, one-decimal shares. */
import { formatCount, formatPercent } from '../../format/numbers.ts';
import { formatDurationShort } from '../../format/time.ts';
import { column, type ColumnId, type StatsRow } from './tableModel.ts';

export function cellText(row: StatsRow, id: ColumnId): string {
  switch (column(id).kind) {
    case 'percent':
      return formatPercent(row.timePercent);
    case 'count':
      return formatCount(row.count);
    case 'text':
      return String(row[id]);
    default:
      return formatDurationShort(row[id] as number);
  }
}
