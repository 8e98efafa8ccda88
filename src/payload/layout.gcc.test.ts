/**
 * Cross-checks the decoder's layout rules against the real ABI: testkit/payload/abi.c (structs laid out by gcc,
 * filled with known values) prints sizeof/_Alignof/offsetof, the bytes and the values; the same
 * structs described as NVTX schemas must decode to the same offsets and values.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePayload } from './decode.ts';
import type { DecodedField, DecodedPayload } from './decoded.ts';
import { staticLayout } from './layout.ts';
import { indexRegistry } from './registry.ts';
import { EntryFlag as F, EntryType as T, SchemaType, type EntryDef, type PayloadRegistry, type SchemaDef } from './schema.ts';

const here = dirname(fileURLToPath(import.meta.url));

function hasGcc(): boolean {
  try {
    execFileSync('gcc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface StructFacts {
  size: string;
  align?: string;
  bytes: string;
  offsets?: Record<string, string>;
  values?: Record<string, string | number>;
  enumSize?: string;
  taggedSize?: string;
}

const S = 1 << 24;
const e = (type: number, name: string, more: Partial<EntryDef> = {}): EntryDef => ({ flags: 0, type, name, arrayOrUnionDetail: 0, offset: 0, ...more });
const st = (id: number, name: string, entries: EntryDef[], more: Partial<SchemaDef> = {}): SchemaDef => ({
  domain: 0,
  id,
  name,
  type: SchemaType.Static,
  flags: 0,
  entries,
  ...more,
});

const ID = {
  Scalars: S + 1,
  Padded: S + 2,
  Packed2: S + 3,
  Packed1: S + 4,
  Inner: S + 5,
  Outer: S + 6,
  Color: S + 7,
  WithEnum: S + 8,
  WithUnionU: S + 9,
  WithUnion: S + 10,
  TaggedA: S + 11,
  TaggedB: S + 12,
  Tagged: S + 13,
  Holder: S + 14,
  Strs: S + 15,
  Flex: S + 16,
};

// The schemas a program would register for the structs of abi.c (no explicit offsets: every
// offset comes from the implicit layout rules under test).
const scalarEntries: [number, string][] = [
  [T.Char, 'c'], [T.UChar, 'uc'], [T.Short, 's'], [T.UShort, 'us'], [T.Int, 'i'], [T.UInt, 'ui'], [T.Long, 'l'],
  [T.ULong, 'ul'], [T.LongLong, 'll'], [T.ULongLong, 'ull'], [T.Int8, 'i8'], [T.UInt8, 'u8'], [T.Int16, 'i16'],
  [T.UInt16, 'u16'], [T.Int32, 'i32'], [T.UInt32, 'u32'], [T.Int64, 'i64'], [T.UInt64, 'u64'], [T.Float, 'f'],
  [T.Double, 'd'], [T.LongDouble, 'ld'], [T.Size, 'sz'], [T.Address, 'p'], [T.WChar, 'wc'], [T.Char16, 'c16'],
  [T.Char32, 'c32'], [T.Int128, 's128'], [T.UInt128, 'u128'], [T.Float16, 'h'], [T.BF16, 'bf'], [T.TF32, 'tf'],
  [T.Float128, 'q'], [T.Float32, 'f32'], [T.Float64, 'f64'], [T.Category, 'category'], [T.ColorArgb, 'color'],
  [T.ScopeId, 'scope'], [T.PidUInt32, 'pid'], [T.TidUInt64, 'tid'],
];

const registry: PayloadRegistry = {
  schemas: [
    st(ID.Scalars, 'Scalars', scalarEntries.map(([t, n]) => e(t, n))),
    st(ID.Padded, 'Padded', [e(T.Char, 'a'), e(T.Double, 'b'), e(T.Short, 'c'), e(T.Int, 'd'), e(T.Char, 'e')]),
    st(ID.Packed2, 'Packed2', [e(T.Char, 'a'), e(T.Int, 'b'), e(T.Double, 'c'), e(T.Short, 'd'), e(T.Char, 'e')], { packAlign: 2 }),
    st(ID.Packed1, 'Packed1', [e(T.Char, 'a'), e(T.Int, 'b'), e(T.Double, 'c')], { packAlign: 1 }),
    st(ID.Inner, 'Inner', [e(T.Int, 'x'), e(T.Char, 'y')]),
    st(ID.Outer, 'Outer', [e(T.Char, 'a'), e(ID.Inner, 'in', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }), e(T.Char, 'z'), e(T.LongDouble, 'ld')]),
    st(ID.WithEnum, 'WithEnum', [e(T.Char, 'c'), e(ID.Color, 'col'), e(ID.Color, 'cols', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 })]),
    st(ID.WithUnionU, 'U', [e(T.Int32, 'i'), e(T.Double, 'd'), e(T.CString, 's', { arrayOrUnionDetail: 12 })], { type: SchemaType.Union }),
    st(ID.WithUnion, 'WithUnion', [e(T.UInt8, 'kind'), e(ID.WithUnionU, 'u', { arrayOrUnionDetail: 0 }), e(T.UInt16, 'after')]),
    st(ID.TaggedA, 'TaggedA', [e(T.Int, 'tag'), e(T.Float, 'f')]),
    st(ID.TaggedB, 'TaggedB', [e(T.Int, 'tag'), e(T.Short, 's', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 3 })]),
    st(ID.Tagged, 'Tagged', [e(T.UnionSelector, 'tag', { arrayOrUnionDetail: 4 }), e(ID.TaggedA, 'a'), e(ID.TaggedB, 'b')], {
      type: SchemaType.UnionWithInternalSelector,
    }),
    st(ID.Holder, 'Holder', [e(ID.Tagged, 'items', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 2 }), e(T.Char, 'last')]),
    st(ID.Strs, 'Strs', [
      e(T.CString, 'fixed', { arrayOrUnionDetail: 10 }),
      e(T.WChar, 'wide', { flags: F.ArrayFixedSize, arrayOrUnionDetail: 4 }),
      e(T.CStringUtf16, 'u16', { arrayOrUnionDetail: 5 }),
      e(T.CStringUtf32, 'u32', { arrayOrUnionDetail: 3 }),
    ]),
    st(ID.Flex, 'Flex', [e(T.UInt32, 'n'), e(T.Int16, 'v', { flags: F.ArrayLengthIndex, arrayOrUnionDetail: 0 })], { type: SchemaType.Dynamic }),
  ],
  enums: [
    {
      domain: 0,
      id: ID.Color,
      name: 'Color',
      size: 4,
      entries: [
        { name: 'RED', value: 0, isFlag: false },
        { name: 'GREEN', value: 5, isFlag: false },
        { name: 'BLUE', value: -1, isFlag: false },
      ],
    },
  ],
};

const fromHex = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const field = (p: DecodedPayload | DecodedField[], name: string) => (Array.isArray(p) ? p : p.fields).find((f) => f.name === name)!;

describe.skipIf(!hasGcc())('layouts and values against gcc (Linux x86-64)', () => {
  let facts: Record<string, StructFacts>;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'nvtxview-abi-'));
    const exe = join(dir, 'abi');
    execFileSync('gcc', ['-std=gnu11', '-O0', '-o', exe, join(here, '../../testkit/payload/abi.c')]);
    facts = JSON.parse(execFileSync(exe, { encoding: 'utf8' }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const decode = (name: string, id: number) => decodePayload(registry, id, fromHex(facts[name].bytes));

  it('computes every struct size, alignment and implicit offset as gcc does (padding, pack, nesting, unions)', () => {
    const index = indexRegistry(registry);
    const cases: [string, number][] = [
      ['Scalars', ID.Scalars],
      ['Padded', ID.Padded],
      ['Packed2', ID.Packed2],
      ['Packed1', ID.Packed1],
      ['Inner', ID.Inner],
      ['Outer', ID.Outer],
      ['WithEnum', ID.WithEnum],
      ['WithUnionD', ID.WithUnion],
      ['Holder', ID.Holder],
      ['Strs', ID.Strs],
    ];
    for (const [name, id] of cases) {
      const schema = registry.schemas.find((s) => s.id === id)!;
      const layout = staticLayout(index, schema);
      const f = facts[name];
      expect({ name, size: layout.size, align: layout.align }).toEqual({ name, size: Number(f.size), align: Number(f.align) });
      const offsets = Object.fromEntries(schema.entries.map((en, i) => [en.name, layout.offsets[i]]));
      const expected = Object.fromEntries(Object.entries(f.offsets!).map(([k, v]) => [k, Number(v)]));
      expect({ name, offsets }).toEqual({ name, offsets: expected });
      // Decoded fields sit at the same offsets.
      const p = decode(name, id);
      expect(p.error).toBeUndefined();
      expect(Object.fromEntries(p.fields.map((x) => [x.name, x.offset]))).toEqual(expected);
    }
    expect(staticLayout(index, registry.schemas.find((s) => s.id === ID.Tagged)!).size).toBe(Number(facts.Holder.taggedSize));
    expect(Number(facts.WithEnum.enumSize)).toBe(4);
  });

  it('decodes every scalar type to the value the program stored', () => {
    const p = decode('Scalars', ID.Scalars);
    const values = facts.Scalars.values!;
    for (const [, name] of scalarEntries) {
      const got = field(p, name).value;
      const want = values[name];
      if (typeof want === 'number') {
        expect({ name, got }).toEqual({ name, got: want });
      } else if (name === 's128') {
        expect(got).toBe(BigInt.asIntN(128, BigInt(want)));
      } else if (name === 'u128') {
        expect(got).toBe(BigInt(want));
      } else if (name === 'wc' || name === 'c16' || name === 'c32') {
        expect((got as string).codePointAt(0)).toBe(Number(want));
      } else {
        expect({ name, got: BigInt(got as number | bigint) }).toEqual({ name, got: BigInt(want) });
      }
    }
    expect(p.attributes).toMatchObject({ category: 3, color: 0xff336699, scope: 2 ** 32 + 5, pid: 4242, tid: 99999 });
  });

  it('decodes nested arrays of structs, enums, both union kinds, strings and a flexible array member', () => {
    const outer = decode('Outer', ID.Outer);
    const items = field(outer, 'in').children!;
    expect(items.map((c) => [field(c.children!, 'x').value, field(c.children!, 'y').value])).toEqual([
      [10, 11],
      [-20, 21],
    ]);
    expect(field(outer, 'ld').value).toBe(-2.5);
    expect(field(outer, 'z').value).toBe('Z'.charCodeAt(0));

    const en = decode('WithEnum', ID.WithEnum);
    expect(field(en, 'col').value).toBe('GREEN');
    expect(field(en, 'cols').value).toEqual(['BLUE', 'RED']);

    const ud = decode('WithUnionD', ID.WithUnion);
    expect(field(field(ud, 'u').children!, 'd').value).toBe(2.5);
    expect(field(ud, 'after').value).toBe(77);
    const us = decode('WithUnionS', ID.WithUnion);
    expect(field(field(us, 'u').children!, 's').value).toBe('union str');
    expect(field(us, 'after').value).toBe(78);

    const holder = decode('Holder', ID.Holder);
    const [first, second] = field(holder, 'items').children!;
    expect(field(field(first.children!, 'a').children!, 'f').value).toBe(0.5);
    expect(field(field(second.children!, 'b').children!, 's').value).toEqual([1, -2, 3]);
    expect(field(holder, 'last').value).toBe('L'.charCodeAt(0));

    const strs = decode('Strs', ID.Strs);
    expect(strs.fields.map((x) => x.value)).toEqual(['hello', 'wçé', 'Ωmega', '😀']);

    const flex = decode('Flex', ID.Flex);
    expect(field(flex, 'v').offset).toBe(Number(facts.Flex.offsets!.v));
    expect(field(flex, 'v').value).toEqual([-1, 2, -3]);
  });
});
