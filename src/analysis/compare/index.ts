/**
 * Comparison of two captures (baseline, candidate): `compareCaptures(base, candidate, options)`
 * with the statistics' scope and group-by options; rows per group with both sides' figures, the
 * change of each, and a noise verdict from a Mann-Whitney U test with an effect-size floor.
 * `--fail-if` thresholds (`parseThreshold`, `thresholdBreaches`) gate a CI job on the result.
 */
export {
  COMPARE_COLUMNS,
  compareCaptures,
  compareSide,
  compareSides,
  endedInstances,
  figureOf,
  rowDurations,
  type Change,
  type CompareColumn,
  type CompareResult,
  type CompareSide,
  type CompareRow,
  type CompareStatus,
  type SideFigures,
} from './compareCaptures.ts';
export { nthByStart } from './nthInstance.ts';
export { MAX_TEST_INSTANCES, MIN_EFFECT, MIN_TEST_INSTANCES, NOISE_ALPHA, durationShiftTest, type ShiftTest, type ShiftVerdict } from './mannWhitney.ts';
export { changeIsNoise, parseThreshold, thresholdBreaches, type Breach, type Threshold, type ThresholdOp } from './thresholds.ts';
