/** Reading durations and times typed by people: "1.5ms", "200us", "200µs", "3s", "42ns", "42". */

const SCALE: Record<string, number> = {
  '': 1,
  ns: 1,
  us: 1e3,
  'µs': 1e3,
  'μs': 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  min: 60e9,
  h: 3600e9,
};

const PATTERN = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([a-zµμ]*)\s*$/i;

/**
 * Nanoseconds of a duration text: a number with an optional unit (ns, us/µs, ms, s, min, h);
 * a plain number is nanoseconds. The result is rounded to whole nanoseconds. Throws a message
 * naming the text when it cannot be read.
 */
export function parseDuration(text: string): number {
  const m = PATTERN.exec(text);
  const unit = m?.[2].toLowerCase();
  const scale = unit === undefined ? undefined : SCALE[unit];
  if (!m || scale === undefined) {
    throw new Error(`"${text}" is not a duration (expected a number with an optional unit: ns, us, ms, s, e.g. 1.5ms)`);
  }
  return Math.round(Number(m[1]) * scale);
}
