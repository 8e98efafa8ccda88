import { describe, expect, it } from 'vitest';
import { crc32c, crc32cRegisterStep, crc32cShift } from './crc32c.ts';
import { seededRandom as random } from '../../../testkit/gen/random.ts';

/** The definition, one bit at a time: what the table method must agree with. */
function crc32cBitwise(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (const byte of bytes) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return ~c >>> 0;
}

describe('crc32c', () => {
  it('gives the check values of RFC 3720 (iSCSI), appendix B.4', () => {
    const zeros = new Uint8Array(32);
    const ones = new Uint8Array(32).fill(0xff);
    const up = Uint8Array.from({ length: 32 }, (_, i) => i);
    const down = Uint8Array.from({ length: 32 }, (_, i) => 31 - i);
    expect(crc32c(zeros)).toBe(0x8a9136aa);
    expect(crc32c(ones)).toBe(0x62a8ab43);
    expect(crc32c(up)).toBe(0x46dd794e);
    expect(crc32c(down)).toBe(0x113fdb5c);
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('agrees with the bitwise definition on random buffers of every length and alignment', () => {
    const next = random(15);
    const backing = Uint8Array.from({ length: 4096 + 64 }, () => Math.floor(next() * 256));
    for (let trial = 0; trial < 600; trial++) {
      const length = trial < 100 ? trial : Math.floor(next() * 4096);
      const at = Math.floor(next() * 64);
      const bytes = backing.subarray(at, at + length);
      const seed = trial % 3 === 0 ? 0 : Math.floor(next() * 4294967296);
      expect(crc32c(bytes, seed)).toBe(crc32cBitwise(bytes, seed));
    }
  });

  it('continues across pieces split anywhere', () => {
    const next = random(7);
    const all = Uint8Array.from({ length: 300 }, () => Math.floor(next() * 256));
    for (let split = 0; split <= all.length; split += 7) {
      expect(crc32c(all.subarray(split), crc32c(all.subarray(0, split)))).toBe(crc32c(all));
    }
  });

  it('matches the register steps and shifts that the resync uses', () => {
    const next = random(3);
    const bytes = Uint8Array.from({ length: 200 }, () => Math.floor(next() * 256));
    let register = 0xffffffff;
    for (const byte of bytes) register = crc32cRegisterStep(register, byte);
    expect((register ^ 0xffffffff) >>> 0).toBe(crc32c(bytes));
    // Linearity: the register from state s over D = shift(s, |D|) ^ register from 0 over D.
    let fromZero = 0;
    for (const byte of bytes) fromZero = crc32cRegisterStep(fromZero, byte);
    expect(((crc32cShift(0xffffffff, bytes.length) ^ fromZero ^ 0xffffffff) >>> 0)).toBe(crc32c(bytes));
  });
});
