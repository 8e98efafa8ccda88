/**
 * The fast path of `parseEvent` for the shape nearly every writer uses: keys without escapes,
 * `ts`/`dur` as plain decimal numbers, `pid`/`tid`/`id` as integers or strings, `ph`/`s` as plain
 * strings, `args` a flat object of scalars. One pass per event, no calls per byte; the hashes of
 * the name and category are taken while they are scanned (the decoder interns them by it), and the line breaks in the
 * event are counted (the document reader then need not scan the event again for line numbers).
 *
 * Anything else (a quoted or exponent timestamp, an escaped `ph`, `id2`, a nested value, the end of
 * the buffer, a byte that is not JSON...) makes it return FALLBACK before the caller has used
 * anything, and the caller runs the general `parseEvent` over the same bytes: the results are the
 * same either way (eventFields.test.ts checks them against each other on random events), and bad
 * JSON is reported by the general path only.
 */
import {
  EventFields,
  FieldKind,
  K_ARGS,
  K_BIND_ID,
  K_CAT,
  K_CNAME,
  K_DUR,
  K_FLOW_IN,
  K_FLOW_OUT,
  K_ID,
  K_ID2,
  K_NAME,
  K_OTHER,
  K_PH,
  K_PID,
  K_S,
  K_SCOPE,
  K_TID,
  K_TS,
  SpanField,
  keyOf,
} from './eventFields.ts';
import { ROUND_HALF, ROUND_NONE, ROUND_UP } from './decimal.ts';

/** Returned when the event is not of the fast shape: parse it with `parseEvent`. */
export const FALLBACK = -2;
/**
 * From the value readers inside this file: the value runs into `limit` (the event continues in
 * the next slice). `parseEventFast` then returns FALLBACK at once instead of trying the readers of
 * rarer shapes: a slice ends inside an event once per 4 MiB, and a rare branch first taken there,
 * late in a load, deoptimises the parser (V8 has no type feedback for it) and costs a recompile.
 */
const AT_LIMIT = -3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MINUS = 0x2d;
const DOT = 0x2e;
const LF = 0x0a;

/** FNV-1a offset basis and prime (as BytesTable hashes). */
export const FNV_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** JSON whitespace; the one compare `c > 0x20` settles nearly every byte (compact writers put none). */
function isWsByte(c: number): boolean {
  return c <= 0x20 && (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09);
}

/** JSON number bytes as `scanNumber` runs over them. */
function isNumberByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === DOT || c === MINUS || c === 0x2b || c === 0x65 || c === 0x45;
}

/**
 * Reads the event object at buf[pos] ('{') into `f` as `parseEvent` would, or returns FALLBACK
 * (then `f` holds garbage and the caller parses again with `parseEvent`).
 */
