import { describe, expect, it } from 'vitest';
import { counterReader } from './counters.ts';
import { decodePayload } from './decode.ts';
import { CounterFlag, EntryFlag as F, EntryType as T, SchemaFlag, SchemaType, type CounterSemantics, type EntryDef, type PayloadRegistry } from './schema.ts';
import { w } from '../../testkit/payload/payloadBytes.ts';

const S = 1 << 24;
const e = (type: number, name: string, more: Partial<EntryDef> = {}): EntryDef => ({ flags: 0, type, name, arrayOrUnionDetail: 0, offset: 0, ...more });
const norm: CounterSemantics = { kind: 'counter', flags: CounterFlag.Normalize, unitScaleNumerator: 100, unitScaleDenominator: 1, limitType: 0, unit: '%' };
const kib: CounterSemantics = { kind: 'counter', flags: 0, unitScaleNumerator: 1, unitScaleDenominator: 1024, limitType: 0, unit: 'KiB' };

const reg: PayloadRegistry = {
  schemas: [
    { domain: 0, id: S + 1, type: SchemaType.Static, flags: 0, entries: [e(T.Float16, 'temp', { flags: F.Counter }), e(T.UInt16, 'fan', { flags: F.Counter })] },
    {
      domain: 0,
      id: S,
      type: SchemaType.Static,
      flags: SchemaFlag.CounterGroup,
      entries: [
        e(T.Int64, 't', { flags: F.Timestamp, semantics: [{ kind: 'time', timeDomainId: 15 }] }),
        e(T.Int16, 'load', { flags: F.Counter, semantics: [norm] }),
        e(T.UInt64, 'mem', { flags: F.Counter, semantics: [kib] }),
        e(T.UInt32, 'notCounter'),
        e(S + 1, 'gpu'),
        e(T.Double, 'rate', { flags: F.Counter }),
      ],
    },
    { domain: 0, id: S + 2, type: SchemaType.Dynamic, flags: 0, entries: [e(T.CString, 's', { flags: F.ArrayZeroTerminated })] },
    { domain: 0, id: S + 3, type: SchemaType.Static, flags: 0, entries: [e(T.UInt32, 'a'), e(T.Category, 'cat'), e(T.Float, 'b')] },
  ],
  enums: [],
};

function sample(t: number, load: number, mem: bigint, temp16: number, fan: number, rate: number): Uint8Array {
  return w().i64(t).i16(load).align(8).u64(mem).u32(7).u16(temp16).u16(fan).f64(rate).done();
}

describe('counter reader', () => {
  it('reads a static counter group into display values equal to the full decoder, batch by stride', () => {
    const r = counterReader(reg, 0, S);
    if (typeof r === 'string') throw new Error(r);
    expect(r.fields.map((f) => [f.name, f.offset, f.unit])).toEqual([
      ['load', 8, '%'],
      ['mem', 16, 'KiB'],
      ['gpu.temp', 28, undefined],
      ['gpu.fan', 30, undefined],
      ['rate', 32, undefined],
    ]);
    expect(r.stride).toBe(40);
    expect(r.timestamp).toMatchObject({ offset: 0, timeDomain: 15 });
    const batch = new Uint8Array(80);
    batch.set(sample(1000, -32767, 4096n, 0x3c00, 1200, 0.5), 0);
    batch.set(sample(2000, 16384, 2n ** 40n, 0xc000, 0, -1e9), 40);
    const out = new Float64Array(r.fields.length);
    for (let k = 0; k < 2; k++) {
      r.read(batch, k * r.stride, out);
      const full = decodePayload(reg, S, batch.subarray(k * r.stride, (k + 1) * r.stride));
      expect(Array.from(out)).toEqual(full.counters.map((c) => c.display));
      expect(r.readTimestamp(batch, k * r.stride)).toBe(full.timestamps[0].value);
    }
    expect(out[0]).toBeCloseTo((16384 / 32767) * 100, 10);
    expect(out[1]).toBe(2 ** 30);
  });

  it('reads single-value counters of a predefined type with the registration semantics', () => {
    const r = counterReader(reg, 0, T.Int64, [kib]);
    if (typeof r === 'string') throw new Error(r);
    const out = new Float64Array(1);
    r.read(w().i64(-2048).done(), 0, out);
    expect(out[0]).toBe(-2);
    expect(r.fields[0].unit).toBe('KiB');
    expect(r.readTimestamp(new Uint8Array(8), 0)).toBeNaN();
  });

  it('takes every numeric entry (not attribute-typed) when none is flagged COUNTER', () => {
    const r = counterReader(reg, 0, S + 3);
    if (typeof r === 'string') throw new Error(r);
    expect(r.fields.map((f) => f.name)).toEqual(['a', 'b']);
  });

  it('says why a layout cannot be read this way', () => {
    expect(counterReader(reg, 0, S + 2)).toMatch(/not static/);
    expect(counterReader(reg, 0, S + 9)).toMatch(/unknown schema id/);
    expect(counterReader(reg, 0, T.CString)).toMatch(/not a number/);
  });
});
