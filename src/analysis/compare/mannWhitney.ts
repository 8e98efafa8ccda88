/**
 * Is a range's duration distribution different between two captures, or is the change within
 * the runs' own noise?
 *
 * Mann-Whitney U (Wilcoxon rank-sum) test, normal approximation with tie correction and
 * continuity correction. Why this test: range durations are skewed and heavy-tailed (a few
 * instances wait on a lock or a page fault), so a t-test on means is dragged by outliers and its
 * normality assumption does not hold; U only compares ranks, needs no distribution shape, is cheap
 * (one sort per side) and deterministic (unlike a bootstrap, which would need a seed and many
 * resamples of millions of durations). Ties are common (timer resolution, integer ns), hence the
 * tie correction of the variance.
 *
 * Significance alone is not enough: with 10^6 instances a 0.5% shift is "significant" and still
 * not worth anyone's time. So a change also needs an effect size: Cliff's delta
 * (P(candidate > baseline) - P(candidate < baseline), which is 2U/(n1 n2) - 1) of at least 0.147,
 * the bound below which Romano et al. (2006) call the effect negligible. A 1% shift of a range
 * with 30% spread has |delta| of about 0.02; a 20% slowdown of the same range about 0.35.
 */

import { thinned } from '../quantiles.ts';

/** Below this many instances on either side the test cannot tell (normal approximation too rough). */
export const MIN_TEST_INSTANCES = 10;
/** Two-sided significance level. */
export const NOISE_ALPHA = 0.01;
/** |Cliff's delta| below this is a negligible effect (Romano et al. 2006). */
export const MIN_EFFECT = 0.147;
/**
 * Larger samples are thinned to this many instances, evenly spaced in capture order, before
 * ranking, which keeps a 10M-event comparison fast. It costs no verdicts: an effect at the
 * MIN_EFFECT floor already reaches p < 0.01 from about 200 instances a side, and at 2,000 a side
 * the effect itself is estimated to about +-0.02. A smaller sample only makes the test more
 * conservative.
 */
export const MAX_TEST_INSTANCES = 2_000;

export type ShiftVerdict = 'slower' | 'faster' | 'same' | 'too-few';

export interface ShiftTest {
  verdict: ShiftVerdict;
  /** Two-sided p-value; NaN when too few. */
  pValue: number;
  /** Cliff's delta in [-1, 1], positive when the candidate's durations are larger. */
  effect: number;
  /** Instances the test used per side (after thinning). */
  baseN: number;
  candidateN: number;
}

/** Complementary error function (Numerical Recipes' Chebyshev fit, relative error < 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Two-sided p-value of a standard normal statistic. */
export function twoSidedP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

export interface URanks {
  /** U of the candidate: pairs with candidate > baseline, ties counting 1/2. */
  u: number;
  /** Sum over tie groups of t^3 - t. */
  tieTerm: number;
}

/** U statistic of two samples already sorted ascending, by one merge (average ranks for ties). */
export function uStatistic(base: Float64Array, candidate: Float64Array): URanks {
  const n1 = base.length;
  const n2 = candidate.length;
  let i = 0;
  let j = 0;
  let rank = 0;
  let candidateRankSum = 0;
  let tieTerm = 0;
  while (i < n1 || j < n2) {
    const v = j >= n2 || (i < n1 && base[i] <= candidate[j]) ? base[i] : candidate[j];
    let a = 0;
    let c = 0;
    while (i < n1 && base[i] === v) (i++, a++);
    while (j < n2 && candidate[j] === v) (j++, c++);
    const t = a + c;
    // Ranks rank+1 .. rank+t share their average.
    candidateRankSum += c * (rank + (t + 1) / 2);
    if (t > 1) tieTerm += t * t * t - t;
    rank += t;
  }
  return { u: candidateRankSum - (n2 * (n2 + 1)) / 2, tieTerm };
}

/** The test on two samples (any order; they are copied, sorted and possibly thinned). */
export function durationShiftTest(base: Float64Array, candidate: Float64Array): ShiftTest {
  if (base.length < MIN_TEST_INSTANCES || candidate.length < MIN_TEST_INSTANCES) {
    return { verdict: 'too-few', pValue: NaN, effect: NaN, baseN: base.length, candidateN: candidate.length };
  }
  const a = thinned(base, 0, base.length, MAX_TEST_INSTANCES).sort();
  const b = thinned(candidate, 0, candidate.length, MAX_TEST_INSTANCES).sort();
  const n1 = a.length;
  const n2 = b.length;
  const n = n1 + n2;
  const { u, tieTerm } = uStatistic(a, b);
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  const effect = (2 * u) / (n1 * n2) - 1;
  let pValue = 1;
  if (variance > 0) {
    const diff = u - mean;
    const corrected = Math.max(0, Math.abs(diff) - 0.5);
    pValue = twoSidedP(corrected / Math.sqrt(variance));
  }
  const verdict: ShiftVerdict = pValue < NOISE_ALPHA && Math.abs(effect) >= MIN_EFFECT ? (effect > 0 ? 'slower' : 'faster') : 'same';
  return { verdict, pValue, effect, baseN: n1, candidateN: n2 };
}
