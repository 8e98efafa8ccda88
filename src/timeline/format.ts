/** Time and value text for the timeline (ruler, tooltips). Times are nanoseconds. */

const UNIT_NS = [1, 1e3, 1e6, 1e9] as const;
const UNIT_NAME = ['ns', 'µs', 'ms', 's'] as const;

/** Index into the unit table of the largest unit not above `magnitudeNs` (ns below 1 ns). */
export function unitIndexFor(magnitudeNs: number): number {
  let u = 0;
  while (u + 1 < UNIT_NS.length && Math.abs(magnitudeNs) >= UNIT_NS[u + 1]) u++;
  return u;
}

export function unitName(unitIndex: number): string {
  return UNIT_NAME[unitIndex];
}

export function unitNs(unitIndex: number): number {
  return UNIT_NS[unitIndex];
}

/** `valueNs` in a given unit with a fixed number of decimals, e.g. "1.25 ms". */
export function formatInUnit(valueNs: number, unitIndex: number, decimals: number): string {
  const text = (valueNs / UNIT_NS[unitIndex]).toFixed(decimals);
  return `${/^-0(\.0*)?$/.test(text) ? text.slice(1) : text} ${UNIT_NAME[unitIndex]}`;
}

/** A duration to about four significant digits in the best unit: "850 ns", "12.35 µs", "1.5 s". */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return String(ns);
  if (ns === 0) return '0 ns';
  let u = unitIndexFor(ns);
  for (;;) {
    const scaled = Math.abs(ns) / UNIT_NS[u];
    const decimals = u === 0 ? (Number.isInteger(ns) ? 0 : 1) : scaled >= 100 ? 1 : scaled >= 10 ? 2 : 3;
    const text = (ns / UNIT_NS[u]).toFixed(decimals);
    // 999.96 µs rounds to "1000.0 µs": say 1 ms instead.
    if (u + 1 < UNIT_NS.length && Math.abs(Number(text)) >= 1000) {
      u++;
      continue;
    }
    // Trailing zeros carry no information in a duration.
    return `${decimals > 0 ? text.replace(/\.?0+$/, '') : text} ${UNIT_NAME[u]}`;
  }
}

/**
 * A point in time exactly, to the nanosecond, in the unit of its magnitude: "12.345678 ms",
 * "1.5 s", "-250 ns". Non-integer inputs are rounded to the nanosecond.
 */
export function formatTimestamp(ns: number): string {
  if (!Number.isFinite(ns)) return String(ns);
  const rounded = Math.round(ns);
  const sign = rounded < 0 ? '-' : '';
  const abs = Math.abs(rounded);
  const u = unitIndexFor(abs);
  const unit = UNIT_NS[u];
  const whole = Math.floor(abs / unit);
  const frac = abs - whole * unit;
  const digits = Math.round(Math.log10(unit));
  const fracText = frac === 0 ? '' : `.${String(frac).padStart(digits, '0').replace(/0+$/, '')}`;
  return `${sign}${whole}${fracText} ${UNIT_NAME[u]}`;
}

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
  const number = Number.isInteger(scaled) ? String(scaled) : String(Number(scaled.toPrecision(4)));
  return [number, prefix, unit].filter((part) => part).join(' ');
}

const SI_PREFIXES: [number, string][] = [
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
];

/** A time rounded to what one pixel resolves (`resolutionNs`), e.g. the cursor's time on the ruler. */
export function formatTimeAtResolution(tNs: number, resolutionNs: number): string {
  const step = 10 ** Math.ceil(Math.log10(Math.max(resolutionNs, 1e-9)));
  return formatTimestamp(Math.round(tNs / step) * step);
}
