import { describe, expect, it } from 'vitest';
import { TextKeys } from './rowCursor.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('TextKeys', () => {
  it('gives each distinct text one key, in order of first sight, from bytes or strings alike', () => {
    const keys = new TextKeys();
    const heap = utf8('xxgemm_kernelyyforwardzz');
    expect(keys.keyOfBytes(heap, 2, 13)).toBe(0);
    expect(keys.keyOfBytes(heap, 15, 22)).toBe(1);
    expect(keys.keyOfBytes(utf8('gemm_kernel'), 0, 11)).toBe(0);
    expect(keys.keyOfString('forward')).toBe(1);
    expect(keys.keyOfString('backward')).toBe(2);
    expect(keys.keyOfBytes(utf8('backward'), 0, 8)).toBe(2);
    expect(keys.keyOfBytes(heap, 0, 0)).toBe(3);
    expect(keys.values).toEqual(['gemm_kernel', 'forward', 'backward', '']);
  });

  it('tells apart texts that share a prefix or a length, and keeps them apart past every growth of its tables', () => {
    const keys = new TextKeys();
    const texts = Array.from({ length: 50_000 }, (_, i) => `range ${i}${i % 3 === 0 ? ' é' : ''}`);
    const first = texts.map((t) => keys.keyOfBytes(utf8(t), 0, utf8(t).length));
    expect(first).toEqual(texts.map((_, i) => i));
    // Again, in another order: the same keys, nothing new.
    for (let i = texts.length - 1; i >= 0; i -= 7) expect(keys.keyOfBytes(utf8(texts[i]!), 0, utf8(texts[i]!).length)).toBe(i);
    expect(keys.size).toBe(texts.length);
    expect(keys.values[49_999]).toBe(texts[49_999]);
  });

  it('gives two spellings that decode to the same text (invalid UTF-8) the same key', () => {
    const keys = new TextKeys();
    const a = keys.keyOfBytes(new Uint8Array([0x61, 0xff]), 0, 2);
    const b = keys.keyOfBytes(new Uint8Array([0x61, 0xfe]), 0, 2);
    expect(b).toBe(a);
    expect(keys.values).toEqual(['a\uFFFD']);
  });
});
