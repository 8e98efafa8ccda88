/**
 * Async keys by integer id (asyncIntKeys.ts) against keys by bytes, the earlier and general way:
 * the id codes stand for their bytes, the table finds what a map finds, and whole traces of
 * random async events give the same model either way (the general readers take every key by its
 * bytes).
 */
import { describe, expect, it, vi } from 'vitest';
import { seededRandom as random } from '../../../testkit/gen/random.ts';
import { decodeChromeBytes } from '../../../testkit/load/chromeReaders.ts';
import { modelViolations } from '../../../testkit/models/invariants.ts';
import type { Model } from '../../model/types.ts';
import { IntKeyTable, MAX_INT_KEY_PREFIX, integerIdCode } from './asyncIntKeys.ts';
import { BytesTable } from '../bytesTable.ts';


const bytesOf = (s: string) => new TextEncoder().encode(s);

/** What `integerIdCode` should give, from the text by regular expressions. */
function expectedCode(s: string): number {
  if (/^(0|[1-9][0-9]{0,14})$/.test(s)) return Number(s) * 2;
  if (/^0x(0|[1-9a-f][0-9a-f]{0,12})$/.test(s)) return parseInt(s.slice(2), 16) * 2 + 1;
  return -1;
}

describe('integerIdCode', () => {
  it('reads canonical decimal and lowercase hexadecimal ids, and nothing else', () => {
    for (const [text, code] of [
      ['0', 0],
      ['7', 14],
      ['123', 246],
      ['999999999999999', 1999999999999998],
      ['0x0', 1],
      ['0x1f', 63],
      ['0xfffffffffffff', 2 ** 53 - 1],
    ] as const) {
      expect(integerIdCode(bytesOf(text), 0, text.length), text).toBe(code);
    }
    for (const text of ['', '-1', '-0', '01', '1.0', '1e3', '1000000000000000', '0x', '0x00', '0x01', '0X1', '0x1F', '0x10000000000000', '0xg', 'abc', ' 1']) {
      expect(integerIdCode(bytesOf(text), 0, text.length), text).toBe(-1);
    }
  });

  it('gives one code per text on random texts (equal codes, equal bytes)', () => {
    const next = random(11);
    const alphabet = '0123456789abcdefxX-.e';
    const byCode = new Map<number, string>();
    for (let k = 0; k < 50_000; k++) {
      const n = 1 + Math.floor(next() * 16);
      let s = next() < 0.4 ? '0x' : '';
      for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * (next() < 0.8 ? 16 : alphabet.length))];
      const code = integerIdCode(bytesOf(`"${s}"`), 1, s.length + 1);
      expect(code, s).toBe(expectedCode(s));
      if (code < 0) continue;
      const seen = byCode.get(code);
      if (seen !== undefined) expect(s).toBe(seen);
      else byCode.set(code, s);
    }
    expect(byCode.size).toBeGreaterThan(1000);
  });
});

describe('IntKeyTable', () => {
  it('finds what a map finds, through growth, on random keys', () => {
    const next = random(5);
    const table = new IntKeyTable();
    const map = new Map<string, number>();
    const keys: [number, number][] = [];
    for (let k = 0; k < 60_000; k++) {
      const reuse = keys.length > 0 && next() < 0.5;
      const [prefix, code] = reuse
        ? keys[Math.floor(next() * keys.length)]
        : [next() < 0.9 ? Math.floor(next() * 4) : Math.floor(next() * MAX_INT_KEY_PREFIX), next() < 0.5 ? Math.floor(next() * 5000) : Math.floor(next() * 2 ** 53)];
      const found = table.get(prefix, code);
      const expected = map.get(`${prefix}:${code}`) ?? -1;
      expect(found).toBe(expected);
      if (found === -1) {
        table.set(prefix, code, map.size);
        map.set(`${prefix}:${code}`, map.size);
        keys.push([prefix, code]);
      }
    }
    expect(table.size).toBe(map.size);
    for (const [prefix, code] of keys.slice(0, 200)) expect(table.keyOf(map.get(`${prefix}:${code}`)!)).toEqual({ prefix, code });
  });
});

// Odd chunks, so that events straddle them.
const decode = (text: string, fastPath: boolean): Promise<Model> => decodeChromeBytes(bytesOf(text), fastPath, 'async.json', 4093);

