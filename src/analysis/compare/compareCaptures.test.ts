import { describe, expect, it } from 'vitest';
import { buildCapturePair, type PairRangeSpec } from '../../../testkit/gen/comparePair.ts';
import { rangeStats } from '../rangeStats.ts';
import { compareCaptures, rowDurations, type CompareRow } from './compareCaptures.ts';

const side = (count: number, medianNs: number, sigma: number) => ({ count, medianNs, sigma });
const NONE = side(0, 1, 0);

/** The known changes of the issue: one 20% slower, one added, one removed, one noisy and unchanged. */
const SPECS: PairRangeSpec[] = [
  { name: 'slower', base: side(300, 100_000, 0.05), candidate: side(300, 120_000, 0.05) },
  { name: 'added', base: NONE, candidate: side(40, 30_000, 0.1) },
  { name: 'removed', base: side(50, 20_000, 0.1), candidate: NONE },
  { name: 'noisy', base: side(500, 50_000, 0.3), candidate: side(500, 50_000, 0.3) },
  { name: 'rare', base: side(3, 10_000, 0.1), candidate: side(3, 15_000, 0.1) },
  { name: 'more calls', base: side(200, 10_000, 0.1), candidate: side(260, 10_000, 0.1) },
];

function byLabel(rows: CompareRow[], label: string): CompareRow {
  const row = rows.find((r) => r.label === label);
  if (!row) throw new Error(`no row ${label}`);
  return row;
}

describe('compareCaptures on generated pairs with known changes', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`finds exactly the known changes (seed ${seed})`, () => {
      const { base, candidate } = buildCapturePair({ ranges: SPECS, seed });
      const { rows } = compareCaptures(base, candidate);
      expect(rows.map((r) => r.label).sort()).toEqual(SPECS.map((s) => s.name).sort());

      const slower = byLabel(rows, 'slower');
      expect(slower.status).toBe('slower');
      expect(slower.change.median.rel).toBeGreaterThan(0.17);
      expect(slower.change.median.rel).toBeLessThan(0.23);
      expect(slower.change.count.abs).toBe(0);
      expect(slower.test!.pValue).toBeLessThan(1e-6);

      const added = byLabel(rows, 'added');
      expect(added.status).toBe('added');
      expect(added.base).toBeNull();
      expect(added.candidate!.count).toBe(40);
      expect(added.change.total.rel).toBe(Infinity);

      const removed = byLabel(rows, 'removed');
      expect(removed.status).toBe('removed');
      expect(removed.candidate).toBeNull();
      expect(removed.change.total.rel).toBe(-1);
      expect(removed.change.count.abs).toBe(-50);

      // 30% spread, same distribution: its figures move by chance, and it must not be flagged.
      const noisy = byLabel(rows, 'noisy');
      expect(noisy.status).toBe('within-noise');
      expect(noisy.test!.verdict).toBe('same');

      expect(byLabel(rows, 'rare').status).toBe('too-few');
      expect(byLabel(rows, 'more calls').status).toBe('count');
    });
  }

  it('agrees with the statistics table on each side', () => {
    const { base, candidate } = buildCapturePair({ ranges: SPECS, seed: 9 });
    const { rows } = compareCaptures(base, candidate);
    for (const [model, pick] of [
      [base, (r: CompareRow) => r.base],
      [candidate, (r: CompareRow) => r.candidate],
    ] as const) {
      for (const stat of rangeStats(model).rows) {
        const fig = pick(byLabel(rows, stat.label))!;
        expect(fig.count).toBe(stat.count);
        expect(fig.totalNs).toBe(stat.totalNs);
        expect(fig.medianNs).toBe(stat.medianNs);
        expect(fig.p90Ns).toBe(stat.p90Ns);
        expect(fig.p99Ns).toBe(stat.p99Ns);
        expect(model.ranges.endNs[fig.slowestRange] - model.ranges.startNs[fig.slowestRange]).toBe(stat.maxNs);
      }
    }
  });

  it('sorts by change of total, largest increase first', () => {
    const { base, candidate } = buildCapturePair({ ranges: SPECS, seed: 1 });
    const { rows } = compareCaptures(base, candidate);
    for (let k = 1; k < rows.length; k++) expect(rows[k - 1].change.total.abs).toBeGreaterThanOrEqual(rows[k].change.total.abs);
    expect(rows[0].label).toBe('slower');
    expect(rows[rows.length - 1].label).toBe('removed');
  });

  it('leaves ranges that never ended out of the noise test and the instance lists, and counts them apart', () => {
    const { base, candidate } = buildCapturePair({ ranges: SPECS, seed: 2, unendedInCandidate: ['noisy', 'hung'] });
    const result = compareCaptures(base, candidate);
    const noisy = byLabel(result.rows, 'noisy');
    // Count and total are the statistics table's, which leaves unended ranges out.
    expect(noisy.candidate!.count).toBe(rangeStats(candidate).rows.find((r) => r.label === 'noisy')!.count);
    expect(noisy.candidate!.unendedCount).toBe(1);
    expect(noisy.test!.candidateN).toBe(500);
    expect(noisy.status).toBe('within-noise');
    expect(rowDurations(result, noisy, 'candidate').durations.length).toBe(500);
    const hung = byLabel(result.rows, 'hung');
    expect(hung.status).toBe('added');
    expect(hung.candidate!.unendedCount).toBe(1);
    expect(rowDurations(result, hung, 'candidate').durations.length).toBe(0);
  });

  it('samples at most the test size from big groups, evenly', () => {
    const big = buildCapturePair({ ranges: [{ name: 'many', base: side(6000, 1000, 0.2), candidate: side(6000, 1000, 0.2) }], seed: 1, threads: 1 });
    const row = compareCaptures(big.base, big.candidate).rows[0];
    expect(row.test!.baseN).toBe(2000);
    expect(row.status).toBe('within-noise');
  });

  it('groups by thread as the statistics table does', () => {
    const { base, candidate } = buildCapturePair({ ranges: SPECS, seed: 1, threads: 2 });
    const result = compareCaptures(base, candidate, { groupBy: 'thread' });
    expect(result.rows.map((r) => r.label).sort()).toEqual(rangeStats(base, { groupBy: 'thread' }).rows.map((r) => r.label).sort());
    for (const row of result.rows) expect(row.status).not.toBe('added');
  });

  it('gives each side’s instances sorted, ending at the slowest', () => {
    const { base, candidate } = buildCapturePair({ ranges: SPECS, seed: 1 });
    const result = compareCaptures(base, candidate);
    const row = byLabel(result.rows, 'slower');
    const { durations, ranges } = rowDurations(result, row, 'candidate');
    expect(durations.length).toBe(300);
    for (let k = 1; k < durations.length; k++) expect(durations[k]).toBeGreaterThanOrEqual(durations[k - 1]);
    expect(ranges[ranges.length - 1]).toBe(row.candidate!.slowestRange);
    expect(rowDurations(result, byLabel(result.rows, 'added'), 'base').durations.length).toBe(0);
  });
});
