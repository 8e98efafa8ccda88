/**
 * Mutations of valid captures: byte-level ones for every format, and text-level ones for the text
 * formats that know where numbers, lines and nesting are (huge and non-finite numbers, deleted,
 * repeated and moved lines, deep nesting, unmatched ends, hostile strings). Each takes the case's
 * seeded `Random`, so a case number always gives the same bytes.
 */
import type { Random } from '../gen/random.ts';

export type Mutator = (input: Uint8Array, rnd: Random, scale: MutationScale) => Uint8Array;

/** How big the crafted parts may get: small in CI, up to what the issue measured in long runs. */
export interface MutationScale {
  /** Deepest nesting a mutation builds (NVTXT pushes, JSON arrays). */
  maxDepth: number;
}

const INTERESTING_INTS = [0, 1, -1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff];

/** Number texts that are out of range, non-finite when parsed, or at an edge. */
export const EXTREME_NUMBERS = [
  '1e309',
  '-1e309',
  '1e308',
  '-1e308',
  '9223372036854775807',
  '-9223372036854775808',
  '18446744073709551616',
  '99999999999999999999999',
  '-1',
  '0',
  '4.5e15',
  '1e-400',
  '0.5',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x7FFFFFFFFFFFFFFF',
  '0xFFFFFFFFFFFFFFFF',
];

/** Strings that must come out escaped and intact (or be refused), never interpreted. */
export const HOSTILE_STRINGS = [
  '<img src=x onerror=alert(1)>',
  '</script><script>alert(1)</script>',
  '\u001b[31mred\u001b[0m\u001b]0;title\u0007',
  '=HYPERLINK("http://x","y")',
  '+1+1',
  '\u202e\u0000\ufffd',
  'a'.repeat(70_000),
];

// ---------------------------------------------------------------- bytes

function flipBits(input: Uint8Array, rnd: Random): Uint8Array {
  const out = input.slice();
  const flips = rnd.int(1, 8);
  for (let k = 0; k < flips && out.length > 0; k++) out[rnd.int(0, out.length - 1)] ^= 1 << rnd.int(0, 7);
  return out;
}

function setInteresting(input: Uint8Array, rnd: Random): Uint8Array {
  if (input.length < 8) return flipBits(input, rnd);
  const out = input.slice();
  const view = new DataView(out.buffer);
  const at = rnd.int(0, out.length - 8);
  const width = rnd.pick([1, 2, 4, 8]);
  const v = rnd.pick(INTERESTING_INTS);
  const little = rnd.chance(0.7);
  if (width === 1) out[at] = v & 0xff;
  else if (width === 2) view.setUint16(at, v & 0xffff, little);
  else if (width === 4) view.setUint32(at, v >>> 0, little);
  else view.setFloat64(at, rnd.pick([NaN, Infinity, -Infinity, 1e308, -1e308, 2 ** 63, v]), little);
  return out;
}

function cut(input: Uint8Array, rnd: Random): Uint8Array {
  return input.slice(0, rnd.int(0, Math.max(0, input.length - 1)));
}

function deleteSpan(input: Uint8Array, rnd: Random): Uint8Array {
  if (input.length < 2) return input;
  const a = rnd.int(0, input.length - 1);
  const b = Math.min(input.length, a + rnd.int(1, Math.min(4096, input.length)));
  const out = new Uint8Array(input.length - (b - a));
  out.set(input.subarray(0, a));
  out.set(input.subarray(b), a);
  return out;
}

function repeatSpan(input: Uint8Array, rnd: Random): Uint8Array {
  if (input.length < 2) return input;
  const a = rnd.int(0, input.length - 1);
  const b = Math.min(input.length, a + rnd.int(1, Math.min(4096, input.length)));
  const times = rnd.int(1, 4);
  const span = input.subarray(a, b);
  const out = new Uint8Array(input.length + span.length * times);
  out.set(input.subarray(0, b));
  for (let k = 0; k < times; k++) out.set(span, b + k * span.length);
  out.set(input.subarray(b), b + times * span.length);
  return out;
}