export function parseEventFast(buf: Uint8Array, pos: number, limit: number, f: EventFields): number {
  f.reset();
  f.start = pos;
  let i = pos + 1;
  let c = 0;
  /** Line breaks in the event (in whitespace: strings cannot hold one). */
  let lines = 0;
  while (i < limit && isWsByte((c = buf[i]))) {
    if (c === LF) lines++;
    i++;
  }
  if (i >= limit) return FALLBACK;
  if (c === RBRACE) {
    f.end = i + 1;
    f.lineBreaks = lines;
    return i + 1;
  }
  for (;;) {
    // Key.
    if (c !== QUOTE) return FALLBACK;
    const keyStart = i + 1;
    // Near the slice's end the event is (nearly always) incomplete: the general parser says so.
    // Checked here, not by scanning the key, so that the unknown-key scan below runs only for keys
    // that are unknown (see AT_LIMIT).
    if (keyStart + 5 >= limit) return FALLBACK;
    let key = knownKey(buf, keyStart);
    let k = keyStart;
    if (key >= 0) k += key >> 4;
    else {
      let escapedKey = false;
      for (;;) {
        if (k >= limit) return FALLBACK;
        const b = buf[k];
        if (b === QUOTE) break;
        if (b < 0x20) return FALLBACK;
        if (b === BACKSLASH) {
          escapedKey = true;
          k += 2;
        } else k++;
      }
      key = escapedKey ? K_OTHER : keyOf(buf, keyStart, k - keyStart);
    }
    key &= 15;
    i = k + 1;
    while (i < limit && isWsByte((c = buf[i]))) {
      if (c === LF) lines++;
      i++;
    }
    if (i >= limit || c !== COLON) return FALLBACK;
    i++;
    while (i < limit && isWsByte((c = buf[i]))) {
      if (c === LF) lines++;
      i++;
    }
    if (i >= limit) return FALLBACK;

    // Value.
    switch (key) {
      case K_NAME:
        i = readHashedSpan(buf, i, limit, f.name);
        break;
      case K_PH: {
        if (c !== QUOTE) return FALLBACK;
        const end = plainStringEnd(buf, i, limit);
        if (end < 0) return FALLBACK;
        f.phStart = i + 1;
        f.phEnd = end - 1;
        f.ph = end - i === 3 ? buf[i + 1] : 0;
        i = end;
        break;
      }
      case K_TS:
      case K_DUR: {
        const m = key === K_TS ? f.ts : f.dur;
        // -?digits(.digits)? read straight into whole microseconds and nanoseconds, as parseMicros does.
        let j = i;
        let negative = false;
        if (c === MINUS) {
          negative = true;
          j++;
        }
        let us = 0;
        const digitsFrom = j;
        let d = 0;
        while (j < limit && (d = buf[j] - 0x30) >= 0 && d <= 9) {
          us = us * 10 + d;
          j++;
        }
        if (j === digitsFrom || j >= limit) return FALLBACK;
        let ns = 0;
        if (buf[j] === DOT) {
          j++;
          const fracFrom = j;
          let round: number = ROUND_NONE;
          while (j < limit && (d = buf[j] - 0x30) >= 0 && d <= 9) {
            const n = j - fracFrom;
            if (n < 3) ns = ns * 10 + d;
            else if (n === 3) round = d > 5 ? ROUND_UP : d === 5 ? ROUND_HALF : ROUND_NONE;
            else if (round === ROUND_HALF && d !== 0) round = ROUND_UP;
            j++;
          }
          const fracDigits = j - fracFrom;
          if (fracDigits === 0 || j >= limit) return FALLBACK;
          if (round === ROUND_UP || (round === ROUND_HALF && (ns & 1) === 1)) ns += 1;
          if (fracDigits === 1) ns *= 100;
          else if (fracDigits === 2) ns *= 10;
        }
        // Exponents and other number bytes: the general path.
        if (isNumberByte(buf[j])) return FALLBACK;
        m.us = negative ? -us : us;
        m.ns = negative ? -ns : ns;
        if (key === K_TS) f.hasTs = FieldKind.Number;
        else f.hasDur = FieldKind.Number;
        i = j;
        break;
      }
      case K_PID:
        i = readSpan(buf, i, limit, f.pid);
        break;
      case K_TID:
        i = readSpan(buf, i, limit, f.tid);
        break;
      case K_CAT:
        i = readHashedSpan(buf, i, limit, f.cat);
        break;
      case K_ID:
        i = readSpan(buf, i, limit, f.id);
        break;
      case K_SCOPE:
        i = readSpan(buf, i, limit, f.scope);
        break;
      case K_CNAME:
        i = readSpan(buf, i, limit, f.cname);
        break;
      case K_S: {
        if (c !== QUOTE) return FALLBACK;
        const end = plainStringEnd(buf, i, limit);
        if (end < 0) return FALLBACK;
        f.instantScope = end - i === 3 ? buf[i + 1] : 0;
        i = end;
        break;
      }
      case K_ARGS: {
        let end = c === LBRACE ? flatObjectEnd(buf, i, limit) : FALLBACK;
        if (end === AT_LIMIT) return FALLBACK;
        if (end === FALLBACK) {
          end = nestedValueEnd(buf, i, limit);
          lines += nested.lineBreaks;
        }
        if (end < 0) return FALLBACK;
        f.argsStart = i;
        f.argsEnd = end;
        let e = i + 1;
        while (e < end && isWsByte(buf[e])) e++;
        f.argsEmpty = c === LBRACE && e === end - 1;
        i = end;
        break;
      }
      case K_ID2:
      case K_BIND_ID:
      case K_FLOW_IN:
      case K_FLOW_OUT:
        // Rare shapes: the general reader takes them.
        return FALLBACK;
      default: {
        const end = scalarEnd(buf, i, limit);
        if (end === AT_LIMIT) return FALLBACK;
        if (end === FALLBACK) {
          i = nestedValueEnd(buf, i, limit);
          lines += nested.lineBreaks;
        } else i = end;
      }
    }
    if (i < 0) return FALLBACK;

    while (i < limit && isWsByte((c = buf[i]))) {
      if (c === LF) lines++;
      i++;
    }
    if (i >= limit) return FALLBACK;
    if (c === RBRACE) {
      f.end = i + 1;
      f.lineBreaks = lines;
      return i + 1;
    }
    if (c !== COMMA) return FALLBACK;
    i++;
    while (i < limit && isWsByte((c = buf[i]))) {
      if (c === LF) lines++;
      i++;
    }
    if (i >= limit) return FALLBACK;
  }
}

