/**
 * Seeded mutation fuzzing of the Chrome importer (issue 16): traces from the generator, a
 * hand-written trace with every phase, and windows of a real PyTorch trace, mutated event by event
 * (extreme and non-finite numbers, overlapping and out-of-order ranges, unmatched ends, odd ids,
 * deep args) and byte by byte (flips, cuts, repeats, truncation), in every layout (one line, one
 * event per line, indented). Each case must load through `loadModel` or fail with a load error,
 * within a time bound, into a model that keeps its rules (testkit/models/invariants.ts).
 *
 * CI runs a few hundred cases. A long run, saving reproducers of failures:
 *   CHROME_FUZZ_CASES=100000 CHROME_FUZZ_SEED=7 CHROME_FUZZ_OUT=/tmp/fuzz npx vitest run src/import/chrome/chrome.fuzz.test.ts
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromeJsonPieces } from '../../../testkit/gen/chromeJson.ts';
import { Random } from '../../../testkit/gen/random.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import { LoadFailed, loadModel, memorySource } from '../pipeline.ts';

const CASES = Number(process.env.CHROME_FUZZ_CASES ?? 300);
const SEED = Number(process.env.CHROME_FUZZ_SEED ?? 1);
const OUT = process.env.CHROME_FUZZ_OUT;
/** A case's bound: valid seeds of these sizes load in a few ms; a hang is orders of magnitude more. */
const CASE_LIMIT_MS = Number(process.env.CHROME_FUZZ_LIMIT_MS ?? 5000);
const PYTORCH_TRACE = '../shared/fixtures/pytorch/cnn-h100-torch2.11.json';

type Event = Record<string, unknown>;
/** A number written as raw JSON text (JSON.stringify cannot write 1e309). */
const raw = (text: string) => `\u0000raw:${text}\u0000`;

/** Every phase and shape the importer reads, in a few lines. */
const HAND_WRITTEN: Event[] = [
  { name: 'process_name', ph: 'M', pid: 1, tid: 0, args: { name: 'proc' } },
  { name: 'thread_name', ph: 'M', pid: 1, tid: 2, args: { name: 'main' } },
  { name: 'thread_sort_index', ph: 'M', pid: 1, tid: 2, args: { sort_index: 3 } },
  { name: 'outer', ph: 'B', pid: 1, tid: 2, ts: 10, args: { k: { deep: [1, 2] } } },
  { name: 'inner', ph: 'B', pid: 1, tid: 2, ts: 11 },
  { ph: 'E', pid: 1, tid: 2, ts: 12 },
  { ph: 'E', pid: 1, tid: 2, ts: 20 },
  { name: 'x1', ph: 'X', pid: 1, tid: 2, ts: 21, dur: 5, cat: 'c' },
  { name: 'x2', ph: 'X', pid: 1, tid: 2, ts: 22, dur: 2.5, cname: 'good' },
  { name: 'x3', ph: 'X', pid: 1, tid: 3, ts: 1.0005, dur: 0.0015 },
  { name: 'req', ph: 'b', cat: 'net', id: '0x1', pid: 1, tid: 2, ts: 13 },
  { name: 'sub', ph: 'b', cat: 'net', id: '0x1', pid: 1, tid: 2, ts: 14 },
  { name: 'sub', ph: 'e', cat: 'net', id: '0x1', pid: 1, tid: 2, ts: 15 },
  { name: 'req', ph: 'e', cat: 'net', id: '0x1', pid: 1, tid: 2, ts: 30 },
  { name: 'legacy', ph: 'S', cat: 'net', id: 7, pid: 1, tid: 2, ts: 16 },
  { name: 'legacy', ph: 'F', cat: 'net', id: 7, pid: 1, tid: 2, ts: 17 },
  { name: 'scoped', ph: 'b', cat: 'io', id2: { local: '0x2' }, pid: 1, tid: 2, ts: 18 },
  { name: 'scoped', ph: 'e', cat: 'io', id2: { local: '0x2' }, pid: 1, tid: 2, ts: 19 },
  { name: 'mark', ph: 'i', s: 'g', pid: 1, tid: 2, ts: 24 },
  { name: 'pmark', ph: 'I', s: 'p', pid: 1, tid: 2, ts: 25 },
  { name: 'amark', ph: 'n', cat: 'net', id: 3, pid: 1, tid: 2, ts: 26 },
  { name: 'mem', ph: 'C', pid: 1, ts: 27, args: { heap: 10, stack: '2' } },
  { name: 'mem', ph: 'C', pid: 1, ts: 28, args: { heap: null } },
  { name: 'flow', ph: 's', id: 1, pid: 1, tid: 2, ts: 21 },
  { name: 'flow', ph: 'f', id: 1, pid: 1, tid: 3, ts: 23, bp: 'e' },
  { name: 'str', ph: 'X', pid: 'p', tid: 't', ts: '29', dur: '1' },
];

