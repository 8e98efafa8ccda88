/**
 * Ruler ticks: nice values from d3 (1, 2, 5 x 10^k ns), labelled in one unit chosen from the
 * step so that neighbouring labels differ visibly. Deep zooms far from zero would need labels
 * like "3214.5123 ms"; there the labels become offsets from a round base time shown once at the
 * left of the ruler ("3.2145 s" then "+12.4 µs", "+12.6 µs", ...).
 */
import { formatInUnit, formatTimestamp, unitIndexFor, unitNs } from '../format/time.ts';
import type { TimeScale } from './timeScale.ts';
import type { CssPx } from './units.ts';

export interface AxisTick {
  tNs: number;
  xCss: CssPx;
  label: string;
}

export interface Axis {
  ticks: AxisTick[];
  stepNs: number;
  /** Spacing of the unlabelled minor ticks: a fifth of a 1 or 5 step, a quarter of a 2 step. */
  minorStepNs: number;
  /** Time the labels are relative to (0 unless zoomed deep far from zero). */
  baseNs: number;
  /** Text for the base time, or null when labels are absolute. */
  baseLabel: string | null;
}

/** Labels may carry at most this many decimals before switching to base + offset labels. */
const MAX_DECIMALS = 3;

export function axisTicks(scale: TimeScale, minSpacingCss: CssPx = 90): Axis {
  const count = Math.max(2, Math.floor(scale.widthCss / minSpacingCss));
  const values = scale.ticks(count);
  const stepNs = values.length > 1 ? values[1] - values[0] : niceStep(scale.endNs - scale.startNs);
  const { baseNs, relative, labels } = labelTicks(values, stepNs, scale.startNs, scale.endNs);
  return {
    ticks: values.map((tNs, i) => ({ tNs, xCss: scale.toX(tNs), label: labels[i] })),
    stepNs,
    minorStepNs: stepNs / (Math.round(stepNs / 10 ** Math.floor(Math.log10(stepNs))) === 2 ? 4 : 5),
    baseNs,
    baseLabel: relative ? formatTimestamp(baseNs) : null,
  };
}

/** Labels for tick values `stepNs` apart inside [startNs, endNs]. */
export function labelTicks(
  values: number[],
  stepNs: number,
  startNs: number,
  endNs: number,
): { baseNs: number; relative: boolean; labels: string[] } {
  const absolute = chooseUnit(values, stepNs);
  if (absolute.decimals <= MAX_DECIMALS) {
    return { baseNs: 0, relative: false, labels: values.map((v) => formatTick(v, stepNs, absolute.unit, absolute.decimals)) };
  }
  // A round base below the window, a power of ten at least ten times the window's width.
  const block = 10 ** Math.ceil(Math.log10(Math.max(1, (endNs - startNs) * 10)));
  const baseNs = Math.floor(startNs / block) * block;
  const rel = values.map((v) => v - baseNs);
  let { unit, decimals } = chooseUnit(rel, stepNs);
  if (decimals > MAX_DECIMALS) {
    unit = unitIndexFor(stepNs);
    decimals = decimalsFor(stepNs, unit);
  }
  return { baseNs, relative: true, labels: rel.map((v) => `+${formatTick(v, stepNs, unit, decimals)}`) };
}

function chooseUnit(values: number[], stepNs: number): { unit: number; decimals: number } {
  let magnitude = 0;
  for (const v of values) magnitude = Math.max(magnitude, Math.abs(v));
  const unit = unitIndexFor(Math.max(magnitude, stepNs));
  return { unit, decimals: decimalsFor(stepNs, unit) };
}

/** Decimals needed to tell apart values `stepNs` apart in a unit. */
function decimalsFor(stepNs: number, unit: number): number {
  return Math.max(0, Math.ceil(-Math.log10(stepNs / unitNs(unit)) - 1e-9));
}

function formatTick(v: number, stepNs: number, unit: number, decimals: number): string {
  // Float noise around zero (e.g. -1e-10) must not print as "-0.0".
  const value = Math.abs(v) < stepNs * 1e-6 ? 0 : v;
  return value === 0 ? '0' : formatInUnit(value, unit, decimals);
}

function niceStep(spanNs: number): number {
  return 10 ** Math.floor(Math.log10(Math.max(1e-3, spanNs)));
}
