/**
 * Number formatting for the panels. Durations and timestamps come from the timeline's formatter,
 * so the ruler, the tooltips and the panels show times the same way; counts, byte sizes and
 * percentages are the panels' own.
 */
import { format } from 'd3-format';

import { formatInUnit, unitIndexFor } from '../timeline/format.ts';

export { formatDuration, formatTimestamp } from '../timeline/format.ts';

const fixed = [0, 1, 2].map((d) => format(`.${d}f`));
const groupedInt = format(',d');

/**
 * A duration to three significant digits, for narrow table columns: "850 ns", "5.37 ms",
 * "91.7 ms", "584 ms". Trailing zeros are dropped, as in the timeline's `formatDuration`.
 */
export function formatDurationShort(ns: number): string {
  if (!Number.isFinite(ns)) return String(ns);
  if (ns === 0) return '0 ns';
  let u = unitIndexFor(ns);
  for (;;) {
    const scaled = Math.abs(ns) / 10 ** (3 * u);
    const decimals = u === 0 ? 0 : scaled >= 100 ? 0 : scaled >= 10 ? 1 : 2;
    // 999.6 µs rounds to "1000 µs": show it as 1 ms instead.
    if (u < 3 && Number(scaled.toFixed(decimals)) >= 1000) {
      u++;
      continue;
    }
    const text = formatInUnit(ns, u, decimals);
    return decimals > 0 ? text.replace(/\.?0+ /, ' ') : text;
  }
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
