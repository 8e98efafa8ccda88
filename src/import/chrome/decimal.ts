/**
 * Exact microsecond timestamps. Chrome traces give `ts`/`dur` in microseconds as decimal text with
 * a fractional part ("1234567.891"); multiplying the parsed double by 1000 would round (and epoch
 * microseconds times 1000 exceed 2^53), so the text is split into whole microseconds and the
 * nanosecond remainder, each exact as a double.
 */

/** A parsed microsecond value: value = us + ns / 1000, both carrying the value's sign. */
export interface Micros {
  us: number;
  ns: number;
}

/**
 * Parses the decimal number buf[start, end) into `out`; false if it is not a number. Digits past
 * the third decimal round to the nearest nanosecond, an exact half to even (as IEEE arithmetic and
 * Python's `round` do: half-nanosecond timestamps do not all drift one way). Exponent forms are
 * shifted into plain decimals, as exact. Values too large for a double give `us` = ±Infinity
 * (true is returned: the number is well-formed; the caller says it is out of range).
 */
export function parseMicros(buf: Uint8Array, start: number, end: number, out: Micros): boolean {
  let i = start;
  let negative = false;
  if (i < end && buf[i] === 0x2d) {
    negative = true;
    i++;
  }
  let us = 0;
  let digits = 0;
  while (i < end) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) break;
    us = us * 10 + d;
    digits++;
    i++;
  }
  let ns = 0;
  if (i < end && buf[i] === 0x2e) {
    i++;
    let fracDigits = 0;
    let round: number = ROUND_NONE;
    while (i < end) {
      const d = buf[i] - 0x30;
      if (d < 0 || d > 9) break;
      if (fracDigits < 3) ns = ns * 10 + d;
      else if (fracDigits === 3) round = d > 5 ? ROUND_UP : d === 5 ? ROUND_HALF : ROUND_NONE;
      else if (round === ROUND_HALF && d !== 0) round = ROUND_UP;
      fracDigits++;
      i++;
    }
    if (fracDigits === 0) return false;
    if (round === ROUND_UP || (round === ROUND_HALF && (ns & 1) === 1)) ns += 1;
    if (fracDigits === 1) ns *= 100;
    else if (fracDigits === 2) ns *= 10;
    digits += fracDigits;
  }
  if (digits === 0) return false;
  if (i < end) {
    if (buf[i] !== 0x65 && buf[i] !== 0x45) return false;
    return parseWithExponent(buf, start, end, out);
  }
  out.us = negative ? -us : us;
  out.ns = negative ? -ns : ns;
  return true;
}

/** Rounding of the digits past the nanosecond: below half, exactly half, above half. */
export const ROUND_NONE = 0;
export const ROUND_HALF = 1;
export const ROUND_UP = 2;

/** Beyond this many places the decimal point is not moved digit by digit: the value is 0 or huge. */
const MAX_SHIFT = 400;

/** `[-]digits[.digits](e|E)[+-]digits`, rewritten as a plain decimal and parsed as one. */
function parseWithExponent(buf: Uint8Array, start: number, end: number, out: Micros): boolean {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(buf[i]);
  const m = /^(-?)(\d*)(?:\.(\d+))?[eE]([+-]?\d+)$/.exec(text);
  if (!m || (m[2] === '' && m[3] === undefined)) return false;
  const sign = m[1];
  const all = m[2] + (m[3] ?? '');
  const digits = all.replace(/^0+/, '');
  if (digits === '') {
    out.us = 0;
    out.ns = 0;
    return true;
  }
  // Where the decimal point falls in `digits` (its leading zeros removed) once the exponent is applied.
  const pointAt = m[2].length - (all.length - digits.length) + Number(m[4]);
  if (pointAt > MAX_SHIFT) {
    out.us = sign ? -Infinity : Infinity;
    out.ns = 0;
    return true;
  }
  if (pointAt < -MAX_SHIFT) {
    out.us = 0;
    out.ns = 0;
    return true;
  }
  const padded = pointAt <= 0 ? '0'.repeat(1 - pointAt) + digits : pointAt > digits.length ? digits + '0'.repeat(pointAt - digits.length) : digits;
  const at = pointAt <= 0 ? 1 : pointAt;
  const plain = `${sign}${padded.slice(0, at)}${at < padded.length ? `.${padded.slice(at)}` : ''}`;
  const bytes = new Uint8Array(plain.length);
  for (let i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
  return parseMicros(bytes, 0, bytes.length, out);
}

/** Nanoseconds of a duration (exact below 2^53 ns). */
export function microsToNs(m: Micros): number {
  return m.us * 1000 + m.ns;
}
