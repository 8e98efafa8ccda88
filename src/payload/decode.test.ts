import { describe, expect, it } from 'vitest';
import { decodeEventPayloads, decodePayload } from './decode.ts';
import type { DecodedField, DecodedPayload } from './decoded.ts';
import {
  CounterFlag,
  EntryFlag as F,
  EntryType as T,
  PayloadSchemaId,
  SchemaFlag,
  SchemaType,
  type EntryDef,
  type EnumDef,
  type PayloadRegistry,
  type SchemaDef,
} from './schema.ts';
import { w } from '../../testkit/payload/payloadBytes.ts';

const S = 1 << 24;
const entry = (type: number, name: string, more: Partial<EntryDef> = {}): EntryDef => ({
  flags: 0,
  type,
  name,
  arrayOrUnionDetail: 0,
  offset: 0,
  ...more,
});
const schema = (id: number, entries: EntryDef[], more: Partial<SchemaDef> = {}): SchemaDef => ({
  domain: 0,
  id,
  type: SchemaType.Static,
  flags: 0,
  entries,
  ...more,
});
const registry = (schemas: SchemaDef[], enums: EnumDef[] = [], more: Partial<PayloadRegistry> = {}): PayloadRegistry => ({
  schemas,
  enums,
  ...more,
});

/** A field by dotted path ("a.b", "list.[2].x"). */
function get(p: DecodedPayload | DecodedField[], path: string): DecodedField {
  let fields = Array.isArray(p) ? p : p.fields;
  let found: DecodedField | undefined;
  for (const part of path.split('.')) {
    found = fields.find((f) => f.name === part);
    if (!found) throw new Error(`no field ${part} in ${fields.map((f) => f.name).join(', ')}`);
    fields = found.children ?? [];
  }
  return found!;
}
const val = (p: DecodedPayload, path: string) => get(p, path).value;

