/**
 * Number formatting for the panels. Durations and timestamps come from the timeline's formatter,
 * so the ruler, the tooltips and the panels show times the same way; counts, byte sizes and
 * percentages are the panels' own.
 */
import { format } from 'd3-format';

export { formatDuration, formatTimestamp } from '../timeline/format.ts';

const fixed = [0, 1, 2].map((d) => format(`.${d}f`));
const groupedInt = format(',d');

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
