import { describe, expect, it } from 'vitest';
import { effectiveAttributes } from './attributes.ts';
import { decodeEventPayloads, decodePayload } from './decode.ts';
import { eventPayloadsJson, formatFieldValue, payloadJson, payloadSummary } from './payloadText.ts';
import { EntryFlag as F, EntryType as T, PayloadSchemaId, SchemaFlag, SchemaType, type EntryDef, type PayloadRegistry, type SchemaDef } from './schema.ts';
import { w } from '../../testkit/payload/payloadBytes.ts';

const S = 1 << 24;
const entry = (type: number, name: string, more: Partial<EntryDef> = {}): EntryDef => ({ flags: 0, type, name, arrayOrUnionDetail: 0, offset: 0, ...more });
const schema = (id: number, entries: EntryDef[], more: Partial<SchemaDef> = {}): SchemaDef => ({ domain: 0, id, type: SchemaType.Static, flags: 0, entries, ...more });

const point = schema(S + 1, [entry(T.Int32, 'x'), entry(T.Int32, 'y')], { name: 'Point' });
const reg: PayloadRegistry = {
  schemas: [
    point,
    schema(S, [
      entry(T.CString, 'name', { arrayOrUnionDetail: 8, flags: F.EventMessage }),
      entry(T.UInt64, 'big'),
      entry(S + 11, 'mode'),
      entry(S + 1, 'pts', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }),
      entry(T.Address, 'ptr'),
      entry(T.Double, 'nan'),
      entry(T.UInt32, 'secret', { flags: F.Hide }),
      entry(T.ColorArgb, 'color'),
    ]),
  ],
  enums: [{ domain: 0, id: S + 11, name: 'Mode', size: 4, entries: [{ name: 'FAST', value: 2, isFlag: false }] }],
};
const bytes = w()
  .utf8('job', 8)
  .u64(2n ** 60n + 1n)
  .u32(2)
  .i32(1).i32(2).i32(3).i32(4)
  .align(8)
  .u64(0xdead0)
  .f64(NaN)
  .u32(7)
  .u32(0xff112233)
  .done();

describe('payload JSON', () => {
  it('maps field names to values: enums by name, nested objects, arrays, big integers as strings', () => {
    const p = decodePayload(reg, S, bytes);
    expect(p.error).toBeUndefined();
    expect(payloadJson(p)).toEqual({
      name: 'job',
      big: '1152921504606846977',
      mode: 'FAST',
      pts: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
      ptr: '0xdead0',
      nan: 'NaN',
      secret: 7,
      color: '0xff112233',
    });
    expect(payloadJson(p, false)).not.toHaveProperty('secret');
    // Valid JSON all the way (no bigint, no NaN).
    expect(() => JSON.stringify(payloadJson(p))).not.toThrow();
  });

  it('merges the payloads of an event, suffixes clashing names, puts end payloads under @end, hides referenced blobs', () => {
    const small = schema(S + 5, [entry(T.UInt8, 'name')]);
    const r2: PayloadRegistry = { ...reg, schemas: [...reg.schemas, small] };
    const begin = decodeEventPayloads(r2, [
      { schemaId: S + 5, bytes: new Uint8Array([1]) },
      { schemaId: S + 5, bytes: new Uint8Array([2]) },
      { schemaId: PayloadSchemaId.Referenced, bytes: new Uint8Array([9]) },
    ]);
    const end = decodeEventPayloads(r2, [{ schemaId: S + 5, bytes: new Uint8Array([3]) }]);
    expect(eventPayloadsJson(begin, end)).toEqual({ name: 1, 'name#2': 2, '@end': { name: 3 } });
  });

  it('shows errors and raw bytes instead of values that do not decode', () => {
    const bad = decodePayload(reg, S + 99, new Uint8Array([0xab]));
    expect(payloadJson(bad)).toEqual({ '@error': 'unknown schema id 16777315 in this domain', '@raw': 'ab' });
    const short = decodePayload({ schemas: [schema(S, [entry(T.UInt8, 'a'), entry(T.UInt32, 'b')])], enums: [] }, S, new Uint8Array([1, 0, 0, 0, 5]));
    expect(payloadJson(short)).toMatchObject({ a: 1, b: { '@error': expect.stringMatching(/needs 4 bytes/), '@raw': '05' } });
  });
});

describe('payload text', () => {
  it('formats values for the panel', () => {
    const p = decodePayload(reg, S, bytes);
    const f = (name: string) => formatFieldValue(p.fields.find((x) => x.name === name)!);
    expect(f('name')).toBe('job');
    expect(f('mode')).toBe('FAST (2)');
    expect(f('ptr')).toBe('0xdead0');
    expect(f('color')).toBe('0xff112233');
    expect(f('pts')).toBe('[2 × struct Point]');
  });

  it('summarises visible fields in one bounded line', () => {
    const p = decodePayload(reg, S, bytes);
    const line = payloadSummary([p], 500);
    expect(line).toContain('name="job"');
    expect(line).toContain('mode=FAST (2)');
    expect(line).not.toContain('secret');
    expect(payloadSummary([p], 20)).toHaveLength(20);
  });
});

describe('attribute precedence', () => {
  const msg = schema(S + 20, [entry(T.CString, 'm', { flags: F.EventMessage, arrayOrUnionDetail: 4 }), entry(T.ColorArgb, 'c'), entry(T.Category, 'cat')]);
  const r: PayloadRegistry = { schemas: [msg], enums: [] };
  const blob = (m: string, c: number, cat: number) => ({ schemaId: S + 20, bytes: w().utf8(m, 4).u32(c).u32(cat).done() });

  it('applies core attributes, then payloads in order, then entries in order; later wins', () => {
    const begin = decodeEventPayloads(r, [blob('one', 1, 5), blob('two', 2, 6)]);
    const a = effectiveAttributes({ message: 'core', color: 9, category: 4 }, begin);
    expect(a).toMatchObject({ message: 'two', color: 2, category: 6 });
    expect(a.source).toEqual({ message: 'begin[1]', color: 'begin[1]', category: 'begin[1]' });
    expect(effectiveAttributes({ message: 'core', category: 4 }, []).message).toBe('core');
  });

  it('lets pop/end payloads override message and color but not category (header rule)', () => {
    const begin = decodeEventPayloads(r, [blob('push', 1, 5)]);
    const end = decodeEventPayloads(r, [blob('pop', 2, 6)]);
    const a = effectiveAttributes({}, begin, end);
    expect(a).toMatchObject({ message: 'pop', color: 2, category: 5 });
    expect(a.source.message).toBe('end[0]');
  });

  it('returns the deferred event times per role', () => {
    const ev = schema(S + 21, [entry(T.Int64, 't0', { flags: F.Timestamp | F.RangeBegin }), entry(T.Int64, 't1', { flags: F.Timestamp | F.RangeEnd })], {
      flags: SchemaFlag.RangeStartEnd,
    });
    const mark = schema(S + 22, [entry(T.Int64, 't', { flags: F.Timestamp })], { flags: SchemaFlag.Mark });
    const rr: PayloadRegistry = { schemas: [ev, mark], enums: [] };
    const [p] = decodeEventPayloads(rr, [{ schemaId: S + 21, bytes: w().i64(10).i64(20).done() }]);
    const a = effectiveAttributes({}, [p]);
    expect([a.begin?.value, a.end?.value, a.mark]).toEqual([10, 20, undefined]);
    const [m] = decodeEventPayloads(rr, [{ schemaId: S + 22, bytes: w().i64(33).done() }]);
    expect(effectiveAttributes({}, [m]).mark?.value).toBe(33);
  });
});