/** Ids that are the same number written in different bytes, and ids of other shapes. */
const IDS = ['1', '"1"', '01', '"01"', '"0x1"', '"0x01"', '"0X1"', '"0x0"', '0', '-0', '-1', '1.0', '1e0', '"a"', '"\\u0031"', '1000000000000000', '"0xfffffffffffff"', '"0x10000000000000"', '16', '"0x10"'];
const CATS = [undefined, '""', '"gpu"', '"cpu"', '1', '"1"', '"\\u0067pu"', 'true'];
const SCOPES = [undefined, '""', '"s"', '2'];

function randomAsyncTrace(seed: number, events: number): string {
  const next = random(seed);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const lines: string[] = [];
  for (let k = 0; k < events; k++) {
    const ph = pick(['b', 'b', 'e', 'e', 'e', 'n', 'S', 'F']);
    const fields = [`"ph":"${ph}"`, `"name":"${pick(['load', 'step', 'copy'])}"`, `"pid":1`, `"tid":${1 + Math.floor(next() * 3)}`, `"ts":${k * 10 + Math.floor(next() * 30)}`];
    const cat = pick(CATS);
    if (cat !== undefined) fields.push(`"cat":${cat}`);
    const scope = next() < 0.8 ? undefined : pick(SCOPES);
    if (scope !== undefined) fields.push(`"scope":${scope}`);
    const r = next();
    if (r < 0.9) fields.push(`"id":${next() < 0.5 ? pick(IDS) : `"0x${Math.floor(next() * 40).toString(16)}"`}`);
    else if (r < 0.95) fields.push(`"id2":{"local":"${Math.floor(next() * 4)}"}`);
    if (ph === 'b' && next() < 0.3) fields.push(`"args":{"k":${k}}`);
    // Key order varies as writers vary it.
    for (let i = fields.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [fields[i], fields[j]] = [fields[j], fields[i]];
    }
    lines.push(`{${fields.join(',')}}`);
  }
  return `{"traceEvents":[\n${lines.join(',\n')}\n]}`;
}

describe('async keys by integer id', () => {
  it('pair random async events as keys by bytes pair them (the general readers), issues included', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const text = randomAsyncTrace(seed, 600);
      const fast = await decode(text, true);
      const general = await decode(text, false);
      expect(modelViolations(fast)).toEqual([]);
      expect(fast.ranges.startNs.length, `seed ${seed}`).toBeGreaterThan(20);
      expect(fast.issues, `seed ${seed}`).toEqual(general.issues);
      expect(fast, `seed ${seed}`).toEqual(general);
    }
  }, 60_000);

  it('name the key of an unmatched end as its bytes do', async () => {
    const text = '[{"ph":"e","name":"x","cat":"gpu","id":"0x1f","pid":1,"tid":1,"ts":1},{"ph":"e","name":"y","id":42,"pid":1,"tid":1,"ts":2}]';
    const messages = (await decode(text, true)).issues.map((i) => i.message);
    expect(messages).toEqual((await decode(text, false)).issues.map((i) => i.message));
    expect(messages.join('\n')).toContain('async id 0x1f, cat "gpu"');
    expect(messages.join('\n')).toContain('async id 42');
  });

  it('look the key of an unmatched end up only for the messages listed (a scan each: many unmatched ends were quadratic)', async () => {
    const ends = Array.from({ length: 2000 }, (_, i) => `{"ph":"e","name":"x","cat":"c","id":${i % 2 === 0 ? `"0x${i.toString(16)}"` : `"k${i}"`},"pid":1,"tid":1,"ts":${i}}`);
    const intScan = vi.spyOn(IntKeyTable.prototype, 'keyOf');
    const bytesScan = vi.spyOn(BytesTable.prototype, 'bytesOf');
    try {
      const model = await decode(`[${ends.join(',')}]`, true);
      // At most one scan of each table per listed message.
      expect(intScan.mock.calls.length + bytesScan.mock.calls.length).toBeLessThanOrEqual(20);
      expect(model.issues.map((i) => i.message).join('\n')).toContain('1990 more of "async end without begin" not listed (2000 in all)');
    } finally {
      intScan.mockRestore();
      bytesScan.mockRestore();
    }
  });
});
