import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../testkit/gen/random.ts';
import { EventFields, FieldKind, parseEvent, type SpanField } from './eventFields.ts';
import { FALLBACK, parseEventFast } from './fastEvent.ts';
import { hashBytes } from '../bytesTable.ts';

const encode = (s: string) => new TextEncoder().encode(s);

/** Everything a parse leaves in the record that the decoder may read. */
function snapshot(f: EventFields) {
  const span = (s: SpanField) =>
    s.kind === FieldKind.Absent
      ? { kind: s.kind }
      : { kind: s.kind, start: s.start, end: s.end, escaped: s.escaped, int: String(s.int), hash: s.hash };
  return {
    start: f.start,
    end: f.end,
    ph: f.ph,
    phSpan: f.phStart < 0 ? -1 : [f.phStart, f.phEnd],
    name: span(f.name),
    cat: span(f.cat),
    pid: span(f.pid),
    tid: span(f.tid),
    id: span(f.id),
    scope: span(f.scope),
    cname: span(f.cname),
    instantScope: f.instantScope,
    hasTs: f.hasTs,
    ts: f.hasTs === FieldKind.Number ? [Object.is(f.ts.us, -0) ? '-0' : f.ts.us, Object.is(f.ts.ns, -0) ? '-0' : f.ts.ns] : null,
    hasDur: f.hasDur,
    dur: f.hasDur === FieldKind.Number ? [Object.is(f.dur.us, -0) ? '-0' : f.dur.us, Object.is(f.dur.ns, -0) ? '-0' : f.dur.ns] : null,
    args: f.argsStart < 0 ? -1 : [f.argsStart, f.argsEnd, f.argsEmpty],
    id2: f.id2Start < 0 ? -1 : [f.id2Start, f.id2End],
  };
}

type Outcome = { end: number; fields: ReturnType<typeof snapshot> } | { error: string; at: number };

function general(buf: Uint8Array, pos: number, limit: number): Outcome {
  const f = new EventFields();
  try {
    const end = parseEvent(buf, pos, limit, f);
    return { end, fields: snapshot(f) };
  } catch (e) {
    return { error: (e as Error).message, at: (e as { at: number }).at };
  }
}

/** The fast path's result, or undefined when it hands the event to the general path. */
function fast(buf: Uint8Array, pos: number, limit: number): Outcome | undefined {
  const f = new EventFields();
  // A record left over from another event must not leak into the result.
  parseEvent(encode('{"ph":"B","name":"old","ts":5,"pid":"p","tid":2.5,"args":{"a":1},"s":"g"}'), 0, 72, f);
  const end = parseEventFast(buf, pos, limit, f);
  return end === FALLBACK ? undefined : { end, fields: snapshot(f) };
}

const KEYS = ['ph', 'name', 'cat', 'ts', 'dur', 'pid', 'tid', 'id', 'id2', 's', 'scope', 'cname', 'args', 'tts', 'bind_id', 'n\\u0061me', '', 'x'];
const STRINGS = ['"X"', '"B"', '"i"', '"main"', '""', '"a\\"b"', '"\\u00e9t\\u00e9"', '"été"', '"日本"', '"tab\there"', '"g"', '"p"', '"0x1f"', '"12"', '"1.5"', '" 7"'];
const NUMBERS = ['0', '7', '-3', '12.5', '1.005', '0.0005', '1.0004', '1.0005', '1.00049', '1000786566.044', '1700000000000000.123', '1e3', '1.5E-2', '-0.5', '-.5', '1.2.3', '-', '01', '1234567890123456', '2.', '3.25e', '+4'];
const OTHERS = ['{}', '{ }', '{"a":1}', '{"seq":0,"input":"tensor"}', '{"a":{"b":[1,2]}}', '{"a":[]}', '[1,2]', 'true', 'false', 'null', 'tru', 'nul', '{"a":1,}', '{"a" 1}', '{"a":"\\"}"}', '{"k":-1.5e3,"s":"x\\ny"}', '{"a":01}', '{"global":"0x1"}',
  // Nested values as Chrome and PyTorch write them, laid out and damaged in the ways the fast reader must agree on.
  '{"data":{"seq":0,"input dims":[[8,4],[4]],"input":"tensor"}}', '{ "a" : [ 1 ,\n 2 ] ,\n "b" : { } }', '[{"a":1},{"b":[true,null,"x"]}]',
  '{"a":[1,]}', '{"a":{"b":}}', '{"a":[1 2]}', '{"a":{"b":1}', '{"a":[{"b":"\\"}]}', '{"a":[[[]]],"b":[{}]}', '[-1.5e3,"}",{"]":1}]',
  `${'['.repeat(70)}${']'.repeat(70)}`, `{"d":${'{"a":'.repeat(63)}1${'}'.repeat(63)}}`, `{"d":${'{"a":'.repeat(64)}1${'}'.repeat(64)}}`];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function ws(r: () => number): string {
  const x = r();
  if (x < 0.8) return '';
  return pick(r, [' ', '\n', '\t', '\r\n  ', '  ']);
}

