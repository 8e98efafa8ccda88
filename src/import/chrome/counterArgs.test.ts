import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../testkit/gen/random.ts';
import { readCounterArgs, type CounterArgs } from './counterArgs.ts';

const encode = (s: string) => new TextEncoder().encode(s);

function read(text: string): [string, number | null][] | undefined {
  const out: CounterArgs = { keys: [], values: [], isNull: [], count: 0 };
  const buf = encode(`x${text}y`);
  if (!readCounterArgs(buf, 1, buf.length - 1, out)) return undefined;
  return out.keys.slice(0, out.count).map((k, i) => [k, out.isNull[i] ? null : out.values[i]]);
}

/** What the general path gets: Object.entries of JSON.parse, or undefined where that is no object of numbers/null. */
function reference(text: string): [string, number | null][] | undefined {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const entries = Object.entries(v);
  return entries.every(([, x]) => x === null || typeof x === 'number') ? (entries as [string, number | null][]) : undefined;
}

const NUMBERS = ['0', '-0', '7', '-3', '12.5', '0.1', '0.3', '1e3', '1E-7', '2.5e+2', '123456789012345', '1234567890123456', '0.000001', '9007199254740993', '1.7976931348623157e308', '1e309', '5e-324', '01', '1.', '.5', '-', '1e', '+1', '0x10', 'null', 'nul', 'true', '"3"', '[1]', '{"a":1}', '123.456e-10', '4.35', '1e22', '1e23', '3e-22', '3e-23'];
const KEYS = ['"value"', '"a b"', '"été"', '"0"', '"12"', '"1a"', '""', '"a\\"b"', '"__proto__"', '"x"', '"y"'];

describe('readCounterArgs', () => {
  it('reads what Object.entries(JSON.parse(args)) gives, wherever it does not decline', () => {
    const r = seededRandom(3);
    const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
    const ws = () => (r() < 0.8 ? '' : pick([' ', '\n', '\t ']));
    let taken = 0;
    for (let k = 0; k < 20000; k++) {
      const n = Math.floor(r() * 4);
      const parts: string[] = [];
      for (let p = 0; p < n; p++) parts.push(`${ws()}${pick(KEYS)}${ws()}:${ws()}${pick(NUMBERS)}${ws()}`);
      let text = `{${parts.join(',')}${ws()}}`;
      if (r() < 0.05) text = text.replace(',', ',,');
      if (r() < 0.05) text = text.slice(0, -1);
      const got = read(text);
      if (got === undefined) continue;
      taken++;
      const want = reference(text);
      expect(want, text).toBeDefined();
      // Object.is: -0 stays -0.
      expect(got.length, text).toBe(want!.length);
      got.forEach(([key, value], i) => {
        expect(key, text).toBe(want![i][0]);
        expect(Object.is(value, want![i][1]), `${text}: ${value} vs ${want![i][1]}`).toBe(true);
      });
    }
    expect(taken).toBeGreaterThan(5000);
  });

  it('rounds decimals exactly as JSON.parse does', () => {
    const r = seededRandom(9);
    for (let k = 0; k < 20000; k++) {
      const digits = String(Math.floor(r() * 1e15));
      const point = Math.floor(r() * (digits.length + 1));
      const text = `${digits.slice(0, point) || '0'}${point < digits.length ? `.${digits.slice(point)}` : ''}${r() < 0.3 ? `e${Math.floor(r() * 30) - 15}` : ''}`;
      const got = read(`{"v":${text}}`);
      if (got) expect(got[0][1], text).toBe(JSON.parse(text));
    }
  });

  it('declines the shapes it leaves to JSON.parse', () => {
    for (const text of ['{"0":1,"a":2}', '{"a":1,"a":2}', '{"a":"3"}', '{"a\\u0062":1}', '{"a":{"b":1}}', '{"a":1e309}', '{"a":1234567890123456}', '[1]', '{"a":01}', '{"a":1,}']) {
      expect(read(text), text).toBeUndefined();
    }
    expect(read('{}')).toEqual([]);
    expect(read('{ "value" : 64 }')).toEqual([['value', 64]]);
    expect(read('{"a":null,"b":-2.5}')).toEqual([['a', null], ['b', -2.5]]);
  });
});
