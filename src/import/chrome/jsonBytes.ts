/**
 * Byte-level JSON primitives over one contiguous buffer, for the streaming Chrome trace reader.
 * They work on UTF-8 bytes without building strings: each returns the index just past what it
 * scanned, or INCOMPLETE when the buffer ends first (the caller then waits for more bytes), and
 * throws `JsonSyntaxError` (with the buffer index) on bytes that cannot be JSON.
 */

/** Returned when the value continues past the end of the buffer. */
export const INCOMPLETE = -1;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
export const LBRACKET = 0x5b;
export const RBRACKET = 0x5d;
export const MINUS = 0x2d;

/** Deeper nesting than this is treated as malformed (and keeps recursion bounded). */
const MAX_DEPTH = 512;

export class JsonSyntaxError extends Error {
  /** Index in the buffer being scanned where the problem is. */
  readonly at: number;
  constructor(at: number, message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.at = at;
  }
}

export function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function skipWs(buf: Uint8Array, pos: number, limit: number): number {
  while (pos < limit) {
    const c = buf[pos];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    pos++;
  }
  return pos;
}

/** How a byte reads in a message. */
export function describeByte(c: number): string {
  if (c >= 0x21 && c < 0x7f) return `'${String.fromCharCode(c)}'`;
  if (c === 0x20) return 'a space';
  if (c === 0x0a) return 'a line break';
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

/** Set by `scanString`: whether the last string scanned holds an escape (then decode it with JSON.parse). */
export const stringScan = { escaped: false };

/** `pos` at the opening quote; returns the index after the closing quote. */
export function scanString(buf: Uint8Array, pos: number, limit: number): number {
  let i = pos + 1;
  let escaped = false;
  while (i < limit) {
    const c = buf[i];
    // One comparison for the common bytes (letters, digits above '\').
    if (c <= BACKSLASH) {
      if (c === QUOTE) {
        stringScan.escaped = escaped;
        return i + 1;
      }
      if (c === BACKSLASH) {
        escaped = true;
        i += 2;
        continue;
      }
      if (c < 0x20) throw new JsonSyntaxError(i, `${describeByte(c)} inside a string (unterminated string?)`);
    }
    i++;
  }
  return INCOMPLETE;
}

function isNumberByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === MINUS || c === 0x2b || c === 0x65 || c === 0x45;
}

/** `pos` at '-' or a digit; returns the index after the number (the number may continue past the buffer). */
export function scanNumber(buf: Uint8Array, pos: number, limit: number): number {
  let i = pos + 1;
  while (i < limit && isNumberByte(buf[i])) i++;
  return i === limit ? INCOMPLETE : i;
}

function scanLiteral(buf: Uint8Array, pos: number, limit: number, word: string): number {
  for (let k = 0; k < word.length; k++) {
    if (pos + k >= limit) return INCOMPLETE;
    if (buf[pos + k] !== word.charCodeAt(k)) {
      throw new JsonSyntaxError(pos + k, `unexpected ${describeByte(buf[pos + k])} (expected ${word})`);
    }
  }
  return pos + word.length;
}

/** Skips (and checks) any JSON value starting at or after `pos` (leading whitespace allowed). */
export function skipValue(buf: Uint8Array, pos: number, limit: number, depth = 0): number {
  pos = skipWs(buf, pos, limit);
  if (pos >= limit) return INCOMPLETE;
  const c = buf[pos];
  if (c === QUOTE) return scanString(buf, pos, limit);
  if (c === LBRACE) return skipObject(buf, pos, limit, depth + 1);
  if (c === LBRACKET) return skipArray(buf, pos, limit, depth + 1);
  if (c === MINUS || (c >= 0x30 && c <= 0x39)) return scanNumber(buf, pos, limit);
  if (c === 0x74) return scanLiteral(buf, pos, limit, 'true');
  if (c === 0x66) return scanLiteral(buf, pos, limit, 'false');
  if (c === 0x6e) return scanLiteral(buf, pos, limit, 'null');
  throw new JsonSyntaxError(pos, `unexpected ${describeByte(c)} where a value should start`);
}

