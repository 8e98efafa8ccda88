import { describe, expect, it } from 'vitest';
import { microsToNs, parseMicros, type Micros } from './decimal.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

function parse(text: string): Micros | undefined {
  const b = bytes(text);
  const out = { us: 0, ns: 0 };
  return parseMicros(b, 0, b.length, out) ? out : undefined;
}

describe('parseMicros', () => {
  it('splits whole microseconds and the nanosecond remainder exactly', () => {
    expect(parse('1234567.891')).toEqual({ us: 1234567, ns: 891 });
    expect(parse('12.5')).toEqual({ us: 12, ns: 500 });
    expect(parse('12.05')).toEqual({ us: 12, ns: 50 });
    expect(parse('7')).toEqual({ us: 7, ns: 0 });
    expect(parse('0.001')).toEqual({ us: 0, ns: 1 });
  });

  it('keeps epoch microseconds exact where a float multiply would not', () => {
    // 1700000000000000.123 us * 1000 is not representable; the split form is.
    const m = parse('1700000000000000.123')!;
    expect(m).toEqual({ us: 1700000000000000, ns: 123 });
    expect(BigInt(m.us) * 1000n + BigInt(m.ns)).toBe(1700000000000000123n);
    expect(BigInt(1700000000000000.123 * 1000)).not.toBe(1700000000000000123n);
    // Nor does binary rounding of small fractions: 1.005 * 1000 is 1004.999... as doubles.
    expect(1.005 * 1000).not.toBe(1005);
    expect(microsToNs(parse('1.005')!)).toBe(1005);
  });

  it('rounds digits past the nanosecond to the nearest, an exact half to even', () => {
    expect(parse('1.0004')).toEqual({ us: 1, ns: 0 });
    expect(parse('1.0005')).toEqual({ us: 1, ns: 0 });
    expect(parse('1.00050')).toEqual({ us: 1, ns: 0 });
    expect(parse('1.00050001')).toEqual({ us: 1, ns: 1 });
    expect(parse('1.0015')).toEqual({ us: 1, ns: 2 });
    expect(parse('1.0025')).toEqual({ us: 1, ns: 2 });
    expect(parse('1.0006')).toEqual({ us: 1, ns: 1 });
    expect(microsToNs(parse('-1.0035')!)).toBe(-1004);
    expect(microsToNs(parse('1.9996')!)).toBe(2000);
    expect(microsToNs(parse('1.9995')!)).toBe(2000);
  });

  it('carries the sign on both parts', () => {
    expect(parse('-3.25')).toEqual({ us: -3, ns: -250 });
    expect(microsToNs(parse('-3.25')!)).toBe(-3250);
  });

  it('reads exponent forms as exactly as plain decimals', () => {
    expect(microsToNs(parse('1.5e3')!)).toBe(1500000);
    expect(microsToNs(parse('2E-3')!)).toBe(2);
    expect(parse('1.7000000000000001e15')).toEqual({ us: 1700000000000000, ns: 100 });
    expect(parse('25e-4')).toEqual({ us: 0, ns: 2 });
    expect(parse('35E-4')).toEqual({ us: 0, ns: 4 });
    expect(parse('-1.0005e0')).toEqual({ us: -1, ns: -0 });
    expect(parse('0.0e5')).toEqual({ us: 0, ns: 0 });
    expect(parse('1e-999')).toEqual({ us: 0, ns: 0 });
  });

  it('gives ±Infinity for well-formed numbers too large for a double (the caller rejects them)', () => {
    expect(parse('1e309')?.us).toBe(Infinity);
    expect(parse('-1e999999999')?.us).toBe(-Infinity);
    expect(parse(`1${'0'.repeat(400)}`)?.us).toBe(Infinity);
    expect(parse('1e')).toBeUndefined();
    expect(parse('e5')).toBeUndefined();
  });

  it('rejects what is not a number', () => {
    expect(parse('')).toBeUndefined();
    expect(parse('-')).toBeUndefined();
    expect(parse('1.')).toBeUndefined();
    expect(parse('1.2.3')).toBeUndefined();
    expect(parse('abc')).toBeUndefined();
  });
});
