/**
 * The comparison table as the page shows it (pure): columns, sorting, and the summary line.
 * Default order: change of total time, largest increase first (as `compareCaptures` gives it).
 */
import type { CompareResult, CompareRow, CompareStatus } from '../../analysis/compare/index.ts';

export type CompareSortKey = 'change' | 'relChange' | 'label' | 'status' | 'totalA' | 'totalB' | 'medianChange' | 'p99Change';

export interface CompareSort {
  key: CompareSortKey;
  descending: boolean;
}

export const DEFAULT_COMPARE_SORT: CompareSort = { key: 'change', descending: true };

const STATUS_ORDER: Readonly<Record<CompareStatus, number>> = { slower: 0, added: 1, count: 2, faster: 3, removed: 4, 'too-few': 5, 'within-noise': 6 };

function sortValue(row: CompareRow, key: CompareSortKey): number | string {
  switch (key) {
    case 'change':
      return row.change.total.abs;
    case 'relChange':
      return row.change.total.rel;
    case 'label':
      return row.label.toLowerCase();
    case 'status':
      return STATUS_ORDER[row.status];
    case 'totalA':
      return row.base?.totalNs ?? 0;
    case 'totalB':
      return row.candidate?.totalNs ?? 0;
    case 'medianChange':
      return row.change.median.rel;
    default:
      return row.change.p99.rel;
  }
}

/** Rows in the requested order; NaN (no figure) last either way, ties by label. */
export function sortCompareRows(rows: readonly CompareRow[], sort: CompareSort): CompareRow[] {
  const sign = sort.descending ? -1 : 1;
  return rows.slice().sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const xn = typeof x === 'number' && Number.isNaN(x);
    const yn = typeof y === 'number' && Number.isNaN(y);
    if (xn !== yn) return xn ? 1 : -1;
    if (!xn && x !== y) return (x < y ? -1 : 1) * sign;
    return a.label < b.label ? -1 : a.label > b.label ? 1 : 0;
  });
}

/** "3 slower, 1 faster, 1 added, 1 removed, 12 within noise". */
export function compareSummary(result: CompareResult): string {
  const counts = new Map<CompareStatus, number>();
  for (const row of result.rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const words: [CompareStatus, string][] = [
    ['slower', 'slower'],
    ['faster', 'faster'],
    ['count', 'with other counts'],
    ['added', 'added'],
    ['removed', 'removed'],
    ['too-few', 'too few to tell'],
    ['within-noise', 'within noise'],
  ];
  const parts = words.filter(([s]) => counts.has(s)).map(([s, text]) => `${counts.get(s)} ${text}`);
  return parts.length > 0 ? parts.join(', ') : 'no ranges in either capture';
}