function skipObject(buf: Uint8Array, pos: number, limit: number, depth: number): number {
  if (depth > MAX_DEPTH) throw new JsonSyntaxError(pos, `nesting deeper than ${MAX_DEPTH} levels`);
  let i = skipWs(buf, pos + 1, limit);
  if (i >= limit) return INCOMPLETE;
  if (buf[i] === RBRACE) return i + 1;
  for (;;) {
    if (buf[i] !== QUOTE) throw new JsonSyntaxError(i, `unexpected ${describeByte(buf[i])} where a key should start`);
    i = scanString(buf, i, limit);
    if (i === INCOMPLETE) return INCOMPLETE;
    i = skipWs(buf, i, limit);
    if (i >= limit) return INCOMPLETE;
    if (buf[i] !== COLON) throw new JsonSyntaxError(i, `unexpected ${describeByte(buf[i])} after a key (expected ':')`);
    i = skipValue(buf, i + 1, limit, depth);
    if (i === INCOMPLETE) return INCOMPLETE;
    i = skipWs(buf, i, limit);
    if (i >= limit) return INCOMPLETE;
    const c = buf[i];
    if (c === RBRACE) return i + 1;
    if (c !== COMMA) throw new JsonSyntaxError(i, `unexpected ${describeByte(c)} in an object (expected ',' or '}')`);
    i = skipWs(buf, i + 1, limit);
    if (i >= limit) return INCOMPLETE;
  }
}

function skipArray(buf: Uint8Array, pos: number, limit: number, depth: number): number {
  if (depth > MAX_DEPTH) throw new JsonSyntaxError(pos, `nesting deeper than ${MAX_DEPTH} levels`);
  let i = skipWs(buf, pos + 1, limit);
  if (i >= limit) return INCOMPLETE;
  if (buf[i] === RBRACKET) return i + 1;
  for (;;) {
    i = skipValue(buf, i, limit, depth);
    if (i === INCOMPLETE) return INCOMPLETE;
    i = skipWs(buf, i, limit);
    if (i >= limit) return INCOMPLETE;
    const c = buf[i];
    if (c === RBRACKET) return i + 1;
    if (c !== COMMA) throw new JsonSyntaxError(i, `unexpected ${describeByte(c)} in an array (expected ',' or ']')`);
    i++;
  }
}

/**
 * Deepest nesting of arrays and objects in the JSON text `json`, counted without recursion (deep
 * values must be measured before anything recursive, such as JSON.stringify, touches them).
 */
export function jsonDepth(json: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === LBRACE || c === LBRACKET) {
      if (++depth > max) max = depth;
    } else if (c === RBRACE || c === RBRACKET) depth--;
  }
  return max;
}

const utf8 = new TextDecoder('utf-8');

/** Text of buf[start, end): short ASCII runs without TextDecoder (much cheaper per call). */
export function decodeText(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= 128) {
    let i = start;
    while (i < end && buf[i] < 0x80) i++;
    // One flat string (not a rope built char by char: ropes are flattened again when hashed).
    if (i === end) return String.fromCharCode.apply(null, buf.subarray(start, end) as unknown as number[]);
  }
  return utf8.decode(buf.subarray(start, end));
}

/** The value of the string token buf[start, end) (quotes included), escapes resolved. */
export function decodeStringToken(buf: Uint8Array, start: number, end: number, escaped: boolean): string {
  if (!escaped) return decodeText(buf, start + 1, end - 1);
  try {
    return JSON.parse(decodeText(buf, start, end)) as string;
  } catch {
    throw new JsonSyntaxError(start, 'invalid escape sequence in a string');
  }
}

/** The pieces as one array (no copy for a single piece). */
export function joinBytes(pieces: readonly Uint8Array[], length: number): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