/**
 * The usual keys, recognised from their first bytes and closing quote (no scan, no call per
 * byte): length << 4 | key, or -1 for any other key (then scanned and looked up with `keyOf`).
 * buf[s, s + 5] must lie before the limit.
 */
function knownKey(buf: Uint8Array, s: number): number {
  const b0 = buf[s];
  const b1 = buf[s + 1];
  if (b1 === QUOTE) return b0 === 0x73 ? (1 << 4) | K_S : -1; // s (instants' scope)
  const b2 = buf[s + 2];
  if (b2 === QUOTE) {
    if (b0 === 0x70 && b1 === 0x68) return (2 << 4) | K_PH; // ph
    if (b0 === 0x74 && b1 === 0x73) return (2 << 4) | K_TS; // ts
    if (b0 === 0x69 && b1 === 0x64) return (2 << 4) | K_ID; // id
    return -1;
  }
  const b3 = buf[s + 3];
  if (b3 === QUOTE) {
    if (b1 === 0x69 && b2 === 0x64) {
      if (b0 === 0x70) return (3 << 4) | K_PID; // pid
      if (b0 === 0x74) return (3 << 4) | K_TID; // tid
    } else if (b0 === 0x63 && b1 === 0x61 && b2 === 0x74) return (3 << 4) | K_CAT; // cat
    else if (b0 === 0x64 && b1 === 0x75 && b2 === 0x72) return (3 << 4) | K_DUR; // dur
    return -1;
  }
  if (buf[s + 4] === QUOTE) {
    if (b0 === 0x6e && b1 === 0x61 && b2 === 0x6d && b3 === 0x65) return (4 << 4) | K_NAME; // name
    if (b0 === 0x61 && b1 === 0x72 && b2 === 0x67 && b3 === 0x73) return (4 << 4) | K_ARGS; // args
  }
  return -1;
}

/** End of the string at buf[i] ('"') when it has no escape and no control byte, else FALLBACK. */
function plainStringEnd(buf: Uint8Array, i: number, limit: number): number {
  for (let k = i + 1; k < limit; k++) {
    const b = buf[k];
    if (b === QUOTE) return k + 1;
    if (b === BACKSLASH || b < 0x20) return FALLBACK;
  }
  return FALLBACK;
}

/** End of the string at buf[i] ('"'), escapes passed over unread; FALLBACK at a control byte or the limit. */
function escapedStringEnd(buf: Uint8Array, i: number, limit: number): number {
  for (let k = i + 1; k < limit; ) {
    const b = buf[k];
    if (b === QUOTE) return k + 1;
    if (b < 0x20) return FALLBACK;
    k += b === BACKSLASH ? 2 : 1;
  }
  return FALLBACK;
}

/** `name` and `cat`: as `readSpan`, with the FNV-1a hash of a plain string's bytes in `field.hash`. */
function readHashedSpan(buf: Uint8Array, i: number, limit: number, field: SpanField): number {
  if (buf[i] !== QUOTE) return readSpan(buf, i, limit, field);
  let h = FNV_BASIS;
  for (let k = i + 1; k < limit; k++) {
    const b = buf[k];
    if (b === QUOTE) {
      field.kind = FieldKind.String;
      field.start = i + 1;
      field.end = k;
      field.escaped = false;
      field.hash = h | 0;
      return k + 1;
    }
    if (b === BACKSLASH) return readSpan(buf, i, limit, field);
    if (b < 0x20) return FALLBACK;
    h = Math.imul(h ^ b, FNV_PRIME);
  }
  return FALLBACK;
}

