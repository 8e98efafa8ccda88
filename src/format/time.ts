/**
 * Times and durations as text, for the CLI, the panels and the timeline alike, so that a range's
 * duration reads the same in a tooltip, a table and `nvtxview stats`. Inputs are nanoseconds.
 */
import { fixed } from './locale.ts';

const UNIT_NS = [1, 1e3, 1e6, 1e9] as const;
const UNIT_NAME = ['ns', 'µs', 'ms', 's'] as const;
const LARGEST = UNIT_NS.length - 1;

/** Index into the unit table of the largest unit not above `magnitudeNs` (ns below 1 ns). */
export function unitIndexFor(magnitudeNs: number): number {
  let u = 0;
  while (u < LARGEST && Math.abs(magnitudeNs) >= UNIT_NS[u + 1]) u++;
  return u;
}

export function unitNs(unitIndex: number): number {
  return UNIT_NS[unitIndex];
}

/** `valueNs` in a given unit with a fixed number of decimals, e.g. "1.25 ms". */
export function formatInUnit(valueNs: number, unitIndex: number, decimals: number): string {
  return `${fixed(valueNs / UNIT_NS[unitIndex], decimals)} ${UNIT_NAME[unitIndex]}`;
}

export interface DurationStyle {
  /** Significant digits from 1 µs up: 4 (the default) or 3 for narrow table columns. */
  digits?: 3 | 4;
  /**
   * Keep trailing zeros ("2.000 µs") so the figures of a text table line up; by default they are
   * dropped ("2 µs"), as they carry no information.
   */
  fixedPoint?: boolean;
}

/**
 * A duration in the largest unit it reaches: "850 ns", "12.35 µs", "1.5 s" (four significant
 * digits), or "12.3 µs" with `digits: 3`. A value that rounds to 1000 in its unit moves to the
 * next one (999960 ns is "1 ms", not "1000 µs"). Non-finite values (no data) read "-".
 */
export function formatDuration(ns: number, style: DurationStyle = {}): string {
  if (!Number.isFinite(ns)) return '-';
  const digits = style.digits ?? 4;
  for (let u = unitIndexFor(ns); ; u++) {
    const scaled = ns / UNIT_NS[u];
    const magnitude = Math.abs(scaled);
    // Whole nanoseconds need no decimals; a fraction of one keeps one at four digits.
    const decimals =
      u === 0
        ? Number.isInteger(ns) ? 0 : digits - 3
        : digits - (magnitude >= 100 ? 3 : magnitude >= 10 ? 2 : 1);
    if (u < LARGEST && Math.abs(Number(fixed(scaled, decimals))) >= 1000) continue;
    return `${fixed(scaled, decimals, u === 0 || !style.fixedPoint)} ${UNIT_NAME[u]}`;
  }
}

/** A duration to three significant digits, for narrow columns: "850 ns", "5.37 ms", "584 ms". */
export function formatDurationShort(ns: number): string {
  return formatDuration(ns, { digits: 3 });
}

/**
 * A point in time exactly, to the nanosecond, in the unit of its magnitude: "12.345678 ms",
 * "1.5 s", "-250 ns". Non-integer inputs are rounded to the nanosecond; non-finite ones read "-".
 */
export function formatTimestamp(ns: number): string {
  if (!Number.isFinite(ns)) return '-';
  const rounded = Math.round(ns);
  const sign = rounded < 0 ? '-' : '';
  const abs = Math.abs(rounded);
  const u = unitIndexFor(abs);
  const unit = UNIT_NS[u];
  // Integer arithmetic: a float division would lose the last nanoseconds of long captures.
  const whole = Math.floor(abs / unit);
  const frac = abs - whole * unit;
  const digits = 3 * u;
  const fracText = frac === 0 ? '' : `.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
  return `${sign}${whole}${fracText} ${UNIT_NAME[u]}`;
}

/** A time rounded to what one pixel resolves (`resolutionNs`), e.g. the cursor's time on the ruler. */
export function formatTimeAtResolution(tNs: number, resolutionNs: number): string {
  const step = 10 ** Math.ceil(Math.log10(Math.max(resolutionNs, 1e-9)));
  return formatTimestamp(Math.round(tNs / step) * step);
}
