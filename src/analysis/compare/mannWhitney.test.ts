import { describe, expect, it } from 'vitest';
import { Random } from '../../../testkit/gen/random.ts';
import { durationShiftTest, twoSidedP, uStatistic } from './mannWhitney.ts';
import { thinned } from '../quantiles.ts';

function logNormalSample(seed: number, n: number, median: number, sigma: number): Float64Array {
  const rnd = new Random(seed);
  return Float64Array.from({ length: n }, () => Math.round(rnd.logNormal(median, sigma)));
}

describe('Mann-Whitney U', () => {
  it('counts pairs with the candidate larger, ties as one half', () => {
    // Brute force: U = #(c > b) + 0.5 #(c = b).
    const base = Float64Array.from([1, 2, 2, 5, 9]);
    const cand = Float64Array.from([2, 3, 5, 5, 10, 11]);
    let brute = 0;
    for (const c of cand) for (const b of base) brute += c > b ? 1 : c === b ? 0.5 : 0;
    const { u, tieTerm } = uStatistic(base, cand);
    expect(u).toBe(brute);
    // Tie groups: 2 (three values), 5 (three values): 2 * (27 - 3).
    expect(tieTerm).toBe(48);
  });

  it('matches a textbook p-value (normal approximation)', () => {
    expect(twoSidedP(1.959964)).toBeCloseTo(0.05, 5);
    expect(twoSidedP(0)).toBe(1);
    expect(twoSidedP(-2.575829)).toBeCloseTo(0.01, 5);
  });

  it('flags a 20% slowdown of a noisy range and its direction', () => {
    const t = durationShiftTest(logNormalSample(1, 400, 100_000, 0.3), logNormalSample(2, 400, 120_000, 0.3));
    expect(t.verdict).toBe('slower');
    expect(t.pValue).toBeLessThan(1e-6);
    expect(t.effect).toBeGreaterThan(0.2);
    const back = durationShiftTest(logNormalSample(2, 400, 120_000, 0.3), logNormalSample(1, 400, 100_000, 0.3));
    expect(back.verdict).toBe('faster');
    expect(back.effect).toBeCloseTo(-t.effect, 10);
  });

  it('does not flag the same distribution drawn twice, for many seeds', () => {
    let flagged = 0;
    for (let seed = 0; seed < 50; seed++) {
      const t = durationShiftTest(logNormalSample(100 + seed, 300, 50_000, 0.3), logNormalSample(900 + seed, 300, 50_000, 0.3));
      if (t.verdict !== 'same') flagged++;
    }
    expect(flagged).toBeLessThanOrEqual(1);
  });

  it('calls a 1% shift of a 30%-spread range noise even with a million instances', () => {
    const t = durationShiftTest(logNormalSample(3, 1_000_000, 50_000, 0.3), logNormalSample(4, 1_000_000, 50_500, 0.3));
    expect(t.verdict).toBe('same');
    expect(t.baseN).toBe(2_000);
  });

  it('says too few below the minimum sample size', () => {
    const t = durationShiftTest(Float64Array.from([1, 2, 3]), Float64Array.from([10, 20, 30]));
    expect(t.verdict).toBe('too-few');
  });

  it('treats identical constant samples as unchanged (all ties)', () => {
    const t = durationShiftTest(new Float64Array(50).fill(7), new Float64Array(60).fill(7));
    expect(t.verdict).toBe('same');
    expect(t.effect).toBe(0);
  });

  it('thins evenly', () => {
    const v = Float64Array.from({ length: 100 }, (_, i) => i);
    expect(Array.from(thinned(v, 0, 100, 4))).toEqual([0, 25, 50, 75]);
    expect(thinned(v, 10, 20, 50).length).toBe(10);
  });
});