/** A string (escapes kept for the decoder) or a number field, as the general `readSpan`. */
function readSpan(buf: Uint8Array, i: number, limit: number, field: SpanField): number {
  const c = buf[i];
  if (c === QUOTE) {
    let escaped = false;
    let k = i + 1;
    for (;;) {
      if (k >= limit) return FALLBACK;
      const b = buf[k];
      if (b === QUOTE) break;
      if (b < 0x20) return FALLBACK;
      if (b === BACKSLASH) {
        escaped = true;
        k += 2;
      } else k++;
    }
    field.kind = FieldKind.String;
    field.start = i + 1;
    field.end = k;
    field.escaped = escaped;
    return k + 1;
  }
  if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
    // The integer is read while scanned; as `plainInteger`: at most 15 digits, nothing else.
    const from = c === MINUS ? i + 1 : i;
    let k = from;
    let v = 0;
    let d = 0;
    while (k < limit && (d = buf[k] - 0x30) >= 0 && d <= 9) {
      v = v * 10 + d;
      k++;
    }
    let int = k > from && k - from <= 15 ? (c === MINUS ? -v : v) : NaN;
    if (k < limit && isNumberByte(buf[k])) {
      int = NaN;
      while (k < limit && isNumberByte(buf[k])) k++;
    }
    if (k >= limit) return FALLBACK;
    field.kind = FieldKind.Number;
    field.start = i;
    field.end = k;
    field.int = int;
    return k;
  }
  return FALLBACK;
}

/**
 * End of a string, number or literal at buf[i] (as `skipValue` reads them); AT_LIMIT where it
 * runs into the limit (a literal cut there included), else FALLBACK.
 */
function scalarEnd(buf: Uint8Array, i: number, limit: number): number {
  if (i >= limit) return AT_LIMIT;
  const c = buf[i];
  if (c === QUOTE) {
    for (let k = i + 1; k < limit; k++) {
      const b = buf[k];
      if (b === QUOTE) return k + 1;
      if (b < 0x20) return FALLBACK;
      if (b === BACKSLASH) k++;
    }
    return AT_LIMIT;
  }
  if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
    let k = i + 1;
    while (k < limit && isNumberByte(buf[k])) k++;
    return k >= limit ? AT_LIMIT : k;
  }
  // true / false / null
  if (c === 0x74) return i + 4 > limit ? AT_LIMIT : buf[i + 1] === 0x72 && buf[i + 2] === 0x75 && buf[i + 3] === 0x65 ? i + 4 : FALLBACK;
  if (c === 0x66) {
    return i + 5 > limit ? AT_LIMIT : buf[i + 1] === 0x61 && buf[i + 2] === 0x6c && buf[i + 3] === 0x73 && buf[i + 4] === 0x65 ? i + 5 : FALLBACK;
  }
  if (c === 0x6e) return i + 4 > limit ? AT_LIMIT : buf[i + 1] === 0x75 && buf[i + 2] === 0x6c && buf[i + 3] === 0x6c ? i + 4 : FALLBACK;
  return FALLBACK;
}

/**
 * End of a flat object `{"k":scalar,...}` at buf[i] (no whitespace, no nesting); AT_LIMIT where
 * it runs into the limit, else FALLBACK.
 */
function flatObjectEnd(buf: Uint8Array, i: number, limit: number): number {
  let k = i + 1;
  if (k >= limit) return AT_LIMIT;
  if (buf[k] === RBRACE) return k + 1;
  for (;;) {
    if (buf[k] !== QUOTE) return FALLBACK;
    k = scalarEnd(buf, k, limit);
    if (k < 0) return k;
    if (k >= limit) return AT_LIMIT;
    if (buf[k] !== COLON) return FALLBACK;
    k = scalarEnd(buf, k + 1, limit);
    if (k < 0) return k;
    if (k >= limit) return AT_LIMIT;
    const b = buf[k];
    if (b === RBRACE) return k + 1;
    if (b !== COMMA) return FALLBACK;
    k++;
    if (k >= limit) return AT_LIMIT;
  }
}

