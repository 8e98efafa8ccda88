/**
 * The three numbers the CUDA model needs from a Kineto event's `args` (`correlation`, `device`,
 * `stream`), read from the bytes without parsing the whole object: a trace has one such event per
 * kernel and API call, and `JSON.parse` of each doubled the decoding time. The args bytes stay the
 * event's payload as they are.
 */
import { COLON, COMMA, INCOMPLETE, LBRACE, QUOTE, RBRACE, scanNumber, scanString, skipValue, skipWs, stringScan } from './jsonBytes.ts';

export interface KinetoArgs {
  correlation: number | undefined;
  device: number | undefined;
  stream: number | undefined;
}

const KEYS: [text: string, field: keyof KinetoArgs][] = [
  ['correlation', 'correlation'],
  ['device', 'device'],
  ['stream', 'stream'],
];

function keyField(buf: Uint8Array, s: number, e: number): keyof KinetoArgs | undefined {
  for (const [text, field] of KEYS) {
    if (e - s !== text.length) continue;
    let k = 0;
    while (k < text.length && buf[s + k] === text.charCodeAt(k)) k++;
    if (k === text.length) return field;
  }
  return undefined;
}

/** Fills `out` from the args object at buf[start, end) (the span the event reader found). */
export function readKinetoArgs(buf: Uint8Array, start: number, end: number, out: KinetoArgs): KinetoArgs {
  out.correlation = out.device = out.stream = undefined;
  if (start < 0 || buf[start] !== LBRACE) return out;
  let i = skipWs(buf, start + 1, end);
  while (i < end && buf[i] === QUOTE) {
    const keyEnd = scanString(buf, i, end);
    if (keyEnd === INCOMPLETE) return out;
    const field = stringScan.escaped ? undefined : keyField(buf, i + 1, keyEnd - 1);
    i = skipWs(buf, keyEnd, end);
    if (buf[i] !== COLON) return out;
    i = skipWs(buf, i + 1, end);
    const c = buf[i];
    const valueEnd = field !== undefined && (c === 0x2d || (c >= 0x30 && c <= 0x39)) ? scanNumber(buf, i, end) : skipValue(buf, i, end);
    if (valueEnd === INCOMPLETE || valueEnd < 0) return out;
    if (field !== undefined && (c === 0x2d || (c >= 0x30 && c <= 0x39))) {
      let n = 0;
      let k = i;
      let whole = true;
      if (c === 0x2d) whole = false; // negative ids are not ids
      for (; k < valueEnd && whole; k++) {
        const d = buf[k] - 0x30;
        if (d < 0 || d > 9) whole = false;
        else n = n * 10 + d;
      }
      if (whole && Number.isSafeInteger(n)) out[field] = n;
    }
    i = skipWs(buf, valueEnd, end);
    if (buf[i] === COMMA) i = skipWs(buf, i + 1, end);
    else if (buf[i] === RBRACE) break;
    else return out;
  }
  return out;
}
