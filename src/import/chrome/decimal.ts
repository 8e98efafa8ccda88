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
 * the third decimal round to the nearest nanosecond (half away from zero). Exponent forms fall back
 * to double arithmetic (exact enough for the small values such writers use).
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
    while (i < end) {
      const d = buf[i] - 0x30;
      if (d < 0 || d > 9) break;
      if (fracDigits < 3) ns = ns * 10 + d;
      else if (fracDigits === 3 && d >= 5) ns += 1;
      fracDigits++;
      i++;
    }
    if (fracDigits === 0) return false;
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

function parseWithExponent(buf: Uint8Array, start: number, end: number, out: Micros): boolean {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(buf[i]);
  const v = Number(text);
  if (!Number.isFinite(v)) return false;
  const us = Math.trunc(v);
  out.us = us;
  out.ns = Math.round((v - us) * 1000);
  return true;
}

/** Nanoseconds of a duration (exact below 2^53 ns). */
export function microsToNs(m: Micros): number {
  return m.us * 1000 + m.ns;
}