const NUMBERS = ['-1e308', '1e308', '1e309', '-1e309', '-1', '0', '1e15', '9007199254740993', '0.0005', '2.5e-3', '1E3', '-0', '123456789012345678901234567890', '"12"', '"x"', 'null', 'true', '[]', '{}'];
const PHASES = 'BEXiIRCbenSFTpMstfPONDVvcxB'.split('');
const NAMES = ['', 'a', 'outer', 'inner', 'req', 'sub', '\u0000', '"quoted"', '<img src=x onerror=alert(1)>', 'ü\u2028', 'x'.repeat(300)];

function parseSeed(text: string): { events: Event[]; wrapper: Record<string, unknown> } {
  const doc = JSON.parse(text) as unknown;
  if (Array.isArray(doc)) return { events: doc as Event[], wrapper: {} };
  const { traceEvents, ...rest } = doc as { traceEvents: Event[] };
  return { events: traceEvents, wrapper: rest };
}

/** A value nested `depth` levels deep, as raw JSON text (too deep for JSON.stringify to write). */
function nested(rnd: Random, depth: number): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const array = rnd.chance(0.5);
    open += array ? '[' : '{"k":';
    close = (array ? ']' : '}') + close;
  }
  return raw(`${open}1${close}`);
}

/** One event-level mutation, in place. */
function mutateEvents(rnd: Random, events: Event[], wrapper: Record<string, unknown>): void {
  if (events.length === 0) {
    events.push({ ...rnd.pick(HAND_WRITTEN) });
    return;
  }
  const i = rnd.int(0, events.length - 1);
  const e = events[i];
  switch (rnd.int(0, 15)) {
    case 0:
      events.splice(i, rnd.int(1, 5));
      break;
    case 1:
      events.splice(i, 0, ...events.slice(i, i + rnd.int(1, 4)).map((x) => ({ ...x })));
      break;
    case 2: {
      // Shuffle a window: out-of-order B/E and X.
      const j = Math.min(events.length, i + rnd.int(2, 12));
      const w = events.slice(i, j);
      for (let k = w.length - 1; k > 0; k--) {
        const r = rnd.int(0, k);
        [w[k], w[r]] = [w[r], w[k]];
      }
      events.splice(i, w.length, ...w);
      break;
    }
    case 3:
      e.ts = raw(rnd.pick(NUMBERS));
      break;
    case 4:
      e.dur = raw(rnd.pick(NUMBERS));
      break;
    case 5:
      if (rnd.chance(0.2)) delete e.ph;
      else e.ph = rnd.pick(PHASES);
      break;
    case 6: {
      // Partial overlap on one thread: move a range's start into another's.
      const other = events[rnd.int(0, events.length - 1)];
      if (typeof other.ts === 'number') {
        e.ts = other.ts + rnd.int(0, 20) * (typeof other.dur === 'number' ? other.dur / 10 : 1);
        e.tid = other.tid;
        e.pid = other.pid;
        if (typeof e.dur === 'number' || rnd.chance(0.5)) e.dur = rnd.int(0, 100) / 3;
      }
      break;
    }
    case 7:
      events.splice(i, 0, { ph: rnd.pick(['E', 'e', 'F']), name: rnd.pick(NAMES), cat: e.cat, id: e.id, pid: e.pid, tid: e.tid, ts: (typeof e.ts === 'number' ? e.ts : 0) + rnd.int(-5, 5) });
      break;
    case 8:
      e.name = rnd.pick(NAMES);
      break;
    case 9:
      e.id = rnd.pick([0, 1, '0x1', '0x2', '', null, 1.5, { a: 1 }, '1e309']);
      if (rnd.chance(0.3)) e.id2 = rnd.pick([{ local: 1 }, { global: '0x1' }, {}, 'x']);
      break;
    case 10:
      e.args = nested(rnd, rnd.chance(0.1) ? rnd.int(500, 700) : rnd.int(1, 40));
      break;
    case 11:
      e[rnd.pick(['pid', 'tid'])] = rnd.pick([0, -1, 2 ** 53, 1.5, 'str', '', null, raw('1e309'), { a: 1 }]);
      break;
    case 12:
      wrapper[rnd.pick(['otherData', 'metadata', 'deviceProperties', 'unknownKey'])] = nested(rnd, rnd.int(1, rnd.chance(0.2) ? 5000 : 80));
      break;
    case 13:
      if (e.ph === 'C') e.args = { [rnd.pick(['v', 'value', ''])]: raw(rnd.pick(NUMBERS)) };
      else e.ts = (typeof e.ts === 'number' ? e.ts : 0) + rnd.pick([-1e6, -1, 1e-4, 1e6]);
      break;
    case 14:
      // Many copies of a bad event (the error path at scale).
      for (let k = rnd.int(5, 60); k > 0; k--) events.splice(rnd.int(0, events.length), 0, { ...e, ts: raw(rnd.pick(NUMBERS)) });
      break;
    default:
      e.s = rnd.pick(['g', 'p', 't', 'x', 1]);
  }
}

