/**
 * Reads one trace event object from bytes into a reusable record of the fields nvtxview uses:
 * strings and `args` stay as byte spans (decoded later, only when needed), timestamps are parsed
 * exactly, everything else is skipped (but still checked to be JSON). No object per event.
 */
import { hashBytes } from '../bytesTable.ts';
import { parseMicros, type Micros } from './decimal.ts';
import {
  COLON,
  COMMA,
  INCOMPLETE,
  JsonSyntaxError,
  LBRACE,
  MINUS,
  QUOTE,
  RBRACE,
  describeByte,
  scanNumber,
  scanString,
  skipValue,
  skipWs,
  stringScan,
} from './jsonBytes.ts';

/** How a field was given. */
export const FieldKind = {
  Absent: 0,
  Number: 1,
  String: 2,
  /** Present but of a type that cannot be used (object, bool, unparseable number...). */
  Invalid: 3,
} as const;
type FieldKindCode = (typeof FieldKind)[keyof typeof FieldKind];

/** A string-or-number field kept as a byte span (string spans exclude the quotes). */
export class SpanField {
  kind: FieldKindCode = FieldKind.Absent;
  start = 0;
  end = 0;
  /** String with escape sequences: decode with JSON rules. */
  escaped = false;
  /** Integer value when kind is Number and the text is a plain integer, else NaN. */
  int = NaN;
  /** FNV-1a hash of the bytes of an unescaped string (set for `name` and `cat` only, for interning). */
  hash = 0;

  reset(): void {
    this.kind = FieldKind.Absent;
    this.escaped = false;
    this.int = NaN;
    this.hash = 0;
  }
}

export class EventFields {
  /** Buffer index of the object's '{' and just past its '}'. */
  start = 0;
  end = 0;
  /** The phase letter (char code), 0 when absent or longer than one letter. */
  ph = 0;
  /** Span of the phase string without quotes; phStart = -1 when absent. */
  phStart = -1;
  phEnd = -1;
  readonly name = new SpanField();
  readonly cat = new SpanField();
  readonly pid = new SpanField();
  readonly tid = new SpanField();
  readonly id = new SpanField();
  readonly scope = new SpanField();
  readonly cname = new SpanField();
  /** Flow v2 (`bind_id` with `flow_in` / `flow_out` on a slice): the flow id and the directions. */
  readonly bindId = new SpanField();
  flowIn = false;
  flowOut = false;
  /** Instant scope ("s"): 'g', 'p', 't' char code, 0 when absent. */
  instantScope = 0;
  hasTs: FieldKindCode = FieldKind.Absent;
  readonly ts: Micros = { us: 0, ns: 0 };
  hasDur: FieldKindCode = FieldKind.Absent;
  readonly dur: Micros = { us: 0, ns: 0 };
  /** Raw JSON span of `args` / `id2`; start = -1 when absent. */
  argsStart = -1;
  argsEnd = -1;
  /** True when args is exactly `{}` (nothing to show). */
  argsEmpty = true;
  id2Start = -1;
  id2End = -1;
  /** Line breaks inside the object when the parser counted them (the fast path), else -1. */
  lineBreaks = -1;

  reset(): void {
    this.ph = 0;
    this.phStart = -1;
    this.phEnd = -1;
    this.name.reset();
    this.cat.reset();
    this.pid.reset();
    this.tid.reset();
    this.id.reset();
    this.scope.reset();
    this.cname.reset();
    this.bindId.reset();
    this.flowIn = false;
    this.flowOut = false;
    this.instantScope = 0;
    this.hasTs = FieldKind.Absent;
    this.hasDur = FieldKind.Absent;
    this.argsStart = -1;
    this.argsEnd = -1;
    this.argsEmpty = true;
    this.id2Start = -1;
    this.id2End = -1;
    this.lineBreaks = -1;
  }
}

// Keys the reader understands (also read by the fast path, fastEvent.ts).
export const K_OTHER = 0;
export const K_PH = 1;
export const K_NAME = 2;
export const K_CAT = 3;
export const K_TS = 4;
export const K_DUR = 5;
export const K_PID = 6;
export const K_TID = 7;
export const K_ID = 8;
export const K_ID2 = 9;
export const K_ARGS = 10;
export const K_S = 11;
export const K_SCOPE = 12;
export const K_CNAME = 13;
export const K_BIND_ID = 14;
export const K_FLOW_IN = 15;
export const K_FLOW_OUT = 16;

