/** Counts, shares, byte sizes and counter values as text, for the CLI, the panels and the timeline. */
import { fixed, numberFormat } from './locale.ts';

const grouped = numberFormat(',d');
const fourDigits = numberFormat('.4~r');

/** "1,234,567". */
export function formatCount(n: number): string {
  return grouped(n);
}

/**
 * A percentage (0..100) with `decimals` digits: "76.1%". A real share too small to show at that
 * precision reads "<0.1%", not "0.0%".
 */
export function formatPercent(percent: number, decimals = 1): string {
  const least = 10 ** -decimals;
  if (percent > 0 && percent < least / 2) return `<${fixed(least, decimals)}%`;
  return `${fixed(percent, decimals)}%`;
}

/**
 * Progress from a 0..1 fraction as a whole percentage, rounded down and clamped, so that "100%"
 * means done: "42%".
 */
export function formatProgress(fraction: number): string {
  const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  return `${Math.floor(f * 100)}%`;
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** "512 B", "1.50 KiB", "12.3 MiB", "120 GiB" (three significant digits). */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < BYTE_UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${bytes} B`;
  return `${fixed(v, v >= 100 ? 0 : v >= 10 ? 1 : 2)} ${BYTE_UNITS[u]}`;
}

const SI_PREFIXES: readonly [number, string][] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** A counter value with an SI prefix and its unit: "1.234 G bytes", "12 bytes", "0.5". */
export function formatValue(value: number, unit?: string): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  let prefix = '';
  let scaled = value;
  for (const [scale, p] of SI_PREFIXES) {
    if (abs >= scale) {
      prefix = p;
      scaled = value / scale;
      break;
    }
  }
  const number = Number.isInteger(scaled) ? String(scaled) : fourDigits(scaled);
  return [number, prefix, unit].filter((part) => part).join(' ');
}
