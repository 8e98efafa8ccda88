/**
 * The `args` of a counter event (`{"value":12}`, `{"cats":3,"dogs":7}`) read from the bytes, for
 * the usual shape only: a flat object of plain keys and JSON numbers (or null). The result is what
 * `Object.entries(JSON.parse(args))` gives, without a parse, an object or an entries array per
 * sample. Anything else (escapes, keys that JSON.parse would reorder or merge, strings, nesting,
 * numbers that need more than one rounding) returns false and the caller parses the text itself.
 */

export interface CounterArgs {
  /** Series names, in `Object.entries` order; `count` of them are valid. */
  keys: string[];
  /** Values (null as NaN with `isNull` set). */
  values: number[];
  isNull: boolean[];
  count: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Exact powers of ten (10^22 is the largest a double holds exactly). */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

/** Reads buf[start, end) (the `args` object, braces included) into `out`; false where it cannot. */
export function readCounterArgs(buf: Uint8Array, start: number, end: number, out: CounterArgs): boolean {
  out.count = 0;
  let i = start;
  if (buf[i] !== 0x7b) return false;
  i++;
  i = skipWs(buf, i, end);
  if (buf[i] === 0x7d) return i + 1 === end;
  for (;;) {
    // Key: plain bytes, and not one JSON.parse would put first (an array index such as "0").
    if (i >= end || buf[i] !== QUOTE) return false;
    const keyStart = i + 1;
    let k = keyStart;
    while (k < end && buf[k] !== QUOTE) {
      if (buf[k] === BACKSLASH || buf[k] < 0x20) return false;
      k++;
    }
    if (k >= end || k === keyStart) return false;
    const first = buf[keyStart];
    if (first >= 0x30 && first <= 0x39) return false;
    const key = utf8Text(buf, keyStart, k);
    for (let q = 0; q < out.count; q++) if (out.keys[q] === key) return false;
    i = skipWs(buf, k + 1, end);
    if (buf[i] !== 0x3a) return false;
    i = skipWs(buf, i + 1, end);
    // Value: null or a JSON number.
    const at = out.count;
    if (buf[i] === 0x6e && buf[i + 1] === 0x75 && buf[i + 2] === 0x6c && buf[i + 3] === 0x6c) {
      out.keys[at] = key;
      out.values[at] = NaN;
      out.isNull[at] = true;
      i += 4;
    } else {
      i = readNumber(buf, i, end);
      if (i < 0) return false;
      out.keys[at] = key;
      out.values[at] = lastNumber;
      out.isNull[at] = false;
    }
    out.count = at + 1;
    i = skipWs(buf, i, end);
    if (buf[i] === 0x7d) return i + 1 === end;
    if (buf[i] !== 0x2c) return false;
    i = skipWs(buf, i + 1, end);
  }
}

function skipWs(buf: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/** The value of the last number `readNumber` read. */
let lastNumber = 0;

/**
 * A JSON number at buf[i] (strict grammar: no leading zeros, digits after the point and in the
 * exponent) whose value is one exactly rounded operation: at most 15 digits (an exact integer)
 * scaled by 10^-22..10^22 (exact), as JSON.parse rounds it. Returns the index past it, or -1.
 */
function readNumber(buf: Uint8Array, i: number, end: number): number {
  let negative = false;
  if (buf[i] === 0x2d) {
    negative = true;
    i++;
  }
  let digits = 0;
  let m = 0;
  let d = buf[i] - 0x30;
  if (i >= end || d < 0 || d > 9) return -1;
  if (d === 0) {
    i++;
    d = buf[i] - 0x30;
    if (i < end && d >= 0 && d <= 9) return -1;
  } else {
    while (i < end && (d = buf[i] - 0x30) >= 0 && d <= 9) {
      m = m * 10 + d;
      digits++;
      i++;
    }
  }
  let scale = 0;
  if (i < end && buf[i] === 0x2e) {
    i++;
    const from = i;
    while (i < end && (d = buf[i] - 0x30) >= 0 && d <= 9) {
      m = m * 10 + d;
      digits++;
      i++;
    }
    if (i === from) return -1;
    scale = from - i;
  }
  if (i < end && (buf[i] === 0x65 || buf[i] === 0x45)) {
    i++;
    let expNegative = false;
    if (buf[i] === 0x2b || buf[i] === 0x2d) {
      expNegative = buf[i] === 0x2d;
      i++;
    }
    const from = i;
    let e = 0;
    while (i < end && (d = buf[i] - 0x30) >= 0 && d <= 9) {
      if (e < 1000) e = e * 10 + d;
      i++;
    }
    if (i === from) return -1;
    scale += expNegative ? -e : e;
  }
  if (digits > 15 || scale < -22 || scale > 22) return -1;
  const value = scale < 0 ? m / POW10[-scale] : m * POW10[scale];
  lastNumber = negative ? -value : value;
  return i;
}

const utf8 = new TextDecoder('utf-8');

/** Text of a short key: ASCII without the decoder. */
function utf8Text(buf: Uint8Array, start: number, end: number): string {
  let i = start;
  while (i < end && buf[i] < 0x80) i++;
  if (i === end && end - start <= 64) return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  return utf8.decode(buf.subarray(start, end));
}
