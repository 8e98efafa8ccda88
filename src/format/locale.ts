/**
 * The d3-format locale every text of nvtxview is written in. d3's default minus is U+2212; text that
 * people copy into CSV, search boxes and scripts reads better with the ASCII hyphen-minus.
 */
import { formatLocale } from 'd3-format';

const locale = formatLocale({ decimal: '.', thousands: ',', grouping: [3], currency: ['', ''], minus: '-' });

/** A d3-format formatter (`specifier` as in d3-format, e.g. ".2f", ",d", ".3~f"). */
export const numberFormat = locale.format;

const fixedCache = new Map<string, (n: number) => string>();

/**
 * `value` with `decimals` digits after the point; `trim` drops trailing zeros ("1.50" -> "1.5").
 * Negative zero reads "0".
 */
export function fixed(value: number, decimals: number, trim = false): string {
  const key = `${decimals}${trim ? '~' : ''}`;
  let f = fixedCache.get(key);
  if (!f) {
    f = numberFormat(`.${decimals}${trim ? '~' : ''}f`);
    fixedCache.set(key, f);
  }
  return f(value);
}