/** The key buf[s, s + n) (no quotes, no escapes). */
export function keyOf(buf: Uint8Array, s: number, n: number): number {
  const c0 = buf[s];
  switch (n) {
    case 1:
      return c0 === 0x73 ? K_S : K_OTHER; // s
    case 2: {
      const c1 = buf[s + 1];
      if (c0 === 0x70 && c1 === 0x68) return K_PH; // ph
      if (c0 === 0x74 && c1 === 0x73) return K_TS; // ts
      if (c0 === 0x69 && c1 === 0x64) return K_ID; // id
      return K_OTHER;
    }
    case 3: {
      const c1 = buf[s + 1];
      const c2 = buf[s + 2];
      if (c1 === 0x69 && c2 === 0x64) {
        if (c0 === 0x70) return K_PID; // pid
        if (c0 === 0x74) return K_TID; // tid
        return K_OTHER;
      }
      if (c0 === 0x63 && c1 === 0x61 && c2 === 0x74) return K_CAT; // cat
      if (c0 === 0x64 && c1 === 0x75 && c2 === 0x72) return K_DUR; // dur
      if (c0 === 0x69 && c1 === 0x64 && c2 === 0x32) return K_ID2; // id2
      return K_OTHER;
    }
    case 4:
      if (c0 === 0x6e && buf[s + 1] === 0x61 && buf[s + 2] === 0x6d && buf[s + 3] === 0x65) return K_NAME;
      if (c0 === 0x61 && buf[s + 1] === 0x72 && buf[s + 2] === 0x67 && buf[s + 3] === 0x73) return K_ARGS;
      return K_OTHER;
    case 5:
      if (c0 === 0x73 && buf[s + 1] === 0x63 && buf[s + 2] === 0x6f && buf[s + 3] === 0x70 && buf[s + 4] === 0x65) return K_SCOPE;
      if (c0 === 0x63 && buf[s + 1] === 0x6e && buf[s + 2] === 0x61 && buf[s + 3] === 0x6d && buf[s + 4] === 0x65) return K_CNAME;
      return K_OTHER;
    case 7:
      if (c0 === 0x62 && bytesAre(buf, s, 'bind_id')) return K_BIND_ID;
      if (c0 === 0x66 && bytesAre(buf, s, 'flow_in')) return K_FLOW_IN;
      return K_OTHER;
    case 8:
      return c0 === 0x66 && bytesAre(buf, s, 'flow_out') ? K_FLOW_OUT : K_OTHER;
    default:
      return K_OTHER;
  }
}

/** Whether buf[s...] starts with the ASCII `text`. */
function bytesAre(buf: Uint8Array, s: number, text: string): boolean {
  for (let k = 0; k < text.length; k++) if (buf[s + k] !== text.charCodeAt(k)) return false;
  return true;
}

/**
 * Reads the event object at buf[pos] (which must be '{') into `f`. Returns the index just past
 * the object, or INCOMPLETE if the buffer ends inside it; throws JsonSyntaxError on bad JSON.
 */
export function parseEvent(buf: Uint8Array, pos: number, limit: number, f: EventFields): number {
  f.reset();
  f.start = pos;
  let i = skipWs(buf, pos + 1, limit);
  if (i >= limit) return INCOMPLETE;
  if (buf[i] === RBRACE) {
    f.end = i + 1;
    return i + 1;
  }
  for (;;) {
    if (buf[i] !== QUOTE) throw new JsonSyntaxError(i, `unexpected ${describeByte(buf[i])} where a key should start`);
    const keyEnd = scanString(buf, i, limit);
    if (keyEnd === INCOMPLETE) return INCOMPLETE;
    // Keys with escapes are never ones we read.
    const key = stringScan.escaped ? K_OTHER : keyOf(buf, i + 1, keyEnd - i - 2);
    i = skipWs(buf, keyEnd, limit);
    if (i >= limit) return INCOMPLETE;
    if (buf[i] !== COLON) throw new JsonSyntaxError(i, `unexpected ${describeByte(buf[i])} after a key (expected ':')`);
    i = skipWs(buf, i + 1, limit);
    if (i >= limit) return INCOMPLETE;
    i = readValue(buf, i, limit, key, f);
    if (i === INCOMPLETE) return INCOMPLETE;
    i = skipWs(buf, i, limit);
    if (i >= limit) return INCOMPLETE;
    const c = buf[i];
    if (c === RBRACE) {
      f.end = i + 1;
      return i + 1;
    }
    if (c !== COMMA) throw new JsonSyntaxError(i, `unexpected ${describeByte(c)} in an event (expected ',' or '}')`);
    i = skipWs(buf, i + 1, limit);
    if (i >= limit) return INCOMPLETE;
  }
}

