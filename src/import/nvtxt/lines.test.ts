import { describe, expect, it } from 'vitest';
import { forEachLine } from './lines.ts';

async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collect(text: string | Uint8Array, size: number): Promise<[number, string][]> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  const out: [number, string][] = [];
  await forEachLine(chunked(bytes, size), (line, n) => out.push([n, line]));
  return out;
}

describe('NVTXT line splitting', () => {
  it('gives the same lines whatever the chunk size, with multi-byte characters across chunks', async () => {
    const text = 'a = "é→完"\r\n\n# c\r\nlast line without end';
    const expected: [number, string][] = [
      [1, 'a = "é→完"'],
      [2, ''],
      [3, '# c'],
      [4, 'last line without end'],
    ];
    for (const size of [1, 2, 3, 5, 7, 1000]) expect(await collect(text, size), `chunk ${size}`).toEqual(expected);
  });

  it('drops a leading BOM (split across chunks too) and keeps a final empty line out', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('x\n')]);
    expect(await collect(bytes, 1)).toEqual([[1, 'x']]);
    expect(await collect(bytes, 64)).toEqual([[1, 'x']]);
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const bytes = new TextEncoder().encode('a\nb\nc\nd\n');
    await forEachLine(
      chunked(bytes, 2),
      (_, n) => {
        seen.push(n);
        if (n === 2) controller.abort();
      },
      controller.signal,
    );
    expect(seen).toEqual([1, 2]);
  });
});

describe('NVTXT line splitting: invalid UTF-8', () => {
  it('replaces invalid bytes and says which lines had them', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('ok\nbad '), 0xe9, 0x0a, ...new TextEncoder().encode('fine\n')]);
    const bad: number[] = [];
    const out: string[] = [];
    await forEachLine(chunked(bytes, 4), (l) => out.push(l), undefined, (n) => bad.push(n));
    expect(out).toEqual(['ok', 'bad \ufffd', 'fine']);
    expect(bad).toEqual([2]);
  });
});

/** UTF-16 bytes with a BOM. */
function utf16(text: string, bigEndian: boolean): Uint8Array {
  const units = [0xfeff, ...Array.from(text, (_, i) => text.charCodeAt(i))];
  const out = new Uint8Array(units.length * 2);
  units.forEach((u, i) => {
    out[2 * i + (bigEndian ? 1 : 0)] = u & 0xff;
    out[2 * i + (bigEndian ? 0 : 1)] = u >> 8;
  });
  return out;
}

describe('NVTXT line splitting: UTF-16 with a BOM', () => {
  it('reads little- and big-endian files whatever the chunk size', async () => {
    const text = 'a = "é→完"\r\nMarker, 1\n\nend';
    const expected: [number, string][] = [
      [1, 'a = "é→完"'],
      [2, 'Marker, 1'],
      [3, ''],
      [4, 'end'],
    ];
    for (const bigEndian of [false, true]) {
      for (const size of [1, 3, 4, 1000]) expect(await collect(utf16(text, bigEndian), size), `${bigEndian} ${size}`).toEqual(expected);
    }
  });
});
