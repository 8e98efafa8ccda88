import { describe, expect, it } from 'vitest';
import { buildCapturePair } from '../../../testkit/gen/comparePair.ts';
import { compareCaptures } from '../../analysis/compare/index.ts';
import { compareSummary, DEFAULT_COMPARE_SORT, sortCompareRows } from './compareTable.ts';

const side = (count: number, medianNs: number, sigma: number) => ({ count, medianNs, sigma });
const { base, candidate } = buildCapturePair({
  seed: 2,
  ranges: [
    { name: 'slow', base: side(100, 10_000, 0.05), candidate: side(100, 13_000, 0.05) },
    { name: 'new', base: side(0, 1, 0), candidate: side(20, 2_000, 0.1) },
    { name: 'gone', base: side(20, 50_000, 0.1), candidate: side(0, 1, 0) },
    { name: 'noisy', base: side(300, 20_000, 0.3), candidate: side(300, 20_000, 0.3) },
  ],
});
const result = compareCaptures(base, candidate);

describe('comparison table', () => {
  it('orders by change of total by default, and by other columns on request', () => {
    expect(sortCompareRows(result.rows, DEFAULT_COMPARE_SORT).map((r) => r.label)[0]).toBe('slow');
    expect(sortCompareRows(result.rows, DEFAULT_COMPARE_SORT).at(-1)!.label).toBe('gone');
    expect(sortCompareRows(result.rows, { key: 'label', descending: false }).map((r) => r.label)).toEqual(['gone', 'new', 'noisy', 'slow']);
    // Relative change: "new" is +Infinity, first when descending.
    expect(sortCompareRows(result.rows, { key: 'relChange', descending: true })[0].label).toBe('new');
    // A removed row's median fell by 100%, an added row's grew from nothing.
    expect(sortCompareRows(result.rows, { key: 'medianChange', descending: false }).map((r) => r.label)).toEqual(['gone', 'noisy', 'slow', 'new']);
  });

  it('sums up the statuses', () => {
    expect(compareSummary(result)).toBe('1 slower, 1 added, 1 removed, 1 within noise');
  });
});
