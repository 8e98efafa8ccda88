import { describe, expect, it } from 'vitest';
import { ByteReader, FormatError } from './reader.ts';
import { seededRandom as random } from '../../../testkit/gen/random.ts';

/** The varint as the format defines it (docs/capture-format.md): what the fast paths must agree with. */
function referenceVarint(bytes: Uint8Array, pos: number, end: number): { value: number; next: number } | string {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= end) return 'varint runs past the end of its chunk';
    const b = bytes[pos + i];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, next: pos + i + 1 };
    scale *= 128;
  }
  return 'varint longer than 10 bytes';
}

function encode(value: number): number[] {
  const out: number[] = [];
  do {
    const low = value % 128;
    value = Math.floor(value / 128);
    out.push(value > 0 ? low | 0x80 : low);
  } while (value > 0);
  return out;
}

describe('ByteReader', () => {
  it('reads varints of every length as the definition does, ending anywhere in the buffer', () => {
    const next = random(11);
    for (let trial = 0; trial < 4000; trial++) {
      const bits = Math.floor(next() * 53);
      const value = Math.floor(next() * 2 ** bits);
      const encoded = encode(value);
      // Random bytes around it, and sometimes a cut inside it, or a run of continuation bytes.
      const bytes = Uint8Array.from([...Array.from({ length: 3 }, () => Math.floor(next() * 256)), ...encoded, 7, 7, 7, 7, 7]);
      if (trial % 7 === 0) bytes.fill(0x80 | Math.floor(next() * 128), 3, 3 + 11);
      const end = trial % 3 === 0 ? 3 + Math.floor(next() * (encoded.length + 2)) : bytes.length;
      const want = referenceVarint(bytes, 3, end);
      const r = new ByteReader(bytes, 3, end, 1000);
      if (typeof want === 'string') {
        expect(() => r.varint()).toThrow(want);
        try {
          new ByteReader(bytes, 3, end, 1000).varint();
        } catch (e) {
          expect((e as FormatError).offset).toBe(1003);
        }
      } else {
        expect(r.varint()).toBe(want.value);
        expect(r.pos).toBe(want.next);
      }
    }
  });

  it('reads zigzag varints of both signs', () => {
    const next = random(5);
    for (let trial = 0; trial < 2000; trial++) {
      const magnitude = Math.floor(next() * 2 ** Math.floor(next() * 52));
      const v = trial % 2 === 0 ? magnitude : -magnitude;
      const zigzag = v >= 0 ? 2 * v : -2 * v - 1;
      const r = new ByteReader(Uint8Array.from(encode(zigzag)), 0, encode(zigzag).length, 0);
      expect(r.svarint()).toBe(v === 0 ? 0 : v);
    }
  });

  it('reads fixed widths little-endian and refuses to read past the end', () => {
    const bytes = Uint8Array.from([0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff, 0xab]);
    const r = new ByteReader(bytes, 0, bytes.length, 50);
    expect(r.u32()).toBe(0x12345678);
    expect(r.u32()).toBe(0xffffffff);
    expect(r.u8()).toBe(0xab);
    expect(() => r.u8()).toThrow('record runs past the end of its chunk (needs 1 more bytes)');
    const short = new ByteReader(bytes, 6, 9, 50);
    expect(() => short.u32()).toThrow('needs 4 more bytes');
    expect(short.pos).toBe(6);
  });
});
