import { describe, expect, it } from 'vitest';
import { BytesTable, hashBytes } from './bytesTable.ts';

const encode = (s: string) => new TextEncoder().encode(s);

describe('BytesTable', () => {
  it('finds every key it was given, by bytes, through growth', () => {
    const table = new BytesTable();
    const keys = Array.from({ length: 5000 }, (_, i) => `key ${i % 7 === 0 ? 'é' : ''}${i}`);
    keys.push('', 'a', 'ab');
    keys.forEach((k, i) => {
      const b = encode(`[${k}]`);
      expect(table.get(b, 1, b.length - 1)).toBe(-1);
      table.set(b, 1, b.length - 1, i * 3);
    });
    keys.forEach((k, i) => {
      // Other buffers and positions holding the same bytes.
      const b = encode(`xyz${k}`);
      expect(table.get(b, 3, b.length)).toBe(i * 3);
      expect(table.getHashed(b, 3, b.length, hashBytes(b, 3, b.length))).toBe(i * 3);
    });
    expect(table.get(encode('key 5000'), 0, 8)).toBe(-1);
    expect(new TextDecoder().decode(table.bytesOf(7 * 3))).toBe('key é7');
    expect(table.bytesOf(1)).toBeUndefined();
  });
});