function insertRandom(input: Uint8Array, rnd: Random): Uint8Array {
  const at = rnd.int(0, input.length);
  const junk = new Uint8Array(rnd.int(1, 64));
  for (let k = 0; k < junk.length; k++) junk[k] = rnd.int(0, 255);
  const out = new Uint8Array(input.length + junk.length);
  out.set(input.subarray(0, at));
  out.set(junk, at);
  out.set(input.subarray(at), at + junk.length);
  return out;
}

export const byteMutators: readonly Mutator[] = [flipBits, flipBits, setInteresting, setInteresting, cut, deleteSpan, repeatSpan, insertRandom];

// ---------------------------------------------------------------- text

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** A mutator over the text of a file (decoded as UTF-8; invalid bytes become U+FFFD). */
function textMutator(edit: (text: string, rnd: Random, scale: MutationScale) => string): Mutator {
  return (input, rnd, scale) => encoder.encode(edit(decoder.decode(input), rnd, scale));
}

/** Start and end of a random match of `pattern` (global), or undefined. */
function randomMatch(text: string, pattern: RegExp, rnd: Random): [number, number] | undefined {
  // Search from a random place, wrapping once, so that matches anywhere are picked.
  const from = rnd.int(0, Math.max(0, text.length - 1));
  pattern.lastIndex = from;
  let m = pattern.exec(text);
  if (!m) {
    pattern.lastIndex = 0;
    m = pattern.exec(text);
  }
  return m ? [m.index, m.index + m[0].length] : undefined;
}

const NUMBER = /-?\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\b/g;

export const extremeNumber = textMutator((text, rnd) => {
  const at = randomMatch(text, NUMBER, rnd);
  return at ? text.slice(0, at[0]) + rnd.pick(EXTREME_NUMBERS) + text.slice(at[1]) : text;
});

function lines(text: string): string[] {
  return text.split('\n');
}

export const deleteLines = textMutator((text, rnd) => {
  const ls = lines(text);
  const at = rnd.int(0, ls.length - 1);
  ls.splice(at, rnd.int(1, 20));
  return ls.join('\n');
});

export const duplicateLines = textMutator((text, rnd) => {
  const ls = lines(text);
  const at = rnd.int(0, ls.length - 1);
  const span = ls.slice(at, at + rnd.int(1, 20));
  ls.splice(rnd.int(0, ls.length), 0, ...span);
  return ls.join('\n');
});

/** Moves lines elsewhere: events out of time order, ends before their starts. */
export const moveLines = textMutator((text, rnd) => {
  const ls = lines(text);
  for (let k = rnd.int(1, 10); k > 0; k--) {
    const [line] = ls.splice(rnd.int(0, ls.length - 1), 1);
    ls.splice(rnd.int(0, ls.length), 0, line);
  }
  return ls.join('\n');
});

/** Replaces the content of a quoted string with a hostile one. */
export const hostileString = textMutator((text, rnd) => {
  const at = randomMatch(text, /"[^"\n\\]{1,40}"/g, rnd);
  if (!at) return text;
  const s = rnd.pick(HOSTILE_STRINGS);
  return text.slice(0, at[0]) + JSON.stringify(s) + text.slice(at[1]);
});

/** Cuts the text at a line boundary or mid-line. */
export const cutText = textMutator((text, rnd) => text.slice(0, rnd.int(0, text.length)));

export const textMutators: readonly Mutator[] = [extremeNumber, extremeNumber, deleteLines, duplicateLines, moveLines, hostileString, cutText];

// ---------------------------------------------------------------- NVTXT

/**
 * Deep pushes on one thread (after a random line), then all, some or none of their pops, with
 * times that are in order, all equal, or descending.
 */
export const nvtxtDeepPushes = textMutator((text, rnd, scale) => {
  const ls = lines(text);
  const m = /^RangePush, (\d+), (\d+)/m.exec(text);
  const tid = m ? m[2] : '1';
  const t0 = m ? Number(m[1]) : 1000;
  const depth = rnd.int(1, scale.maxDepth);
  const order = rnd.pick(['up', 'same', 'down'] as const);
  const time = (k: number) => (order === 'up' ? t0 + k : order === 'same' ? t0 : t0 + 2 * depth - k);
  const out: string[] = [];
  // Explicit arguments, whatever the file defined: the default definition may differ.
  out.push('@RangePush, Time, ThreadId, Message', '@RangePop, Time, ThreadId');
  for (let k = 0; k < depth; k++) out.push(`RangePush, ${time(k)}, ${tid}, "deep${k}"`);
  const pops = rnd.pick([0, depth, rnd.int(0, depth), depth + rnd.int(1, 5)]);
  for (let k = 0; k < pops; k++) out.push(`RangePop, ${time(depth + k)}, ${tid}`);
  const at = rnd.int(0, ls.length);
  // Joined, not spliced: 70,000 lines spread as arguments overflow the stack.
  return [...ls.slice(0, at), ...out, ...restoreDefinitions(ls, at), ...ls.slice(at)].join('\n');
});