function value(r: () => number, key: string): string {
  const x = r();
  if (key === 'ts' || key === 'dur') return x < 0.75 ? pick(r, NUMBERS) : x < 0.85 ? `"${pick(r, NUMBERS)}"` : pick(r, [...STRINGS, ...OTHERS]);
  if (key === 'pid' || key === 'tid' || key === 'id') return x < 0.5 ? pick(r, NUMBERS) : x < 0.9 ? pick(r, STRINGS) : pick(r, OTHERS);
  if (key === 'args' || key === 'id2') return x < 0.85 ? pick(r, OTHERS) : pick(r, [...STRINGS, ...NUMBERS]);
  return x < 0.7 ? pick(r, STRINGS) : x < 0.85 ? pick(r, NUMBERS) : pick(r, OTHERS);
}

/** A random event, mostly well-formed, sometimes not. */
function randomEvent(r: () => number): string {
  const n = Math.floor(r() * 9);
  const parts: string[] = [];
  for (let k = 0; k < n; k++) {
    const key = pick(r, KEYS);
    parts.push(`${ws(r)}"${key}"${ws(r)}:${ws(r)}${value(r, key)}${ws(r)}`);
  }
  let text = `{${parts.join(',')}${n === 0 ? ws(r) : ''}}`;
  const damage = r();
  if (damage < 0.05) text = text.replace(',', ',,');
  else if (damage < 0.1) text = text.replace(':', '');
  else if (damage < 0.13) text = text.slice(0, -1) + ',}';
  return text;
}

/** A well-formed event of the shape writers use (what the fast path is for). */
function commonEvent(r: () => number): string {
  const ph = pick(r, ['X', 'B', 'E', 'i', 'b', 'e', 'C']);
  const fields = [
    `"ph":"${ph}"`,
    `"name":${pick(r, ['"step"', '"forward_batch"', '"ünï"', '"a/b c"'])}`,
    `"pid":${Math.floor(r() * 5000)}`,
    `"tid":${pick(r, [String(Math.floor(r() * 99999)), '"worker"'])}`,
    `"ts":${Math.floor(r() * 1e12)}.${String(Math.floor(r() * 1000)).padStart(3, '0')}`,
  ];
  if (r() < 0.5) fields.push(`"dur":${(r() * 100).toFixed(Math.floor(r() * 4))}`);
  if (r() < 0.5) fields.push(`"cat":"${pick(r, ['cpu_op', 'kernel'])}"`);
  if (r() < 0.5) fields.push(`"args":${pick(r, ['{}', '{"seq":12,"input":"tensor"}', '{"payload":3}', '{"External id":1,"Input Dims":[[1,2]]}'])}`);
  if (ph === 'i' && r() < 0.5) fields.push(`"s":"${pick(r, ['t', 'p', 'g'])}"`);
  if ((ph === 'b' || ph === 'e') && r() < 0.8) fields.push(`"id":${pick(r, ['"0x1a"', '7'])}`);
  if (r() < 0.2) fields.push('"tts":123');
  for (let k = fields.length - 1; k > 0; k--) {
    const j = Math.floor(r() * (k + 1));
    [fields[k], fields[j]] = [fields[j], fields[k]];
  }
  return `{${fields.join(',')}}`;
}

