import { describe, expect, it } from 'vitest';
import type { ExtMemoryInput, ExtPayloadInput } from '../../model/extPayloads.ts';
import { effectiveAttributes } from '../../payload/attributes.ts';
import { decodeEventPayloads } from '../../payload/decode.ts';
import { EntryFlag, EntryType, SchemaType, type EntryDef, type PayloadRegistry } from '../../payload/schema.ts';
import { AttributeReader } from './attributeReader.ts';

const S = 2 ** 24;
const entry = (type: number, name: string, flags = 0, detail = 0, offset = 0): EntryDef => ({ type, name, flags, arrayOrUnionDetail: detail, offset });

const registry: PayloadRegistry = {
  schemas: [
    // char *text (message); uint32 color; uint32 category
    { domain: 0, id: S + 1, type: SchemaType.Static, flags: 0, entries: [entry(EntryType.CString, 'text', EntryFlag.EventMessage), entry(EntryType.ColorArgb, 'c'), entry(EntryType.Category, 'cat')] },
    // char name[12] (message), then int16
    { domain: 0, id: S + 2, type: SchemaType.Static, flags: 0, entries: [entry(EntryType.CString, 'name', EntryFlag.EventMessage, 12), entry(EntryType.Int16, 'x')] },
    // a nested schema that carries a message: needs the full decode
    { domain: 0, id: S + 3, type: SchemaType.Static, flags: 0, entries: [entry(EntryType.Int32, 'n'), entry(S + 2, 'inner')] },
    // dynamic: the message follows a variable-length array, so its offset depends on the data
    {
      domain: 0,
      id: S + 4,
      type: SchemaType.Dynamic,
      flags: 0,
      entries: [entry(EntryType.UInt8, 'n'), entry(EntryType.UInt8, 'v', EntryFlag.ArrayLengthIndex, 0), entry(EntryType.CString, 'm', EntryFlag.EventMessage | EntryFlag.ArrayZeroTerminated)],
    },
  ],
  enums: [],
};

function le(...parts: [number, number][]): Uint8Array {
  const out: number[] = [];
  for (const [size, v] of parts) for (let i = 0; i < size; i++) out.push(Number((BigInt(v) >> BigInt(8 * i)) & 0xffn));
  return Uint8Array.from(out);
}

const text = (s: string) => Uint8Array.from([...new TextEncoder().encode(s), 0]);
const latin1 = Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0); // "café" in Latin-1

function viaDecoder(blobs: ExtPayloadInput[], memory: ExtMemoryInput[]) {
  const a = effectiveAttributes({}, decodeEventPayloads(registry, blobs, { domain: 0, memory }));
  const out: Record<string, unknown> = {};
  for (const k of ['message', 'color', 'category'] as const) if (a[k] !== undefined) out[k] = a[k];
  return out;
}

describe('AttributeReader', () => {
  const reader = new AttributeReader(registry);
  const cases: [string, ExtPayloadInput[], ExtMemoryInput[]][] = [
    ['a char * message with color and category', [{ schemaId: S + 1, bytes: le([8, 0x1000], [4, 0xff102030], [4, 7]) }], [{ address: 0x1000n, bytes: text('hello') }]],
    ['a Latin-1 message', [{ schemaId: S + 1, bytes: le([8, 0x1000], [4, 0], [4, 0]) }], [{ address: 0x1000n, bytes: latin1 }]],
    ['a message pointing into a sibling payload', [{ schemaId: S + 1, bytes: le([8, 0x2004], [4, 1], [4, 2]) }, { schemaId: 1022, bytes: Uint8Array.from([1, 2, 3, 4, ...text('sibling')]), address: 0x2000n }], []],
    ['an embedded fixed string', [{ schemaId: S + 2, bytes: Uint8Array.from([...text('fixed'), 0, 0, 0, 0, 0, 0, 9, 0]) }], []],
    ['a later payload wins', [{ schemaId: S + 2, bytes: Uint8Array.from([...text('first'), 0, 0, 0, 0, 0, 0, 9, 0]) }, { schemaId: S + 1, bytes: le([8, 0x1000], [4, 5], [4, 6]) }], [{ address: 0x1000n, bytes: text('second') }]],
    ['a NULL message', [{ schemaId: S + 1, bytes: le([8, 0], [4, 3], [4, 4]) }], []],
  ];
  for (const [what, blobs, memory] of cases) {
    it(`reads what the full decode gives: ${what}`, () => {
      expect(reader.read(0, blobs, memory)).toEqual(viaDecoder(blobs, memory));
    });
  }

  it('leaves nested schemas, data-dependent offsets and pointers it cannot follow to the full decode', () => {
    expect(reader.read(0, [{ schemaId: S + 3, bytes: new Uint8Array(20) }], [])).toBeUndefined();
    expect(reader.read(0, [{ schemaId: S + 4, bytes: Uint8Array.of(1, 9, 65, 0) }], [])).toBeUndefined();
    expect(reader.read(0, [{ schemaId: S + 1, bytes: le([8, 0x5000], [4, 0], [4, 0]) }], [])).toBeUndefined();
    expect(reader.read(0, [{ schemaId: S + 1, bytes: new Uint8Array(4) }], [])).toBeUndefined();
  });
});
