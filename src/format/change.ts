/** Changes between two figures, for the comparison of captures: "+21.3%", "+2.60 ms", "+12". */
import { formatCount } from './numbers.ts';
import { formatDuration } from './time.ts';

/** A relative change (fraction): "+21.3%", "-4.0%", "new" for growth from nothing, "-" for none. */
export function formatRelativeChange(rel: number): string {
  if (Number.isNaN(rel)) return '-';
  if (rel === Infinity) return 'new';
  const percent = rel * 100;
  const text = Math.abs(percent) >= 1000 ? percent.toFixed(0) : percent.toFixed(1);
  return percent > 0 ? `+${text}%` : text === '-0.0' ? '0.0%' : `${text}%`;
}

/** A signed duration change: "+2.6 ms", "-350 ns", "0 ns" (`digits` significant digits, default 4). */
export function formatDurationChange(ns: number, fixedPoint = false, digits: 3 | 4 = 4): string {
  if (!Number.isFinite(ns)) return '-';
  const text = formatDuration(Math.abs(ns), { fixedPoint, digits });
  return ns > 0 ? `+${text}` : ns < 0 ? `-${text}` : text;
}

/** A signed count change: "+12", "-3", "0". */
export function formatCountChange(n: number): string {
  return n > 0 ? `+${formatCount(n)}` : n < 0 ? `-${formatCount(-n)}` : '0';
}
