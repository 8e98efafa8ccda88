import { describe, expect, it } from 'vitest';
import { keyPacking, NO_KEY } from './cacheKey.ts';

describe('keyPacking', () => {
  it('packs fields into distinct exact keys', () => {
    const k = keyPacking(20, 16, 17);
    const seen = new Set<number>();
    for (const a of [0, 1, 2 ** 20 - 1]) for (const b of [0, 1, 2 ** 16 - 1]) for (const c of [0, 1, 2 ** 17 - 1]) seen.add(k.pack(a, b, c));
    expect(seen.size).toBe(27);
    expect(k.pack(2 ** 20 - 1, 2 ** 16 - 1, 2 ** 17 - 1)).toBe(2 ** 53 - 1);
    expect(Number.isSafeInteger(k.pack(2 ** 20 - 1, 2 ** 16 - 1, 2 ** 17 - 1))).toBe(true);
  });

  it('gives no key for a field out of its width, instead of colliding with another key', () => {
    const k = keyPacking(21, 32);
    expect(k.pack(1, 0)).toBe(2 ** 32);
    // Without the guard (domain 0, id 2^32) would be the key of (domain 1, id 0).
    expect(k.pack(0, 2 ** 32)).toBe(NO_KEY);
    expect(k.pack(2 ** 21, 0)).toBe(NO_KEY);
    expect(k.pack(-1, 0)).toBe(NO_KEY);
    expect(k.pack(0, -1)).toBe(NO_KEY);
    expect(k.pack(0.5, 0)).toBe(NO_KEY);
    expect(k.pack(NaN, 0)).toBe(NO_KEY);
    expect(k.pack(3, 4)).toBe(3 * 2 ** 32 + 4);
  });

  it('refuses widths a double cannot hold exactly', () => {
    expect(() => keyPacking(21, 33)).toThrow(RangeError);
    expect(() => keyPacking(0, 8)).toThrow(RangeError);
    expect(() => keyPacking(8, 8, 8, 8)).toThrow(RangeError);
    expect(keyPacking(53).pack(2 ** 53 - 1)).toBe(2 ** 53 - 1);
  });
});
