/**
 * Number formatting for the panels: durations and timestamps in ns/µs/ms/s, counts, byte sizes.
 * One place, so every panel and table shows times the same way.
 */
import { format } from 'd3-format';

interface Unit {
  suffix: string;
  /** Nanoseconds per unit. */
  scale: number;
}

const UNITS: readonly Unit[] = [
  { suffix: 'ns', scale: 1 },
  { suffix: 'µs', scale: 1e3 },
  { suffix: 'ms', scale: 1e6 },
  { suffix: 's', scale: 1e9 },
];

const fixed = [0, 1, 2, 3].map((d) => format(`.${d}f`));
const groupedInt = format(',d');

function unitFor(absNs: number): number {
  let u = 0;
  while (u < UNITS.length - 1 && absNs >= UNITS[u + 1].scale) u++;
  return u;
}

/**
 * A duration with four significant digits in the largest unit that keeps it >= 1:
 * "850 ns", "1.235 µs", "12.35 ms", "123.4 ms", "2.500 s". Integer nanoseconds stay integers.
 */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return '–';
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  let u = unitFor(abs);
  for (;;) {
    const { suffix, scale } = UNITS[u];
    const v = abs / scale;
    if (u === 0) return `${sign}${Number.isInteger(v) ? groupedInt(v) : fixed[1](v)} ${suffix}`;
    const decimals = v >= 100 ? 1 : v >= 10 ? 2 : 3;
    const text = fixed[decimals](v);
    // 999.96 µs rounds to "1000.0": show it as 1.000 ms instead.
    if (Number(text) >= 1000 && u < UNITS.length - 1) {
      u++;
      continue;
    }
    return `${sign}${text} ${suffix}`;
  }
}

/**
 * A point in time (ns from the capture start) at nanosecond resolution, in the unit of its
 * magnitude with trailing zeros trimmed: "0 ns", "850 ns", "12.5 µs", "1.000123 ms", "3.25 s".
 */
export function formatTimestamp(ns: number): string {
  if (!Number.isFinite(ns)) return '–';
  const sign = ns < 0 ? '-' : '';
  const abs = Math.abs(ns);
  const u = unitFor(abs);
  const { suffix, scale } = UNITS[u];
  if (u === 0) return `${sign}${Number.isInteger(abs) ? abs : fixed[1](abs)} ${suffix}`;
  // Enough decimals to show whole nanoseconds, then trailing zeros dropped.
  const decimals = Math.round(Math.log10(scale));
  const text = trimZeros((abs / scale).toFixed(Number.isInteger(abs) ? decimals : decimals + 1));
  return `${sign}${text} ${suffix}`;
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** "1,234,567". */
export function formatCount(n: number): string {
  return groupedInt(n);
}

/** "512 B", "1.5 KiB", "12.3 MiB", "1.20 GiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} B`;
  return `${fixed[v >= 100 ? 0 : v >= 10 ? 1 : 2](v)} ${units[u]}`;
}

/** "42%" from a 0..1 fraction, clamped. */
export function formatPercent(fraction: number): string {
  const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return `${Math.floor(f * 100)}%`;
}
