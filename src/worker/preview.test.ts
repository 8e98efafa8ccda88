import { describe, expect, it } from 'vitest';
import { MAGIC } from '../import/native/format.ts';
import { PREVIEW_MIN_BYTES, previewBytes, previewSlice } from './preview.ts';

/** A blob of `size` bytes starting with `head`. */
function blob(head: Uint8Array, size: number): Blob {
  const bytes = new Uint8Array(size);
  bytes.set(head);
  return new Blob([bytes]);
}

const nativeHead = Uint8Array.from([...MAGIC, 1, 0, 0, 0, 0, 0, 0, 0]);

describe('previewSlice', () => {
  it('slices big native captures; leaves small files, SQLite and gzip alone', async () => {
    const big = PREVIEW_MIN_BYTES.nvtxc * 2;
    const slice = await previewSlice(blob(nativeHead, big), 'capture.nvtxc');
    expect(slice?.size).toBe(previewBytes(big));
    expect(await previewSlice(blob(nativeHead, PREVIEW_MIN_BYTES.nvtxc - 1), 'capture.nvtxc')).toBeNull();
    expect(await previewSlice(blob(new TextEncoder().encode('SQLite format 3\u0000'), big), 'report.sqlite')).toBeNull();
    expect(await previewSlice(blob(Uint8Array.of(0x1f, 0x8b, 8), big), 'trace.json.gz')).toBeNull();
  });

  it('previews Chrome JSON only from a bigger size: it decodes about three times faster', async () => {
    const json = new TextEncoder().encode('{"traceEvents":[');
    const min = PREVIEW_MIN_BYTES['chrome-json'];
    expect(min).toBeGreaterThan(PREVIEW_MIN_BYTES.nvtxc * 2);
    expect(await previewSlice(blob(json, min - 1), 'trace.json')).toBeNull();
    expect((await previewSlice(blob(json, min), 'trace.json'))?.size).toBe(previewBytes(min));
  });

  it('takes the first 4 MiB whatever the file size', () => {
    expect(previewBytes(1 << 20)).toBe(1 << 20);
    expect(previewBytes(32 << 20)).toBe(4 << 20);
    expect(previewBytes(160 << 20)).toBe(4 << 20);
    expect(previewBytes(4 * 2 ** 30)).toBe(4 << 20);
  });
});