/** The file's own definitions in force at line `at`, to restore after an inserted block. */
function restoreDefinitions(ls: readonly string[], at: number): string[] {
  const last = new Map<string, string>();
  for (let k = 0; k < at; k++) {
    const m = /^@(\w+)/.exec(ls[k]);
    if (m) last.set(m[1], ls[k]);
  }
  return [last.get('RangePush') ?? '@RangePush, Message', last.get('RangePop') ?? '@RangePop', last.get('RangeStartEnd') ?? '@RangeStartEnd, Message'];
}

/** Pops with nothing open, and ranges that end before they start. */
export const nvtxtUnmatched = textMutator((text, rnd) => {
  const ls = lines(text);
  const m = /^RangePush, (\d+), (\d+)/m.exec(text);
  const tid = m ? m[2] : '1';
  const t = m ? Number(m[1]) : 1000;
  const extra = rnd.chance(0.5)
    ? ['@RangePop, Time, ThreadId', ...Array.from({ length: rnd.int(1, 50) }, (_, k) => `RangePop, ${t + k}, ${tid}`)]
    : ['@RangeStartEnd, Start, End, ThreadId, Message', `RangeStartEnd, ${t + 100}, ${t}, ${tid}, "backwards"`];
  const at = rnd.int(0, ls.length);
  ls.splice(at, 0, ...extra, ...restoreDefinitions(ls, at));
  return ls.join('\n');
});

// ---------------------------------------------------------------- Chrome JSON

/** Nests `args` (or a new `otherData`) `depth` levels deep in arrays or objects. */
export const chromeDeepJson = textMutator((text, rnd, scale) => {
  const depth = rnd.int(1, scale.maxDepth);
  const [open, close] = rnd.chance(0.5) ? ['[', ']'] : ['{"a":', '}'];
  const value = open.repeat(depth) + '1' + close.repeat(depth);
  if (rnd.chance(0.3)) return text.replace('{"traceEvents":', `{"otherData":${value},"traceEvents":`);
  const at = randomMatch(text, /"args":\{/g, rnd);
  if (!at) return text;
  return `${text.slice(0, at[0])}"args":{"deep":${value},${text.slice(at[1])}`;
});

/** Turns complete events into begin or end events, and async begins into ends: unmatched phases. */
export const chromePhases = textMutator((text, rnd) => {
  let out = text;
  for (let k = rnd.int(1, 20); k > 0; k--) {
    const at = randomMatch(out, /"ph":"[XBEbeiInN]"/g, rnd);
    if (!at) break;
    out = `${out.slice(0, at[0])}"ph":"${rnd.pick(['B', 'E', 'b', 'e', 'X', 'n'])}"${out.slice(at[1])}`;
  }
  return out;
});

/** A ts or dur replaced by an extreme value. */
export const chromeTimes = textMutator((text, rnd) => {
  const at = randomMatch(text, /"(?:ts|dur)":-?[0-9.eE+-]+/g, rnd);
  if (!at) return text;
  const key = text.slice(at[0], text.indexOf(':', at[0]) + 1);
  return text.slice(0, at[0]) + key + rnd.pick(EXTREME_NUMBERS.filter((n) => !n.startsWith('0x') && !/^[A-Z]/i.test(n))) + text.slice(at[1]);
});

/** Applies 1 to 4 mutators picked from `pool`. */
export function mutate(input: Uint8Array, pool: readonly Mutator[], rnd: Random, scale: MutationScale): Uint8Array {
  let out = input;
  for (let k = rnd.int(1, 4); k > 0; k--) out = rnd.pick(pool)(out, rnd, scale);
  return out;
}
