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

const BINARY_PREFIXES: readonly [number, string][] = [
  [2 ** 40, 'TiB'],
  [2 ** 30, 'GiB'],
  [2 ** 20, 'MiB'],
  [2 ** 10, 'KiB'],
];

/** Units of byte counts: shown with binary prefixes, as memory tools (Nsight Systems, nvidia-smi) show them. */
const BYTE_UNITS_NAMES: ReadonlySet<string> = new Set(['bytes', 'byte', 'B']);

/**
 * The binary unit to show byte counts of up to `largest` (absolute) in, with its size: "MiB" for
 * 157,358,080. Below a KiB, the counts as they are ([1, 'bytes']).
 */
export function byteScale(largest: number): [number, string] {
  return BINARY_PREFIXES.find(([scale]) => largest >= scale) ?? [1, 'bytes'];
}

/** A number in four significant digits, no prefix: "150.1", "0.2034", "-8". */
export function formatPlain(value: number): string {
  return Number.isInteger(value) ? String(value) : fourDigits(value);
}

/** True for a counter unit `formatValue` shows with binary prefixes. */
export function isByteUnit(unit: string | undefined): boolean {
  return unit !== undefined && BYTE_UNITS_NAMES.has(unit);
}

/**
 * A counter value with an SI prefix and its unit: "1.234 G events", "12 bytes", "0.5"; byte
 * counts from a KiB with a binary one: "1.149 GiB".
 */
export function formatValue(value: number, unit?: string): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (isByteUnit(unit)) {
    const [scale, name] = byteScale(abs);
    return scale === 1 ? `${formatPlain(value)} ${unit}` : `${fourDigits(value / scale)} ${name}`;
  }
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