describe('predefined entry types (Linux x86-64)', () => {
  it('reads every integer type with its size, signedness and alignment', () => {
    const types: [number, string, number][] = [
      [T.Char, 'c', -5],
      [T.UChar, 'uc', 250],
      [T.Short, 's', -300],
      [T.UShort, 'us', 65000],
      [T.Int, 'i', -70000],
      [T.UInt, 'ui', 4000000000],
      [T.Long, 'l', -(2 ** 40)],
      [T.ULong, 'ul', 2 ** 50],
      [T.LongLong, 'll', -3],
      [T.ULongLong, 'ull', 7],
      [T.Int8, 'i8', -8],
      [T.UInt8, 'u8', 200],
      [T.Int16, 'i16', -16],
      [T.UInt16, 'u16', 60000],
      [T.Int32, 'i32', -32],
      [T.UInt32, 'u32', 3000000000],
      [T.Int64, 'i64', -64],
      [T.UInt64, 'u64', 64],
      [T.Size, 'size', 123456789],
    ];
    const b = w()
      .i8(-5).u8(250).i16(-300).u16(65000).align(4).i32(-70000).u32(4000000000)
      .i64(-(2 ** 40)).u64(2 ** 50).i64(-3).u64(7)
      .i8(-8).u8(200).i16(-16).u16(60000).align(4).i32(-32).u32(3000000000).i64(-64).u64(64).u64(123456789)
      .done();
    const reg = registry([schema(S, types.map(([t, n]) => entry(t, n)))]);
    const p = decodePayload(reg, S, b);
    expect(p.error).toBeUndefined();
    for (const [, n, v] of types) expect(val(p, n)).toBe(v);
    // long and size_t are 8 bytes, 8-aligned on LP64.
    expect(get(p, 'l').offset).toBe(16);
    expect(get(p, 'i').offset).toBe(8);
    expect(get(p, 'size').offset).toBe(80);
  });

  it('keeps 64-bit integers exact beyond 2^53 as bigint, and 128-bit integers always as bigint', () => {
    const reg = registry([
      schema(S, [entry(T.UInt64, 'big'), entry(T.Int64, 'neg'), entry(T.Int128, 'i128'), entry(T.UInt128, 'u128')]),
    ]);
    const b = w().u64(2n ** 63n + 5n).i64(-(2n ** 60n) - 1n).u128(-12345n).u128(2n ** 100n + 1n).done();
    const p = decodePayload(reg, S, b);
    expect(val(p, 'big')).toBe(2n ** 63n + 5n);
    expect(val(p, 'neg')).toBe(-(2n ** 60n) - 1n);
    expect(val(p, 'i128')).toBe(-12345n);
    expect(val(p, 'u128')).toBe(2n ** 100n + 1n);
    expect(get(p, 'i128').offset).toBe(16);
  });

  it('reads float, double, float16, bfloat16, tf32, long double (x87) and float128', () => {
    const reg = registry([
      schema(S, [
        entry(T.Float, 'f'),
        entry(T.Double, 'd'),
        entry(T.Float16, 'h'),
        entry(T.BF16, 'bf'),
        entry(T.TF32, 'tf'),
        entry(T.LongDouble, 'ld'),
        entry(T.Float128, 'q'),
        entry(T.Float32, 'f32'),
        entry(T.Float64, 'f64'),
      ]),
    ]);
    const tfBits = new DataView(new ArrayBuffer(4));
    tfBits.setFloat32(0, 1.2345678);
    const b = w()
      .f32(1.5).align(8).f64(-2.25)
      .u16(0x3c00 | 0x8000) // -1.0 in binary16
      .u16(0x4049) // bfloat16 of 3.140625
      .u32(tfBits.getUint32(0)) // tf32 drops the low 13 mantissa bits
      .align(16)
      // long double 1.5: significand 0xC000000000000000, exponent 16383
      .u64(0xc000000000000000n).u16(16383).pad(6)
      // float128 -0.75: exponent 16382, fraction 0.5 (top bit of the 112-bit fraction)
      .u64(0n).u64((1n << 63n) | (16382n << 48n) | (1n << 47n))
      .f32(0.5).align(8).f64(1e300)
      .done();
    const p = decodePayload(reg, S, b);
    expect(p.error).toBeUndefined();
    expect(val(p, 'f')).toBe(1.5);
    expect(val(p, 'd')).toBe(-2.25);
    expect(val(p, 'h')).toBe(-1);
    expect(val(p, 'bf')).toBe(3.140625);
    expect(Math.abs((val(p, 'tf') as number) - 1.2345678)).toBeLessThan(1e-3);
    expect(val(p, 'tf')).not.toBe(Math.fround(1.2345678));
    expect(val(p, 'ld')).toBe(1.5);
    expect(get(p, 'ld').offset).toBe(32);
    expect(val(p, 'q')).toBe(-0.75);
    expect(val(p, 'f64')).toBe(1e300);
  });

  it('reads address, byte, category, color, scope id, pid/tid, wchar and string handles', () => {
    const reg = registry(
      [
        schema(S, [
          entry(T.Address, 'addr'),
          entry(T.Byte, 'byte'),
          entry(T.Category, 'cat'),
          entry(T.ColorArgb, 'color'),
          entry(T.ScopeId, 'scope'),
          entry(T.PidUInt32, 'pid'),
          entry(T.TidUInt64, 'tid'),
          entry(T.WChar, 'wc'),
          entry(T.RegisteredStringHandle, 'handle'),
        ]),
      ],
      [],
      { strings: [{ domain: 0, handle: 0x5000, text: 'registered' }] },
    );
    const b = w()
      .u64(0x7ffd12345678).u8(0xab).align(4).u32(7).u32(0xff00ff00).align(8).u64(1 << 30)
      .u32(4242).align(8).u64(99).u32(0x1f600).align(8).u64(0x5000)
      .done();
    const p = decodePayload(reg, S, b);
    expect(p.error).toBeUndefined();
    expect(val(p, 'addr')).toBe(0x7ffd12345678);
    expect(val(p, 'byte')).toBe(0xab);
    expect(val(p, 'wc')).toBe('😀');
    expect(val(p, 'handle')).toBe('registered');
    expect(p.attributes).toEqual({ category: 7, color: 0xff00ff00, scope: 1 << 30, pid: 4242, tid: 99 });
  });

  it('decodes a payload whose schema id is a predefined type (single value, array, text)', () => {
    const reg = registry([]);
    expect(decodePayload(reg, T.Int64, w().i64(-42).done()).fields[0].value).toBe(-42);
    expect(decodePayload(reg, T.Int32, w().i32(1).i32(2).i32(3).done()).fields[0].value).toEqual([1, 2, 3]);
    const text = decodePayload(reg, T.CString, w().utf8('hello').u8(0).done());
    expect(text.kind).toBe('predefined');
    expect(text.fields[0].value).toBe('hello');
    const odd = decodePayload(reg, T.Int32, w().i32(1).u8(9).done());
    expect(odd.error).toMatch(/not a multiple/);
    expect(odd.fields[0].value).toBe(1);
  });
});