describe('parseEventFast', () => {
  it('reads the common shape itself, with the same fields as parseEvent', () => {
    const r = seededRandom(7);
    let taken = 0;
    for (let k = 0; k < 3000; k++) {
      const buf = encode(` ${commonEvent(r)},`);
      const got = fast(buf, 1, buf.length);
      if (got) {
        taken++;
        expect(got).toEqual(general(buf, 1, buf.length));
      }
    }
    // Only events with a tdur-like exotic part may fall back; the common shape must not.
    expect(taken).toBe(3000);
  });

  it('agrees with parseEvent wherever it does not fall back, on random (partly malformed) events', () => {
    const r = seededRandom(1234);
    let taken = 0;
    let fellBack = 0;
    for (let k = 0; k < 20000; k++) {
      const text = randomEvent(r);
      const buf = encode(`[${text},{}`);
      // Whole, and cut short at a random place.
      const limits = [buf.length, 1 + Math.floor(r() * (buf.length - 1))];
      for (const limit of limits) {
        const got = fast(buf, 1, limit);
        if (!got) {
          fellBack++;
          continue;
        }
        taken++;
        const want = general(buf, 1, limit);
        if (JSON.stringify(got) !== JSON.stringify(want)) expect({ text, limit, got }).toEqual({ text, limit, got: want });
      }
    }
    // Both outcomes are exercised.
    expect(taken).toBeGreaterThan(5000);
    expect(fellBack).toBeGreaterThan(5000);
  });

  it('cut anywhere, falls back or agrees with parseEvent, and reads the whole event itself', () => {
    // Every limit inside events of the shapes the slice readers meet at a 4 MiB boundary: flat
    // args of each scalar kind, nested args, an unknown key (AT_LIMIT and the near-limit key check).
    const events = [
      '{"ph":"X","name":"optimize_batch","pid":4385,"tid":10007,"ts":1000786567.760,"dur":0.635,"args":{"seq":0,"input":"tensor","ok":true,"no":false,"v":null,"x":-1.5e3}}',
      '{"ph":"i","s":"t","name":"copy","cat":"gpu","pid":1,"tid":2,"ts":3,"args":{}}',
      '{"ph":"X","name":"k","pid":1,"tid":2,"ts":3,"dur":4,"args":{"a":{"b":[1,2,{"c":"d"}]},"e":"f"}}',
      '{"ph":"b","cat":"Disk","id":"0x1","name":"n","pid":1,"tid":2,"ts":3,"tts":9,"unknown_key":"v","z":true}',
    ];
    let whole = 0;
    for (const text of events) {
      const buf = encode(`[${text},{}`);
      const end = 1 + text.length;
      for (let limit = 2; limit <= buf.length; limit++) {
        const got = fast(buf, 1, limit);
        if (got === undefined) {
          // Past the event's end the fast reader must not give it up.
          expect(limit, text).toBeLessThan(end + 1);
          continue;
        }
        if (limit > end) whole++;
        expect({ text, limit, got }).toEqual({ text, limit, got: general(buf, 1, limit) });
      }
    }
    expect(whole).toBeGreaterThan(0);
  });

  it('leaves timestamps and durations exact, rounding past the third decimal as parseMicros does', () => {
    const cases: [string, number, number][] = [
      ['1000786566.044', 1000786566, 44],
      ['1700000000000000.123', 1700000000000000, 123],
      ['1.0005', 1, 0],
      ['1.0015', 1, 2],
      ['1.00051', 1, 1],
      ['1.00049', 1, 0],
      ['1.0025', 1, 2],
      ['12.5', 12, 500],
      ['7', 7, 0],
    ];
    for (const [text, us, ns] of cases) {
      const f = new EventFields();
      const buf = encode(`{"ts":${text},"dur":-${text}}`);
      expect(parseEventFast(buf, 0, buf.length, f)).toBe(buf.length);
      expect([f.ts.us, f.ts.ns]).toEqual([us, ns]);
      expect([f.dur.us, f.dur.ns]).toEqual([-us, -ns]);
    }
  });

  it('counts the line breaks inside the event, nested values included', () => {
    const r = seededRandom(5);
    let counted = 0;
    for (let k = 0; k < 5000; k++) {
      const buf = encode(randomEvent(r));
      const f = new EventFields();
      const end = parseEventFast(buf, 0, buf.length, f);
      if (end < 0) continue;
      counted++;
      expect(f.lineBreaks).toBe(buf.subarray(0, end).filter((b) => b === 0x0a).length);
    }
    expect(counted).toBeGreaterThan(1000);
    const f = new EventFields();
    const nested = encode('{"args":{"a":\n[1,\n2]},\n"ph":"X"}');
    expect(parseEventFast(nested, 0, nested.length, f)).toBe(nested.length);
    expect(f.lineBreaks).toBe(3);
  });

  it('hashes the name and category as the bytes table does', () => {
    const f = new EventFields();
    const buf = encode('{"name":"forward_batch","ph":"X","cat":"gpu"}');
    expect(parseEventFast(buf, 0, buf.length, f)).toBe(buf.length);
    expect(f.name.hash).toBe(hashBytes(buf, f.name.start, f.name.end));
    expect(f.cat.hash).toBe(hashBytes(buf, f.cat.start, f.cat.end));
  });

  it('falls back for what it does not read itself', () => {
    for (const text of [
      '{"ts":"12.5"}',
      '{"ts":1e3}',
      '{"ph":"\\u0058"}',
      '{"id2":{"global":"0x1"}}',
      '{"pid":{"a":1}}',
      '{"name":"a",',
      '{"name":"a\tb"}',
      '{"name" "a"}',
      '{"a":1,,"b":2}',
    ]) {
      const buf = encode(text);
      expect(parseEventFast(buf, 0, buf.length, new EventFields()), text).toBe(FALLBACK);
    }
  });
});