function serialize(rnd: Random, events: Event[], wrapper: Record<string, unknown>): string {
  const layout = rnd.int(0, 2);
  const eventTexts = events.map((e) => JSON.stringify(e, null, layout === 2 ? 1 : undefined));
  const body = eventTexts.join(layout === 0 ? ',' : ',\n');
  let text: string;
  if (rnd.chance(0.2) && Object.keys(wrapper).length === 0) text = `[${layout === 0 ? '' : '\n'}${body}${rnd.chance(0.5) ? ']' : ','}`;
  else {
    const rest = Object.entries(wrapper).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`);
    text = `{"traceEvents":[${body}]${rest.join('')}}`;
  }
  return text.replace(/"\\u0000raw:(.*?)\\u0000"/g, (_, t: string) => t.replace(/\\"/g, '"'));
}

const BYTE_TOKENS = ['1e309', '-1e308', '[[[[[[[[', '{"a":', '"', '\\', ',', '}', ']', '\u00ff', '\n', 'null', '{"ph":"E"}'];

/** Byte-level damage: flips, cuts, repeats, insertions, truncation. */
function mutateBytes(rnd: Random, bytes: Uint8Array): Uint8Array {
  let b = bytes;
  for (let n = rnd.int(1, 4); n > 0 && b.length > 0; n--) {
    const at = rnd.int(0, b.length - 1);
    switch (rnd.int(0, 4)) {
      case 0: {
        b = b.slice();
        b[at] ^= 1 << rnd.int(0, 7);
        break;
      }
      case 1:
        b = concat(b.subarray(0, at), b.subarray(Math.min(b.length, at + rnd.int(1, 64))));
        break;
      case 2: {
        const len = rnd.int(1, 200);
        b = concat(b.subarray(0, at + len), b.subarray(at, at + len), b.subarray(at + len));
        break;
      }
      case 3:
        b = concat(b.subarray(0, at), new TextEncoder().encode(rnd.pick(BYTE_TOKENS)), b.subarray(at));
        break;
      default:
        b = b.subarray(0, at);
    }
  }
  return b;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function seedTraces(): string[] {
  const generated = [...chromeJsonPieces({ events: 300, seed: 5, threads: 3, nestedArgs: true })].join('');
  const hand = JSON.stringify({ traceEvents: HAND_WRITTEN, otherData: { version: '1' } });
  const real = parseSeed(readFileSync(PYTORCH_TRACE, 'utf8'));
  // Windows of the real trace keep cases small; metadata first so names and sort indices apply.
  const meta = real.events.filter((e) => e.ph === 'M');
  const rest = real.events.filter((e) => e.ph !== 'M');
  const windows = [0, 0.3, 0.6].map((f) => {
    const from = Math.floor(rest.length * f);
    return JSON.stringify({ ...real.wrapper, traceEvents: [...meta, ...rest.slice(from, from + 250)] });
  });
  return [generated, hand, ...windows];
}

/** One case: the mutated file's bytes. */
function makeCase(seeds: string[], rnd: Random): Uint8Array {
  const { events, wrapper } = parseSeed(rnd.pick(seeds));
  for (let n = rnd.int(1, 8); n > 0; n--) mutateEvents(rnd, events, wrapper);
  const bytes = new TextEncoder().encode(serialize(rnd, events, wrapper));
  return rnd.chance(0.3) ? mutateBytes(rnd, bytes) : bytes;
}

describe('Chrome importer under mutation', () => {
  it(`keeps the model's rules on ${CASES} mutated traces (seed ${SEED})`, { timeout: Math.max(60_000, CASES * 200) }, async () => {
    const seeds = seedTraces();
    const failures: string[] = [];
    let loaded = 0;
    let refused = 0;
    let slowest = 0;
    for (let c = 0; c < CASES && failures.length < 5; c++) {
      // One generator per case: a failure is reproduced from (seed, case) alone.
      const rnd = new Random(SEED * 1_000_003 + c);
      const bytes = makeCase(seeds, rnd);
      const name = `fuzz-${SEED}-${c}.json`;
      const t = performance.now();
      let problem: string | undefined;
      try {
        const m = await loadModel(memorySource(name, bytes), { format: 'chrome-json' });
        const violations = modelViolations(m);
        if (violations.length > 0) problem = `invalid model: ${violations.slice(0, 3).join('; ')}`;
        loaded++;
      } catch (e) {
        if (e instanceof LoadFailed) refused++;
        else problem = `exception: ${(e as Error).stack ?? String(e)}`;
      }
      const ms = performance.now() - t;
      slowest = Math.max(slowest, ms);
      if (!problem && ms > CASE_LIMIT_MS) problem = `took ${Math.round(ms)} ms (${bytes.length} bytes)`;
      if (problem) {
        failures.push(`case ${c} (seed ${SEED}): ${problem}`);
        if (OUT) {
          mkdirSync(OUT, { recursive: true });
          writeFileSync(join(OUT, name), bytes);
        }
      }
    }
    if (process.env.CHROME_FUZZ_CASES) console.log(`chrome fuzz: ${CASES} cases, ${loaded} loaded, ${refused} refused, slowest ${Math.round(slowest)} ms`);
    expect(failures).toEqual([]);
  });
});