function readValue(buf: Uint8Array, i: number, limit: number, key: number, f: EventFields): number {
  const c = buf[i];
  switch (key) {
    case K_PH: {
      if (c !== QUOTE) return skipValue(buf, i, limit);
      const end = scanString(buf, i, limit);
      if (end === INCOMPLETE) return INCOMPLETE;
      f.phStart = i + 1;
      f.phEnd = end - 1;
      f.ph = end - i === 3 ? buf[i + 1] : 0;
      return end;
    }
    case K_TS:
    case K_DUR: {
      const m = key === K_TS ? f.ts : f.dur;
      let end: number;
      let ok: boolean;
      if (c === QUOTE) {
        // Some writers quote numbers.
        end = scanString(buf, i, limit);
        if (end === INCOMPLETE) return INCOMPLETE;
        ok = parseMicros(buf, i + 1, end - 1, m);
      } else if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
        end = scanNumber(buf, i, limit);
        if (end === INCOMPLETE) return INCOMPLETE;
        ok = parseMicros(buf, i, end, m);
      } else {
        end = skipValue(buf, i, limit);
        ok = false;
      }
      const kind = ok ? FieldKind.Number : FieldKind.Invalid;
      if (key === K_TS) f.hasTs = kind;
      else f.hasDur = kind;
      return end;
    }
    case K_NAME:
      return readHashedSpan(buf, i, limit, f.name);
    case K_CAT:
      return readHashedSpan(buf, i, limit, f.cat);
    case K_PID:
      return readSpan(buf, i, limit, f.pid);
    case K_TID:
      return readSpan(buf, i, limit, f.tid);
    case K_ID:
      return readSpan(buf, i, limit, f.id);
    case K_SCOPE:
      return readSpan(buf, i, limit, f.scope);
    case K_CNAME:
      return readSpan(buf, i, limit, f.cname);
    case K_BIND_ID:
      return readSpan(buf, i, limit, f.bindId);
    case K_FLOW_IN:
    case K_FLOW_OUT: {
      const end = skipValue(buf, i, limit);
      if (end === INCOMPLETE) return INCOMPLETE;
      // Only the literal true turns a direction on.
      if (c === 0x74) {
        if (key === K_FLOW_IN) f.flowIn = true;
        else f.flowOut = true;
      }
      return end;
    }
    case K_S: {
      if (c !== QUOTE) return skipValue(buf, i, limit);
      const end = scanString(buf, i, limit);
      if (end === INCOMPLETE) return INCOMPLETE;
      f.instantScope = end - i === 3 ? buf[i + 1] : 0;
      return end;
    }
    case K_ARGS: {
      const end = skipValue(buf, i, limit);
      if (end === INCOMPLETE) return INCOMPLETE;
      f.argsStart = i;
      f.argsEnd = end;
      f.argsEmpty = c === LBRACE && skipWs(buf, i + 1, end) === end - 1;
      return end;
    }
    case K_ID2: {
      const end = skipValue(buf, i, limit);
      if (end === INCOMPLETE) return INCOMPLETE;
      f.id2Start = i;
      f.id2End = end;
      return end;
    }
    default:
      return skipValue(buf, i, limit);
  }
}

/** As `readSpan`, with the hash of an unescaped string. */
function readHashedSpan(buf: Uint8Array, i: number, limit: number, field: SpanField): number {
  const end = readSpan(buf, i, limit, field);
  if (end !== INCOMPLETE && field.kind === FieldKind.String && !field.escaped) field.hash = hashBytes(buf, field.start, field.end);
  return end;
}

/** A string (span without quotes) or a number (span and, when a plain integer, its value). */
function readSpan(buf: Uint8Array, i: number, limit: number, field: SpanField): number {
  const c = buf[i];
  if (c === QUOTE) {
    const end = scanString(buf, i, limit);
    if (end === INCOMPLETE) return INCOMPLETE;
    field.kind = FieldKind.String;
    field.start = i + 1;
    field.end = end - 1;
    field.escaped = stringScan.escaped;
    return end;
  }
  if (c === MINUS || (c >= 0x30 && c <= 0x39)) {
    const end = scanNumber(buf, i, limit);
    if (end === INCOMPLETE) return INCOMPLETE;
    field.kind = FieldKind.Number;
    field.start = i;
    field.end = end;
    field.int = plainInteger(buf, i, end);
    return end;
  }
  const end = skipValue(buf, i, limit);
  if (end === INCOMPLETE) return INCOMPLETE;
  field.kind = FieldKind.Invalid;
  field.start = i;
  field.end = end;
  return end;
}

/** The value of an optionally signed run of at most 15 digits, else NaN. */
export function plainInteger(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = buf[i] === MINUS;
  if (negative) i++;
  if (i === end || end - i > 15) return NaN;
  let v = 0;
  for (; i < end; i++) {
    const d = buf[i] - 0x30;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return negative ? -v : v;
}