describe('static layout', () => {
  it('places implicit entries at natural alignment and treats offset 0 as explicit only for entry 0', () => {
    // struct { char a; double b; short c; int d; } : 0, 8, 16, 20; size 24
    const reg = registry([schema(S, [entry(T.Char, 'a'), entry(T.Double, 'b'), entry(T.Short, 'c'), entry(T.Int, 'd')])]);
    const b = w().i8(1).pad(7).f64(2).i16(3).pad(2).i32(4).done();
    const p = decodePayload(reg, S, b);
    expect(p.fields.map((f) => f.offset)).toEqual([0, 8, 16, 20]);
    expect(p.fields.map((f) => f.value)).toEqual([1, 2, 3, 4]);
  });

  it('honours explicit offsets (skipping reserved bytes) and continues the cursor after them', () => {
    const reg = registry([
      schema(S, [entry(T.UInt8, 'first', { offset: 0 }), entry(T.UInt32, 'skipped', { offset: 8 }), entry(T.UInt16, 'after')]),
    ]);
    const b = w().u8(1).pad(7).u32(2).u16(3).done();
    const p = decodePayload(reg, S, b);
    expect(p.fields.map((f) => [f.offset, f.value])).toEqual([
      [0, 1],
      [8, 2],
      [12, 3],
    ]);
  });

  it('caps alignment at packAlign (#pragma pack)', () => {
    // #pragma pack(2) struct { char a; int b; double c; } : 0, 2, 6; size 14
    const reg = registry([schema(S, [entry(T.Char, 'a'), entry(T.Int, 'b'), entry(T.Double, 'c')], { packAlign: 2 })]);
    const b = w().i8(9).pad(1).i32(-1).f64(0.5).done();
    const p = decodePayload(reg, S, b);
    expect(p.fields.map((f) => f.offset)).toEqual([0, 2, 6]);
    expect(p.fields.map((f) => f.value)).toEqual([9, -1, 0.5]);
  });

  it('lays out nested static schemas with their size and alignment (tail padding included)', () => {
    // struct In { int x; char y; } (size 8, align 4); struct Out { char a; struct In in[2]; char z; }
    const inner = schema(S + 1, [entry(T.Int, 'x'), entry(T.Char, 'y')], { name: 'In' });
    const outer = schema(S, [entry(T.Char, 'a'), entry(S + 1, 'in', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }), entry(T.Char, 'z')]);
    const b = w().i8(1).pad(3).i32(10).i8(11).pad(3).i32(20).i8(21).pad(3).i8(2).done();
    const p = decodePayload(registry([outer, inner]), S, b);
    expect(get(p, 'in').type).toBe('struct In[2]');
    expect(get(p, 'in.[1].x').value).toBe(20);
    expect(get(p, 'in.[1].y').value).toBe(21);
    expect(get(p, 'z').offset).toBe(20);
    expect(val(p, 'z')).toBe(2);
  });

  it('uses payloadStaticSize as the stride of a nested schema when given', () => {
    const inner = schema(S + 1, [entry(T.UInt8, 'v')], { payloadStaticSize: 4 });
    const outer = schema(S, [entry(S + 1, 'items', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }), entry(T.UInt8, 'after')]);
    const b = w().u8(1).pad(3).u8(2).pad(3).u8(3).done();
    const p = decodePayload(registry([outer, inner]), S, b);
    expect(get(p, 'items.[1].v').value).toBe(2);
    expect(val(p, 'after')).toBe(3);
  });
});

