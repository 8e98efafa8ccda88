/**
 * Recognises NVTXT from the first bytes: text (UTF-8, or UTF-16 with a BOM) whose first
 * meaningful lines are all comments, variable assignments, `@` definitions or calls of NVTXT
 * commands, with at least one definition or command call among them. Binary data (NUL bytes),
 * JSON and anything else fail fast.
 */
import { commandByName } from './commands.ts';
import { identEnd, isIdentStart, isSpace, skipSpace } from './lexer.ts';

/** Bytes examined: enough for dozens of lines, cheap to decode. */
const SNIFF_BYTES = 8 * 1024;
/** Meaningful (non-blank, non-comment) lines examined. */
const SNIFF_LINES = 32;

export function looksLikeNvtxt(head: Uint8Array): boolean {
  const size = Math.min(head.length, SNIFF_BYTES);
  if (size === 0) return false;
  const utf16 = size >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff));
  if (!utf16) for (let i = 0; i < size; i++) if (head[i] === 0) return false;
  const encoding = !utf16 ? 'utf-8' : head[0] === 0xff ? 'utf-16le' : 'utf-16be';
  const text = new TextDecoder(encoding).decode(head.subarray(0, size & (utf16 ? ~1 : ~0)));
  if (text.includes('\u0000')) return false;
  const lines = text.split('\n');
  // The last line may be cut short by the sniffing window: judge it only if the text ends there.
  const complete = size === head.length ? lines.length : lines.length - 1;
  let commands = 0;
  let seen = 0;
  for (let k = 0; k < complete && seen < SNIFF_LINES; k++) {
    const line = lines[k];
    const i = skipSpace(line, 0);
    if (i >= line.length) continue;
    const c = line.charCodeAt(i);
    if (c === 35 /* # */) continue;
    seen++;
    if (c === 64 /* @ */) {
      const start = skipSpace(line, i + 1);
      if (!startsWithCommand(line, start)) return false;
      commands++;
      continue;
    }
    if (c === 36 /* $ */) continue; // a call through a variable: plausible, proves nothing
    if (!isIdentStart(c)) return false;
    const end = identEnd(line, i);
    const next = skipSpace(line, end);
    if (next < line.length && line.charCodeAt(next) === 61 /* = */) continue;
    if (!startsWithCommand(line, i)) return false;
    commands++;
  }
  return commands > 0;
}

/** True if a known command name starts at `i`, followed by a comma, blanks or the line end. */
function startsWithCommand(line: string, i: number): boolean {
  const end = identEnd(line, i);
  if (end === i || commandByName(line.slice(i, end)) === undefined) return false;
  const next = skipSpace(line, end);
  return next >= line.length || line.charCodeAt(next) === 44 /* , */ || isSpace(line.charCodeAt(next));
}
