/**
 * A first look at a big file while it loads: the load worker decodes the file's first slice into a
 * model of its own and posts it ('partial') before it decodes the whole file, so the timeline shows
 * the start of the capture within a second or two instead of after the whole decode of a big file
 * (docs/performance.md). The slice costs about 1/16 more decoding.
 *
 * Only formats whose prefix is itself a readable capture get a preview: native captures (chunks;
 * every thread stream starts near the top), Chrome JSON (events in file order) and NVTXT (lines).
 * An nsys export needs the whole SQLite file; a gzip stream is left alone.
 */
import { detectFormat } from '../import/formats.ts';
import { HEAD_BYTES } from '../import/importer.ts';

/**
 * Files smaller than this load fast enough without a preview, per format: about 2 s of the
 * worker's decoding at each format's measured speed. Below that the preview costs more than it
 * gives: it delays the whole model by its own decode and the page's handling of it. The figures
 * behind the thresholds are in docs/performance.md, "Figures behind constants".
 */
export const PREVIEW_MIN_BYTES: Readonly<Record<string, number>> = {
  nvtxc: 40 << 20,
  nvtxt: 64 << 20,
  'chrome-json': 192 << 20,
};

/** Bytes of the slice: 1/16 of the file, within [4 MiB, 16 MiB]. */
export function previewBytes(size: number): number {
  return Math.min(size, Math.max(4 << 20, Math.min(16 << 20, Math.floor(size / 16))));
}

/** Whether a file of `size` bytes may get a partial model (the page asks before it starts a worker for one). */
export function mayPreview(size: number): boolean {
  return size >= Math.min(...Object.values(PREVIEW_MIN_BYTES));
}

/** The slice of `file` to preview, or null when the file is small or its format has no meaningful prefix. */
export async function previewSlice(file: Blob, name: string): Promise<Blob | null> {
  if (!mayPreview(file.size)) return null;
  const head = new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer());
  if (head[0] === 0x1f && head[1] === 0x8b) return null;
  const importer = detectFormat(head, name);
  const minBytes = importer ? PREVIEW_MIN_BYTES[importer.id] : undefined;
  if (minBytes === undefined || file.size < minBytes) return null;
  return file.slice(0, previewBytes(file.size));
}