describe('dynamic schemas', () => {
  it('advances a running cursor over variable-length strings and arrays, aligning each entry', () => {
    const reg = registry([
      schema(
        S,
        [
          entry(T.UInt8, 'n'),
          entry(T.Int32, 'values', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 0 }),
          entry(T.CString, 'label', { flags: F.ArrayZeroTerminated }),
          entry(T.Double, 'weight'),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    // n=3 at 0, values at 4..16, "hi\0" at 16..19, double at 24
    const b = w().u8(3).align(4).i32(1).i32(-2).i32(3).utf8('hi').u8(0).align(8).f64(6.5).done();
    const p = decodePayload(reg, S, b);
    expect(p.error).toBeUndefined();
    expect(val(p, 'values')).toEqual([1, -2, 3]);
    expect(val(p, 'label')).toBe('hi');
    expect(get(p, 'weight').offset).toBe(24);
    expect(val(p, 'weight')).toBe(6.5);
  });

  it('decodes a nested dynamic schema as a scalar entry and continues after its real end', () => {
    const inner = schema(S + 1, [entry(T.CString, 's', { flags: F.ArrayZeroTerminated })], { type: SchemaType.Dynamic });
    const outer = schema(S, [entry(S + 1, 'inner'), entry(T.UInt16, 'after')], { type: SchemaType.Dynamic });
    const p = decodePayload(registry([outer, inner]), S, w().utf8('abc').u8(0).u16(77).done());
    expect(get(p, 'inner.s').value).toBe('abc');
    expect(get(p, 'after').offset).toBe(4);
    expect(val(p, 'after')).toBe(77);
  });
});

describe('arrays', () => {
  it('reads fixed, zero-terminated and length-indexed arrays', () => {
    const reg = registry([
      schema(
        S,
        [
          entry(T.Int16, 'fixed', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 3 }),
          entry(T.Int16, 'count'),
          entry(T.UInt16, 'byLen', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 1 }),
          entry(T.UInt16, 'zt', { flags: F.ArrayZeroTerminated }),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    const b = w().i16(1).i16(2).i16(3).i16(2).u16(7).u16(8).u16(5).u16(6).u16(0).done();
    const p = decodePayload(reg, S, b);
    expect(val(p, 'fixed')).toEqual([1, 2, 3]);
    expect(val(p, 'byLen')).toEqual([7, 8]);
    expect(val(p, 'zt')).toEqual([5, 6]);
    expect(get(p, 'zt').size).toBe(6);
  });

  it('reads multi-dimensional arrays row-major from a length array, negative lengths as zero', () => {
    const reg = registry([
      schema(
        S,
        [
          entry(T.Int32, 'dims', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }),
          entry(T.UInt8, 'grid', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 0 }),
          entry(T.Int8, 'neg'),
          entry(T.UInt8, 'none', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 2 }),
          entry(T.UInt8, 'tail'),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    const b = w().i32(2).i32(3).bytes([1, 2, 3, 4, 5, 6]).i8(-4).u8(99).done();
    const p = decodePayload(reg, S, b);
    expect(val(p, 'grid')).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(val(p, 'none')).toEqual([]);
    expect(val(p, 'tail')).toBe(99);
  });

  it('takes lengths from a zero-terminated dimension list', () => {
    const reg = registry([
      schema(
        S,
        [
          entry(T.UInt8, 'dims', { flags: F.ArrayZeroTerminated }),
          entry(T.UInt8, 'cube', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 0 }),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    const p = decodePayload(reg, S, w().bytes([2, 1, 2, 0]).bytes([1, 2, 3, 4]).done());
    expect(val(p, 'cube')).toEqual([[[1, 2]], [[3, 4]]]);
  });

  it('takes lengths from another payload of the same event', () => {
    const reg = registry([
      schema(S, [entry(T.Float, 'samples', { flags: F.ArrayLengthPayloadIndex, arrayOrUnionDetail: 1 })], { type: SchemaType.Dynamic }),
      schema(S + 1, [entry(T.UInt32, 'n')]),
    ]);
    const samples = w().f32(1).f32(2).f32(3).done();
    const [data, len] = decodeEventPayloads(reg, [
      { schemaId: S, bytes: samples },
      { schemaId: S + 1, bytes: w().u32(3).done() },
    ]);
    expect(val(data, 'samples')).toEqual([1, 2, 3]);
    expect(val(len, 'n')).toBe(3);
    // A predefined-type length payload works too; a missing one is an error, not a crash.
    const [viaType] = decodeEventPayloads(reg, [
      { schemaId: S, bytes: samples },
      { schemaId: T.UInt64, bytes: w().u64(2).done() },
    ]);
    expect(val(viaType, 'samples')).toEqual([1, 2]);
    const alone = decodePayload(reg, S, samples);
    expect(get(alone, 'samples').error).toMatch(/length payload index 1/);
  });

  it('marks arrays longer than the element limit as truncated instead of dropping them silently', () => {
    const reg = registry([schema(S, [entry(T.UInt8, 'a', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 10 })])]);
    const p = decodePayload(reg, S, new Uint8Array(10).fill(1), { maxElements: 4 });
    expect(val(p, 'a')).toEqual([1, 1, 1, 1]);
    expect(get(p, 'a').truncated).toEqual({ shown: 4, total: 10 });
  });
});

describe('strings', () => {
  it('reads fixed-length strings of every code-unit width, stopping at the first NUL', () => {
    const reg = registry([
      schema(S, [
        entry(T.CString, 'c', { arrayOrUnionDetail: 8 }),
        entry(T.CStringUtf8, 'u8', { arrayOrUnionDetail: 6, flags: F.ArrayFixedSize }),
        entry(T.CStringUtf16, 'u16', { arrayOrUnionDetail: 4 }),
        entry(T.CStringUtf32, 'u32', { arrayOrUnionDetail: 3 }),
        entry(T.WChar, 'wide', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 3 }),
        entry(T.Char16, 'c16', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }),
        entry(T.Char8, 'c8', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 4 }),
        entry(T.Char, 'chars', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 4 }),
      ]),
    ]);
    const b = w()
      .utf8('ab').u8(0).utf8('zzzzz') // "ab", garbage after the NUL is ignored
      .utf8('héé') // 5 bytes + 1 NUL
      .u8(0)
      .utf16('Ωx', 4)
      .align(4)
      .utf32('😀', 3)
      .utf32('wç', 3)
      .utf16('hi')
      .utf8('full')
      .utf8('abc', 4)
      .done();
    const p = decodePayload(reg, S, b);
    expect(p.error).toBeUndefined();
    expect(p.fields.map((f) => f.value)).toEqual(['ab', 'héé', 'Ωx', '😀', 'wç', 'hi', 'full', 'abc']);
    expect(get(p, 'c').type).toBe('char[8]');
  });

  it('reads Latin-1 bytes of a locale string that is not UTF-8', () => {
    const reg = registry([schema(S, [entry(T.CString, 's', { arrayOrUnionDetail: 4 })])]);
    expect(val(decodePayload(reg, S, new Uint8Array([0x63, 0x61, 0x66, 0xe9])), 's')).toBe('café');
  });

  it('reads length-indexed strings (0 = empty) and zero-terminated lists of fixed strings', () => {
    const reg = registry([
      schema(
        S,
        [
          entry(T.UInt8, 'len'),
          entry(T.CStringUtf16, 'name', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 0 }),
          entry(T.UInt8, 'zero'),
          entry(T.CString, 'empty', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 2 }),
          entry(T.CString, 'list', { flags: F.ArrayZeroTerminated, arrayOrUnionDetail: 4 }),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    const b = w().u8(3).align(2).utf16('abc').u8(0).utf8('one', 4).utf8('two', 4).pad(4).done();
    const p = decodePayload(reg, S, b);
    expect(val(p, 'name')).toBe('abc');
    expect(val(p, 'empty')).toBe('');
    expect(val(p, 'list')).toEqual(['one', 'two']);
  });

  it('resolves pointer strings through deep-copied memory and shows the address otherwise', () => {
    const reg = registry([
      schema(S, [
        entry(T.CString, 'implicit'),
        entry(T.CString, 'zt', { flags: F.Pointer | F.ArrayZeroTerminated | F.DeepCopy }),
        entry(T.CStringUtf8, 'fixed', { flags: F.Pointer, arrayOrUnionDetail: 3 }),
        entry(T.CString, 'missing', { flags: F.Pointer | F.ArrayZeroTerminated }),
        entry(T.CString, 'null', { flags: F.Pointer | F.ArrayZeroTerminated }),
      ]),
    ]);
    const b = w().u64(0x1000).u64(0x2004).u64(0x2000).u64(0x9999).u64(0).done();
    const memory = [
      { address: 0x1000, bytes: w().utf8('first').u8(0).done() },
      { address: 0x2000n, bytes: w().utf8('abcdefg').u8(0).done() },
    ];
    const p = decodePayload(reg, S, b, { memory });
    expect(val(p, 'implicit')).toBe('first');
    expect(get(p, 'implicit').type).toBe('char *');
    expect(val(p, 'zt')).toBe('efg');
    expect(val(p, 'fixed')).toBe('abc');
    expect(val(p, 'missing')).toBe(0x9999);
    expect(get(p, 'missing').pointer).toEqual({ address: '0x9999', resolved: false });
    expect(val(p, 'null')).toBeNull();
  });

  it('does not take an unfollowed string pointer as the event message', () => {
    const reg = registry([schema(S, [entry(T.CString, 'm', { flags: F.EventMessage | F.Pointer | F.ArrayZeroTerminated })])]);
    expect(decodePayload(reg, S, w().u64(0x1234).done()).attributes.message).toBeUndefined();
    const memory = [{ address: 0x1234, bytes: w().utf8('named').u8(0).done() }];
    expect(decodePayload(reg, S, w().u64(0x1234).done(), { memory }).attributes.message).toBe('named');
  });

  it('follows pointers into another payload of the same event (REFERENCED blobs)', () => {
    const reg = registry([
      schema(S, [
        entry(T.Int32, 'values', { flags: F.Pointer | F.ArrayLengthIndex, arrayOrUnionDetail: 1 }),
        entry(T.UInt64, 'n'),
      ]),
    ]);
    // The length entry comes after the pointer here: not allowed (it must precede the array).
    const bad = decodeEventPayloads(reg, [
      { schemaId: S, bytes: w().u64(0x500).u64(2).done() },
      { schemaId: PayloadSchemaId.Referenced, bytes: w().i32(5).i32(6).done(), address: 0x500 },
    ]);
    expect(get(bad[0], 'values').error).toMatch(/must come before/);
    expect(bad[1].kind).toBe('referenced');
    const good = registry([
      schema(S, [entry(T.UInt64, 'n'), entry(T.Int32, 'values', { flags: F.Pointer | F.ArrayLengthIndex, arrayOrUnionDetail: 0 })]),
    ]);
    const [p] = decodeEventPayloads(good, [
      { schemaId: S, bytes: w().u64(2).u64(0x504).done() },
      { schemaId: PayloadSchemaId.Referenced, bytes: w().i32(5).i32(6).i32(7).done(), address: 0x500 },
    ]);
    expect(val(p, 'values')).toEqual([6, 7]);
    expect(get(p, 'values').pointer).toEqual({ address: '0x504', resolved: true, region: 'payload' });
  });

  it('resolves OFFSET_FROM_BASE against the payload or a batch flex data blob, OFFSET_FROM_HERE after the entry', () => {
    const reg = registry([
      schema(S, [
        entry(T.CString, 'fromBase', { flags: F.OffsetFromBase | F.ArrayZeroTerminated }),
        entry(T.CString, 'fromHere', { flags: F.OffsetFromHere | F.ArrayZeroTerminated }),
      ]),
    ]);
    const b = w().u64(16).u64(3).utf8('base').u8(0).utf8('here').u8(0).done();
    const p = decodePayload(reg, S, b);
    expect(val(p, 'fromBase')).toBe('base');
    // End of 'fromHere' is 16; +3 = 19 is... "e\0" of "base\0"? No: 16 + 3 = 19 -> "e".
    expect(val(p, 'fromHere')).toBe('e');
    const flex = w().utf8('xxflex').u8(0).done();
    const q = decodePayload(reg, S, w().u64(2).u64(0).done(), { offsetBase: flex });
    expect(val(q, 'fromBase')).toBe('flex');
    expect(get(q, 'fromBase').pointer?.region).toBe('flexData');
  });
});

describe('unions', () => {
  const u = schema(S + 1, [entry(T.Int32, 'i'), entry(T.Float, 'f'), entry(T.CString, 's', { arrayOrUnionDetail: 8 })], {
    type: SchemaType.Union,
    name: 'U',
  });

  it('selects the member of a union by an earlier entry (external selector)', () => {
    const outer = schema(S, [entry(T.UInt8, 'kind'), entry(S + 1, 'value', { arrayOrUnionDetail: 0 }), entry(T.UInt8, 'after')]);
    const reg = registry([outer, u]);
    const p = decodePayload(reg, S, w().u8(1).pad(3).f32(2.5).pad(4).u8(7).done());
    expect(get(p, 'value').kind).toBe('union');
    expect(get(p, 'value.f').value).toBe(2.5);
    expect(get(p, 'value').children).toHaveLength(1);
    expect(get(p, 'after').offset).toBe(12);
    const s = decodePayload(reg, S, w().u8(2).pad(3).utf8('text', 8).u8(7).done());
    expect(get(s, 'value.s').value).toBe('text');
  });

  it('reads a selector that follows the union when its offset is static', () => {
    const outer = schema(S, [entry(S + 1, 'value', { arrayOrUnionDetail: 1 }), entry(T.Int32, 'kind')]);
    const p = decodePayload(registry([outer, u]), S, w().i32(-9).pad(4).i32(0).done());
    expect(get(p, 'value.i').value).toBe(-9);
  });

  it('reports a bad selector with the union bytes in hex and keeps decoding the rest', () => {
    const outer = schema(S, [entry(T.UInt8, 'kind'), entry(S + 1, 'value', { arrayOrUnionDetail: 0 }), entry(T.UInt8, 'after')]);
    const p = decodePayload(registry([outer, u]), S, w().u8(5).pad(3).u32(0xdeadbeef).pad(4).u8(7).done());
    expect(get(p, 'value').error).toMatch(/bad selector value 5/);
    expect(get(p, 'value').raw).toBe('efbeadde0000000000000000'.slice(0, 16));
    expect(val(p, 'after')).toBe(7);
  });

  it('selects by the union\'s own UNION_SELECTOR entry (internal selector), also in arrays', () => {
    // union { struct { int tag; int i; } a; struct { int tag; float f; } b; int tag; } -> entries: tag, a(1), b(2)
    const a = schema(S + 2, [entry(T.Int32, 'tag'), entry(T.Int32, 'i')], { name: 'A' });
    const bS = schema(S + 3, [entry(T.Int32, 'tag'), entry(T.Float, 'f')], { name: 'B' });
    const tagged = schema(S + 4, [entry(T.UnionSelector, 'tag'), entry(S + 2, 'a'), entry(S + 3, 'b')], {
      type: SchemaType.UnionWithInternalSelector,
      name: 'Tagged',
    });
    const list = schema(S, [entry(S + 4, 'items', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 })]);
    const reg = registry([a, bS, tagged, list]);
    const p = decodePayload(reg, S, w().i32(1).i32(42).i32(2).f32(0.25).done());
    expect(get(p, 'items.[0].a.i').value).toBe(42);
    expect(get(p, 'items.[1].b.f').value).toBe(0.25);
    expect(get(p, 'items.[1].tag').value).toBe(2);
    const top = decodePayload(reg, S + 4, w().i32(0).i32(0).done());
    expect(get(top, 'tag').error).toMatch(/bad selector value 0/);
  });
});

describe('enums', () => {
  const color: EnumDef = {
    domain: 0,
    id: S + 10,
    name: 'Color',
    size: 4,
    entries: [
      { name: 'RED', value: 0, isFlag: false },
      { name: 'GREEN', value: 1, isFlag: false },
      { name: 'NEG', value: -1, isFlag: false },
    ],
  };
  const perms: EnumDef = {
    domain: 0,
    id: S + 11,
    name: 'Perm',
    size: 1,
    entries: [
      { name: 'READ', value: 1, isFlag: true },
      { name: 'WRITE', value: 2, isFlag: true },
      { name: 'EXEC', value: 4, isFlag: true },
      { name: 'NONE', value: 0, isFlag: false },
    ],
  };

  it('resolves values to names, flag enums as A | B, unknown values as numbers', () => {
    const reg = registry(
      [
        schema(S, [
          entry(S + 10, 'c'),
          entry(S + 10, 'neg'),
          entry(S + 11, 'p'),
          entry(S + 11, 'none'),
          entry(S + 11, 'extra'),
          entry(S + 10, 'unknown'),
          entry(S + 11, 'list', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }),
        ]),
      ],
      [color, perms],
    );
    const b = w().i32(1).i32(-1).u8(5).u8(0).u8(0x13).align(4).i32(77).u8(1).u8(6).done();
    const p = decodePayload(reg, S, b);
    expect(val(p, 'c')).toBe('GREEN');
    expect(get(p, 'c').numeric).toBe(1);
    expect(val(p, 'neg')).toBe('NEG');
    expect(val(p, 'p')).toBe('READ | EXEC');
    expect(val(p, 'none')).toBe('NONE');
    expect(val(p, 'extra')).toBe('READ | WRITE | 0x10');
    expect(val(p, 'unknown')).toBe(77);
    expect(val(p, 'list')).toEqual(['READ', 'WRITE | EXEC']);
    expect(get(p, 'c').type).toBe('enum Color');
  });

  it('reports an enum of invalid size on the field and decodes the entries with explicit offsets', () => {
    const bad: EnumDef = { domain: 0, id: S + 12, name: 'Bad', size: 3, entries: [] };
    const reg = registry([schema(S, [entry(S + 12, 'e'), entry(T.UInt8, 'lost'), entry(T.UInt8, 'kept', { offset: 4 })])], [bad]);
    const p = decodePayload(reg, S, w().bytes([1, 2, 3, 4, 5]).done());
    expect(get(p, 'e').error).toMatch(/size 3/);
    expect(get(p, 'lost').error).toMatch(/position unknown/);
    expect(val(p, 'kept')).toBe(5);
  });
});

describe('flags and semantics', () => {
  it('keeps hidden entries (marked) and takes the event message from EVENT_MESSAGE entries, last one winning', () => {
    const reg = registry([
      schema(S, [
        entry(T.CString, 'first', { flags: F.EventMessage, arrayOrUnionDetail: 4 }),
        entry(T.UInt32, 'secret', { flags: F.Hide }),
        entry(T.CString, 'second', { flags: F.EventMessage, arrayOrUnionDetail: 4 }),
      ]),
    ]);
    const p = decodePayload(reg, S, w().utf8('one', 4).u32(5).utf8('two', 4).done());
    expect(get(p, 'secret').hidden).toBe(true);
    expect(val(p, 'secret')).toBe(5);
    expect(p.attributes.message).toBe('two');
  });

  it('returns timestamps of deferred events with their role and time domain', () => {
    const time = { kind: 'time' as const, timeDomainId: 1 << 25 };
    const reg = registry([
      schema(
        S,
        [
          entry(T.CString, 'name', { flags: F.EventMessage, arrayOrUnionDetail: 8 }),
          entry(T.Int64, 'start', { flags: F.Timestamp | F.RangeBegin, semantics: [time] }),
          entry(T.Int64, 'end', { flags: F.Timestamp | F.RangeEnd, semantics: [time] }),
        ],
        { flags: SchemaFlag.RangeStartEnd },
      ),
    ]);
    const p = decodePayload(reg, S, w().utf8('job', 8).i64(100).i64(250).done());
    expect(p.role).toBe('startend');
    expect(p.timestamps).toEqual([
      { role: 'begin', value: 100, timeDomain: 1 << 25, scope: undefined, path: 'start' },
      { role: 'end', value: 250, timeDomain: 1 << 25, scope: undefined, path: 'end' },
    ]);
    expect(get(p, 'start').timeDomain).toBe(1 << 25);
  });

  it('applies counter semantics: unit, scale, normalisation, limits, value type and interpolation kept', () => {
    const bytes = {
      kind: 'counter' as const,
      flags: CounterFlag.ValueTypeDelta | CounterFlag.InterpolationLinear | CounterFlag.LimitMax,
      unit: 'KiB',
      unitScaleNumerator: 1,
      unitScaleDenominator: 1024,
      limitType: 3,
      max: 100,
    };
    const norm = { kind: 'counter' as const, flags: CounterFlag.Normalize, unitScaleNumerator: 1, unitScaleDenominator: 1, limitType: 0 };
    const reg = registry([
      schema(
        S,
        [
          entry(T.UInt64, 'bytes', { flags: F.Counter, semantics: [bytes, { kind: 'scope', scopeId: 22 }] }),
          entry(T.Int16, 'load', { flags: F.Counter, semantics: [norm] }),
          entry(T.UInt8, 'util', { flags: F.Counter, semantics: [norm] }),
          entry(T.UInt8, 'plain'),
        ],
        { flags: SchemaFlag.CounterGroup },
      ),
    ]);
    const p = decodePayload(reg, S, w().u64(2048).i16(-32767).u8(255).u8(3).done());
    const f = get(p, 'bytes');
    expect(f.unit).toBe('KiB');
    expect(f.scope).toBe(22);
    expect(f.counter?.value).toBe(2);
    expect(f.counter?.semantics.max).toBe(100);
    expect(get(p, 'load').counter?.value).toBe(-1);
    expect(get(p, 'util').counter?.value).toBe(1);
    expect(p.counters.map((c) => [c.name, c.display])).toEqual([
      ['bytes', 2],
      ['load', -1],
      ['util', 1],
    ]);
  });

  it('treats the numeric entries of a counter group without COUNTER flags as its counters, with group semantics', () => {
    const group = { kind: 'counter' as const, flags: 0, unit: 'W', unitScaleNumerator: 1, unitScaleDenominator: 10, limitType: 0 };
    const reg = registry([
      schema(S, [entry(T.Int64, 't', { flags: F.Timestamp }), entry(T.UInt32, 'power'), entry(T.Float, 'temp')], {
        flags: SchemaFlag.CounterGroup,
      }),
    ]);
    const p = decodePayload(reg, S, w().i64(5).u32(1500).f32(40.5).done(), { semantics: [group] });
    expect(p.counters.map((c) => [c.name, c.display])).toEqual([
      ['power', 150],
      ['temp', 4.05],
    ]);
    expect(p.timestamps).toHaveLength(1);
  });
});

describe('malformed input never throws', () => {
  it('reports an unknown schema id with the bytes in hex', () => {
    const p = decodePayload(registry([]), S + 99, new Uint8Array([1, 2, 0xff]));
    expect(p.kind).toBe('unknown');
    expect(p.error).toMatch(/unknown schema id/);
    expect(p.raw).toBe('0102ff');
  });

  it('schema ids are per domain', () => {
    const reg = registry([schema(S, [entry(T.UInt8, 'x')], { domain: 1 })]);
    expect(decodePayload(reg, S, new Uint8Array([4])).kind).toBe('unknown');
    expect(val(decodePayload(reg, S, new Uint8Array([4]), { domain: 1 }), 'x')).toBe(4);
  });

  it('decodes what fits in a payload that is too short and says so', () => {
    const reg = registry([schema(S, [entry(T.UInt32, 'a'), entry(T.UInt64, 'b'), entry(T.UInt8, 'c')])]);
    const p = decodePayload(reg, S, w().u32(7).pad(4).u8(1).u8(2).done());
    expect(val(p, 'a')).toBe(7);
    expect(get(p, 'b').error).toMatch(/needs 8 bytes at offset 8, only 2 left/);
    expect(get(p, 'b').raw).toBe('0102');
    expect(get(p, 'c').error).toMatch(/needs 1 bytes at offset 16/);
    expect(p.error).toMatch(/payload is 10 bytes, schema 16777216 needs 24/);
    expect(p.raw).toBe('07000000000000000102');
  });

  it('reports cyclic nesting instead of recursing forever', () => {
    const a = schema(S, [entry(T.UInt8, 'x'), entry(S + 1, 'b')]);
    const b = schema(S + 1, [entry(S, 'a')]);
    const p = decodePayload(registry([a, b]), S, new Uint8Array(16));
    expect(val(p, 'x')).toBe(0);
    expect(get(p, 'b').error).toMatch(/cyclic nesting/);
  });

  it('follows self-referencing pointers only as deep as the depth limit', () => {
    // struct Node { int v; struct Node *next; } with the list pointing to itself.
    const node = schema(S, [entry(T.Int32, 'v'), entry(S, 'next', { flags: F.Pointer })]);
    const bytes = w().i32(1).pad(4).u64(0x100).done();
    const p = decodePayload(registry([node]), S, bytes, { address: 0x100, maxDepth: 3 });
    expect(get(p, 'next.next.next.v').value).toBe(1);
    expect(get(p, 'next.next.next.next').error).toMatch(/deeper than 3/);
  });

  it('stops pointer graphs that expand without bound', () => {
    // struct Node { int v; struct Node (*kids)[4]; }: four nodes whose kids all point back to them.
    const node = schema(S, [entry(T.Int32, 'v'), entry(S, 'kids', { flags: F.Pointer | F.ArrayFixedSize, arrayOrUnionDetail: 4 })]);
    const nodes = w();
    for (let i = 0; i < 4; i++) nodes.i32(i).pad(4).u64(0x100);
    const t0 = Date.now();
    const p = decodePayload(registry([node]), S, w().i32(9).pad(4).u64(0x100).done(), { memory: [{ address: 0x100, bytes: nodes.done() }], maxValues: 5000 });
    expect(Date.now() - t0).toBeLessThan(5000);
    const errors = new Set<string>();
    const walk = (fields: DecodedField[]) => fields.forEach((f) => (f.error && errors.add(f.error), walk(f.children ?? [])));
    walk(p.fields);
    expect([...errors].some((m) => /too many values in one payload/.test(m))).toBe(true);
    expect(get(p, 'kids.[0].kids.[0].v').value).toBe(0);
  });

  it('reports invalid array flags, unknown entry types and missing zero terminators', () => {
    const reg = registry([
      schema(
        S,
        [
          entry(T.UInt8, 'badFlags', { flags: 5 << 4, offset: 0 }),
          entry(12345, 'unknownType', { offset: 1 }),
          entry(T.UInt16, 'zt', { flags: F.ArrayZeroTerminated, offset: 2 }),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    const p = decodePayload(reg, S, w().u8(0).u8(0).u16(1).u16(2).done());
    expect(get(p, 'badFlags').error).toMatch(/invalid array flags/);
    expect(get(p, 'unknownType').error).toMatch(/unknown entry type or schema\/enum id 12345/);
    expect(get(p, 'zt').error).toMatch(/no zero terminator/);
    expect(val(p, 'zt')).toEqual([1, 2]);
  });

  it('reports a union with external selector given as a payload, and unions without selector entry', () => {
    const u = schema(S, [entry(T.Int32, 'i')], { type: SchemaType.Union });
    const v = schema(S + 1, [entry(T.Int32, 'i')], { type: SchemaType.UnionWithInternalSelector });
    const reg = registry([u, v]);
    expect(decodePayload(reg, S, new Uint8Array(4)).error).toMatch(/external selector/);
    expect(decodePayload(reg, S + 1, new Uint8Array(4)).error).toMatch(/no UNION_SELECTOR/);
  });

  it('survives random bytes against every test schema', () => {
    const inner = schema(S + 1, [entry(T.CString, 's', { flags: F.ArrayZeroTerminated }), entry(T.Int32, 'n')], { type: SchemaType.Dynamic });
    const reg = registry([
      inner,
      schema(
        S,
        [
          entry(T.Int32, 'n'),
          entry(T.Double, 'arr', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 0 }),
          entry(S + 1, 'inner'),
          entry(T.CString, 'p', { flags: F.Pointer | F.ArrayZeroTerminated }),
        ],
        { type: SchemaType.Dynamic },
      ),
    ]);
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) & 0xff;
    for (let i = 0; i < 500; i++) {
      const bytes = Uint8Array.from({ length: rand() % 64 }, rand);
      const p = decodePayload(reg, S, bytes, { memory: [{ address: 0, bytes }] });
      expect(p.fields.length).toBeGreaterThan(0);
    }
  });
});