/** Deepest nesting `nestedValueEnd` reads itself; deeper values take the general path. */
const NESTED_MAX_DEPTH = 64;
/** Open containers of `nestedValueEnd`: 1 object, 2 array. */
const nestedStack = new Uint8Array(NESTED_MAX_DEPTH + 1);
/** Line breaks in the whitespace of the last value `nestedValueEnd` read. */
const nested = { lineBreaks: 0 };

/**
 * End of any JSON value at buf[i] (nested `args` as Chrome and PyTorch write them), read in one
 * loop without recursion, calls per value or exceptions, counting its line breaks into
 * `nested.lineBreaks`; FALLBACK where `skipValue` would not simply succeed (bad JSON, the end of
 * the buffer) or nesting passes NESTED_MAX_DEPTH. What it accepts, `skipValue` accepts as the same
 * span (numbers as loosely: the run of number bytes).
 */
function nestedValueEnd(buf: Uint8Array, i: number, limit: number): number {
  let depth = 0;
  let lines = 0;
  let c = 0;
  // Each turn reads one value at buf[i], then what follows it in its container.
  for (;;) {
    if (i >= limit) return FALLBACK;
    c = buf[i];
    if (c === QUOTE) {
      i = escapedStringEnd(buf, i, limit);
      if (i === FALLBACK) return FALLBACK;
    } else if (c === LBRACE || c === LBRACKET) {
      if (depth === NESTED_MAX_DEPTH) return FALLBACK;
      const isObject = c === LBRACE;
      nestedStack[++depth] = isObject ? 1 : 2;
      i++;
      while (i < limit && (c = buf[i]) <= 0x20 && isWsByte(c)) {
        if (c === LF) lines++;
        i++;
      }
      if (i >= limit) return FALLBACK;
      if (c === (isObject ? RBRACE : RBRACKET)) {
        i++;
        depth--;
      } else {
        if (isObject) {
          i = objectKeyEnd(buf, i, limit);
          if (i < 0) return FALLBACK;
          lines += nested.lineBreaks;
        }
        continue;
      }
    } else if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
      i++;
      while (i < limit && isNumberByte(buf[i])) i++;
    } else {
      const end = scalarEnd(buf, i, limit);
      if (end < 0) return FALLBACK;
      i = end;
    }
    // After a value: close containers, or go on to the next element.
    for (;;) {
      if (depth === 0) {
        nested.lineBreaks = lines;
        return i < limit ? i : FALLBACK;
      }
      while (i < limit && (c = buf[i]) <= 0x20 && isWsByte(c)) {
        if (c === LF) lines++;
        i++;
      }
      if (i >= limit) return FALLBACK;
      const inObject = nestedStack[depth] === 1;
      if (c === (inObject ? RBRACE : RBRACKET)) {
        i++;
        depth--;
        continue;
      }
      if (c !== COMMA) return FALLBACK;
      i++;
      while (i < limit && (c = buf[i]) <= 0x20 && isWsByte(c)) {
        if (c === LF) lines++;
        i++;
      }
      if (inObject) {
        i = objectKeyEnd(buf, i, limit);
        if (i < 0) return FALLBACK;
        lines += nested.lineBreaks;
      }
      break;
    }
  }
}

/**
 * At a key of an object: past the key, the colon and the whitespace around it, to the value;
 * FALLBACK where that is not what follows. Line breaks passed in `nested.lineBreaks`.
 */
function objectKeyEnd(buf: Uint8Array, i: number, limit: number): number {
  if (i >= limit || buf[i] !== QUOTE) return FALLBACK;
  let k = escapedStringEnd(buf, i, limit);
  if (k === FALLBACK) return FALLBACK;
  let lines = 0;
  let c = 0;
  while (k < limit && (c = buf[k]) <= 0x20 && isWsByte(c)) {
    if (c === LF) lines++;
    k++;
  }
  if (k >= limit || c !== COLON) return FALLBACK;
  k++;
  while (k < limit && (c = buf[k]) <= 0x20 && isWsByte(c)) {
    if (c === LF) lines++;
    k++;
  }
  nested.lineBreaks = lines;
  return k;
}
